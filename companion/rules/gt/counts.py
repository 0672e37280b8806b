"""Hand counts: the companion cannot see hands, so it counts them, and asks when a play does not fit.

``state.hands`` starts at the deal's cards per player and follows every draw, discard and play
(the identity card is never counted). A play of more cards than the count says a seat holds is
not refused: the count may be wrong (a misdeal, a missed draw). It is held in ``state.count_check``
until the table answers ``confirm_count``; the held input is then run again, and if it no longer
stands the count is kept and the reason told.
"""
from __future__ import annotations

import copy
from typing import Callable

from ..base import Outcome
from ..contract import Refused
from .state import BattleState, CountCheck, Held

# Runs a held input again as it was first taken (the contract's checks, then its handler): what it did.
Rerun = Callable[[BattleState, Held], tuple[Outcome, ...]]


def hold_for_count(state: BattleState, seat: int, needs: int, held: Held) -> tuple[Outcome, ...]:
    """Hold the input ``held`` until the table confirms the seat's hand."""
    counted = state.hands[seat]
    state.count_check = CountCheck(seat=seat, counted=counted, needs=needs, held=held)
    return (Outcome("count_check", data={"seat": seat, "counted": counted, "needs": needs}),)


def confirm_count(state: BattleState, seat: int, cards: int, rerun: Rerun) -> tuple[Outcome, ...]:
    """The table says how many cards a seat holds; a play held for that seat's count runs again."""
    if not 0 <= cards <= 200:
        raise Refused("count_out_of_range", cards=cards)
    check, pending = state.count_check, state.pending
    held = check if check is not None and check.seat == seat else None
    # Cards already on the pile whose play is not final are still in the companion's count.
    on_table = held.needs if held else (len(pending.cards) if pending and pending.seat == seat else 0)
    counted = state.hands[seat] - on_table
    state.hands[seat] = cards + on_table
    told: tuple[Outcome, ...] = (Outcome("count", data={"seat": seat, "cards": cards, "counted": counted}),)
    if held:
        state.count_check = None
        told += _replay_held(state, held.held, rerun)
    return told


def _replay_held(state: BattleState, held: Held, rerun: Rerun) -> tuple[Outcome, ...]:
    """Apply the play that waited for the count; if it no longer stands, say why and keep the count."""
    before = copy.deepcopy(state)
    try:
        return rerun(state, held)
    except Refused as refused:
        for name in state.__dataclass_fields__:
            setattr(state, name, getattr(before, name))
        return (Outcome("held_refused", data={"reason": refused.code, "facts": refused.data}),)


def drop_stale_check(state: BattleState, key: str) -> None:
    """A held play whose cards were taken back no longer needs its question answered."""
    check = state.count_check
    if check is None:
        return
    held = check.held
    if (held.kind == "resolve" and not state.pending) or (held.kind == "card_seen" and held.card == key):
        state.count_check = None
