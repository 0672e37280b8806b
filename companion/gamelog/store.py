"""The game log on disk: an append-only SQLite event store.

Every input is appended and committed here *before* it takes effect, with WAL journaling and
``synchronous=FULL``, so an event the companion acknowledged survives a crash or a power cut.
Events are never updated or deleted: undo is an event too (see session.py). The ``snapshots``
table is only a cache of folded states (see snapshots.py), dropped and remade freely.

A file that is not SQLite, is damaged, or is some other program's database is refused with a
message naming the file; the companion never silently starts a new game over it.

The WAL is checkpointed into ``companion.db`` at safe points (a game's start and end, shutdown,
every CHECKPOINT_EVERY events); between them the latest events are only in ``companion.db-wal``,
so a plain copy of ``companion.db`` while the companion runs may lack up to CHECKPOINT_EVERY - 1 of
them. ``backup`` writes a consistent single-file copy of everything at any moment (SQLite's online
backup, on a connection of its own: play goes on meanwhile).
"""
from __future__ import annotations

import contextlib
import logging
import math
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.gamelog.logcheck import Event, LogError, dumps, stored_event

SCHEMA_NAME = "table-companion-log"
SCHEMA_VERSION = 1
CHECKPOINT_EVERY = 256   # events between two WAL checkpoints
BACKUP_PAGES = 256       # pages a backup copies per step (1 MiB of SQLite's 4 KiB pages)
BUSY_MS = 5000           # how long a write waits for another process's (sqlite3's own default)
REQUIRED = {"games": {"id", "game", "created"}, "events": {"game_id", "seq", "ts", "kind", "source", "data"}}

log = logging.getLogger(__name__)

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    game    TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    ts      REAL NOT NULL,
    kind    TEXT NOT NULL,
    source  TEXT NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

# Not part of _DDL: a cache the companion may drop at any time, created where it is first used.
_SNAPSHOTS_DDL = """
CREATE TABLE IF NOT EXISTS snapshots (
    game_id     INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    state       TEXT NOT NULL,
    entries     TEXT NOT NULL,
    digest      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)
"""
SNAPSHOT_COLUMNS = ["game_id", "seq", "fingerprint", "state", "entries", "digest"]


def _columns(table_info: list[tuple]) -> list[tuple]:
    """(name, type, not null, place in the primary key) of each column, as PRAGMA table_info says."""
    return [(r[1], str(r[2]).upper(), r[3], r[5]) for r in table_info]


def _say(columns: list[tuple]) -> str:
    return ", ".join(f"{name} {kind}{' NOT NULL' * bool(notnull)}{f' (key {pk})' * bool(pk)}"
                     for name, kind, notnull, pk in columns)


def _expected_columns() -> dict[str, list[tuple]]:
    made = sqlite3.connect(":memory:")
    try:
        made.executescript(_DDL)
        return {table: _columns(made.execute(f"PRAGMA table_info({table})").fetchall()) for table in REQUIRED}
    finally:
        made.close()


_EXPECTED = _expected_columns()  # a game id that is not a number, a log without its key: not ours


