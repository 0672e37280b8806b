"""War, the card game: the smallest game on the referee contract (docs/referee/contract.md walks
through it), kept in the tests as the toy game and registered only where a test asks for it
(the ``registered()`` context, used by a fixture).

Two to four players each lay one numbered card in their area; once every seat has played, the
highest card wins the battle and a point. Equal highest cards make a war: the tied players each lay
another card on top, and the highest of those takes the battle. The first to three points wins.
"Double" is a variant: a battle won with a card of 9 or more scores two points.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from card_tags.catalog import Card, Catalog
from companion import rules
from companion.rules.base import Option, Outcome, Result, Seat, Standing, Term
from companion.rules.contract import (CAMERA, SEAT, SEAT_ACTS, Field, Game, GameState, Input, Offer, Refused,
                                      Variant, View, card_inputs, says, scoreboard)

CARDS = {f"N{n}": Card(f"N{n}", f"Number {n}", "number", 2, {"value": n}) for n in range(1, 11)}
GAME_ID = "toy-war"


@dataclass(kw_only=True)
class WarState(GameState):
    played: dict[int, str] = field(default_factory=dict)   # seat -> card key in its area
    points: dict[int, int] = field(default_factory=dict)
    battle: int = 1
    at_war: list[int] = field(default_factory=list)         # the tied seats, laying another card
    winner: int | None = None


class Double(Variant):
    option = "double"
    title = "Double"

    def points(self, value: int) -> int:
        return 2 if value >= 9 else 1


@dataclass(frozen=True)
class WarPart:
    """War's own part of the public view."""

    battle: int
    at_war: list[int]
    points: dict[str, int]


class WarView(View):
    refusals = {
        "not_a_seat_area": "War is played in the seats' areas, not in {zone!r}.",
        "already_laid": "{name} has already laid a card this battle.",
        "not_at_war": "{name} is not in this war: only the tied players lay another card.",
        "waiting_for_cards": "Every player lays a card before the battle is decided.",
    }

    def refusal_facts(self, code: str, data: dict[str, Any], state: WarState) -> dict[str, Any]:
        return {**data, "name": state.name(data["seat"])} if "seat" in data else data

    @says("battle")
    def battle_won(self, outcome: Outcome, state: WarState) -> str:
        d = outcome.data
        return f"{state.name(d['winner'])} wins battle {d['battle']} with a {d['value']}."

    @says("war")
    def war(self, outcome: Outcome, state: WarState) -> str:
        names = " and ".join(state.name(n) for n in outcome.data["seats"])
        return f"War! {names} tie with a {outcome.data['value']}: each lays another card."

    @says("game_over")
    def game_won(self, outcome: Outcome, state: WarState) -> str:
        return f"{state.name(outcome.data['winner'])} wins the game."

    @says("concede")
    def conceded(self, outcome: Outcome, state: WarState) -> str:
        return f"{state.name(outcome.data['seat'])} concedes."

    def prompt(self, state: WarState, offers: list[Offer]) -> str:
        if state.over:
            return "The game is over."
        waiting = [state.name(n) for n in self.game.to_lay(state)]
        return f"{', '.join(waiting)}: lay a card in your area." if waiting else "Resolve the battle."

    def button(self, offer: Offer, state: WarState) -> str:
        return "Resolve the battle" if offer.kind == "resolve" else f"{state.name(offer.data['seat'])} concedes"

    def progress(self, state: WarState) -> tuple[str, ...]:
        """The header line: the battle being played, then the phase (the contract's)."""
        return (f"Battle {state.battle}", *super().progress(state))

    def standings(self, state: WarState, viewer: int | None) -> tuple[Standing, ...]:
        """Points per seat, most first (a game won by a count: the contract's scoreboard)."""
        return scoreboard(state.seats, state.points, "points",
                          say={n: f"{p} point{'' if p == 1 else 's'}" for n, p in state.points.items()})

    def winners(self, state: WarState) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def result(self, state: WarState, viewer: int | None) -> Result | None:
        return None if state.winner is None else Result(f"{state.name(state.winner)} wins the game.")

    def public(self, state: WarState) -> WarPart:
        return WarPart(battle=state.battle, at_war=list(state.at_war),
                       points={str(k): v for k, v in state.points.items()})


