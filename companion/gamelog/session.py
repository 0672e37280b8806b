"""A game in progress: its log, its derived state (folded by fold.py), and the people watching it.

``Session`` wraps a fold around the SQLite store: ``submit`` appends the input durably first,
then applies it, then tells every subscriber (the dashboard's event stream). A restart and an
undo start from a snapshot (snapshots.py) instead of the start of the log, to the same result.
"""
from __future__ import annotations

import json
import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from companion import rules
from companion.gamelog.fold import (
    TABLE_KINDS,
    Derived,
    Entry,
    start_ruleset,
)
from companion.gamelog.logcheck import LogError, read_jsonl
from companion.gamelog.snapshots import Snapshots
from companion.gamelog.store import Event, Store
from companion.rules import Ruleset, SetupError, State

log = logging.getLogger(__name__)


# -- JSONL export / import ------------------------------------------------------------------------
def to_jsonl(events: Iterable[Event]) -> str:
    return "".join(json.dumps(e.as_dict(), sort_keys=True, allow_nan=False) + "\n" for e in events)


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
        self._told_later: list[dict[str, Any]] | None = None  # while submit_all runs: what it will tell

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
            return {"game_id": self.game_id, "seat": seat, **self.ruleset.seat_view(self.state, seat),
                    "refused": self._refused_for(seat)}

    def _refused_for(self, seat: int, last: int = 3) -> list[dict[str, Any]]:
        """This seat's latest refusals in full (the public history words a secret one without it)."""
        mine: list[Entry] = []
        for e in reversed(self.derived.entries):  # from the latest: a seat's page is asked after every input
            if e.status == "refused" and e.seat == seat:
                mine.append(e)
                if len(mine) == last:
                    break
        return [{"seq": e.event.seq, "kind": e.event.kind, "reason": e.private or e.reason} for e in reversed(mine)]

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
            try:
                event = self.store.append(self.game_id, kind, data, source, self.clock())
            except LogError as exc:  # a number the log cannot hold: refused before anything is written
                unlogged = Event(0, self.clock(), kind, source, {})
                return Submitted(unlogged, Entry(unlogged, "refused", f"this input was not taken: {exc}"))
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

    def submit_all(self, inputs: list[tuple[str, dict[str, Any], str]]) -> list[Submitted]:
        """Inputs that arrived together (the cards one camera frame confirmed), each logged durably
        and applied in turn as ``submit`` does; the watchers are then told of them together, with
        the view after the last. A frame that confirms a whole battle's cards so computes one public
        view, not one per card (each is a few to tens of milliseconds that the camera's next frame
        would otherwise wait for)."""
        with self._lock:
            self._told_later = []
            try:
                return [self.submit(kind, data, source) for kind, data, source in inputs]
            finally:
                told, self._told_later = self._told_later, None
                if told:
                    self._tell(told)

    def maybe_auto_resolve(self, settle_seconds: float, quick_seconds: float | None = None,
                           camera_still: bool | None = None) -> Submitted | None:
        """Resolve without a tap once every active seat has played and the table has been still.

        Without a camera watching (``camera_still`` None): ``settle_seconds`` after the last card
        seen or gone, or ``quick_seconds`` when every play is complete by the rules (nothing could
        still be added). With one, ``camera_still`` says whether its latest frames have shown the
        table still (companion/scan/stillness.py: frames in a row with nothing moving and every
        card read where it lay), and a change the camera reported is settled by that alone, for
        every play: a card added to a play is carried there by a hand the camera sees, and the
        rulebooks have each play put down at once ("all players take their chosen card(s) to
        battle by placing them faceup in the center"). A card the camera holds but no longer
        reads (lifted straight back) keeps the table unsettled until it is reported gone. Should
        the camera never see the table still (a hand keeps moving), ``settle_seconds`` after the
        last change will do. A reader's card, which the camera does not see come to rest, waits
        ``quick_seconds`` after it once the camera sees the table still. Never again a resolve
        the players undid while the table stays as it was."""
        with self._lock:
            if not self.table_seen or self.ruleset.is_over(self.state) or not self.ruleset.ready_to_resolve(self.state):
                return None
            if resolve_undone(self.derived.entries) or not self._settled(settle_seconds, quick_seconds, camera_still):
                return None
            return self.submit("resolve", {}, source="auto")

    def _settled(self, settle_seconds: float, quick_seconds: float | None, camera_still: bool | None) -> bool:
        since = self.clock() - self.last_table_change
        if quick_seconds is None:
            return since >= settle_seconds
        quick = min(quick_seconds, settle_seconds)
        if camera_still is None:  # no camera watching: the clock after the last card, as readers need
            return since >= (quick if plays_complete(self.ruleset, self.state) else settle_seconds)
        if self.last_table_source == "camera":  # the camera saw the change: its frames decide
            return camera_still or since >= settle_seconds
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
        if self._told_later is not None:  # inside submit_all: told with the others at its end
            self._told_later.append(message)
            return
        self._tell([message])

    def _tell(self, messages: list[dict[str, Any]]) -> None:
        for listener in list(self.listeners):
            listener()
        view = self.public_view()
        for message in messages:
            message = {**message, "view": view}
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
