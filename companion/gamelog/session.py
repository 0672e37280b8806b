"""A game in progress: its log, its derived state, and the people watching it.

``fold(events)`` is the whole referee: it starts the game from the log's ``start`` event and
applies every later event through the ruleset, recording for each whether it was applied,
refused (and why) or undone. It is pure and deterministic, so replaying an exported log, or
restarting after a power cut, gives exactly the same state.

``Session`` wraps a fold around the SQLite store: ``submit`` appends the input durably first,
then applies it, then tells every subscriber (the dashboard's event stream). A restart and an
undo start from a snapshot (snapshots.py) instead of the start of the log, to the same result.
"""
from __future__ import annotations

import copy
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from companion import rules
from companion.gamelog.logcheck import LogError, check_start, read_jsonl
from companion.rules import Action, Applied, Refusal, Ruleset, Seat, SetupError, State
from companion.gamelog.store import Event, Store

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


def _undo_target(entries: list[Entry], data: dict[str, Any]) -> tuple[int | None, str]:
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
    undone: set[int] = set()
    undo_entries: dict[int, Entry] = {}
    for index, event in enumerate(events[1:], 1):
        if event.kind != "undo":
            entries.append(_apply(ruleset, state, event))
            state = entries[-1].__dict__.pop("new_state", state)
            continue
        target, reason = _undo_target(entries, event.data)
        if target is None:
            undo_entries[event.seq] = Entry(event, "refused", reason)
        else:
            undone.add(entries[target].event.seq)
            undo_entries[event.seq] = _undo_entry(event, entries[target])
            # Re-derive without the undone events (the session starts from a snapshot instead).
            state, entries = _rebuild(ruleset, events[: index], undone, undo_entries)
        entries.append(undo_entries[event.seq])
    return Derived(ruleset, state, entries, events[0].data)


def _undo_entry(event: Event, target: Entry) -> Entry:
    return Entry(event, "undo", outcomes=[{
        "kind": "undo", "say": f"Undid #{target.event.seq} ({target.event.kind}).",
        "terms": [], "data": {"seq": target.event.seq}}])


def _apply(ruleset: Ruleset, state: State, event: Event) -> Entry:
    """Apply one event; the new state, if any, rides on the entry as ``new_state`` until taken."""
    action = Action(event.kind, event.data, event.source, event.seq)
    try:
        result = ruleset.apply(copy.deepcopy(state), action)
    except Exception as exc:  # a referee bug must never brick the log: refuse, the same way on every replay
        log.exception("the %s referee failed on event %s", ruleset.title, event.seq)
        return Entry(event, "refused", f"the {ruleset.title} referee could not take this input "
                                       f"({type(exc).__name__}: {exc}); it was ignored and nothing changed")
    if isinstance(result, Refusal):
        return Entry(event, "refused", result.reason)
    if not isinstance(result, Applied):
        raise TypeError(f"{type(ruleset).__name__}.apply returned {result!r}")
    entry = Entry(event, "applied", outcomes=[o.as_dict() for o in result.outcomes], reveals=result.reveals)
    entry.new_state = result.state  # type: ignore[attr-defined]
    return entry


def step(ruleset: Ruleset, state: State, event: Event) -> tuple[Entry, State]:
    """One event through the referee as the session takes it: what it made of the event, and the
    state the session keeps afterwards (the old one, untouched, when the event was refused)."""
    entry = _apply(ruleset, state, event)
    return entry, entry.__dict__.pop("new_state", state)


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
            entries.append(_apply(ruleset, state, event))
            state = entries[-1].__dict__.pop("new_state", state)
    return state, entries


# -- JSONL export / import ------------------------------------------------------------------------
def to_jsonl(events: Iterable[Event]) -> str:
    return "".join(json.dumps(e.as_dict(), sort_keys=True) + "\n" for e in events)


def from_jsonl(text: str, source: str = "<log>") -> list[Event]:
    """A JSONL log's events, every line checked (see companion/gamelog/logcheck.py)."""
    return read_jsonl(text, source)


