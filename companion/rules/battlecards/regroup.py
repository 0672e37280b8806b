"""Combined sets, rule 3: "At the end of the battle, all involved forces may be sent to either of the
participant's deployed stacks." Allies who fought side by side send their surviving units to either one's
stacks before the next turn; each says Done when his are where he wants them."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import ending
from .cards import Deck
from .state import Battle, PacificState, Regroup, Stage, forget

SENT = ("\"3) ... At the end of the battle, all involved forces may be sent to either of the participant's "
        "deployed stacks.\"")


def begin(deck: Deck, state: PacificState, battle: Battle, out: list[Outcome]) -> bool:
    """After a battle with allies on one side: the regrouping starts if some involved unit survives in a
    participant's stacks (True), else nothing happens (False)."""
    ally: dict[int, int] = {}
    units: list[str] = []
    for side in ("aggressor", "defender"):
        seats = [s for s in battle.army(side) if any(battle.owner[k] == s for k in battle.units)]
        alive = [k for k in battle.units if battle.owner[k] in seats and k not in battle.destroyed
                 and any(k in state.armies[s].deployed() for s in seats)]
        if len(seats) == 2 and alive:
            ally.update({seats[0]: seats[1], seats[1]: seats[0]})
            units += alive
    if not units:
        return False
    state.regroup, state.stage = Regroup(card=battle.card, units=units, ally=ally), Stage.REGROUP
    out.append(Outcome("regroup", data={"card": battle.card, "seats": sorted(ally), "units": len(units)}))
    return True


def holder(state: PacificState, key: str) -> int | None:
    return next((s for s in state.regroup.ally if key in state.armies[s].deployed()), None)


def on_regroup(deck: Deck, state: PacificState, seat: int, unit: str) -> tuple[Outcome, ...]:
    """One involved unit goes from its holder's stack to his ally's (its own type's stack)."""
    regroup = state.regroup
    if seat not in regroup.ally:
        raise Refused(f"{SENT} {state.name(seat)} did not take part in this battle with an ally.")
    if unit not in regroup.units or holder(state, unit) != seat:
        raise Refused(f"{SENT} That card is not one of the forces involved in the battle in "
                      f"{state.name(seat)}'s stacks.")
    to = regroup.ally[seat]
    unit_type = deck.unit_type(unit)
    state.armies[seat].stacks[unit_type].remove(unit)
    state.armies[to].stacks[unit_type].append(unit)
    forget(state, unit)
    return (Outcome("regrouped", data={"seat": seat, "ally": to, "unit": unit, "stack": unit_type}),)


def on_done(state: PacificState, seat: int) -> tuple[Outcome, ...]:
    regroup = state.regroup
    if seat not in regroup.ally:
        raise Refused(f"{SENT} {state.name(seat)} did not take part in this battle with an ally.")
    if seat in regroup.done:
        raise Refused(f"{state.name(seat)} is done already: waiting for {state.name(regroup.ally[seat])}.")
    regroup.done.append(seat)
    out = [Outcome("regroup_done", data={"seat": seat})]
    if set(regroup.done) == set(regroup.ally):
        state.regroup = None
        ending.end_turn(state, out)
    return tuple(out)


def choices(state: PacificState) -> list[dict]:
    """Every involved unit its holder may still send (the cards were face up in the battle: no secret)."""
    regroup = state.regroup
    if regroup is None:
        return []
    found = []
    for key in regroup.units:
        seat = holder(state, key)
        if seat is not None and seat not in regroup.done:
            found.append({"seat": seat, "unit": key})
    return found
