"""Book of Mormon "Battle": when every seat's play is complete by the rules, for the quick settle.

This is the ``plays_complete`` hook of the referee contract (contract.Game.plays_complete) for
Book of Mormon (``BomBattle.plays_complete``).

A play can still grow while a card could join it: a CHARACTER card alone may still get its POWER
card, Battle takes any number of CHARACTER cards. It is complete when it cannot: one card is the
whole play (Rules for Young Players, Mounting Battles, the last battle after the timer), its POWER
card takes a fixed number of CHARACTER cards and has them all ("Faith only multiplies a gold
CHARACTER card", "Title of Liberty combines two"), or it uses every card the seat holds.
"""
from __future__ import annotations

from typing import Any

from . import battle
from .plays import POWER_RULES, Play
from .state import BomState


def plays_complete(game: Any, state: BomState) -> bool:
    if not game.ready_to_resolve(state):
        return False
    plays, problems = battle.check(game, state)
    if problems:
        return False
    if game.rules(state).one_card(state):
        return True  # one CHARACTER card each: a second card is refused
    return all(_complete(state, play) for play in plays)


def _complete(state: BomState, play: Play) -> bool:
    if len(play.keys) >= state.seat(play.seat).battalion:
        return True  # nothing left in the BATTALION to add
    rule = POWER_RULES.get(play.power) if play.power else None
    return rule is not None and rule.count is not None and len(play.fighters) == rule.count
