"""The typed state of a BATTLECARDS game: each seat's army, the CONFLICT deck, the turn, the battle."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..contract import ToldState

TYPES = ("ground", "air", "sea")


class Stage(str, enum.Enum):
    SETUP = "setup"            # each player draws 6 ARSENAL cards and deploys 3
    DRAW = "draw"              # the drawing player draws a CONFLICT card (or deploys in an emergency)
    ARSENAL = "arsenal"        # a card told the drawing player to draw (and maybe deploy) ARSENAL cards
    LOOK = "look"              # Reconnaissance: the drawing player picks the stack to look at
    AID = "aid"                # combined sets: the drawing player transfers deployed cards to his ally
    DECISION = "decision"      # a BATTLECARD is drawn: its aggressor fights or not
    HOMELAND = "homeland"      # a homeland is invaded: its defender may deploy the Reserve Hand first
    COMBAT = "combat"          # the four firing phases
    WITHDRAWAL = "withdrawal"  # after phase 4: the aggressor, then the defender, may withdraw
    REGROUP = "regroup"        # combined sets: allies send the involved forces to either one's stacks
    OVER = "over"


@dataclass(kw_only=True)
class Army:
    """One seat's side of the table. ``hand``, ``stacks`` and ``kept`` are secret (the seat's phone
    shows them); their sizes are public."""

    side: str                                   # "japan", "us" (with the Western set: "germany", "britain")
    theatre: str = "pacific"
    hand: list[str] = field(default_factory=list)
    stacks: dict[str, list[str]] = field(default_factory=lambda: {t: [] for t in TYPES})
    kept: list[str] = field(default_factory=list)
    won: list[str] = field(default_factory=list)        # BATTLECARDs won (face up)
    vp: int = 0
    arsenal_left: int = 0                      # cards left in this side's ARSENAL deck
    arsenal_discard: list[str] = field(default_factory=list)   # destroyed units, face up
    handless: bool = False                     # emergency-deployed: no hand until told to replenish
    eliminated: bool = False                   # eliminated from its theatre
    eliminated_by: str = ""                    # the BATTLECARD that eliminated it (re-fought to liberate it)
    setup_drawn: int = 0
    seen: list[str] = field(default_factory=list)   # intel: opponents' cards this seat has been shown
    foreign: int = 0                           # cards an ally sent to the bottom of this ARSENAL deck

    def deployed(self) -> list[str]:
        return [k for t in TYPES for k in self.stacks[t]]


@dataclass(kw_only=True)
class Task:
    """What a CONFLICT card told the drawing player to do with the ARSENAL deck."""

    seat: int
    card: str
    draw: int = 0          # cards still to draw into the Reserve Hand
    deploy: int = 0        # cards that may still be deployed from it
    look: str = ""         # intel: "deployed", "reserve" or "kept"
    then: str = "end"      # when done: "end" the turn, or back to the "draw" (a Supply Convoy played first)
    exact: bool = False    # deploy exactly ``deploy`` cards (a liberated player's 3), not "up to"


@dataclass(kw_only=True)
class Shot:
    """One unit fired: every term of the ruling."""

    number: int
    round: int
    phase: int
    seat: int
    unit: str
    target: str
    target_seat: int
    card: str                  # the CONFLICT card turned
    action: int                # its Action Number
    attack: int                # the Attack Value against the target's type, bonuses included
    defense: int               # the target's Defense Score against the attacker's type, bonuses included
    attack_bonus: int = 0
    defense_bonus: int = 0
    support: str | None = None  # the supporting unit that added attack
    hit: bool = False
    why: str = ""              # "in_range", "above_attack", "not_above_defense" (combat.why)


@dataclass(kw_only=True)
class Battle:
    card: str
    aggressors: list[int]      # seats (allies fight as one army)
    defenders: list[int]
    raid: list[str] = field(default_factory=list)   # combined sets, rule 6: a raid's force types (no VP)
    theatre: str = ""          # where it is fought, when not the card's theatre (a raid: the other one)
    liberates: int | None = None   # combined sets, rule 7: the eliminated ally this re-fought battle may free
    units: list[str] = field(default_factory=list)      # every unit flipped into the battle, in order
    owner: dict[str, int] = field(default_factory=dict)  # unit key -> seat
    destroyed: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    round: int = 1
    phase: int = 1
    firing: str = "aggressor"  # which army fires now
    queue: list[str] = field(default_factory=list)       # units still to fire in this volley
    casualties: list[str] = field(default_factory=list)  # hit in this volley, removed at its end
    aim: str | None = None
    support: str | None = None
    used_support: list[str] = field(default_factory=list)   # supporters that added attack this phase
    bonuses: list[str] = field(default_factory=list)        # kept cards played this combat round
    bonus_owner: dict[str, int] = field(default_factory=dict)
    deciding: str = "aggressor"   # in the withdrawal phase
    shots: list[Shot] = field(default_factory=list)

    def army(self, side: str) -> list[int]:
        return self.aggressors if side == "aggressor" else self.defenders

    def side_of(self, seat: int) -> str:
        return "aggressor" if seat in self.aggressors else "defender"

    def fighting(self, side: str) -> list[str]:
        seats = self.army(side)
        gone = set(self.destroyed) | set(self.withdrawn)
        return [k for k in self.units if self.owner[k] in seats and k not in gone]


@dataclass(kw_only=True)
class Regroup:
    """Combined sets, rule 3: after a battle fought with an ally, the involved forces still deployed."""

    card: str
    units: list[str]                  # the involved units that survived, in battle order
    ally: dict[int, int]              # each participant -> the ally he may send them to
    done: list[int] = field(default_factory=list)


@dataclass(kw_only=True)
class PacificState(ToldState):
    armies: dict[int, Army]
    order: list[int]                 # turn order (Japan first; with the Western set G, B, J, US)
    stage: Stage = Stage.SETUP
    turn: int = 0                    # the drawing player's seat
    turn_number: int = 0
    conflict_left: dict[str, int] = field(default_factory=dict)        # theatre -> cards in its deck
    conflict_discard: dict[str, list[str]] = field(default_factory=dict)
    conflict_pool: dict[str, list[str]] = field(default_factory=dict)  # theatre -> cards no one has seen face up since the shuffle
    task: Task | None = None
    pending: str | None = None       # a BATTLECARD waiting for its aggressor's decision
    battle: Battle | None = None
    regroup: Regroup | None = None   # combined sets: after a battle fought with an ally
    convoy_played: bool = False      # a Supply Convoy at the start of this turn
    aided: bool = False              # combined sets: this turn's aid to the ally is given
    transferred: int = 0
    winner: int | None = None
    winners: list[int] = field(default_factory=list)
    victory: str = ""                # "standard" or "total"

    # The parts of the state a stage is sure to have (the contract checks the stage before a handler runs).
    def fight(self) -> Battle:
        assert self.battle is not None, "no battle is being fought"
        return self.battle

    def drawn_task(self) -> Task:
        assert self.task is not None, "no CONFLICT card told anyone to draw"
        return self.task

    def regrouping(self) -> Regroup:
        assert self.regroup is not None, "no regrouping after a battle"
        return self.regroup

    def battlecard(self) -> str:
        assert self.pending is not None, "no BATTLECARD waits for a decision"
        return self.pending


def forget(state: PacificState, key: str) -> None:
    """A card moved away (destroyed, captured, back to the hand, played): where the table last reported
    it no longer holds it, so seeing it there again later is news, not the same sighting."""
    state.lift(key)
