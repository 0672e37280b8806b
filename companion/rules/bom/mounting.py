"""Mounting Battles.

"In this version, battles are determined strictly by point value, not by color or shape. In case
of a tie, tied players place the top three cards from their ARMY—without looking at them—facedown
on the battlefield, then choose a new CHARACTER card from their BATTALION and place it down for
battle. If a player has no CHARACTER cards in his BATTALION, he must put two POWER cards in his
discard pile and draw two new cards from his ARMY. If he doesn't have enough cards to play a tie,
he surrenders all his remaining cards to the other player." (bom-battle.txt)

A tie does not resolve: the tied seats each put three ARMY cards face down (the companion counts
them in the battle's ``pot``), then play a new CHARACTER card, until one of them wins everything.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from card_tags.catalog import Card

from ..base import Outcome
from ..contract import Refused
from . import piles, table
from .battle import commit_round, finish
from .state import BomState, Mount
from .variants import BomVariant

if TYPE_CHECKING:
    from .variants import Referee
    from .judge import Verdict
    from .plays import Play

FACE_DOWN = 3  # "the top three cards from their ARMY"


class MountingBattles(BomVariant):
    option = "mounting_battles"
    title = "Mounting Battles"

    def by_value_only(self) -> bool:
        """"battles are determined strictly by point value, not by color or shape\""""
        return True

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        if state.mount and seat not in state.mounting().seats:
            return Refused("mounting_tied_only", tied=list(state.mounting().seats), card=key)
        return None

    def one_card(self, state: BomState) -> str | None:
        if not state.mount:
            return None
        return "mount_young" if state.options.get("young_players") else "mount"

    def on_tie(self, game: "Referee", state: BomState, plays: list["Play"], verdict: "Verdict") -> tuple[Outcome, ...]:
        return mount(game, state, plays, verdict)


def mount(game: "Referee", state: BomState, plays: list["Play"], verdict: "Verdict") -> tuple[Outcome, ...]:
    """The tied seats mount the battle; a tied seat without enough cards for the tie surrenders."""
    rules = game.rules(state)
    state.pot += commit_round(game, state)
    table.hold_round(state)
    tied = list(verdict.tied)
    able = [s for s in tied if rules.enough_for_tie(state.seat(s))]
    if not able:
        # Nobody can play the tie: the basic rule decides it (companion's decision).
        best = max((p for p in plays if p.seat in tied), key=lambda p: p.best.rank)
        return finish(game, state, best.seat, verdict, plays,
                      {"rule": "tie", "tie_rule": verdict.rule, "card": best.best.key, "unable": True})
    gave_up = {seat: surrender_all(state, seat) for seat in tied if seat not in able}
    before = state.mount or Mount(seats=[])
    state.mount = Mount(seats=able, round=before.round + (len(able) > 1), face_down=dict(before.face_down),
                        surrendered={**before.surrendered, **gave_up})
    if len(able) == 1:
        return finish(game, state, able[0], verdict, plays,
                      {"rule": "surrender", "tie_rule": verdict.rule,
                       "surrendered": {str(k): v for k, v in state.mounting().surrendered.items()},
                       "gave_up": {str(k): v for k, v in gave_up.items()}})
    for seat in able:
        state.pot += piles.take_from_army(state.seat(seat), FACE_DOWN)
        state.mounting().face_down[seat] = state.mounting().face_down.get(seat, 0) + FACE_DOWN
    rules.new_round(state)
    data = {"battle": state.battle, "tied": able, "round": state.mounting().round,
            "values": {str(k): v for k, v in verdict.values.items()},
            "face_down": {str(k): v for k, v in state.mounting().face_down.items()},
            "pot": state.pot, "surrendered": {str(k): v for k, v in gave_up.items()},
            "tie_rule": verdict.rule, "level": list(verdict.tied), "by": verdict.by,
            "plays": {str(p.seat): list(p.keys) for p in plays}}
    return (Outcome("mount", data=data),)


def surrender_all(state: BomState, seat: int) -> int:
    """A seat gives every card it still has to the battle; it is out of the game."""
    s = state.seat(seat)
    given = s.total
    state.pot += given
    s.army = s.battalion = s.discard = 0
    s.out = True
    table.clear_seat(state, seat)
    return given


def surrender(game: "Referee", state: BomState, seat: int) -> tuple[Outcome, ...]:
    """A tied seat that cannot play the tie (no CHARACTER card left, and not two POWER cards to
    swap) gives up; if one tied seat is left, it wins the battle."""
    given = surrender_all(state, seat)
    state.mounting().seats = [s for s in state.mounting().seats if s != seat]
    state.mounting().surrendered[seat] = given
    left = state.mounting().seats
    if len(left) == 1:
        return finish(game, state, left[0], None, [],
                      {"surrendered": {str(k): v for k, v in state.mounting().surrendered.items()},
                       "by": seat, "given": given})
    return (Outcome("surrender", data={"seat": seat, "cards": given, "tied": left}),)