class StoreError(RuntimeError):
    """The database file cannot be used; the message names the file and says why."""


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._check_writable()
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                      timeout=BUSY_MS / 1000)
            self._check(existed)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            if not existed:
                self._create()
                self.checkpoint()
        except sqlite3.DatabaseError as exc:
            if "readonly" in str(exc) or "unable to open" in str(exc):
                raise StoreError(f"{self.path}: cannot be written ({exc}); the companion needs to write its "
                                 f"game log: check the data folder's permissions and free space") from None
            raise StoreError(f"{self.path}: not a usable table-companion database ({exc}); "
                             f"move it aside or choose another --data folder") from None

    def _check_writable(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{folder}: the data folder cannot be made ({exc.strerror}); choose another "
                             f"--data folder") from None
        for target in (folder, self.path):
            if target.exists() and not os.access(target, os.W_OK):
                raise StoreError(f"{target}: read-only; the companion must write its game log there: make it "
                                 f"writable, or choose another --data folder") from None

    def _check(self, existed: bool) -> None:
        if not existed:
            return
        problem = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(f"{self.path}: the database is damaged ({problem}); "
                             f"move it aside to start fresh, or restore it from an exported game log")
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            raise StoreError(f"{self.path}: an SQLite file with no tables. If it was copied without its "
                             f"companion.db-wal file, copy that too (or copy a `companion backup`)")
        if "meta" not in tables:
            raise StoreError(f"{self.path}: this is an SQLite database of another program "
                             f"(tables: {', '.join(sorted(tables))}), not a table-companion game log")
        meta = dict(self.db.execute("SELECT key, value FROM meta WHERE key IN ('schema', 'version')").fetchall())
        if meta.get("schema") != SCHEMA_NAME:
            raise StoreError(f"{self.path}: not a table-companion game log (schema {meta.get('schema', 'missing')!r})")
        self._check_version(meta.get("version"))
        for table, columns in REQUIRED.items():  # other tables (a derived cache) are fine
            shape = self.db.execute(f"PRAGMA table_info({table})").fetchall()
            have = {r[1] for r in shape}
            if not columns <= have:
                lacking = "table" if not have else f"column(s) {', '.join(sorted(columns - have))}"
                raise StoreError(f"{self.path}: a damaged table-companion log: its {table} {lacking} is missing; "
                                 f"restore it from a backup or an exported game log")
            if _columns(shape) != _EXPECTED[table]:
                raise StoreError(f"{self.path}: a damaged table-companion log: its {table} table has the columns "
                                 f"{_say(_columns(shape))}, not {_say(_EXPECTED[table])}; restore it from a backup "
                                 f"or an exported game log")

    def _check_version(self, version: object) -> None:
        text = str(version) if version is not None else ""
        if not text.isdigit():
            raise StoreError(f"{self.path}: a table-companion log without a readable version "
                             f"({version!r}); restore it from a backup or an exported game log")
        if int(text) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer companion (log version {text}); upgrade to read it")
        if int(text) < SCHEMA_VERSION:
            raise StoreError(f"{self.path}: log version {text} is older than this companion reads "
                             f"({SCHEMA_VERSION}); export it with the companion that wrote it")

    def _create(self) -> None:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            for statement in _DDL.strip().split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute("INSERT INTO meta VALUES ('schema', ?), ('version', ?)", (SCHEMA_NAME, str(SCHEMA_VERSION)))
            self.db.execute("COMMIT")

    # -- games ----------------------------------------------------------------------------------
    def new_game(self, game: str) -> int:
        """A bare game row (tests; a live game begins with ``begin_game``)."""
        with self._lock:
            cur = self.db.execute("INSERT INTO games (game, created) VALUES (?, ?)", (game, time.time()))
            return int(cur.lastrowid)

    def begin_game(self, game: str, events: list[Event]) -> int:
        """A new game with its first events, in one transaction: all of it is written, or none.
        (A new game passes its start event; ``companion import`` a whole log.)"""
        rows = [(e.seq, _finite(e.ts), e.kind, e.source, _encode(e.data)) for e in events]
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                game_id = int(self.db.execute("INSERT INTO games (game, created) VALUES (?, ?)",
                                              (game, time.time())).lastrowid)
                self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", [(game_id, *r) for r in rows])
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:  # SQLite has already rolled back after a full disk
                    self.db.execute("ROLLBACK")
                raise
        self.checkpoint()
        return game_id

    def latest_game(self) -> int | None:
        """The newest game that has a log. A game row without events (a start torn by a crash in
        an older version) is skipped, with a warning, rather than refusing to start."""
        with self._reading():
            row = self.db.execute("SELECT MAX(id) FROM games g WHERE EXISTS "
                                  "(SELECT 1 FROM events e WHERE e.game_id = g.id)").fetchone()
            empty = self.db.execute("SELECT id FROM games g WHERE id > ? AND NOT EXISTS "
                                    "(SELECT 1 FROM events e WHERE e.game_id = g.id)", (row[0] or 0,)).fetchall()
        for (game_id,) in empty:
            log.warning("%s: game %s has no events (its start was interrupted); skipped", self.path, game_id)
        return row[0]

    def games(self) -> list[dict[str, Any]]:
        with self._reading():
            rows = self.db.execute(
                "SELECT g.id, g.game, g.created, COUNT(e.seq) FROM games g LEFT JOIN events e ON e.game_id = g.id "
                "GROUP BY g.id ORDER BY g.id").fetchall()
        return [{"id": r[0], "game": r[1], "created": r[2], "events": r[3]} for r in rows]

    @contextlib.contextmanager
    def _reading(self):
        """A read takes its turn on the connection: a checkpoint while another thread's statement is
        open fails with "database table is locked" (and that read said the database was damaged).
        Damage that PRAGMA quick_check does not see (an index that does not match its table,
        bytes that are not UTF-8 in a text column) shows only when a row is read: said in words."""
        try:
            with self._lock:
                yield
        except sqlite3.DatabaseError as exc:
            what = "text that is not UTF-8" if "decode" in str(exc) else str(exc)
            raise StoreError(f"{self.path}: the database is damaged ({what}); nothing was changed in it: move "
                             f"it aside to start fresh, or restore it from a backup or an exported game log") from None

    # -- events ---------------------------------------------------------------------------------
    def append(self, game_id: int, kind: str, data: dict[str, Any], source: str, ts: float | None = None) -> Event:
        """Append one event and commit it durably; returns it with its sequence number."""
        ts = time.time() if ts is None else _finite(ts)
        payload = _encode(data)
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?",
                                      (game_id,)).fetchone()[0]
                self.db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                (game_id, seq, ts, kind, source, payload))
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:  # SQLite has already rolled back after a full disk
                    self.db.execute("ROLLBACK")
                raise
        if seq % CHECKPOINT_EVERY == 0:
            self.checkpoint()
        return Event(seq, ts, kind, source, data)

    def events(self, game_id: int) -> list[Event]:
        """A game's events, each checked as ``companion replay`` checks a line (logcheck.py), so the
        service, replay and import agree on what a good log is."""
        with self._reading():
            rows = self.db.execute("SELECT seq, ts, kind, source, data FROM events WHERE game_id = ? ORDER BY seq",
                                   (game_id,)).fetchall()
        events = []
        for seq, ts, kind, source, data in rows:
            try:
                events.append(stored_event(seq, ts, kind, source, data, len(events) + 1))
            except LogError as exc:
                raise StoreError(f"{self.path}: event {seq} of game {game_id} is damaged ({exc}); "
                                 f"restore the game from a backup or an exported log") from None
        return events

    def start_event(self, game_id: int) -> Event | None:
        """A game's first event (its start), checked; None if it has none or it is damaged (a list
        of games shows what it can: one damaged game must not hide the others)."""
        with self._reading():
            row = self.db.execute("SELECT seq, ts, kind, source, data FROM events WHERE game_id = ? AND seq = 1",
                                  (game_id,)).fetchone()
        try:
            return None if row is None else stored_event(*row, 1)
        except LogError:
            return None

    # -- safe points and copies ------------------------------------------------------------------
    def checkpoint(self) -> None:
        """Move the WAL's pages into companion.db, so the file alone holds every committed event.
        Best effort, and never waited for: a reader holding the WAL (a backup being copied) only
        postpones it to the next safe point, rather than holding the table's next input."""
        with self._lock:
            try:
                self.db.execute("PRAGMA busy_timeout = 0")
                busy = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                if busy:
                    log.info("%s: checkpoint postponed (a reader holds the WAL)", self.path)
            except sqlite3.DatabaseError as exc:  # best effort: never the caller's failure (an append already committed)
                log.warning("%s: checkpoint postponed (%s)", self.path, exc)
            finally:
                self.db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")

    def backup(self, dest: str | Path, progress: Callable[[int, int], None] | None = None) -> Path:
        """A consistent copy of the whole log in one file (no WAL), written next to ``dest`` and
        renamed into place, so a half-written copy never has its name (nor stays behind, if the
        copy fails). It is read on a connection of its own, inside one read transaction: the WAL
        keeps that moment's log for it while the game goes on being written, so play never waits
        for a copy. ``progress(pages copied, pages in all)`` is told after each step."""
        dest = Path(dest)
        tmp = dest.with_name(dest.name + ".part")
        tmp.unlink(missing_ok=True)
        source = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            source.execute("BEGIN")
            source.execute("SELECT COUNT(*) FROM meta").fetchone()  # the moment the copy is of
            out = sqlite3.connect(tmp)
            try:
                source.backup(out, pages=BACKUP_PAGES, sleep=0,
                              progress=None if progress is None else lambda _, left, total: progress(total - left, total))
                out.execute("PRAGMA journal_mode=DELETE")
            finally:
                out.close()
            tmp.replace(dest)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        finally:
            source.close()
        return dest

    # -- snapshots: a derived cache of folded states (companion/gamelog/snapshots.py), never the truth ----
    _snapshots_ready = False

    def _snapshot_table(self) -> None:
        """Made on first use, so a database from before snapshots gets the table too; a table of
        another shape (from before snapshots carried their digest) is only a cache: made again."""
        if not self._snapshots_ready:
            columns = [r[1] for r in self.db.execute("PRAGMA table_info(snapshots)")]
            if columns and columns != SNAPSHOT_COLUMNS:
                self.db.execute("DROP TABLE snapshots")
            self.db.execute(_SNAPSHOTS_DDL)
            self._snapshots_ready = True

    def save_snapshot(self, game_id: int, seq: int, fingerprint: str, state: str, entries: str, digest: str) -> None:
        with self._lock:
            self._snapshot_table()
            self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
                            (game_id, seq, fingerprint, state, entries, digest))

    def snapshot_seqs(self, game_id: int) -> list[int]:
        """The seqs of a game's stored snapshots, latest first."""
        with self._lock:
            self._snapshot_table()
            rows = self.db.execute("SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq DESC", (game_id,)).fetchall()
        return [r[0] for r in rows]

    def load_snapshot(self, game_id: int, seq: int) -> tuple[str, str, str, str] | None:
        """(fingerprint, state, entries, digest) of one stored snapshot."""
        with self._lock:
            return self.db.execute("SELECT fingerprint, state, entries, digest FROM snapshots WHERE game_id = ? AND seq = ?",
                                   (game_id, seq)).fetchone()

    def drop_snapshots(self, game_id: int, from_seq: int = 0, to_seq: int | None = None) -> None:
        """Forget a game's snapshots from ``from_seq`` on (up to ``to_seq`` included, if given)."""
        with self._lock:
            self._snapshot_table()
            self.db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ? AND seq <= ?",
                            (game_id, from_seq, 2**62 if to_seq is None else to_seq))

    def close(self) -> None:
        self.checkpoint()
        with self._lock:  # not under a statement another thread still runs
            self.db.close()


def _encode(data: dict[str, Any]) -> str:
    """LogError, and nothing written, for data the log could not give back (a number that is not finite)."""
    return dumps(data)


def _finite(ts: float) -> float:
    if not math.isfinite(ts):
        raise LogError(f"'ts' {ts} is not a finite time")
    return ts