def replay_report(derived: Derived) -> dict[str, Any]:
    """What ``companion replay`` prints: every outcome and the final standings."""
    outcomes = [{"seq": e.event.seq, **o} for e in derived.entries if e.status == "applied" for o in e.outcomes]
    refused = [{"seq": e.event.seq, "kind": e.event.kind, "reason": e.reason}
               for e in derived.entries if e.status == "refused"]
    view = derived.ruleset.public_view(derived.state)
    return {"game": derived.start["game"], "options": view.get("options", derived.start.get("options", {})),
            "outcomes": outcomes, "refused": refused, "standings": view.get("standings", []),
            "over": derived.ruleset.is_over(derived.state), "winner": view.get("winner")}


# -- the live session -----------------------------------------------------------------------------
@dataclass
class Submitted:
    event: Event
    entry: Entry

    @property
    def ok(self) -> bool:
        return self.entry.status in ("applied", "undo")

    def as_dict(self) -> dict[str, Any]:
        return self.entry.as_dict()


class Session:
    """The game at the table. Thread-safe: the camera, readers and dashboard all submit here."""

    def __init__(self, store: Store, game_id: int, clock: Callable[[], float] = time.time):
        self.store = store
        self.game_id = game_id
        self.clock = clock
        self._lock = threading.RLock()
        self._subscribers: list[queue.Queue] = []
        self.listeners: list[Callable[[], None]] = []  # told of every change (e.g. the hub publisher)
        from companion.gamelog.snapshots import Snapshots  # it builds on this module's fold

        self.snapshots = Snapshots(store, game_id)
        self.derived = self.snapshots.resume()
        self.last_table_change = clock()
        self.last_table_source = ""  # who reported it: the camera's own stillness may then settle it
        # After a restart the log remembers cards the table may no longer hold: nothing resolves on
        # its own until the camera (or a reader) has reported the table again.
        self.table_seen = False

    @classmethod
    def start(cls, store: Store, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
              deck: Any = None, source: str = "dashboard", clock: Callable[[], float] = time.time) -> "Session":
        """Check the setup, then open a new game whose log begins with its start event."""
        data: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}}
        if deck is not None:
            # A custom deck is recorded whole, so the log replays anywhere, without the file.
            try:
                catalog = rules.load_catalog(game, deck)
            except SetupError as exc:
                raise LogError(str(exc)) from None
            data["deck"] = {**catalog.to_json(), "source": catalog.source}
        probe = Event(1, clock(), "start", source, data)
        ruleset, _ = start_ruleset(probe)  # raises LogError with the reason; nothing is written
        data["options"] = ruleset.resolve_options(data["options"])
        game_id = store.begin_game(game, [Event(1, clock(), "start", source, data)])  # one transaction
        return cls(store, game_id, clock)

    @classmethod
    def resume(cls, store: Store, clock: Callable[[], float] = time.time) -> "Session | None":
        game_id = store.latest_game()
        return None if game_id is None else cls(store, game_id, clock)

    # -- reading --------------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return self.derived.ruleset

    @property
    def state(self) -> State:
        return self.derived.state

    def public_view(self) -> dict[str, Any]:
        with self._lock:
            return public_view(self.derived, self.game_id)

    def seat_view(self, seat: int) -> dict[str, Any]:
        with self._lock:
            return {"game_id": self.game_id, "seat": seat, **self.ruleset.seat_view(self.state, seat)}

    def history(self) -> list[dict[str, Any]]:
        """The log as the public may see it (secret cards redacted by the ruleset)."""
        with self._lock:
            return [public_entry(e, self.ruleset) for e in self.derived.entries]

    def events(self) -> list[Event]:
        return self.store.events(self.game_id)

    def export_jsonl(self) -> str:
        return to_jsonl(self.events())

    # -- writing --------------------------------------------------------------------------------
    def submit(self, kind: str, data: dict[str, Any] | None = None, source: str = "dashboard") -> Submitted:
        """Log the input durably, then apply it. Returns what the referee made of it."""
        data = data or {}
        with self._lock:
            event = self.store.append(self.game_id, kind, data, source, self.clock())
            self.derived = self.snapshots.advance(self.derived, event, self.events)
            entry = self.derived.entries[-1]
            if kind in TABLE_KINDS:
                self.last_table_change = self.clock()
                self.last_table_source = source
                self.table_seen = True
            if entry.status == "applied" and self.ruleset.is_over(self.state):
                self.store.checkpoint()  # a game's end is a safe point: companion.db alone holds it
            self._publish({"type": "event", "entry": public_entry(entry, self.ruleset)})
            return Submitted(event, entry)

    def maybe_auto_resolve(self, settle_seconds: float, quick_seconds: float | None = None,
                           still_for: float | None = None) -> Submitted | None:
        """Resolve without a tap once every active seat has played and the table has been still.

        Without a camera watching (``still_for`` None): ``settle_seconds`` after the last card
        seen or gone, or ``quick_seconds`` when every play is complete by the rules (nothing could
        still be added). With one, ``still_for`` is how long it has seen nothing move over the
        table, and ``quick_seconds`` of that will do for every play: a card added to a play is
        carried there by a hand the camera sees, and the rulebooks have each play put down at
        once ("all players take their chosen card(s) to battle by placing them faceup in the
        center"). The camera's stillness counts from the card coming to rest, not from the
        moment its tag was confirmed; a reader's card (which the camera does not see) still
        waits ``quick_seconds`` after it. Never again a resolve the players undid while the
        table stays as it was."""
        with self._lock:
            if not self.table_seen or self.ruleset.is_over(self.state) or not self.ruleset.ready_to_resolve(self.state):
                return None
            if resolve_undone(self.derived.entries) or not self._settled(settle_seconds, quick_seconds, still_for):
                return None
            return self.submit("resolve", {}, source="auto")

    def _settled(self, settle_seconds: float, quick_seconds: float | None, still_for: float | None) -> bool:
        since = self.clock() - self.last_table_change
        if quick_seconds is None:
            return since >= settle_seconds
        quick = min(quick_seconds, settle_seconds)
        camera_still = still_for is not None and still_for >= quick
        if camera_still and self.last_table_source == "camera":
            return True
        return since >= (quick if camera_still or plays_complete(self.ruleset, self.state) else settle_seconds)

    def close(self) -> None:
        """At shutdown: a last snapshot, so the next start folds nothing."""
        with self._lock:
            self.snapshots.close(self.derived)

    # -- watching -------------------------------------------------------------------------------
    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(maxsize=1000)
        with self._lock:
            self._subscribers.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            if q in self._subscribers:
                self._subscribers.remove(q)

    def _publish(self, message: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener()
        message = {**message, "view": self.public_view()}
        for q in list(self._subscribers):
            try:
                q.put_nowait(message)
            except queue.Full:  # a watcher that stopped reading: drop it rather than stall the table
                self.unsubscribe(q)


def plays_complete(ruleset: Ruleset, state: State) -> bool:
    """The game's ``plays_complete`` hook (contract.Game), False for a referee without one."""
    hook = getattr(ruleset, "plays_complete", None)
    return bool(hook is not None and hook(state))


def resolve_undone(entries: list[Entry]) -> bool:
    """True when the latest undo took back a resolve and the table has not changed since: the
    players took that result back, so the same cards must not be resolved again on their own."""
    for entry in reversed(entries):
        if entry.event.kind in TABLE_KINDS or (entry.event.kind == "resolve" and entry.status == "applied"):
            return False
        if entry.status == "undo":
            target = entry.outcomes[0]["data"]["seq"] if entry.outcomes else None
            return any(e.event.seq == target and e.event.kind == "resolve" for e in entries)
    return False


def public_view(derived: Derived, game_id: int) -> dict[str, Any]:
    """What the table's tablet and every watcher see of a game."""
    return {"game_id": game_id, "game": derived.start["game"], "title": derived.ruleset.title,
            "started": derived.entries[0].event.ts, "actions": derived.ruleset.actions(derived.state),
            "uses_resolve": derived.ruleset.uses_resolve,
            **derived.ruleset.public_view(derived.state)}


def public_entry(entry: Entry, ruleset: Ruleset) -> dict[str, Any]:
    """A log entry as every watcher may see it: the ruleset redacts secret cards."""
    d = entry.as_dict()
    d["data"] = ruleset.redact(d["kind"], d["data"]) if isinstance(d["data"], dict) else {}
    if isinstance(d["data"].get("card"), str):
        d["card_name"] = ruleset.card_name(d["data"]["card"])
    return d


def open_store(data_dir: str | Path) -> Store:
    return Store(Path(data_dir) / "companion.db")
