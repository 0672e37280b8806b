"""The typed state of a game of Battle: the score across rounds, and the round being played.

Seat keys are ints (seats are numbered 1..N clockwise; "left" is the next seat number). Every
field is plain data (ints, strings, lists, dicts, nested records), so that the session can copy,
compare and snapshot it. What one input decided is kept by the contract as ``Told`` records
(``last``): data the view words, never a sentence.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..contract import ToldState

LEFT, RIGHT = 1, -1  # ``direction``: play moves to the next seat number, or the previous one


class Phase(StrEnum):
    DEAL = "deal"
    BUILDING = "building"
    BATTLE = "battle"
    ROUND_OVER = "round_over"
    TIEBREAK = "tiebreak"
    OVER = "over"


class Team(StrEnum):
    SUPERHERO = "superhero"
    VILLAIN = "villain"


@dataclass(kw_only=True)
class Identity:
    """A seat's identity card this round, shown privately ``via`` its ``reader`` or the ``tray``."""

    card: str
    team: Team
    via: str


@dataclass(kw_only=True)
class Step:
    """A building turn: the draw (``deck`` / ``discard``), then one discard or a pass. ``top`` is
    the discard the turn may take (the pile's top when the turn began)."""

    drew: str | None = None
    discard: str | None = None
    passed: bool = False
    top: str | None = None


@dataclass(kw_only=True)
class Fight:
    """The fight cards to beat: ``count`` cards of ``rank`` played by ``seat``."""

    seat: int
    count: int
    rank: int
    cards: list[str]


@dataclass(kw_only=True)
class Pending:
    """Cards on the pile whose play is not final yet (``resolve`` makes it final)."""

    seat: int
    cards: list[str]


@dataclass(kw_only=True)
class Awaiting:
    """A choice the table owes: ``what`` is ``expose`` / ``eliminate`` (``by`` chooses), ``save``
    (the SAVE window for ``target``) or ``save_by`` (a SAVE seen: who played it?). ``then``: how
    play goes on once it is made: ``finish_turn``, ``advance`` or ``nothing``."""

    what: str
    by: int
    then: str
    target: int | None = None


@dataclass(kw_only=True)
class Held:
    """An input held until a hand count is confirmed, to be run again then."""

    kind: str
    card: str | None = None
    zone: str | None = None
    seat: int | None = None
    by: int | None = None

    def data(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if k != "kind" and v is not None}


@dataclass(kw_only=True)
class CountCheck:
    """``seat`` plays ``needs`` cards but the count says ``counted``: ``held`` waits for the answer."""

    seat: int
    counted: int
    needs: int
    held: Held


@dataclass(kw_only=True)
class Conflict:
    """One tag seen in two zones at once: a duplicated tag."""

    card: str
    zones: list[str]


@dataclass(kw_only=True)
class TiebreakDraw:
    seat: int
    card: str  # "save" | "eliminate"


@dataclass(kw_only=True)
class Tiebreak:
    """Players tied for game winner drawing SAVE or ELIMINATE; ``attempt`` counts the passes."""

    players: list[int]
    drawn: list[TiebreakDraw] = field(default_factory=list)
    attempt: int = 1


@dataclass(kw_only=True)
class RoundResult:
    round: int
    went_out: int
    team: Team
    teams: dict[int, Team]
    points: dict[int, int]


@dataclass(kw_only=True)
class Deal:
    """The deal table's row for this table, and the cards the table size plays with (rules data:
    card_tags.games.gt_battle.DEAL_TABLE and the setup steps)."""

    players: int
    per_player: int
    deck: int
    dealt: int
    remaining: int
    removed: list[str]
    limits: dict[str, int]  # action -> copies in play at this table ("expose": one per player)


@dataclass(kw_only=True)
class BattleState(ToldState):
    """The whole game: the score across rounds (``points``, ``rounds``, ``tiebreak``, ``winner``)
    and the round in play, reset by ``deal.new_round``. What the latest input that decided something
    decided is kept by the contract (``ToldState.last``): the tablet's result box."""

    deal: Deal
    points: dict[int, int]
    round: int = 0
    rounds: list[RoundResult] = field(default_factory=list)
    winner: int | None = None
    tiebreak: Tiebreak | None = None
    shown_via: list[str] = field(default_factory=list)  # how this table shows identities: reader, tray
    # -- the round --
    phase: Phase = Phase.DEAL
    dealer: int = 1
    turn: int | None = None
    direction: int = LEFT
    identity: dict[int, Identity] = field(default_factory=dict)  # seats that have shown theirs
    exposed: dict[int, bool] = field(default_factory=dict)
    eliminated: dict[int, bool] = field(default_factory=dict)
    hands: dict[int, int] = field(default_factory=dict)  # counted cards in hand, identity card not counted
    deck: int = 0  # cards left to draw, as counted
    pile: list[str] = field(default_factory=list)  # the centre pile's cards whose play is final
    flipped: str | None = None
    may_take_flipped: bool = False
    step: Step | None = None
    top: Fight | None = None
    pending: Pending | None = None
    passed: list[int] = field(default_factory=list)
    awaiting: Awaiting | None = None
    count_check: CountCheck | None = None
    expect_save_card: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    in_play: dict[str, list[str]] = field(default_factory=dict)  # action -> limited cards seen this round

    # The round's records that exist only at some moments, asked for where the rules know they do
    # (asked elsewhere, it is a bug in the rules, not a move at the table).
    def building_step(self) -> Step:
        assert self.step is not None, "no building turn is under way"
        return self.step

    def choice_owed(self) -> Awaiting:
        assert self.awaiting is not None, "no choice is owed"
        return self.awaiting

    def tie_break(self) -> Tiebreak:
        assert self.tiebreak is not None, "no tie-break is under way"
        return self.tiebreak

    def play_waiting(self) -> Pending:
        assert self.pending is not None, "no play is waiting"
        return self.pending

    def count_asked(self) -> CountCheck:
        assert self.count_check is not None, "no hand count is asked"
        return self.count_check
