"""A Battle table for the tests: seats, dealt identities, events applied as the session would.

``Table(players=6, teams="HVHVHV")`` deals seat 1 a SUPERHERO card, seat 2 a VILLAIN card, and so
on, each shown privately on that seat's reader; ``flip="F3#1"`` flips the first discard. Card keys:
``F7#2`` is the second copy of fight card 7; HERO, VILLAIN, SKIP, REVERSE, EXPOSE, ELIM, SAVE,
NEWBTL and BATTLE are the other cards (card_tags/decks/gt-battle.json).
"""
from __future__ import annotations

from companion import rules
from companion.rules import Seat
from tests.rules_harness import RulesTable

RULES = rules.make("gt-battle")
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def seats(players: int) -> list[Seat]:
    return [Seat(n, NAMES[n - 1]) for n in range(1, players + 1)]


def identity_keys(teams: str) -> list[str]:
    """'HVH' -> ['HERO#1', 'VILLAIN#1', 'HERO#2']: one identity card per seat."""
    used = {"H": 0, "V": 0}
    keys = []
    for letter in teams:
        used[letter] += 1
        keys.append(f"{'HERO' if letter == 'H' else 'VILLAIN'}#{used[letter]}")
    return keys


class Table(RulesTable):
    def __init__(self, players: int = 6, teams: str | None = "HVHVHVHVHV", flip: str | None = "F3#1", **options):
        super().__init__(RULES, seats(players), options)
        if teams:
            self.deal_identities(teams[:players])
        if flip:
            self.ok("card_seen", zone="center", card=flip, hidden=False)

    # -- the table's moves ------------------------------------------------------------------------
    def deal_identities(self, teams: str) -> None:
        for seat, key in enumerate(identity_keys(teams), 1):
            self.ok("card_seen", zone=f"reader:{seat}", card=key, hidden=True)

    def seen(self, card: str, **extra):
        return self.ok("card_seen", zone="center", card=card, **extra)

    def draw(self, seat: int, source: str = "deck"):
        return self.ok("draw", seat=seat, **{"from": source})

    def discard(self, card: str):
        return self.seen(card)

    def keep(self, seat: int):
        """Building phase: pass on discarding."""
        return self.ok("pass", seat=seat)

    def building_turn(self, seat: int, discard: str | None = None, source: str = "deck"):
        assert self.turn == seat, (self.turn, seat)
        self.draw(seat, source)
        return self.discard(discard) if discard else self.keep(seat)

    def play(self, *cards: str):
        """Battle phase: put cards on the pile, then resolve (as the session does once the table is still)."""
        for card in cards:
            self.seen(card)
        return self.ok("resolve")

    def pass_(self, seat: int):
        return self.ok("pass", seat=seat)

    def start_battle(self, seat: int | None = None):
        """The current player draws the BATTLE card and places it on the pile."""
        seat = seat or self.turn
        self.draw(seat)
        return self.seen("BATTLE#1")

    # -- reading --------------------------------------------------------------------------------
    @property
    def turn(self) -> int | None:
        return self.state.turn

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def top(self) -> dict | None:
        """The fight cards to beat: seat, count and rank."""
        top = self.state.top
        return None if top is None else {"seat": top.seat, "count": top.count, "rank": top.rank}

    def hand(self, seat: int) -> int:
        return self.state.hands[seat]

    def points(self) -> list[int]:
        """Every seat's points, in seat order."""
        return [self.state.points[s] for s in self.state.seat_numbers()]

    def eliminated(self, seat: int) -> bool:
        return self.state.eliminated[seat]

    def says(self, result=None) -> str:
        result = result or self.last
        return " ".join(o.say for o in result.outcomes)

    def kinds(self, result=None) -> list[str]:
        result = result or self.last
        return [o.kind for o in result.outcomes]


def play_round(table: Table, teams: str, winner: int) -> None:
    """From the deal to the end of a round: identities shown, the first discard flipped, the player
    left of the dealer draws the BATTLE card, and ``winner`` goes out with their identity card."""
    if table.phase == "round_over":
        table.ok("new_round")
    table.deal_identities(teams)
    table.seen("F3#1")
    table.start_battle()
    while table.turn != winner:
        table.pass_(table.turn)
    table.ok("confirm_count", seat=winner, cards=0)  # their fight cards are gone
    table.seen(identity_keys(teams)[winner - 1])
    assert table.phase in ("round_over", "tiebreak", "over")
