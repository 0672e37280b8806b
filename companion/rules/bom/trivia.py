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
(``trivia_award`` {"seat": N}, or ``trivia_nobody`` when no one knew it). The book and chapter are
asked for after a tie (``trivia_tie`` {"seats": [..]}: the award then goes to one of the tied
seats) or "just to make the game more challenging" (``trivia_ask``: the award goes to whoever
named them first or closest). The reader has seen the card, so he does not guess. After every card
the reading passes clockwise to the next seat with cards left to read (companion's decision: the
rulebook only says "play proceeds clockwise").
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..base import Outcome
from ..contract import Refused
from .cards import CHARACTER
from .state import BomState, LastCard, Mode, Reading, Trivia
from .variants import BomVariant

if TYPE_CHECKING:
    from .variants import Referee


class SpysTrivia(BomVariant):
    option = "spys_trivia"
    title = "Spy's Trivia"
    excludes = ("mounting_battles", "secret_weapon", "power_play", "young_players")
    reasons = {
        "mounting_battles": "Spy's Trivia has no battles to mount: cards are won by naming characters.",
        "secret_weapon": "Spy's Trivia has no battles and no POWER cards to lay face down.",
        "power_play": "Spy's Trivia uses just the CHARACTER cards and has no BATTALION for Power Play to redraw.",
        "young_players": "Spy's Trivia and the Rules for Young Players are two different games: one names "
                         "characters from their clues, the other turns up the top card of the ARMY. Choose one.",
    }

    def mode(self) -> Mode:
        return Mode.TRIVIA

    def with_powers(self) -> bool:
        return False

    def battalion(self) -> bool:
        return False

    def battles(self, state: BomState) -> bool | None:
        """No battles, except the last one after the timer between tied spies."""
        return None if state.tiebreak is not None else False

    def reads_in_tray(self) -> bool:
        return True

    def start(self, state: BomState, game: Any, dealt: list[int]) -> None:
        seats = state.seat_numbers()
        state.trivia = Trivia(reader=state.options["first_seat"], unread={n: dealt[n - 1] for n in seats},
                              won={n: 0 for n in seats})
        for s in state.piles:
            s.army = s.battalion = 0


def clues(game: "Referee", key: str) -> list[str]:
    return list(game.deck.card(key).get("description") or ["(this card has no clues in the catalog)"])


def scan(game: "Referee", state: BomState, key: str, zone: str) -> tuple[Outcome, ...]:
    trivia = state.spys_trivia()
    if zone != "tray":
        raise Refused("trivia_tray_only")
    if game.deck.card(key).kind != CHARACTER:
        raise Refused("trivia_characters_only")
    if trivia.current is not None:
        raise Refused("trivia_card_being_read")
    if key in trivia.read:
        raise Refused("trivia_read_already")
    trivia.current = Reading(card=key)
    shown = clues(game, key)
    return (Outcome("trivia_clue", data={"clue": 1, "of": len(shown), "text": shown[0], "reader": trivia.reader},
                    reveals=True),)


def _reading(state: BomState) -> Reading:
    current = state.spys_trivia().current
    if current is None:
        raise Refused("trivia_no_card")
    return current


def clue(game: "Referee", state: BomState) -> tuple[Outcome, ...]:
    current = _reading(state)
    shown = clues(game, current.card)
    if current.clues >= len(shown):
        raise Refused("trivia_all_clues", clues=len(shown))
    current.clues += 1
    n = current.clues
    return (Outcome("trivia_clue", data={"clue": n, "of": len(shown), "text": shown[n - 1]}, reveals=True),)


def _guesser(state: BomState, seat: int) -> None:
    """Refuse a seat that cannot win the card being read."""
    if seat == state.spys_trivia().reader:
        raise Refused("trivia_reader_guesses", player=seat)


def tie(state: BomState, seats: list[int]) -> tuple[Outcome, ...]:
    current = _reading(state)
    if len(set(seats)) < 2:
        raise Refused("trivia_tie_of_one")
    for seat in seats:
        _guesser(state, seat)
    current.tie = sorted(set(seats))
    return (Outcome("trivia_tie", data={"tied": list(current.tie)}),)


def ask(state: BomState) -> tuple[Outcome, ...]:
    """"(or just to make the game more challenging), ask for the book of scripture or chapter\""""
    current = _reading(state)
    if current.asked or current.tie:
        raise Refused("trivia_asked_already")
    current.asked = True
    return (Outcome("trivia_ask", data={}),)


def award(game: "Referee", state: BomState, seat: int) -> tuple[Outcome, ...]:
    current = _reading(state)
    _guesser(state, seat)
    if current.tie and seat not in current.tie:
        raise Refused("trivia_tied_only", tied=list(current.tie))
    return _give(game, state, seat, by_reader=False, asked=bool(current.tie) or current.asked)


def nobody(game: "Referee", state: BomState) -> tuple[Outcome, ...]:
    _reading(state)
    return _give(game, state, state.spys_trivia().reader, by_reader=True, asked=False)


def _give(game: "Referee", state: BomState, seat: int, by_reader: bool, asked: bool) -> tuple[Outcome, ...]:
    trivia = state.spys_trivia()
    key = _reading(state).card
    card = game.deck.card(key)
    reader = trivia.reader
    trivia.won[seat] += 1
    trivia.unread[reader] -= 1
    trivia.read.append(key)
    trivia.current = None
    trivia.last = LastCard(card=key, winner=seat, kept_by_reader=by_reader)
    outcome = Outcome("trivia", data={"card": key, "name": card.name, "reference": card.get("reference", ""),
                                      "pronunciation": card.get("pronunciation", ""), "winner": seat,
                                      "reader": reader, "kept_by_reader": by_reader, "asked": asked},
                      reveals=True)
    return (outcome, *_next_reader(state))


def _next_reader(state: BomState) -> list[Outcome]:
    trivia = state.spys_trivia()
    for candidate in state.clockwise(state.left_of(trivia.reader)):
        if trivia.unread[candidate] > 0:
            trivia.reader = candidate
            return []
    return end(state)


def end(state: BomState) -> list[Outcome]:
    """"The best spy is the one who knows the characters the best and thus has the most cards.\""""
    won = dict(state.spys_trivia().won)
    best = max(won.values())
    winners = sorted(s for s, n in won.items() if n == best)
    state.over, state.winner, state.winners = True, winners[0] if len(winners) == 1 else None, winners
    return [Outcome("game_over", data={"winner": state.winner, "winners": winners,
                                       "cards": {str(k): v for k, v in won.items()}, "why": "all_read"})]


def tie_choices(state: BomState) -> list[dict[str, Any]]:
    """The tablet's tie button: every pair of guessers (seats as the chooser sends them, "2,3")."""
    guessers = [n for n in state.seat_numbers() if n != state.spys_trivia().reader]
    return [{"seats": f"{a},{b}"} for a, b in combinations(guessers, 2)]


__all__ = ["SpysTrivia", "ask", "award", "clue", "nobody", "scan", "tie", "tie_choices"]
