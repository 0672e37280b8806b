"""Warriors: who holds what, whose turn it is, and the moves every phase shares (drawing a card,
moving cards to a Discard pile, surrendering). No rule here speaks to players; the refusals quote
the rulebook and never name a card that is not face up."""
from __future__ import annotations

from card_tags.catalog import Catalog
from companion.rules.base import Outcome
from companion.rules.contract import Refused

from .cards import Info, info
from .state import Laid, Player, Step, WarriorsState

HAND = 6


def active(state: WarriorsState) -> list[int]:
    return [n for n in state.seat_numbers() if not state.players[n].out]


def clockwise_after(state: WarriorsState, seat: int) -> int:
    return next((n for n in state.clockwise(state.left_of(seat)) if not state.players[n].out), seat)


def round_order(state: WarriorsState) -> list[int]:
    """This preparation round's order: clockwise from the leader."""
    order, seat = [], state.leader
    for _ in active(state):
        order.append(seat)
        seat = clockwise_after(state, seat)
    return order


def where(state: WarriorsState, key: str) -> tuple[int, str] | None:
    """The seat and place (hand, play, discard) a card is known to be in."""
    for seat, p in state.players.items():
        if key in p.hand:
            return seat, "hand"
        if any(c.card == key for c in p.play):
            return seat, "play"
        if key in p.discard:
            return seat, "discard"
    return None


def warriors_in_play(catalog: Catalog, player: Player) -> list[Info]:
    return [info(catalog, c.card) for c in player.play if info(catalog, c.card).warrior]


def draw(catalog: Catalog, state: WarriorsState, seat: int, key: str, need_warrior: bool = True) -> Outcome:
    """A card scanned privately that is not in the seat's hand: drawn from the seat's own deck."""
    player = state.players[seat]
    if where(state, key) is not None:
        raise Refused("already_known", seat)
    card = info(catalog, key)
    deck = "warrior" if card.warrior else "armory"
    left = player.warrior_deck if card.warrior else player.armory_deck
    if left <= 0:
        raise Refused("deck_empty", seat, pile=deck.title())
    if need_warrior and not card.warrior and player.warrior_deck > 0 and len(player.hand) == HAND - 1 and \
            not any(info(catalog, k).warrior for k in player.hand):
        raise Refused("keep_warrior", seat)
    if card.warrior:
        player.warrior_deck -= 1
    else:
        player.armory_deck -= 1
    player.hand.append(key)
    return Outcome("drew", data={"seat": seat, "deck": deck, "hand": len(player.hand)})


def can_draw(player: Player) -> bool:
    return player.warrior_deck + player.armory_deck > 0


def to_discard(state: WarriorsState, seat: int, cards: list[Laid]) -> list[str]:
    keys = [c.card for c in cards]
    state.players[seat].discard += keys
    return keys


def surrender(state: WarriorsState, seat: int, reason: str, staying: list[int]) -> Outcome:
    """"he/she surrenders the remaining cards to the winner of the last Challenge of that round":
    the hand, the play and the Discard pile go on the winner's Discard pile, the decks onto the
    winner's decks. If the last winner is not among those ``staying`` in the game, the cards go to
    the next player clockwise who stays (docs/referee/warriors.md)."""
    player = state.players[seat]
    to = state.last_winner
    if to not in staying:
        to = next((n for n in state.clockwise(state.left_of(seat))[:-1] if n in staying), None)
    given = player.hand + [c.card for c in player.play] + player.discard
    decks = (player.warrior_deck, player.armory_deck)
    if to is not None:
        winner = state.players[to]
        winner.discard += given
        winner.warrior_deck += decks[0]
        winner.armory_deck += decks[1]
    player.hand, player.play, player.discard = [], [], []
    player.warrior_deck = player.armory_deck = 0
    player.out = True
    return Outcome("surrender", data={"seat": seat, "to": to, "reason": reason, "cards": given,
                                      "decks": list(decks)}, reveals=True)


def held(catalog: Catalog, player: Player) -> tuple[int, int]:
    """(Warrior cards, all cards) a player holds: decks, hand, play and Discard pile."""
    keys = player.hand + [c.card for c in player.play] + player.discard
    warriors = sum(1 for k in keys if info(catalog, k).warrior) + player.warrior_deck
    return warriors, len(keys) + player.warrior_deck + player.armory_deck


def count_end(catalog: Catalog, state: WarriorsState, how: str) -> Outcome:
    """"players simply count up all their cards. The player with the most Warrior cards wins." (A tie
    on Warriors goes to the most cards; a tie on both is a draw.)"""
    counts = {n: held(catalog, state.players[n]) for n in active(state)}
    best = max(counts.values())
    top = [n for n, v in counts.items() if v == best]
    state.over, state.step, state.ended = True, Step.OVER, how
    state.winner = top[0] if len(top) == 1 else None
    state.tied = top if len(top) > 1 else []
    return Outcome("stopped", data={"counts": {n: {"warriors": w, "cards": t} for n, (w, t) in counts.items()},
                                    "winner": state.winner, "tied": state.tied, "how": how}, reveals=True)


def end_if_one_left(state: WarriorsState) -> tuple[Outcome, ...]:
    left = active(state)
    if len(left) <= 1 and not state.over:
        state.over, state.step, state.ended = True, Step.OVER, "all_cards"
        state.winner = left[0] if left else None
        return (Outcome("game_over", data={"winner": state.winner, "how": "all_cards"}),)
    return ()
