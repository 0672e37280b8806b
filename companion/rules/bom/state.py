"""The typed state of a Book of Mormon "Battle" game (plain data, see docs/referee/contract.md).

The companion never sees a face-down card, so a seat's piles are counts, not identities: the
counts are the score. What the camera sees is kept by card key (``table``, ``held``,
``collecting``, see table.py).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..contract import ToldState


class Mode(str, enum.Enum):
    """Which game is played: the basic game (and its variants), the Rules for Young Players, or
    Spy's Trivia (no battles at all)."""

    BATTLE = "battle"
    YOUNG = "young"
    TRIVIA = "trivia"


# The phases of the game (the input table is declared per phase).
BATTLE, MOUNTING, TIEBREAK, TRIVIA, OVER = "battle", "mounting", "tiebreak", "trivia", "over"

@dataclass(kw_only=True)
class Piles:
    """One seat's cards, as counts: ARMY (face down), BATTALION (the hand of five), discard pile."""

    seat: int
    name: str
    army: int
    battalion: int
    discard: int = 0
    out: bool = False
    withdrawn: bool = False

    @property
    def total(self) -> int:
        return self.army + self.battalion + self.discard


@dataclass(kw_only=True)
class Flag:
    """Secret Weapon: something a seat did out of turn (flagged, not refused). ``kind`` is one of
    turns.FLAGS; ``other`` the seat it concerns (whose turn it was, who reveals first)."""

    seat: int
    card: str | None
    kind: str
    other: int | None = None


@dataclass(kw_only=True)
class Mount:
    """Mounting Battles: a tie being fought again."""

    seats: list[int]
    round: int = 1
    face_down: dict[int, int] = field(default_factory=dict)    # seat -> ARMY cards put face down
    surrendered: dict[int, int] = field(default_factory=dict)  # seat -> cards it gave up


@dataclass(kw_only=True)
class Turns:
    """Secret Weapon: this battle's leader, whose turn it is, and the face-down POWER cards."""

    leader: int
    position: int = 0                                     # index in this round's order
    face_down: dict[int, str] = field(default_factory=dict)  # seat -> card key ("" when tapped)
    revealing: bool = False


@dataclass(kw_only=True)
class Reading:
    """Spy's Trivia: the card being read (never in the public view)."""

    card: str
    clues: int = 1                                  # clues shown so far
    tie: list[int] = field(default_factory=list)   # seats that guessed together
    asked: bool = False                             # the book and chapter were asked for


@dataclass(kw_only=True)
class LastCard:
    """Spy's Trivia: the last card read, and who won it (public once won)."""

    card: str
    winner: int
    kept_by_reader: bool


@dataclass(kw_only=True)
class Trivia:
    reader: int
    unread: dict[int, int]
    won: dict[int, int]
    read: list[str] = field(default_factory=list)
    current: Reading | None = None
    last: LastCard | None = None


@dataclass(kw_only=True)
class BomState(ToldState):
    """The game: the seats' piles as counts, the cards the camera sees, the variants' records. What the
    table was told is kept by the contract (``ToldState``): ``recent`` (the last ten outcomes, for the
    tablet's list) and ``last`` (the latest input's results, for its result box), as ``Told`` data."""

    mode: Mode
    deck_size: int
    piles: list[Piles]
    battle: int = 1
    table: dict[str, list[str]] = field(default_factory=dict)       # this battle's cards -> zones seen
    held: list[str] = field(default_factory=list)                   # earlier rounds' cards (a mount)
    collecting: dict[str, list[str]] = field(default_factory=dict)  # a resolved battle's cards still lying
    battle_keys: list[str] = field(default_factory=list)            # cards already checked for their turn
    pot: int = 0                                                    # cards in the battle nobody sees
    mount: Mount | None = None
    flags: list[Flag] = field(default_factory=list)
    turns: Turns | None = None
    tiebreak: list[int] | None = None                               # the Shorter Game's last battle
    time_up: bool = False
    trivia: Trivia | None = None
    winner: int | None = None
    winners: list[int] = field(default_factory=list)

    def seat(self, number: int) -> Piles:
        return self.piles[number - 1]

    # The record of a variant in play, asked for only where it is (a rule of another game asking is a bug).
    def spys_trivia(self) -> Trivia:
        assert self.trivia is not None, "Spy's Trivia is not played"
        return self.trivia

    def secret_weapon(self) -> Turns:
        assert self.turns is not None, "Secret Weapon is not played"
        return self.turns

    def mounting(self) -> Mount:
        assert self.mount is not None, "no battle is mounting"
        return self.mount
