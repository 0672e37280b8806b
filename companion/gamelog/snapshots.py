"""Snapshots of a folded game, so that a restart and an undo do not fold the whole log again.

A snapshot at seq k is what ``fold(events[:k])`` makes: the state after event k and what the fold
made of each event up to k (its entries). The log never changes, so a snapshot stays true of the
log's first k events for as long as the code that folded it is the running code; the fingerprint
(a hash of the referee's source, the deck, and the fold's) says which code that was, and the digest
(a hash of what the row holds, with its game and seq) that the row is still what was written: a
byte flipped on the way to the disk or on it may leave JSON that parses and decodes. A snapshot
that does not match either, or does not decode, is ignored (a damaged one is logged as a warning)
and deleted: the log is the truth, a snapshot only a cache, and ``fold`` in session.py stays the
reference that replay and the tests use.

- **Taking**: every ``every`` events the session hands the derived game here; the state and the
  list of entries are kept in memory as they are (a ruleset never changes a state it was given:
  ``apply`` works on a copy), and written to the store's ``snapshots`` table by a background thread.
  A stored snapshot holds the state, and the entries *since the previous stored snapshot* (whose
  seq it names): the entries before it are that one's, so taking a snapshot costs the same at
  event 10,000 as at event 300, and a game's snapshots hold each entry once.
- **Resuming**: the latest valid snapshot (its entries gathered along the chain), then the events
  after it.
- **Undo**: the fold re-derives the game without the undone event. It starts from the latest
  snapshot before that event whose undone events are the same as now, instead of from the start;
  snapshots at or after the undone event are dropped (they no longer describe the game as it
  stands, with that event undone).
"""
from __future__ import annotations

import gc
import hashlib
import hmac
import json
import logging
import sqlite3
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.gamelog.fold import (
    Derived,
    Entry,
    check_order,
    fold,
    start_ruleset,
    step,
    undo,
)
from companion.gamelog.logcheck import LogError
from companion.gamelog.statecodec import (
    CodecError,
    decode_state,
    encode_plain,
    encode_state,
    loads,
)
from companion.gamelog.store import Event, Store
from companion.rules import Ruleset, State

log = logging.getLogger(__name__)

EVERY = 100   # events between two snapshots: a resume folds at most this many (docs/benchmarks.md)
KEEP = 8      # snapshots kept in memory; older ones are read back from the table when an undo needs them

_HERE = Path(__file__).resolve().parent
_PACKAGE = _HERE.parent  # companion/
# The code a snapshot depends on: every referee (wider than one game's, so that a shared helper
# changing is never missed), the card catalogs' code, the fold, and the snapshot format itself.
_CODE = [*sorted((_PACKAGE / "rules").rglob("*.py")), *sorted((_PACKAGE.parent / "card_tags").rglob("*.py")),
         _HERE / "fold.py", _HERE / "session.py", _HERE / "snapshots.py", _HERE / "statecodec.py"]
_fingerprints: dict[Any, str] = {}


@dataclass(eq=False)  # one snapshot is itself, not any other with the same contents
class Snapshot:
    seq: int
    state: State
    entries: list[Entry]
    undone: frozenset[int] = field(init=False)
    chain: list[int] = field(init=False, default_factory=list)  # stored: its seq and those before it
    dropped: bool = field(init=False, default=False)   # an undo took back an event it holds

    def __post_init__(self) -> None:
        self.undone = frozenset(e.event.seq for e in self.entries if e.status == "undone")


def fingerprint(ruleset: Ruleset) -> str:
    """Names the code and deck that fold this game: a snapshot folded by other code is ignored."""
    catalog = getattr(ruleset, "catalog", None)
    deck = json.dumps(catalog.to_json(), sort_keys=True) if hasattr(catalog, "to_json") else ""
    key = (type(ruleset), deck)
    if key not in _fingerprints:
        digest = hashlib.sha256()
        referee = Path(sys.modules[type(ruleset).__module__].__file__).resolve()
        for path in dict.fromkeys([*_CODE, referee]):  # a test's referee lives outside the package
            digest.update(str(path.relative_to(_PACKAGE.parent) if path.is_relative_to(_PACKAGE.parent)
                              else path.name).encode() + b"\0" + path.read_bytes() + b"\0")
        digest.update(deck.encode())
        _fingerprints[key] = digest.hexdigest()[:32]
    return _fingerprints[key]


