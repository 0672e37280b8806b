"""Combined sets, rule 3: "At the end of the battle, all involved forces may be sent to either of the
participant's deployed stacks." Allies who fought side by side send their surviving units to either one's
stacks before the next turn; each says Done when his are where he wants them. (Who regroups after a battle
is ``variants.CombinedSets.regroup_after``.)"""
from __future__ import annotations

from typing import Any

from ..base import Outcome
from ..contract import Refused
from .cards import Deck
from .state import PacificState, forget
from .table import end_turn


def holder(state: PacificState, key: str) -> int | None:
    return next((s for s in state.regrouping().ally if key in state.armies[s].deployed()), None)


def on_regroup(deck: Deck, state: PacificState, seat: int, unit: str) -> tuple[Outcome, ...]:
    """One involved unit goes from its holder's stack to his ally's (its own type's stack)."""
    regroup = state.regrouping()
    if seat not in regroup.ally:
        raise Refused("not_a_participant", seat)
    if unit not in regroup.units or holder(state, unit) != seat:
        raise Refused("not_involved", seat)
    to = regroup.ally[seat]
    unit_type = deck.unit_type(unit)
    state.armies[seat].stacks[unit_type].remove(unit)
    state.armies[to].stacks[unit_type].append(unit)
    forget(state, unit)
    return (Outcome("regrouped", data={"seat": seat, "ally": to, "unit": unit, "stack": unit_type}),)


def on_done(state: PacificState, seat: int) -> tuple[Outcome, ...]:
    regroup = state.regrouping()
    if seat not in regroup.ally:
        raise Refused("not_a_participant", seat)
    if seat in regroup.done:
        raise Refused("regrouped_already", seat, ally=regroup.ally[seat])
    regroup.done.append(seat)
    out = [Outcome("regroup_done", data={"seat": seat})]
    if set(regroup.done) == set(regroup.ally):
        state.regroup = None
        out += end_turn(state)
    return tuple(out)


def choices(state: PacificState) -> list[dict[str, Any]]:
    """Every involved unit its holder may still send (the cards were face up in the battle: no secret)."""
    if state.regroup is None:
        return []
    regroup = state.regroup
    found: list[dict[str, Any]] = []
    for key in regroup.units:
        seat = holder(state, key)
        if seat is not None and seat not in regroup.done:
            found.append({"seat": seat, "unit": key})
    return found
