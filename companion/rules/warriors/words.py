"""What the referee decided, in words: the sentence of each kind of outcome Warriors' rules
decide (a method marked ``@says``), made from the outcome's data. The rules write no sentence."""
from __future__ import annotations

from typing import Any

from companion.rules.base import Outcome, Term
from companion.rules.contract import View, says

from .refusals import names
from .state import WarriorsState

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}

# The words of each reason a card adds what it adds (points.Point.why), from the "Armory Cards
# Appendix": (the term's label, its detail), formatted with the point's card, other and count.
POINT_WORDS: dict[str, tuple[str, str]] = {
    "warrior": ("{card}", "Warrior"),
    "on_primary": ("{card}", "on a {Other} primary card"),
    "only_primary": ("{card}", "adds only to a {Other} primary card"),
    "with_warrior": ("{card}", "with a {Other} Warrior"),
    "against_prophet": ("{card}", "against a prophet ({other})"),
    "points": ("{card}", ""),
    "immune": ("{card}", "adds no points against {other}"),
    "laban": ("{card}", "weapon, doubled by the Sword of Laban{times}"),
    "weapon": ("{card}", "weapon"),
    "ability": ("{card}", "{ability}"),
    "bonus": ("{card} + {other}", "bonus (Special Abilities)"),
    "disabled": ("{card}", "disabled by {other}"),
    "unusable": ("{card}", "cannot be used with these cards in play"),
    # "This card doubles the total points of the holder's cards in play": the points it adds
    "doubles": ("doubled by {card}", "{count} doubled to {doubled}"),
    "shielded": ("their {card}", "-{count} per weapon card"),
}
# What a card that adds no points of its own does (``ability``: its Armory kind).
ABILITY_WORDS = {
    "armor": "shields: see the opponent's weapon cards", "shield": "shields: see the opponent's weapon cards",
    "fortress": "disables the opponent's weapon cards", "sleep": "disables Fortress, Shield and Armor",
    "faithful_women": "no points itself: it doubles the total", "conversion": "takes a card, once per Battle round",
    "dissenter": "takes a card, once per Battle round", "deception": "adds a card from the hand, once per Battle round",
    "escape": "disables a card, once in each Challenge",
}


def point_term(point: dict[str, Any]) -> Term:
    """One term of a side's points (``points.Point.as_dict()``) as the table reads it."""
    label, detail = POINT_WORDS[point["why"]]
    count = point["count"]
    facts = {**point, "Other": point["other"].title(), "ability": ABILITY_WORDS.get(point["other"], ""),
             "times": f" x{count}" if count > 1 else "", "doubled": 2 * count}
    return Term(label.format(**facts), point["value"], detail.format(**facts))


def side_terms(side: dict[str, Any]) -> list[Term]:
    """A side's terms (``points.Side.as_dict()``) in words."""
    return [point_term(p) for p in side["points"]]


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


class Sayings(View[WarriorsState]):
    """The outcome sentences; ``WarriorsView`` adds the prompt, the buttons and the views."""

    def card(self, key: str) -> str:
        return self.game.card_name(key)

    def terms(self, outcome: Outcome, state: WarriorsState) -> tuple[Term, ...]:
        """A decided Challenge's terms: each side's points, the challenger's first."""
        if outcome.kind != "decided":
            return outcome.terms
        d = outcome.data
        return tuple(t for seat in (d["challenger"], d["defender"]) for t in side_terms(d["points"][seat]))

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
        return f"Phase Two: Call to Battle. {state.name(d['caller'])} is the challenger."

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

    @says("opening")
    def opening_said(self, outcome: Outcome, state: WarriorsState) -> str:
        d = outcome.data
        return (f"{state.name(d['seat'])} reveals {self.card(d['card'])}; the first card another player turns over "
                f"names whom {state.name(d['seat'])} challenges.")

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