def digest(game_id: int, seq: int, fingerprint: str, state: str, entries: str) -> str:
    """What a stored snapshot holds, hashed with where it belongs: a row damaged so that it still
    parses (a flag flipped on a failing SD card) no longer matches, and is ignored."""
    h = hashlib.sha256(f"{game_id}:{seq}:{fingerprint}\0".encode())
    h.update(state.encode("utf-8", "surrogatepass") + b"\0" + entries.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


# -- entries as JSON --------------------------------------------------------------------------------
def encode_entries(entries: list[Entry], after: int) -> str:
    """The entries after seq ``after``: each as its status alone when that is all there is (most
    card sightings), else an object."""
    out: list[Any] = []
    for e in entries:
        if not (e.reason or e.outcomes or e.reveals):
            out.append(e.status)
        else:
            item = {"status": e.status, "reason": e.reason, "reveals": e.reveals,
                    "outcomes": encode_plain(e.outcomes, f"#{e.event.seq} outcomes")}
            if e.seat is not None:
                item.update(seat=e.seat, private=e.private)
            out.append(item)
    return json.dumps({"after": after, "entries": out}, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def read_entries(text: str, seq: int) -> tuple[int, list[Any]]:
    """(the seq these entries follow, the entries) of a stored snapshot at ``seq``."""
    data = loads(text)
    if not isinstance(data, dict) or type(data.get("after")) is not int or not isinstance(data.get("entries"), list):
        raise CodecError("not a snapshot's entries")
    after = data["after"]
    if not 0 <= after < seq or len(data["entries"]) != seq - after:
        raise CodecError(f"the entries after #{after} do not reach #{seq}")
    return after, data["entries"]


def decode_entries(items: list[Any], events: list[Event]) -> list[Entry]:
    entries = []
    for event, item in zip(events, items, strict=True):
        if isinstance(item, str):
            item = {"status": item}
        if not isinstance(item, dict) or item.get("status") not in ("applied", "refused", "undone", "undo"):
            raise CodecError(f"#{event.seq}: not an entry")
        seat = item.get("seat")
        entries.append(Entry(event, item["status"], str(item.get("reason", "")), list(item.get("outcomes", [])),
                             bool(item.get("reveals", False)), seat if type(seat) is int else None,
                             str(item.get("private", ""))))
    return entries


# -- one game's snapshots ---------------------------------------------------------------------------
class Snapshots:
    """The snapshots of one game: those taken or loaded in this run in memory, all in the store."""

    def __init__(self, store: Store, game_id: int, every: int | None = None, keep: int | None = None):
        self.store = store
        self.game_id = game_id
        self.every = every or EVERY
        self.keep = keep or KEEP
        self.kept: list[Snapshot] = []        # in memory, oldest first
        self.resumed_from = 0                 # the seq the last resume started from (0: the start)
        self._last = 0                        # seq of the latest snapshot, in memory or stored
        self._fingerprint = ""
        self._stored: set[int] = set()        # seqs stored whose entries a new snapshot may follow
        self._lock = threading.Lock()
        self._writer: threading.Thread | None = None

    # -- folding --------------------------------------------------------------------------------
    def resume(self) -> Derived:
        """The game as ``fold`` makes it from its whole log, from the latest valid snapshot."""
        # Reading a long log makes tens of thousands of objects that all live on: the cyclic
        # garbage collector would rescan them again and again (a third of the time), for nothing.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._resume(self.store.events(self.game_id))
        finally:
            if collecting:
                gc.enable()

    def _resume(self, events: list[Event]) -> Derived:
        if not events:
            return fold(events)  # raises the reason
        check_order(events)
        ruleset, _ = start_ruleset(events[0])
        self._fingerprint = fingerprint(ruleset)
        try:  # a snapshot past the end of the log cannot be of this log (a database put back by hand)
            self.store.drop_snapshots(self.game_id, len(events) + 1)
        except sqlite3.Error as exc:
            log.warning("snapshots of game %s not dropped: %s", self.game_id, exc)
        stored = self._stored_seqs(len(events))
        base = next((s for s in (self._load(seq, events) for seq in stored) if s is not None), None)
        self.resumed_from = self._last = base.seq if base else 0
        if base is None:
            derived = fold(events[:1])
        else:
            self.kept = [base]
            self._stored = set(base.chain)
            derived = Derived(ruleset, base.state, list(base.entries), events[0].data)
        for position in range(len(derived.entries), len(events)):
            derived = self.advance(derived, events[position], lambda p=position: events[: p + 1])
        return derived

    def advance(self, derived: Derived, event: Event, events: Callable[[], list[Event]]) -> Derived:
        """Fold one more event, exactly as ``fold`` does; ``events()`` is the log up to it (for undo)."""
        if event.kind == "undo":
            derived = self._undo(derived, event, events())
        else:
            entry, derived.state = step(derived.ruleset, derived.state, event)
            derived.entries.append(entry)
        if len(derived.entries) - self._last >= self.every:
            self.take(derived)
        return derived

    def _undo(self, derived: Derived, event: Event, events: list[Event]) -> Derived:
        def base_for(target_seq: int, undone: set[int]) -> tuple[State, list[Entry]] | None:
            self.drop_from(target_seq)
            base = self._base_for(undone, events)
            return (base.state, base.entries) if base else None

        state, entries = undo(derived.ruleset, derived.state, derived.entries, event, events[:-1], base_for)
        return Derived(derived.ruleset, state, entries, derived.start)

    def _base_for(self, undone: set[int], events: list[Event]) -> Snapshot | None:
        """The latest snapshot folded with the same events undone as now, up to its seq."""
        def fits(s: Snapshot) -> bool:
            return s.undone == {seq for seq in undone if seq <= s.seq}
        with self._lock:
            kept = list(reversed(self.kept))
        found = next((s for s in kept if fits(s)), None)
        if found is None:  # after a restart, older snapshots are still in the table
            in_memory = {s.seq for s in kept}
            for seq in self._stored_seqs(len(events)):
                if seq not in in_memory and (s := self._load(seq, events)) is not None and fits(s):
                    return s
        return found

    # -- taking and dropping ----------------------------------------------------------------------
    def take(self, derived: Derived) -> None:
        """Keep the game as it stands now; write it to the store in the background."""
        snapshot = Snapshot(len(derived.entries), derived.state, list(derived.entries))
        with self._lock:
            self.kept = ([s for s in self.kept if s.seq < snapshot.seq] + [snapshot])[-self.keep:]
            self._last = snapshot.seq
        previous = self._writer

        def write() -> None:
            if previous is not None:
                previous.join()
            self._write(snapshot)
        self._writer = threading.Thread(target=write, name=f"snapshot-{self.game_id}-{snapshot.seq}", daemon=True)
        self._writer.start()

    def _write(self, snapshot: Snapshot) -> None:
        try:
            state = json.dumps(encode_state(snapshot.state), separators=(",", ":"), ensure_ascii=False,
                               allow_nan=False)
            with self._lock:
                after = max((seq for seq in self._stored if seq < snapshot.seq), default=0)
            entries = encode_entries(snapshot.entries[after:], after)
            with self._lock:
                if not snapshot.dropped and (after == 0 or after in self._stored):  # no undo meanwhile
                    self.store.save_snapshot(self.game_id, snapshot.seq, self._fingerprint, state, entries,
                                             digest(self.game_id, snapshot.seq, self._fingerprint, state, entries))
                    self._stored.add(snapshot.seq)
        except (CodecError, sqlite3.Error, ValueError, TypeError) as exc:
            # a cache that cannot be written only costs time at the next restart
            log.warning("snapshot of game %s at #%s not stored: %s", self.game_id, snapshot.seq, exc)

    def drop_from(self, seq: int) -> None:
        """Forget the snapshots at or after ``seq``, in memory and in the store."""
        with self._lock:
            for snapshot in self.kept:
                snapshot.dropped = snapshot.seq >= seq
            self.kept = [s for s in self.kept if s.seq < seq]
            self._stored = {s for s in self._stored if s < seq}
            self._last = min(self._last, seq - 1)
            try:
                self.store.drop_snapshots(self.game_id, seq)
            except sqlite3.Error as exc:
                log.warning("snapshots of game %s not dropped: %s", self.game_id, exc)

    def flush(self) -> None:
        """Wait until every snapshot taken so far is written."""
        writer = self._writer
        if writer is not None:
            writer.join()

    def close(self, derived: Derived) -> None:
        """At shutdown: keep the game as it stands, so the next start folds nothing."""
        if len(derived.entries) > self._last and len(derived.entries) > 1:
            self.take(derived)
        self.flush()

    # -- the table ------------------------------------------------------------------------------
    def _stored_seqs(self, log_length: int) -> list[int]:
        try:
            return [seq for seq in self.store.snapshot_seqs(self.game_id) if seq <= log_length]
        except sqlite3.Error as exc:
            log.warning("snapshots of game %s not read: %s", self.game_id, exc)
            return []

    def _load(self, seq: int, events: list[Event]) -> Snapshot | None:
        """A stored snapshot, if it was folded by this code and decodes; else it is deleted."""
        try:
            row = self.store.load_snapshot(self.game_id, seq)
            if row is None:
                return None
            if not self._intact(seq, row):
                why = "damaged (what it holds does not match its digest)"
            elif row[0] == self._fingerprint and events[seq - 1].seq == seq:
                chain, items = self._chain(seq)
                snapshot = Snapshot(seq, decode_state(loads(row[1])), decode_entries(items, events[:seq]))
                snapshot.chain = chain
                return snapshot
            else:
                why = "folded by other code"
        except (CodecError, LogError, ValueError, TypeError, KeyError) as exc:
            why = f"unreadable ({exc})"
        except sqlite3.Error as exc:
            log.warning("snapshot of game %s at #%s not read: %s", self.game_id, seq, exc)
            return None
        # A damaged one is worth a warning (a disk going bad); one folded by older code is routine.
        level = logging.INFO if why == "folded by other code" else logging.WARNING
        log.log(level, "snapshot of game %s at #%s ignored: %s; the game is folded from its log instead",
                self.game_id, seq, why)
        try:
            with self._lock:
                self.store.drop_snapshots(self.game_id, seq, seq)
        except sqlite3.Error:
            pass
        return None

    def _intact(self, seq: int, row: tuple[str, str, str, str]) -> bool:
        if not (all(isinstance(field, str) for field in row) and row[3].isascii()):
            return False
        return hmac.compare_digest(row[3], digest(self.game_id, seq, *row[:3]))

    def _chain(self, seq: int) -> tuple[list[int], list[Any]]:
        """The seqs of the snapshots whose entries lead up to ``seq``, and all those entries in order."""
        chain, parts = [], []
        while seq > 0:
            row = self.store.load_snapshot(self.game_id, seq)
            if row is None or row[0] != self._fingerprint:
                raise CodecError(f"the snapshot at #{seq} its entries follow is gone")
            if not self._intact(seq, row):
                raise CodecError(f"the snapshot at #{seq} its entries follow is damaged (it does not match its digest)")
            chain.append(seq)
            seq, items = read_entries(row[2], seq)
            parts.append(items)
        return chain, [item for items in reversed(parts) for item in items]
