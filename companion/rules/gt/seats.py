"""Seats: their names in sentences, seat numbers read from an input's data, order round the table.

Seats are numbered 1..N clockwise; "left" is the next seat number. Per-seat lists in the state
(``hands``, ``identity``, ``points``...) are indexed seat-1.
"""
from __future__ import annotations

from typing import Any

from ..base import State
from .report import Refuse

LEFT, RIGHT = 1, -1  # state["direction"]: play moves to the next seat number, or the previous one


def name(state: State, seat: int | None) -> str:
    """How outcomes and refusals name a seat: "Ann (seat 1)"."""
    if seat is None:
        return "no one"
    return f"{state['seats'][seat - 1]['name']} (seat {seat})"


def names(state: State, seats: list[int]) -> str:
    return ", ".join(name(state, s) for s in seats) or "no one"


def short(state: State, seat: int) -> str:
    """How the tablet's buttons name a seat: just the player's name."""
    return state["seats"][seat - 1]["name"]


def seat_number(state: State, value: Any, what: str) -> int:
    """A seat of this table from an input's value (a number, or digits from the tablet)."""
    n = len(state["seats"])
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise Refuse(f"{what} must name a seat 1-{n}, not {value!r}.") from None
    if isinstance(value, bool) or not 1 <= seat <= n:
        raise Refuse(f"{what} must name a seat 1-{n}, not {value!r}.")
    return seat


def data_seat(state: State, data: dict, field_name: str) -> int:
    """The seat an input's data names in ``field_name`` ("seat", "target", "by", "dealer")."""
    if field_name not in data:
        raise Refuse(f"This input needs \"{field_name}\": a seat number 1-{len(state['seats'])}.")
    return seat_number(state, data[field_name], f"\"{field_name}\"")


def left_of(state: State, seat: int) -> int:
    return seat % len(state["seats"]) + 1


def identities_missing(state: State) -> list[int]:
    """Seats that have not shown their identity card this round, from the dealer's left: the
    order in which the covered scan tray serves them."""
    n = len(state["seats"])
    order = [(state["dealer"] + i - 1) % n + 1 for i in range(1, n + 1)]
    return [s for s in order if state["identity"][s - 1] is None]
