"""High Card: the smallest game on the referee contract (docs/referee/contract.md shows it).

Two to four players each lay one numbered card in their area; once every seat has played, the
highest card wins the battle and a point. The first to three points wins. "Double" is a variant:
a battle won with a card of 9 or more scores two points.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from card_tags.catalog import Card, Catalog
from companion.rules.base import Option, Outcome, Seat, Term
from companion.rules.contract import (CAMERA, SEAT, SEAT_ACTS, Field, Game, GameState, Input, Refused, Variant,
                                      View, card_inputs)

CARDS = {f"N{n}": Card(f"N{n}", f"Number {n}", "number", 2, {"value": n}) for n in range(1, 11)}


@dataclass(kw_only=True)
class HighCardState(GameState):
    played: dict[int, str] = field(default_factory=dict)   # seat -> card key in its area
    points: dict[int, int] = field(default_factory=dict)
    battle: int = 1
    winner: int | None = None


class Double(Variant):
    option = "double"
    title = "Double"

    def points(self, value: int) -> int:
        return 2 if value >= 9 else 1


class HighCardView(View):
    def say(self, outcome: Outcome, state: HighCardState) -> str:
        if outcome.kind == "battle":
            return (f"{state.name(outcome.data['winner'])} wins battle {outcome.data['battle']} with a "
                    f"{outcome.data['value']}.")
        if outcome.kind == "game_over":
            return f"{state.name(outcome.data['winner'])} wins the game."
        return f"{state.name(outcome.data['seat'])} concedes."

    def prompt(self, state: HighCardState, offers) -> str:
        if state.over:
            return "The game is over."
        waiting = [state.name(n) for n in state.seat_numbers() if n not in state.played]
        return f"{', '.join(waiting)}: lay a card in your area." if waiting else "Resolve the battle."

    def button(self, offer, state: HighCardState) -> str:
        return "Resolve the battle" if offer.kind == "resolve" else f"{state.name(offer.data['seat'])} concedes"

    def public(self, state: HighCardState) -> dict[str, Any]:
        return {"battle": state.battle, "points": {str(k): v for k, v in state.points.items()},
                "over": state.over, "winner": state.winner,
                "standings": sorted(({"seat": s.number, "name": s.name, "points": state.points[s.number]}
                                     for s in state.seats), key=lambda r: -r["points"])}


class HighCard(Game):
    game = "toy-high-card"
    title = "High Card"
    min_seats, max_seats = 2, 4
    options = (Option("double", False, "A battle won with a 9 or 10 scores two points.", label="Double"),)
    variants = (Double,)
    view_type = HighCardView
    zones = ("seat",)
    inputs = (
        *card_inputs(phases=("battle",)),
        Input("resolve", "on_resolve", phases=("battle",), button=True),
        Input("concede", "on_concede", (Field("seat", SEAT),), actor=SEAT_ACTS, button=True, confirm=True),
    )
    assert all(i.actor == CAMERA for i in inputs[:2])

    @classmethod
    def load_catalog(cls, deck: Any = None) -> Catalog:
        return Catalog(cls.game, 1, cls.title, CARDS, "tests/toy_game.py")

    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> HighCardState:
        return HighCardState(seats=seats, options=options, points={s.number: 0 for s in seats})

    def phase(self, state: HighCardState) -> str:
        return "over" if state.over else "battle"

    def on_card_seen(self, state: HighCardState, data: dict[str, Any]) -> None:
        seat = int(data["zone"].removeprefix("seat:")) if data["zone"].startswith("seat:") else None
        if seat not in state.seat_numbers():
            raise Refused(f"High Card is played in the seats' areas, not in {data['zone']!r}.")
        if seat in state.played:
            raise Refused(f"{state.name(seat)} has already laid a card this battle.")
        state.played[seat] = data["card"]

    def on_card_gone(self, state: HighCardState, data: dict[str, Any]) -> None:
        for seat, key in list(state.played.items()):
            if key == data["card"]:
                del state.played[seat]

    def ready_to_resolve(self, state: HighCardState) -> bool:
        return not state.over and len(state.played) == len(state.seats)

    def plays_complete(self, state: HighCardState) -> bool:
        return self.ready_to_resolve(state)  # one card is a whole play: a second one is refused

    def on_resolve(self, state: HighCardState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if len(state.played) < len(state.seats):
            raise Refused("Every player lays a card before the battle is decided.")
        values = {seat: self.catalog.cards[key.partition("#")[0]]["value"] for seat, key in state.played.items()}
        best = max(values.values())
        if list(values.values()).count(best) > 1:
            raise Refused("A tie: the tied players lay another card.")
        winner = next(seat for seat, v in values.items() if v == best)
        gained = max([1] + [v.points(best) for v in self.variants_for(state.options)])
        state.points[winner] += gained
        terms = tuple(Term(state.name(seat), value) for seat, value in values.items())
        outcomes = [Outcome("battle", terms=terms, data={"winner": winner, "battle": state.battle, "value": best,
                                                         "points": gained})]
        state.played.clear()
        state.battle += 1
        if state.points[winner] >= 3:
            state.over, state.winner = True, winner
            outcomes.append(Outcome("game_over", data={"winner": winner}))
        return tuple(outcomes)

    def on_concede(self, state: HighCardState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        others = [n for n in state.seat_numbers() if n != data["seat"]]
        state.over, state.winner = True, max(others, key=lambda n: state.points[n])
        return (Outcome("concede", data={"seat": data["seat"]}),)
