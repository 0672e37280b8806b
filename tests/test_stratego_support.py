"""A Stratego table for the tests: two seats, both armies scanned, events applied as the session would.

Seat 1 (Ann) plays Red and seat 2 (Ben) Blue unless ``red_seat=2``. ``key("red", "6", 2)`` is the tag
key of Red's second Captain, "R6#2".
"""
from __future__ import annotations


from card_tags.games.stratego import ARMY
from companion import rules
from companion.rules import Applied, Refusal, Seat
from tests.rules_harness import RulesTable

RULES = rules.make("stratego")


def key(colour: str, rank: str, copy_no: int = 1) -> str:
    return f"{colour[0].upper()}{rank}#{copy_no}"


def army(colour: str) -> list[str]:
    """Every piece of one colour, as tag keys."""
    return [key(colour, rank, n) for rank, (_, count) in ARMY.items() for n in range(1, count + 1)]


class Table(RulesTable):
    def __init__(self, armies: bool = True, **options):
        super().__init__(RULES, [Seat(1, "Ann"), Seat(2, "Ben")], options)
        if armies:
            self.scan_armies()

    def seat(self, colour: str) -> int:
        return self.state.seat_of(colour)

    def scan(self, zone: str, card: str):
        return self.send("card_seen", zone=zone, card=card)

    def scan_armies(self) -> None:
        for colour in ("red", "blue"):
            for card in army(colour):
                result = self.scan(f"seat:{self.seat(colour)}", card)
                assert isinstance(result, Applied), result
        assert self.state.phase == "play"

    def attack(self, attacker: str, defender: str, zone: str = "tray"):
        """Scan a combat; returns the result of the defender's scan (or the attacker's refusal).
        Both pieces then leave the tray, as the camera reports when they go back on the board (a
        piece seen again where it already lies is the same sighting, not a new scan)."""
        first = self.scan(zone, attacker)
        if isinstance(first, Refusal):
            return first
        result = self.scan(zone, defender)
        for card in (attacker, defender):
            self.send("card_gone", zone=zone, card=card)
        self.last = result
        return result

    def move(self, colour: str):
        return self.send("move", seat=self.seat(colour))

    def alive(self, card: str) -> bool:
        return self.state.pieces[card].alive

    def public(self):
        return self.rules.public_view(self.state)


def turn(view: dict) -> tuple:
    """(seat, colour, number) of the turn a view shows."""
    return view["turn"], view["turn_colour"], view["turn_number"]


def refused(result) -> str:
    assert isinstance(result, Refusal), f"expected a refusal, got {result!r}"
    return result.reason


def test_the_table_helper_scans_two_full_armies():
    table = Table()
    view = table.public()
    assert [(s["colour"], s["scanned"], s["army_checked"]) for s in view["standings"]] == [
        ("red", 40, True), ("blue", 40, True)]
    assert turn(view) == (1, "red", 1)
