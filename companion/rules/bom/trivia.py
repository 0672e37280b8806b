"""Spy's Trivia: naming characters from their clues.

"Using just the CHARACTER cards, shuffle and divide the deck evenly. One player starts with the top
card and reads the clues about the character in the character description section of the card.
The player who guesses first gets the card. Players do not need to wait for the complete
description to be read. If there is a tie (or just to make the game more challenging), ask for the
book of scripture or chapter where this character can be found. Whoever guesses first or closest
wins the card. If no one knows the character, the reader keeps the card to add to his winnings and
play proceeds clockwise. The game ends when all cards have been read." (bom-battle.txt)

The reader puts the top card of his pile in the scan tray (zone "tray"); the tablet shows its clues
one at a time (``trivia_clue``), never the name, until a tap gives the card away
(``trivia_award`` {"seat": N}, or ``trivia_nobody`` when no one knew it). A tie is a tap too
(``trivia_tie`` {"seats": [..]}): the tablet then asks for the book and chapter, and the award
goes to one of the tied seats. The reader has seen the card, so he does not guess. After every
card the reading passes clockwise to the next seat with cards left to read (companion's decision:
the rulebook only says "play proceeds clockwise").

State: ``trivia`` = {"reader", "unread": {seat: n}, "won": {seat: n}, "read": [keys],
"current": None | {"card", "clues", "tie"}, "last": None | what the last card was and who won it}.
"""
from __future__ import annotations

from typing import Any

from ..base import Applied, Outcome, Refusal
from .battle import who_of
from .cards import Deck

State = dict[str, Any]
QUESTION = "Tie! In which book of scripture, and which chapter, is this character found?"


def setup(deck: Deck, seats: int, first: int, dealt: list[int]) -> dict[str, Any]:
    return {"reader": first, "unread": {str(n): dealt[n - 1] for n in range(1, seats + 1)},
            "won": {str(n): 0 for n in range(1, seats + 1)}, "read": [], "current": None, "last": None}


def _clues(deck: Deck, key: str) -> list[str]:
    return list(deck.lookup(key).get("description") or ["(this card has no clues in the catalog)"])


def scan(deck: Deck, state: State, key: str, zone: str) -> Applied | Refusal:
    trivia = state["trivia"]
    if zone != "tray":
        return Refusal("In Spy's Trivia the reader scans the top card of his pile in the scan tray (zone 'tray'), "
                       "where the table does not see its name.")
    card = deck.lookup(key)
    if card.kind != "character":
        return Refusal("Spy's Trivia uses just the CHARACTER cards; put the POWER cards away.")
    current = trivia["current"]
    if current is not None:
        if current["card"] == key:
            return Applied(state)  # the same card seen again in the tray
        return Refusal("A card is being read: award it, or tap 'nobody knew', before the next card.")
    if key in trivia["read"]:
        return Refusal("That card has been read already; take the top card of the reader's pile.")
    clues = _clues(deck, key)
    trivia["current"] = {"card": key, "clues": 1, "tie": []}
    who = who_of(state)
    say = f"{who(trivia['reader'])} reads a new character. Clue 1 of {len(clues)}: {clues[0]}"
    return Applied(state, (Outcome("trivia_clue", say, (), {"clue": 1, "of": len(clues), "text": clues[0]}),),
                   reveals=True)


def clue(deck: Deck, state: State) -> Applied | Refusal:
    current = state["trivia"]["current"]
    if current is None:
        return Refusal("No card is being read: the reader scans the top card of his pile first.")
    clues = _clues(deck, current["card"])
    if current["clues"] >= len(clues):
        return Refusal(f"All {len(clues)} clues are showing; award the card, ask for the book and chapter, "
                       "or tap 'nobody knew'.")
    current["clues"] += 1
    n = current["clues"]
    return Applied(state, (Outcome("trivia_clue", f"Clue {n} of {len(clues)}: {clues[n - 1]}", (),
                                   {"clue": n, "of": len(clues), "text": clues[n - 1]}),), reveals=True)


