"""Hand counts: the companion cannot see hands, so it counts them, and asks when a play does not fit.

``state.hands`` starts at the deal's cards per player and follows every draw, discard and play
(the identity card is never counted). A play of more cards than the count says a seat holds is
not refused: the count may be wrong (a misdeal, a missed draw). It is held in ``state.count_check``
until the table answers ``confirm_count``; the held input is then run again, and if it no longer
stands the count is kept and the reason told.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

from ..contract import Refused
from .report import Report
from .state import BattleState, CountCheck, Held

# Runs a held input again through the referee's checks, gate and handler.
Rerun = Callable[[BattleState, Held, Report], None]


def hold_for_count(state: BattleState, seat: int, needs: int, held: Held, report: Report) -> None:
    """Hold the input ``held`` until the table confirms the seat's hand."""
    counted = state.hands[seat]
    state.count_check = CountCheck(seat=seat, counted=counted, needs=needs, held=held)
    report.tell("count_check", seat=seat, counted=counted, needs=needs)


def confirm_count(state: BattleState, data: dict[str, Any], report: Report, rerun: Rerun) -> None:
    """The table says how many cards a seat holds; a play held for that seat's count runs again."""
    seat, cards = data["seat"], data["cards"]
    if not 0 <= cards <= 200:
        raise Refused("count_out_of_range", cards=cards)
    check, pending = state.count_check, state.pending
    held = check if check is not None and check.seat == seat else None
    # Cards already on the pile whose play is not final are still in the companion's count.
    on_table = held.needs if held else (len(pending.cards) if pending and pending.seat == seat else 0)
    counted = state.hands[seat] - on_table
    state.hands[seat] = cards + on_table
    report.tell("count", seat=seat, cards=cards, counted=counted)
    if held:
        state.count_check = None
        _replay_held(state, held.held, report, rerun)


def _replay_held(state: BattleState, held: Held, report: Report, rerun: Rerun) -> None:
    """Apply the play that waited for the count; if it no longer stands, say why and keep the count."""
    before, told = copy.deepcopy(state), len(report.told)
    try:
        rerun(state, held, report)
    except Refused as refused:
        for name in state.__dataclass_fields__:
            setattr(state, name, getattr(before, name))
        del report.told[told:]
        report.tell("held_refused", reason=refused.code, facts=refused.data)


def drop_stale_check(state: BattleState, key: str) -> None:
    """A held play whose cards were taken back no longer needs its question answered."""
    check = state.count_check
    if check is None:
        return
    held = check.held
    if (held.kind == "resolve" and not state.pending) or (held.kind == "card_seen" and held.card == key):
        state.count_check = None
