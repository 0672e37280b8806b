"""The game log on disk: an append-only SQLite event store.

Every input is appended and committed here *before* it takes effect, with WAL journaling and
``synchronous=FULL``, so an event the companion acknowledged survives a crash or a power cut.
Events are never updated or deleted: undo is an event too (see session.py). The ``snapshots``
table is only a cache of folded states (see snapshots.py), dropped and remade freely.

A file that is not SQLite, is damaged, or is some other program's database is refused with a
message naming the file; the companion never silently starts a new game over it.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_NAME = "table-companion-log"
SCHEMA_VERSION = 1

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
    PRIMARY KEY (game_id, seq)
)
"""


class StoreError(RuntimeError):
    """The database file cannot be used; the message names the file and says why."""


@dataclass(frozen=True)
class Event:
    seq: int
    ts: float
    kind: str
    source: str
    data: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "kind": self.kind, "source": self.source, "data": self.data}


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._check(existed)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            if not existed:
                self._create()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable table-companion database ({exc}); "
                             f"move it aside or choose another --data folder") from None

    def _check(self, existed: bool) -> None:
        if not existed:
            return
        problem = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(f"{self.path}: the database is damaged ({problem}); "
                             f"move it aside to start fresh, or restore it from an exported game log")
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            raise StoreError(f"{self.path}: this is an SQLite database of another program "
                             f"(tables: {', '.join(sorted(tables)) or 'none'}), not a table-companion game log")
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None or row[0] != SCHEMA_NAME:
            raise StoreError(f"{self.path}: not a table-companion game log (schema {row[0] if row else 'missing'!r})")
        version = int(self.db.execute("SELECT value FROM meta WHERE key='version'").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer companion (log version {version}); upgrade to read it")

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
        with self._lock:
            cur = self.db.execute("INSERT INTO games (game, created) VALUES (?, ?)", (game, time.time()))
            return int(cur.lastrowid)

    def latest_game(self) -> int | None:
        row = self.db.execute("SELECT MAX(id) FROM games").fetchone()
        return row[0]

    def games(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT g.id, g.game, g.created, COUNT(e.seq) FROM games g LEFT JOIN events e ON e.game_id = g.id "
            "GROUP BY g.id ORDER BY g.id")
        return [{"id": r[0], "game": r[1], "created": r[2], "events": r[3]} for r in rows]

    # -- events ---------------------------------------------------------------------------------
    def append(self, game_id: int, kind: str, data: dict[str, Any], source: str, ts: float | None = None) -> Event:
        """Append one event and commit it durably; returns it with its sequence number."""
        ts = time.time() if ts is None else ts
        payload = json.dumps(data, sort_keys=True, separators=(",", ":"))
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?",
                                      (game_id,)).fetchone()[0]
                self.db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                (game_id, seq, ts, kind, source, payload))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return Event(seq, ts, kind, source, data)

    def events(self, game_id: int) -> list[Event]:
        rows = self.db.execute("SELECT seq, ts, kind, source, data FROM events WHERE game_id = ? ORDER BY seq",
                               (game_id,))
        return [Event(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    # -- snapshots: a derived cache of folded states (companion/snapshots.py), never the truth ----
    _snapshots_ready = False

    def _snapshot_table(self) -> None:
        """Made on first use, so a database from before snapshots gets the table too."""
        if not self._snapshots_ready:
            self.db.execute(_SNAPSHOTS_DDL)
            self._snapshots_ready = True

    def save_snapshot(self, game_id: int, seq: int, fingerprint: str, state: str, entries: str) -> None:
        with self._lock:
            self._snapshot_table()
            self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                            (game_id, seq, fingerprint, state, entries))

    def snapshot_seqs(self, game_id: int) -> list[int]:
        """The seqs of a game's stored snapshots, latest first."""
        with self._lock:
            self._snapshot_table()
        rows = self.db.execute("SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq DESC", (game_id,))
        return [r[0] for r in rows]

    def load_snapshot(self, game_id: int, seq: int) -> tuple[str, str, str] | None:
        """(fingerprint, state, entries) of one stored snapshot."""
        return self.db.execute("SELECT fingerprint, state, entries FROM snapshots WHERE game_id = ? AND seq = ?",
                               (game_id, seq)).fetchone()

    def drop_snapshots(self, game_id: int, from_seq: int = 0, to_seq: int | None = None) -> None:
        """Forget a game's snapshots from ``from_seq`` on (up to ``to_seq`` included, if given)."""
        with self._lock:
            self._snapshot_table()
            self.db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ? AND seq <= ?",
                            (game_id, from_seq, 2**62 if to_seq is None else to_seq))

    def close(self) -> None:
        self.db.close()