def _guesser(state: State, seat: Any) -> str | None:
    """Why this seat cannot win the card being read, or None."""
    seats = state["seats"]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= len(seats):
        return f"There is no seat {seat!r} at this table (seats 1-{len(seats)})."
    if seat == state["trivia"]["reader"]:
        return (f"{who_of(state)(seat)} is the reader and has seen the card; if nobody knows it, tap "
                "'nobody knew' and the reader keeps it.")
    return None


def tie(state: State, seats: Any) -> Applied | Refusal:
    current = state["trivia"]["current"]
    if current is None:
        return Refusal("No card is being read.")
    if not isinstance(seats, list) or len(set(map(str, seats))) < 2:
        return Refusal("A tie needs two or more seats that guessed at the same time, e.g. {\"seats\": [1, 3]}.")
    for seat in seats:
        wrong = _guesser(state, seat)
        if wrong:
            return Refusal(wrong)
    current["tie"] = sorted(set(seats))
    names = " and ".join(who_of(state)(s) for s in current["tie"])
    return Applied(state, (Outcome("trivia_tie", f"{names} guessed together. {QUESTION}", (),
                                   {"tied": current["tie"]}),))


def award(deck: Deck, state: State, seat: Any) -> Applied | Refusal:
    current = state["trivia"]["current"]
    if current is None:
        return Refusal("No card is being read.")
    wrong = _guesser(state, seat)
    if wrong:
        return Refusal(wrong)
    if current["tie"] and seat not in current["tie"]:
        names = " or ".join(who_of(state)(s) for s in current["tie"])
        return Refusal(f"This card goes to whoever of the tied seats named the book and chapter first or closest: {names}.")
    how = "named the book and chapter" if current["tie"] else "knew it"
    return _give(deck, state, seat, f"{who_of(state)(seat)} {how}", by_reader=False)


def nobody(deck: Deck, state: State) -> Applied | Refusal:
    if state["trivia"]["current"] is None:
        return Refusal("No card is being read.")
    return _give(deck, state, state["trivia"]["reader"], "Nobody knew", by_reader=True)


def _give(deck: Deck, state: State, seat: int, opening: str, by_reader: bool) -> Applied:
    trivia = state["trivia"]
    who = who_of(state)
    key = trivia["current"]["card"]
    card = deck.view(key)
    reader = trivia["reader"]
    trivia["won"][str(seat)] += 1
    trivia["unread"][str(reader)] -= 1
    trivia["read"].append(key)
    trivia["current"] = None
    named = f"{card['name']} ({card['pronunciation']}), {card['reference']}"
    if by_reader:
        say = f"{opening}: it was {named}. The reader, {who(reader)}, keeps the card."
    else:
        say = f"{opening}: {named}. {who(seat)} wins the card."
    trivia["last"] = {**card, "winner": seat, "kept_by_reader": by_reader}
    outcome = Outcome("trivia", say, (), {"card": key, "name": card["name"], "reference": card["reference"],
                                          "winner": seat, "reader": reader, "kept_by_reader": by_reader})
    state["last"] = outcome.as_dict()
    outcomes = [outcome] + _next_reader(state)
    return Applied(state, tuple(outcomes), reveals=True)


def _next_reader(state: State) -> list[Outcome]:
    trivia = state["trivia"]
    n = len(state["seats"])
    for step in range(1, n + 1):
        candidate = (trivia["reader"] - 1 + step) % n + 1
        if trivia["unread"][str(candidate)] > 0:
            trivia["reader"] = candidate
            return []
    return end(state, "All the cards have been read")


def end(state: State, why: str) -> list[Outcome]:
    """"The best spy is the one who knows the characters the best and thus has the most cards.\""""
    won = {int(s): n for s, n in state["trivia"]["won"].items()}
    best = max(won.values())
    winners = sorted(s for s, n in won.items() if n == best)
    who = who_of(state)
    if len(winners) == 1:
        say = f"{why}: {who(winners[0])} is the best spy with {best} cards."
    else:
        say = f"{why}: {' and '.join(who(s) for s in winners)} share the win with {best} cards each."
    state.update(over=True, winner=winners[0] if len(winners) == 1 else None, winners=winners, phase="over")
    return [Outcome("game_over", say, (), {"winner": state["winner"], "winners": winners, "cards": won})]
