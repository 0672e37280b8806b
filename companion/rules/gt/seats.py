"""Seats: their names in refusals and outcomes, and the order identity cards are shown in.

Seats are numbered 1..N clockwise; turn order is the contract's (``state.left_of``, ``clockwise``).
The view names seats the same way (``name``), so a refusal and an outcome speak of "Ann (seat 1)" alike.
"""
from __future__ import annotations

from .state import BattleState


def name(state: BattleState, seat: int | None) -> str:
    """How sentences name a seat: "Ann (seat 1)"."""
    if seat is None:
        return "no one"
    return f"{state.name(seat)} (seat {seat})"


def names(state: BattleState, seats: list[int]) -> str:
    return ", ".join(name(state, s) for s in seats) or "no one"


def identities_missing(state: BattleState) -> list[int]:
    """Seats that have not shown their identity card this round, from the dealer's left: the
    order in which the covered scan tray serves them."""
    return [s for s in state.clockwise(state.left_of(state.dealer)) if s not in state.identity]

