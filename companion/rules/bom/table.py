"""What the camera (or a seat's RFID reader) sees on the table, and which seat's play it is.

State kept here:
- ``table``: card key -> the zones it is seen in right now, for cards of the battle being fought.
  A seat's play is the cards seen in its zone, so a card that flickers (seen, gone, seen) is one
  play, and a card a player takes back is no longer played.
- ``held``: cards already committed to this battle by an earlier round (a mounting battle); they
  stay in the battle even if the camera loses them.
- ``collecting``: cards of a resolved battle still on the table while the winner gathers them.
  Seeing them again (in any zone) starts no new play; once a card has gone, seeing it later is a
  new play (after a reshuffle it is in someone's BATTALION again).
A card seen in two seats' zones at once (a duplicated tag, or a card pushed across a line) is a
conflict: it belongs to neither play until one of the two is gone.
"""
from __future__ import annotations


from ..contract import zone_seat
from .state import BomState as State


def see(state: State, key: str, zone: str) -> str:
    """Record a card seen in a zone; returns "collecting" (a resolved battle's card), "again"
    (already seen there), or "on" (now on the battlefield)."""
    if key in state.collecting:
        zones = state.collecting[key]
        if zone not in zones:
            zones.append(zone)
        return "collecting"
    zones = state.table.setdefault(key, [])
    if zone in zones:
        return "again"
    zones.append(zone)
    return "on"


def gone(state: State, key: str, zone: str) -> bool:
    """Record a card leaving a zone; False when it was not seen there."""
    for where in (state.collecting, state.table):
        zones = where.get(key)
        if zones and zone in zones:
            zones.remove(zone)
            if not zones:
                del where[key]
            return True
    return False


def owners(zones: list[str]) -> list[int]:
    return sorted({seat for seat in map(zone_seat, zones) if seat is not None})


def conflicts(state: State) -> list[tuple[str, list[str], list[int]]]:
    """Cards of the current battle seen in two seats' zones at once: (card, zones, seats)."""
    found = []
    for key, zones in state.table.items():
        seats = owners(zones)
        if len(seats) > 1:
            found.append((key, list(zones), seats))
    return found


def plays(state: State) -> dict[int, list[str]]:
    """Each seat's cards in the current round, in the order they arrived (conflicts and cards
    held from an earlier round left out)."""
    by_seat: dict[int, list[str]] = {}
    for key, zones in state.table.items():
        seats = owners(zones)
        if len(seats) == 1 and key not in state.held:
            by_seat.setdefault(seats[0], []).append(key)
    return by_seat


def hold_round(state: State) -> None:
    """A mounting battle goes on: this round's cards stay in the battle, but are no longer a play."""
    for cards in plays(state).values():
        state.held.extend(cards)


def set_aside(state: State, keys: list[str]) -> None:
    """Cards shown for a command, not played (a seat's POWER cards): they are being collected."""
    for key in keys:
        state.collecting[key] = state.table.pop(key)


def clear_seat(state: State, seat: int) -> None:
    """Forget a seat's current cards (they go back to their owner: the timer ended the battle)."""
    set_aside(state, plays(state).get(seat, []))


def close_battle(state: State) -> list[str]:
    """The battle is over: every card on the battlefield is now being collected. Returns the
    cards that were still seen."""
    closing = list(state.table)
    for key, zones in state.table.items():
        state.collecting[key] = zones
    state.table = {}
    state.held = []
    state.battle_keys = []
    return closing
