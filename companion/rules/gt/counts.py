"""Hand counts: the companion cannot see hands, so it counts them, and asks when a play does not fit.

``state["hands"]`` starts at the deal's cards per player and follows every draw, discard and play
(the identity card is never counted). A play of more cards than the count says a seat holds is
not refused: the count may be wrong (a misdeal, a missed draw). It is held in
``state["count_check"]`` (``{"seat", "counted", "needs", "then"}``, ``then`` being the held input)
until the table answers ``confirm_count``; the held input is then run again, and if it no longer
stands the count is kept and the reason shown.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

from ..base import State
from . import seats
from .cards import Deck
from .report import Refuse, Report

# Runs an input again through the referee's gate and handler: rerun(state, kind, data, report).
Rerun = Callable[[State, str, dict[str, Any], Report], None]


def hold_for_count(state: State, seat: int, needs: int, then: dict, report: Report) -> None:
    """Hold the input ``then`` (``{"kind", "data"}``) until the table confirms the seat's hand."""
    counted = state["hands"][seat - 1]
    state["count_check"] = {"seat": seat, "counted": counted, "needs": needs, "then": then}
    report.say("count_check", f"{seats.name(state, seat)} plays {needs} card(s), but the companion counted "
                              f"{counted} in their hand. {question(state, state['count_check'])}",
               seat=seat, counted=counted, needs=needs)


def question(state: State, check: dict) -> str:
    return (f"How many cards does {seats.name(state, check['seat'])} hold in hand now (not counting the "
            f"identity card)? Answer with confirm_count.")


def confirm_count(deck: Deck, state: State, data: dict, report: Report, rerun: Rerun) -> None:
    """The table says how many cards a seat holds; a play held for that seat's count runs again."""
    seat = seats.data_seat(state, data, "seat")
    cards = data.get("cards")
    if isinstance(cards, str) and cards.isdigit():  # from the tablet's number picker
        cards = int(cards)
    if not isinstance(cards, int) or isinstance(cards, bool) or not 0 <= cards <= 200:
        raise Refuse(f"confirm_count needs \"cards\": the number of cards in hand (0 or more), not {cards!r}.")
    check, pending = state["count_check"], state["pending"]
    held = bool(check) and check["seat"] == seat
    # Cards already on the pile whose play is not final are still in the companion's count.
    on_table = check["needs"] if held else (len(pending["cards"]) if pending and pending["seat"] == seat else 0)
    counted = state["hands"][seat - 1] - on_table
    state["hands"][seat - 1] = cards + on_table
    report.say("count", f"{seats.name(state, seat)} holds {cards} card(s) in hand (the companion had counted "
                        f"{max(counted, 0)}).", seat=seat, cards=cards, counted=counted)
    if held:
        state["count_check"] = None
        _replay_held(state, check["then"], report, rerun)


def _replay_held(state: State, held: dict, report: Report, rerun: Rerun) -> None:
    """Apply the play that waited for the count; if it no longer stands, say why and keep the count."""
    before = copy.deepcopy(state)
    try:
        rerun(state, held["kind"], held["data"], report)
    except Refuse as exc:
        state.clear()
        state.update(before)
        report.say("held_refused", f"The play that waited for the count does not stand: {exc}")


def drop_stale_check(state: State, key: str) -> None:
    """A held play whose cards were taken back no longer needs its question answered."""
    check = state["count_check"]
    if not check:
        return
    held = check["then"]
    if (held["kind"] == "resolve" and not state["pending"]) or \
            (held["kind"] == "card_seen" and held["data"].get("card") == key):
        state["count_check"] = None
