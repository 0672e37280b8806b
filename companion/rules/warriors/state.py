"""Warriors of the Promised Land: the typed state a game's log folds into."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from companion.rules.contract import GameState


class Step(str, enum.Enum):
    """Where the game stands. Phase One is ``deal``, ``primary`` and ``secondary``; Phase Two
    (Call to Battle) is ``challenge``, ``reveal``, ``duel`` and ``redraw``; ``refill`` is the end
    of a Battle round, when hands come back up to six."""

    DEAL = "deal"
    PRIMARY = "primary"
    SECONDARY = "secondary"
    CHALLENGE = "challenge"
    REVEAL = "reveal"
    DUEL = "duel"
    REDRAW = "redraw"
    REFILL = "refill"
    OVER = "over"


PHASE_ONE = (Step.DEAL, Step.PRIMARY, Step.SECONDARY)


@dataclass(kw_only=True)
class Laid:
    """A card in play: the primary Warrior is first, then the secondary cards from left to right."""

    card: str
    owner: int                 # whose card it was when laid (a taken card keeps its first owner)
    face_down: bool = False
    disabled: bool = False     # turned 90 degrees by an Escape
    how: str = "laid"          # laid | taken (Conversion, Dissenter) | deception | duel
    revealed_at: int = 0       # the Challenge's reveal count when it was turned face up
    used_round: bool = False   # Conversion, Dissenter, Deception: once per Battle round
    used_challenge: bool = False  # Escape: once in each Challenge


@dataclass(kw_only=True)
class Player:
    hand: list[str] = field(default_factory=list)      # as scanned: secret to all but this seat
    warrior_deck: int = 0
    armory_deck: int = 0
    play: list[Laid] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)   # face up; the last is the top
    out: bool = False                                   # surrendered
    deal_warriors: int = 0                              # drawn in the deal or a redraw so far
    deal_armory: int = 0


@dataclass(kw_only=True)
class Challenge:
    challenger: int
    defender: int
    next: int                  # whose card is turned next
    reveals: int = 0           # cards turned so far in this Challenge
    duel: bool = False         # Coriantumr and Shiz face each other
    deception: int | None = None   # a seat that used Deception and lays its extra card now


@dataclass(kw_only=True)
class Result:
    """A decided Challenge, for the tablet's list of the round."""

    challenger: int
    defender: int
    winner: int
    points: dict[int, int]
    captured: int
    # Each side's cards in play as the Challenge was decided: the view scores them again for its
    # terms (state keeps data, never the words of a term).
    rows: dict[int, list[Laid]] = field(default_factory=dict)


@dataclass(kw_only=True)
class WarriorsState(GameState):
    step: Step = Step.DEAL
    players: dict[int, Player] = field(default_factory=dict)
    leader: int = 1            # goes first in this Phase One
    turn: int = 1              # whose turn it is in Phase One
    drawing: int | None = None  # a seat that has laid its card and draws now
    laid_round: list[int] = field(default_factory=list)   # seats that laid a card this preparation round
    passed: list[int] = field(default_factory=list)       # seats that passed this preparation round
    caller: int | None = None  # who said "Call to battle!"
    battle_round: int = 0
    battled: list[int] = field(default_factory=list)
    challenger: int | None = None
    challenge: Challenge | None = None
    results: list[Result] = field(default_factory=list)   # this Battle round's Challenges
    peeks: dict[int, list[str]] = field(default_factory=dict)   # Prophecy: seat -> cards it saw
    prophecy_used: bool = False   # the challenger has looked before this Challenge
    opened: str | None = None     # the card the challenger turned before anyone was named as the opponent
    last_winner: int | None = None
    winner: int | None = None
    tied: list[int] = field(default_factory=list)   # a stopped game drawn between these seats
    ended: str = ""            # how the game ended: "all_cards", "stopped" or "nobody_can_go_on"

    @property
    def fight(self) -> Challenge:
        """The Challenge being fought, where the rules know there is one (Phase Two's reveal and
        special battle)."""
        if self.challenge is None:
            raise LookupError("no Challenge is being fought")
        return self.challenge
