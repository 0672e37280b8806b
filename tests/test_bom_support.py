"""A Book of Mormon "Battle" table for the tests: seats named Ann, Bo, Cy..., events applied the
way the session applies them (a deep copy of the state each time, refusals change nothing).

    t = Table(3)                        # basic rules, 3 seats
    t.play({1: ["GD500#1", "FAITH#1"], 2: ["BD800#1"], 3: ["GO5000#1"]})
    outcome = t.resolve()               # the "battle" Outcome, checked to be applied
"""
from __future__ import annotations

from companion import rules
from companion.rules import Seat
from companion.rules.bom.plays import Problem, evaluate
from companion.rules.bom.refusals import problem
from tests.rules_harness import RulesTable

RULES = rules.make("bom-battle")
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def cards(*keys: str) -> list[tuple[str, object]]:
    """(key, catalog card) pairs, copy 1 unless the key says otherwise."""
    keys = [k if "#" in k else f"{k}#1" for k in keys]
    return [(k, RULES.deck.card(k)) for k in keys]


def worth(*keys: str):
    """What these cards are worth as one seat's play (a Play, or the view's words for why it is illegal)."""
    play = evaluate(1, cards(*keys))
    if isinstance(play, Problem):
        return problem(play.as_data(), None, lambda key: RULES.deck.card(key).name)
    return play


class Table(RulesTable):
    def __init__(self, seats: int = 3, **options):
        super().__init__(RULES, [Seat(i + 1, NAMES[i]) for i in range(seats)], options)

    do = RulesTable.ok  # the name these tests grew up with

    def see(self, seat: int, *keys: str, zone: str = "seat") -> None:
        for key in keys:
            self.do("card_seen", zone=f"{zone}:{seat}", card=key if "#" in key else f"{key}#1")

    def gone(self, seat: int, *keys: str) -> None:
        for key in keys:
            self.do("card_gone", zone=f"seat:{seat}", card=key if "#" in key else f"{key}#1")

    def play(self, plays: dict[int, list[str]]) -> None:
        for seat, keys in plays.items():
            self.see(seat, *keys)

    def resolve(self):
        """Resolve the battle; returns its first outcome (the battle, or a mount)."""
        return self.do("resolve").outcomes[0]

    def collect(self) -> None:
        """The winner gathers the last battle's cards: the camera sees them go."""
        for key, zones in list(self.state.collecting.items()):
            for zone in list(zones):
                self.do("card_gone", zone=zone, card=key)

    def battle(self, plays: dict[int, list[str]]):
        """Play, resolve and collect one battle; returns its outcome."""
        self.play(plays)
        outcome = self.resolve()
        self.collect()
        return outcome

    def view(self) -> dict:
        return self.rules.public_view(self.state)

    def seat(self, n: int):
        """The seat's piles (ARMY, BATTALION, discard counts; out, withdrawn)."""
        return self.state.seat(n)

    def counts(self, n: int) -> tuple[int, int, int]:
        s = self.seat(n)
        return s.army, s.battalion, s.discard

    def set_counts(self, n: int, army: int, battalion: int, discard: int) -> None:
        """Put a seat in a given position (tests of the end of a game); callers keep the total right."""
        s = self.seat(n)
        s.army, s.battalion, s.discard = army, battalion, discard

    def total(self) -> int:
        return sum(sum(self.counts(s.seat)) for s in self.state.piles)

    def show_powers(self, seat: int, *keys: str) -> None:
        """A seat shows the POWER cards in its hand (laid in its area) for "Too many POWER cards"."""
        self.see(seat, *keys)
