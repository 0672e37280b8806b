"""What the referee decided, in words: the sentence of each kind of outcome Warriors' rules
decide (a method marked ``@says``), made from the outcome's data. The rules write no sentence."""
from __future__ import annotations

from typing import Any

from companion.rules.base import Outcome
from companion.rules.contract import View, says

from .refusals import names
from .state import WarriorsState

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


class Sayings(View[WarriorsState]):
    """The outcome sentences; ``WarriorsView`` adds the prompt, the buttons and the views."""

    def card(self, key: str) -> str:
        return self.game.card_name(key)

    @says("drew")
    def drew_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])} draws from the {d['deck'].title()} deck ({d['hand']} in hand)."

    @says("phase_one")
    def phase_one_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"Phase One: Prepare for Battle. {state.name(d['leader'])} goes first and lays a primary Warrior face up."

    @says("primary")
    def primary_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])} lays {self.card(d['card'])} as the primary Warrior."

    @says("laid")
    def laid_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])}'s {ordinal(d['position'])} card is legal: laid face down."

    @says("passed")
    def passed_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])} holds no card that can be laid and passes."

    @says("all_passed")
    def all_passed_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return (f"Nobody could lay a card this round: the battle begins, as if {state.name(d['caller'])}, the last to "
                f"pass, had called it.")

    @says("call")
    def call_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        rest = f" Still to lay a card this round: {names(state, d['to_lay'])}." if d["to_lay"] else ""
        return f"{state.name(d['seat'])}: \u201cCall to battle!\u201d{rest}"

    @says("phase_two")
    def phase_two_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"Phase Two: Call to Battle. {state.name(d['caller'])} chooses whom to challenge."

    @says("challenge")
    def challenge_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['challenger'])} challenges {state.name(d['defender'])}: \u201cTake up the sword!\u201d"

    @says("prophecy")
    def prophecy_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return (f"{state.name(d['seat'])} uses Prophecy and looks privately at {names(state, d['targets'])}'s "
                f"facedown cards.")

    def _points_line(self, points: dict[Any, Any], state: WarriorsState) -> str:
        return ", ".join(f"{state.name(int(s))} {p['total']}" for s, p in points.items())

    @says("reveal")
    def reveal_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])} reveals {self.card(d['card'])}. Points: {self._points_line(d['points'], state)}."

    @says("duel")
    def duel_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return ("Coriantumr and Shiz face each other: the special battle! "
                f"{names(state, d['seats'])} lay down all the cards in their hands.")

    @says("escape")
    def escape_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return (f"{state.name(d['seat'])}'s Escape disables {self.card(d['target'])} (turned 90 degrees). "
                f"Points: {self._points_line(d['points'], state)}.")

    @says("take")
    def take_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        kept = "" if d["usable"] else " It cannot be used with those cards in play, but is kept."
        return (f"{state.name(d['seat'])}'s {self.card(d['card'])} takes {self.card(d['target'])}.{kept} "
                f"Points: {self._points_line(d['points'], state)}.")

    @says("deception")
    def deception_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])} uses Deception: lay a card from your hand face up beside your cards."

    @says("deception_card")
    def deception_card_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return (f"{state.name(d['seat'])} adds {self.card(d['card'])} from the hand (Deception). "
                f"Points: {self._points_line(d['points'], state)}.")

    @says("duel_card")
    def duel_card_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['seat'])} lays down {self.card(d['card'])} ({d['left']} left in hand)."

    @says("decided")
    def decided_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        w, lost = d["winner"], d["loser"]
        pw, pl = d["points"][w]["total"], d["points"][lost]["total"]
        tie = " A tie: \u201cthe player who made the Challenge has the advantage and wins the battle.\u201d" if d["tie"] else ""
        extra = f" and {len(d['from_discard'])} from the top of the Discard pile" if d["from_discard"] else ""
        return (f"{state.name(w)} wins the Challenge {pw} to {pl} and captures {state.name(lost)}'s "
                f"{len(d['captured'])} cards{extra}.{tie}")

    @says("round_over")
    def round_over_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return (f"Every player has battled: Battle round {d['battle_round']} is over; {state.name(d['winner'])} won the last "
                f"Challenge. Cards still in play go to their Discard piles; hands come back up to six.")

    @says("surrender")
    def surrender_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        why = "cannot bring the hand back up to six" if d["reason"] == "short" else "cannot play the cards that remain"
        to = f" to {state.name(d['to'])}" if d["to"] is not None else ""
        return f"{state.name(d['seat'])} {why} and surrenders the remaining cards{to}."

    @says("game_over")
    def game_over_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return f"{state.name(d['winner'])} holds all the cards and wins the game." if d["winner"] else "The game is over."

    @says("stopped")
    def stopped_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        counts = ", ".join(f"{state.name(int(s))} {c['warriors']}" for s, c in d["counts"].items())
        why = "The game is stopped" if d["how"] == "stopped" else "Nobody can bring the hand back up to six"
        if d["winner"] is not None:
            return f"{why}. Warrior cards: {counts}. {state.name(d['winner'])} wins."
        return f"{why}. Warrior cards: {counts}. A draw between {names(state, d['tied'])}."
