"""The rules a BATTLECARDS game is played under, as hook units: ``PacificRules`` the two-player Pacific game
(the rulebook's own), ``CombinedSets`` the four-player game with a Western European set ("COMBINING
SETS"). The rule modules ask the unit in play (``in_play``) instead of counting seats; each hook decides
and returns data, and the rule module that asked acts on it.

The four-player game is a variant the table chooses by its seats (four: the sets are combined), so the
game records it in the state's options when it deals the seats (``combined``)."""
from __future__ import annotations

from typing import Any, ClassVar

from ..base import Seat, SetupError
from ..contract import Refused, Variant
from .cards import Deck
from .state import Battle, PacificState, Regroup
from .table import AXIS, allies

STANDARD_VP = 40   # "For this set, the number would be 40 to win."
COMBINED_VP = 78   # "To win the combined game by points, you must attain 78 VPs."
COMBINED_SIDES = ("germany", "britain", "japan", "us")   # "1) Turn order goes German, British, Japanese, and US."


class PacificRules(Variant):
    """The two-player Pacific game: Japan against the US, 40 VP to win, no ally."""

    option = "combined"
    title = "BATTLECARDS WWII Pacific, two players"
    vp_target: ClassVar[int] = STANDARD_VP

    @classmethod
    def on(cls, options: dict[str, Any]) -> bool:
        return not options.get("combined")

    @staticmethod
    def seating(seats: list[Seat], options: dict[str, Any]) -> tuple[dict[int, str], list[int]]:
        """Each seat's side, and the turn order. "Starting with the Japanese Player, alternate between players.\""""
        if len(seats) != 2:
            raise SetupError("BATTLECARDS is played by two players, or four with the Western European set combined")
        japan = options["japan_seat"]
        sides = {s.number: ("japan" if s.number == japan else "us") for s in seats}
        return sides, [japan] + [n for n in sides if n != japan]

    def ally(self, state: PacificState, seat: int) -> int:
        """The seat's ally, for aid (rule 2 of the combined sets)."""
        raise Refused("no_ally", seat)

    def raider(self, deck: Deck, state: PacificState, card: str) -> int | None:
        """The player remaining in the card's theatre, when his enemy there is eliminated (rule 6), else None."""
        return None

    def total_victory(self, state: PacificState, winner: int) -> list[int] | None:
        """The winners of the war once a player is eliminated, or None while it goes on. Two players: the
        elimination is "Total Victory. All enemy players are eliminated from the game.\""""
        return [winner]

    def regroup_after(self, state: PacificState, battle: Battle) -> Regroup | None:
        """After a battle: the involved forces allies may send to either one's stacks (rule 3), or None."""
        return None


class CombinedSets(PacificRules):
    """"COMBINING SETS": four players, the Pacific set with a Western European set; allies, aid, raids,
    liberation, 78 VP, and a TOTAL VICTORY that needs both enemy homelands."""

    title = "Combining sets (four players)"
    vp_target = COMBINED_VP

    @classmethod
    def on(cls, options: dict[str, Any]) -> bool:
        return bool(options.get("combined"))

    @staticmethod
    def seating(seats: list[Seat], options: dict[str, Any]) -> tuple[dict[int, str], list[int]]:
        """"1) Turn order goes German, British, Japanese, and US.\""""
        return dict(zip((1, 2, 3, 4), COMBINED_SIDES, strict=True)), [1, 2, 3, 4]

    def ally(self, state: PacificState, seat: int) -> int:
        return next(s for s in allies(state, seat) if s != seat)

    def raider(self, deck: Deck, state: PacificState, card: str) -> int | None:
        theatre = deck.theatre(card)
        here = [s for s, a in state.armies.items() if a.theatre == theatre]
        if len(here) != 2:
            return None
        fallen = [s for s in here if state.armies[s].eliminated]
        return next((s for s in here if s not in fallen), None) if len(fallen) == 1 else None

    def total_victory(self, state: PacificState, winner: int) -> list[int] | None:
        """"To win a TOTAL VICTORY, the Allies must invade Germany and Japan, and the Axis must invade Britain and
        Australia.\""""
        for axis in (True, False):
            fallen = [s for s, a in state.armies.items() if (a.side in AXIS) == axis and a.eliminated]
            if len(fallen) == 2:
                return [s for s, a in state.armies.items() if (a.side in AXIS) != axis]
        return None

    def regroup_after(self, state: PacificState, battle: Battle) -> Regroup | None:
        """"3) ... At the end of the battle, all involved forces may be sent to either of the participant's
        deployed stacks": the participants of a side that brought units in together, and their units still
        deployed."""
        ally: dict[int, int] = {}
        units: list[str] = []
        for side in ("aggressor", "defender"):
            seats = [s for s in battle.army(side) if any(battle.owner[k] == s for k in battle.units)]
            alive = [k for k in battle.units if battle.owner[k] in seats and k not in battle.destroyed
                     and any(k in state.armies[s].deployed() for s in seats)]
            if len(seats) == 2 and alive:
                ally.update({seats[0]: seats[1], seats[1]: seats[0]})
                units += alive
        return Regroup(card=battle.card, units=units, ally=ally) if units else None


VARIANTS: tuple[type[Variant], ...] = (CombinedSets,)


def combined_options(seats: list[Seat], options: dict[str, Any]) -> dict[str, Any]:
    """The options with the variant the seats choose: four seats combine the sets."""
    return {**options, "combined": len(seats) == 4}


def rules_for(options: dict[str, Any]) -> type[PacificRules]:
    """The rules a game with these options is played under."""
    return CombinedSets if CombinedSets.on(options) else PacificRules


def in_play(state: PacificState) -> PacificRules:
    """The rules this game is played under."""
    return rules_for(state.options)(state.options)