class War(Game):
    game = GAME_ID
    title = "War"
    min_seats, max_seats = 2, 4
    options = (Option("double", False, "A battle won with a 9 or 10 scores two points.", label="Double"),)
    variants = (Double,)
    view_type = WarView
    zones = ("seat",)
    outcome_kinds = frozenset({"battle", "war", "game_over", "concede"})
    reasons = frozenset({"not_a_seat_area", "already_laid", "not_at_war", "waiting_for_cards"})
    inputs = (
        *card_inputs(phases=("battle",)),
        Input("resolve", "on_resolve", phases=("battle",), button=True),
        Input("concede", "on_concede", (Field("seat", SEAT),), actor=SEAT_ACTS, button=True, confirm=True),
    )
    assert all(i.actor == CAMERA for i in inputs[:2])

    @classmethod
    def load_catalog(cls, deck: Any = None) -> Catalog:
        return Catalog(cls.game, 1, cls.title, CARDS, "tests/toy_game.py")

    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> WarState:
        return WarState(seats=seats, options=options, points={s.number: 0 for s in seats})

    def phase(self, state: WarState) -> str:
        return "over" if state.over else "battle"

    def to_lay(self, state: WarState) -> list[int]:
        """The seats still to lay a card: every seat, or in a war the tied ones."""
        return [n for n in (state.at_war or state.seat_numbers()) if n not in state.played]

    def on_card_seen(self, state: WarState, data: dict[str, Any]) -> None:
        seat = int(data["zone"].removeprefix("seat:")) if data["zone"].startswith("seat:") else None
        if seat is None or seat not in state.seat_numbers():
            raise Refused("not_a_seat_area", zone=data["zone"])
        if state.at_war and seat not in state.at_war:
            raise Refused("not_at_war", seat=seat)
        if seat in state.played:
            raise Refused("already_laid", seat=seat)
        state.played[seat] = data["card"]

    def on_card_gone(self, state: WarState, data: dict[str, Any]) -> None:
        for seat, key in list(state.played.items()):
            if key == data["card"]:
                del state.played[seat]

    def ready_to_resolve(self, state: WarState) -> bool:
        return not state.over and not self.to_lay(state)

    def plays_complete(self, state: WarState) -> bool:
        return self.ready_to_resolve(state)  # one card is a whole play: a second one is refused

    def on_resolve(self, state: WarState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if self.to_lay(state):
            raise Refused("waiting_for_cards")
        values = {seat: int(self.catalog.cards[key.partition("#")[0]]["value"]) for seat, key in state.played.items()}
        best = max(values.values())
        tied = [seat for seat, v in values.items() if v == best]
        terms = tuple(Term(state.name(seat), value) for seat, value in values.items())
        state.played.clear()
        if len(tied) > 1:
            state.at_war = tied
            return (Outcome("war", terms=terms, data={"seats": tied, "value": best}),)
        winner = tied[0]
        gained = max([1] + [v.points(best) for v in self.variants_for(state.options) if isinstance(v, Double)])
        state.points[winner] += gained
        state.at_war = []
        outcomes = [Outcome("battle", terms=terms, data={"winner": winner, "battle": state.battle, "value": best,
                                                         "points": gained})]
        state.battle += 1
        if state.points[winner] >= 3:
            state.over, state.winner = True, winner
            outcomes.append(Outcome("game_over", data={"winner": winner}))
        return tuple(outcomes)

    def on_concede(self, state: WarState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        others = [n for n in state.seat_numbers() if n != data["seat"]]
        state.over, state.winner = True, max(others, key=lambda n: state.points[n])
        return (Outcome("concede", data={"seat": data["seat"]}),)


@contextmanager
def registered() -> Iterator[str]:
    """War in the registry for the length of a test (the one line a new game needs), then out."""
    rules.register(GAME_ID, "tests.toy_game:War")
    try:
        yield GAME_ID
    finally:
        rules.unregister(GAME_ID)
