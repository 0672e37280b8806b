"""Stratego's typed state: the armies as scanned, whose turn it is, every combat, the end.

The companion never sees the board: it keeps each piece's colour and rank (from its tag), whether it
is still in play and whether its rank has been shown, and the story of the game.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.contract import GameState

from .ranks import IMMOBILE

SETUP, PLAY, OVER = "setup", "play", "over"
RED, BLUE = "red", "blue"


def other(colour: str) -> str:
    return BLUE if colour == RED else RED


@dataclass(kw_only=True)
class Piece:
    """One scanned piece (by its tag key in ``StrategoState.pieces``)."""

    colour: str
    rank: str
    alive: bool = True
    revealed: bool = False              # its rank has been shown to the table
    captured_in: int | None = None      # the combat that removed it


@dataclass(kw_only=True)
class Pending:
    """An attacker scanned, waiting for its defender."""

    colour: str
    piece: str
    zone: str


@dataclass(kw_only=True)
class LastTurn:
    """The turn just played, for what may follow it: a rescue, or the Scout's attack after its move.
    ``kind`` is "move" or "combat"; ``survivor`` the attacker's key if it survived (a plain move:
    "moved"), None if the combat removed it."""

    colour: str
    kind: str
    rescued: bool = False
    survivor: str | None = None


@dataclass(kw_only=True)
class Fighter:
    """One side of a combat: the piece, and whether the table was shown its rank."""

    colour: str
    piece: str
    rank: str
    shown: bool


@dataclass(kw_only=True)
class Combat:
    n: int
    turn: int
    winner: str                         # "attacker" | "defender" | "both"
    rule: str                           # the code of the rulebook's sentence that decided it (ranks.Quote)
    attacker: Fighter
    defender: Fighter
    flag: bool                          # the Flag was captured

    def side(self, name: str) -> Fighter:
        return self.attacker if name == "attacker" else self.defender


@dataclass(kw_only=True)
class Rescue:
    colour: str
    piece: str
    rank: str
    shown: bool                         # its rank was shown when it was captured
    turn: int


@dataclass(kw_only=True)
class End:
    reason: str                         # "flag" | "no_movable_piece" | "resign"
    loser: str                          # a colour
    rule: str                           # the code of the rule that ended it (ranks.Quote)


@dataclass(kw_only=True)
class StrategoState(GameState):
    colours: dict[int, str]             # seat -> "red" | "blue"
    phase: str = SETUP                  # setup | play | over
    pieces: dict[str, Piece] = field(default_factory=dict)
    turn: str = RED
    turn_number: int = 1
    pending: Pending | None = None
    last_turn: LastTurn | None = None
    combats: list[Combat] = field(default_factory=list)
    rescues: list[Rescue] = field(default_factory=list)
    winner: int | None = None
    end: End | None = None

    def seat_of(self, colour: str) -> int:
        return next(seat for seat, c in self.colours.items() if c == colour)

    def army(self, colour: str) -> list[Piece]:
        return [p for p in self.pieces.values() if p.colour == colour]

    def movable_left(self, colour: str) -> int:
        return sum(1 for p in self.army(colour) if p.alive and p.rank not in IMMOBILE)
