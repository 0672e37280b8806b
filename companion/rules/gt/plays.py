"""Fight cards on the pile: which cards may be played together, and whether a play beats the one
on top ("count first, then rank").

``state.pending`` is the play being put down, final only on ``resolve``; ``state.top`` is the play
to beat, or None when the battle starts or resets.
"""
from __future__ import annotations

from typing import Any

from .cards import Deck
from .state import BattleState, Pending


def describe(count: int, rank: int) -> str:
    """How a player says a play: 'a single 7', 'a pair of 7s', 'three 7s' (three of a kind).
    Used by refusal reasons and by the view alike."""
    if count == 1:
        return f"a single {rank}"
    if count == 2:
        return f"a pair of {rank}s"
    words = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
    return f"{words.get(count, count)} {rank}s"


def beats(count: int, rank: int, top_count: int, top_rank: int) -> bool:
    """Count first ("a pair of 1s beats a single 12"), then rank; matching is allowed ("match or beat")."""
    return count > top_count or (count == top_count and rank >= top_rank)


Problem = tuple[str, dict[str, Any]]  # a reason code and its data (the view words it)


def composition_problem(deck: Deck, keys: list[str]) -> Problem | None:
    """Why these cards cannot be one play, or None: one rank of fight cards, an action card on its
    own, or NEW BATTLE followed by fight cards."""
    cards = [deck.card(k) for k in keys]
    actions = [c for c in cards if c.kind == "action" and c["action"] != "new_battle"]
    new_battles = [c for c in cards if c.kind == "action" and c["action"] == "new_battle"]
    ranks = sorted({c["rank"] for c in cards if c.kind == "fight"})
    if actions and len(cards) > 1:
        return "action_on_its_own", {"card": next(k for k, c in zip(keys, cards, strict=True) if c is actions[0])}
    if len(new_battles) > 1:
        return "second_new_battle", {}
    if len(ranks) > 1:
        newest = cards[-1]["rank"]
        earlier = next(c["rank"] for c in cards if c.kind == "fight" and c["rank"] != newest)
        return "mixed_ranks", {"rank": newest, "playing": earlier}
    return None


def play_problem(deck: Deck, state: BattleState, pending: Pending) -> Problem | None:
    """Why the pending play may not stand, or None. Action cards can always be played."""
    cards = [deck.card(k) for k in pending.cards]
    fights = [c for c in cards if c.kind == "fight"]
    resets = any(c.get("action") == "new_battle" for c in cards)
    top = None if resets else state.top
    if not fights or top is None:
        return None
    count, rank = len(fights), fights[0]["rank"]
    if beats(count, rank, top.count, top.rank):
        return None
    return "does_not_beat", {"count": count, "rank": rank, "top_count": top.count, "top_rank": top.rank,
                             "top_seat": top.seat}


def complete(deck: Deck, state: BattleState, pending: Pending) -> bool:
    """True when nothing could still be added to the pending play, so the table need not wait long
    before it is resolved: an action card other than NEW BATTLE ("played on its own"), the last
    cards the player's counted hand holds, or every copy of its fight rank (on the pile or in it)."""
    cards = [deck.card(k) for k in pending.cards]
    if len(cards) == 1 and cards[0].kind == "action" and cards[0]["action"] != "new_battle":
        return True
    if state.hands[pending.seat] <= len(pending.cards):
        return True
    ranks = {c["rank"] for c in cards if c.kind == "fight"}
    if len(ranks) != 1:
        return False
    rank = ranks.pop()
    copies = sum(c.copies for c in deck.catalog.cards.values() if c.kind == "fight" and c["rank"] == rank)
    shown = {k for k in [*state.pile, *pending.cards] if deck.card(k).kind == "fight" and deck.card(k)["rank"] == rank}
    return len(shown) >= copies
