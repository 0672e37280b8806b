"""The fold: a game's state derived from its log, one event at a time, undo included.

``fold(events)`` is the whole referee: it starts the game from the log's ``start`` event and
applies every later event through the ruleset, recording for each whether it was applied,
refused (and why) or undone. It is pure and deterministic, so replaying an exported log, or
restarting after a power cut, gives exactly the same state. The session (session.py) and the
snapshots (snapshots.py) both fold through this module; undo is written once, here.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from companion import rules
from companion.gamelog.logcheck import LogError, check_start
from companion.gamelog.store import Event
from companion.rules import Action, Applied, Refusal, Ruleset, Seat, SetupError, State
from companion.rules.statecopy import copy_state

log = logging.getLogger(__name__)

# Inputs from the table itself: they record what is physically there, so they are never undone
# (take the card away instead).
TABLE_KINDS = {"card_seen", "card_gone"}
NOT_UNDOABLE = TABLE_KINDS | {"start", "undo"}
NOTHING_TO_UNDO = ("there is nothing to undo yet: undo takes back a command (a button, a resolve); cards the "
                   "camera saw are what lies on the table, so to take one back, take the card away")


@dataclass
class Entry:
    """One event of the log and what the referee made of it."""

    event: Event
    status: str = "applied"  # applied | refused | undone | undo
    reason: str = ""
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    reveals: bool = False
    # A refusal whose public ``reason`` leaves a secret out keeps its full words for the seat it
    # concerns (shown only on that seat's page, never in ``as_dict``).
    seat: int | None = None
    private: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {**self.event.as_dict(), "status": self.status, "reason": self.reason,
                "outcomes": self.outcomes, "reveals": self.reveals}


@dataclass
class Derived:
    ruleset: Ruleset
    state: State
    entries: list[Entry]
    start: dict[str, Any]


def start_ruleset(start: Event) -> tuple[Ruleset, State]:
    data = start.data
    check_start(start)
    try:
        ruleset = rules.make(data["game"], data.get("deck"))
        seats = [Seat(int(s["seat"]), str(s["name"])) for s in data["seats"]]
        options = ruleset.resolve_options(data.get("options", {}))
        return ruleset, ruleset.setup(seats, options)
    except KeyError as exc:
        raise LogError(f"event {start.seq}: the start event lacks {exc}") from None
    except SetupError as exc:
        raise LogError(f"event {start.seq}: {exc}") from None


def check_order(events: list[Event]) -> None:
    """seq is an event's position in its game's log: 1, 2, 3... strictly increasing."""
    previous = 0
    for event in events:
        if type(event.seq) is not int or event.seq <= previous:
            raise LogError(f"event after #{previous}: its seq {event.seq!r} does not follow #{previous}; "
                           f"seq numbers the log's events in order")
        previous = event.seq


def undo_target(entries: list[Entry], data: dict[str, Any]) -> tuple[int | None, str]:
    """The entry index an undo takes back, or None and the reason it cannot."""
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if entry.reveals and entry.status == "applied":
            return None, (f"cannot undo across #{entry.event.seq} ({entry.event.kind}): it showed hidden "
                          f"information that cannot be taken back")
        if entry.status == "applied" and entry.event.kind not in NOT_UNDOABLE:
            wanted = data.get("seq")
            if wanted is not None and wanted != entry.event.seq:
                return None, f"only the latest command (#{entry.event.seq}) can be undone, not #{wanted}"
            return index, ""
    return None, NOTHING_TO_UNDO


def fold(events: Iterable[Event]) -> Derived:
    """Derive a game's state from its log. Deterministic: same log, same result."""
    events = list(events)
    if not events:
        raise LogError("the game log is empty")
    check_order(events)
    ruleset, state = start_ruleset(events[0])
    entries = [Entry(events[0])]
    for index, event in enumerate(events[1:], 1):
        if event.kind == "undo":
            state, entries = undo(ruleset, state, entries, event, events[:index])
        else:
            entry, state = step(ruleset, state, event)
            entries.append(entry)
    return Derived(ruleset, state, entries, events[0].data)


# A base to fold again from after an undo: the state and entries of a log's first events, folded
# with the same events undone (the snapshots keep some). Given the event taken back and every
# event undone with it; None means fold again from the start.
BaseFor = Callable[[int, set[int]], "tuple[State, list[Entry]] | None"]


def undo(ruleset: Ruleset, state: State, entries: list[Entry], event: Event, before: list[Event],
         base_for: BaseFor | None = None) -> tuple[State, list[Entry]]:
    """Take ``event`` (an undo) into a game whose log up to it is ``before``: either refused, with
    the reason, or the latest command taken back by folding the log again without it."""
    target, reason = undo_target(entries, event.data)
    if target is None:
        return state, [*entries, Entry(event, "refused", reason)]
    target_seq = entries[target].event.seq
    undone = {e.event.seq for e in entries if e.status == "undone"} | {target_seq}
    undo_entries = {e.event.seq: e for e in entries if e.event.kind == "undo"}
    base = base_for(target_seq, undone) if base_for else None
    state, rebuilt = _rebuild(ruleset, before, undone, undo_entries, base)
    rebuilt.append(_undo_entry(event, entries[target]))
    return state, rebuilt


def _undo_entry(event: Event, target: Entry) -> Entry:
    return Entry(event, "undo", outcomes=[{
        "kind": "undo", "say": f"Undid #{target.event.seq} ({target.event.kind}).",
        "terms": [], "data": {"seq": target.event.seq}}])


def step(ruleset: Ruleset, state: State, event: Event) -> tuple[Entry, State]:
    """One event through the referee: what it made of the event, and the state afterwards (the old
    one, untouched, when the event was refused).

    The referee works on a copy planned from the state's field types (rules/statecopy.py), as deep
    as ``copy.deepcopy`` for a state that is a tree of typed data (which snapshots already require)
    and 5-10x cheaper: this copy is made for every input of every fold, replay and undo."""
    action = Action(event.kind, event.data, event.source, event.seq)
    try:
        result = ruleset.apply(copy_state(state), action)
    except Exception as exc:  # a referee bug must never brick the log: refuse, the same way on every replay
        log.exception("the %s referee failed on event %s", ruleset.title, event.seq)
        return Entry(event, "refused", f"the {ruleset.title} referee could not take this input "
                                       f"({type(exc).__name__}: {exc}); it was ignored and nothing changed"), state
    if isinstance(result, Refusal):
        return Entry(event, "refused", result.reason, seat=result.seat, private=result.private), state
    if not isinstance(result, Applied):
        raise TypeError(f"{type(ruleset).__name__}.apply returned {result!r}")
    entry = Entry(event, "applied", outcomes=[o.as_dict() for o in result.outcomes], reveals=result.reveals)
    return entry, result.state


def _rebuild(ruleset: Ruleset, events: list[Event], undone: set[int], undo_entries: dict[int, Entry],
             base: tuple[State, list[Entry]] | None = None) -> tuple[State, list[Entry]]:
    """Fold ``events`` again skipping the undone ones, from the start or from ``base``: the state
    and entries of the first ``len(entries)`` events, folded with the same undone events."""
    if base is None:
        _, state = start_ruleset(events[0])
        entries = [Entry(events[0])]
    else:
        state, entries = base[0], list(base[1])
    for event in events[len(entries):]:
        if event.seq in undone:
            entries.append(Entry(event, "undone"))
        elif event.kind == "undo":
            entries.append(undo_entries[event.seq])
        else:
            entry, state = step(ruleset, state, event)
            entries.append(entry)
    return state, entries
