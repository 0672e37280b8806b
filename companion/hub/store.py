"""The hub's own SQLite copy of what the tables sent, so it restarts without losing history.

Results are kept as each table's chain of links (chain.py): results, retractions, games' ends. A
retraction is applied as it is stored, in one transaction: what it takes back goes, the results
it carries come in; a link it took back that arrives later (a stale copy) is refused.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from companion.hub import messages
from companion.hub.messages import BadMessage

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, online INTEGER NOT NULL DEFAULT 0,
    last_seen REAL, view TEXT, health TEXT);
CREATE TABLE IF NOT EXISTS results (tbl TEXT NOT NULL, game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    prev INTEGER NOT NULL, kind TEXT NOT NULL, game TEXT NOT NULL, sent REAL, received REAL NOT NULL,
    body TEXT NOT NULL, at INTEGER, back INTEGER, PRIMARY KEY (tbl, game_id, seq));
"""
# A hub.db made before retractions: its links were derived at their own seq, and none takes back.
MIGRATIONS = ("ALTER TABLE results ADD COLUMN at INTEGER", "ALTER TABLE results ADD COLUMN back INTEGER",
              "UPDATE results SET at = seq WHERE at IS NULL")


class HubStore:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # Commits are not synced one by one (50 tables' messages would queue behind the disk):
        # the hub syncs a batch with ``sync()`` before it acknowledges the results in it.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(results)")}
        if "at" not in columns:
            for statement in MIGRATIONS:
                self.db.execute(statement)
        self._lock = threading.Lock()
        self._drop_unreadable()
        # The group commit's checkpoint runs on a connection of its own, so that the tables' messages
        # go on being stored while it waits for the disk (WAL lets a checkpoint and a writer overlap).
        self._syncer = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._sync_lock = threading.Lock()

    def _drop_unreadable(self) -> None:
        """Rows an older hub stored without checking their shape (messages.py) are dropped, with a
        warning, as such a message is dropped now: none of them breaks a page after a restart."""
        def stored(text: Any) -> Any:
            if not isinstance(text, str):
                raise BadMessage(f"stored as {type(text).__name__}, not JSON text")
            return messages.parse(text.encode("utf-8", "surrogatepass"))
        for name, view, health in self.db.execute("SELECT name, view, health FROM tables").fetchall():
            for column, text, check in (("view", view, lambda v: messages.view({"view": v})),
                                        ("health", health, messages.health)):
                try:
                    if text is not None:
                        check(stored(text))
                except BadMessage as exc:
                    log.warning("hub.db: table %s's %s dropped, not of a shape the hub reads: %s", name, column, exc)
                    self.db.execute(f"UPDATE tables SET {column} = NULL WHERE name = ?", (name,))
        rows = self.db.execute("SELECT rowid, tbl, game_id, seq, kind, body FROM results").fetchall()
        for rowid, table, game_id, seq, kind, body in rows:
            try:
                link = messages.result(stored(body), stored=True)
                if (link["game_id"], link["seq"], link["kind"]) != (game_id, seq, kind):
                    raise BadMessage("its body is not the row's game, seq and kind")
            except BadMessage as exc:
                log.warning("hub.db: table %s's link %s of game %s dropped, not of a shape the hub reads: %s",
                            table, seq, game_id, exc)
                self.db.execute("DELETE FROM results WHERE rowid = ?", (rowid,))

    def seen(self, table: str, **fields: Any) -> None:
        """A message from a table: it is alive; store what it carries (view, health, online)."""
        columns = {k: json.dumps(v, allow_nan=False) if k in ("view", "health") else v for k, v in fields.items()}
        with self._lock:
            self.db.execute("INSERT OR IGNORE INTO tables (name) VALUES (?)", (table,))
            sets = ", ".join(f"{k} = ?" for k in columns)
            self.db.execute(f"UPDATE tables SET last_seen = ?{', ' + sets if sets else ''} WHERE name = ?",
                            (time.time(), *columns.values(), table))

    def add_result(self, table: str, result: dict[str, Any]) -> bool:
        """Store a link once; False if the hub already holds it (a table resending) or a retraction
        took it back (a stale copy)."""
        game_id, seq, kind = int(result["game_id"]), int(result["seq"]), str(result["kind"])
        at = int(result.get("at", seq))
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                stored = self._add(table, game_id, seq, kind, at, result)
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
            return stored

    def _add(self, table: str, game_id: int, seq: int, kind: str, at: int, result: dict[str, Any]) -> bool:
        self.db.execute("INSERT OR IGNORE INTO tables (name) VALUES (?)", (table,))
        self.db.execute("UPDATE tables SET last_seen = ? WHERE name = ?", (time.time(), table))
        if self._stale(table, game_id, seq, at):
            return False
        back = int(result["from"]) if kind == "retract" else None
        if not self._insert(table, game_id, seq, kind, at, back, result):
            return False
        if kind == "retract":
            self.db.execute("DELETE FROM results WHERE tbl = ? AND game_id = ? AND seq >= ? AND at < ? AND seq != ?",
                            (table, game_id, back, seq, seq))
            for carried in result.get("results", []):
                self._insert(table, game_id, int(carried["seq"]), "result", at, None,
                             {**carried, "sent": result.get("sent")})
        return True

    def _stale(self, table: str, game_id: int, seq: int, at: int) -> bool:
        """A link derived (``at``) before an undo whose retraction the hub holds and whose reach
        covers it: a copy that was on its way when the table undid."""
        return self.db.execute(
            "SELECT 1 FROM results WHERE tbl = ? AND game_id = ? AND kind = 'retract' AND back <= ? AND seq > ? "
            "AND seq != ? LIMIT 1", (table, game_id, seq, at, seq)).fetchone() is not None

    def _insert(self, table: str, game_id: int, seq: int, kind: str, at: int, back: int | None,
                result: dict[str, Any]) -> bool:
        body = {k: v for k, v in result.items() if k != "results"}  # a retraction's results are rows of their own
        cur = self.db.execute(
            "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table, game_id, seq, int(result["prev"]), kind, str(result["game"]), float(result.get("sent") or 0),
             time.time(), json.dumps(body, allow_nan=False), at, back))
        return cur.rowcount == 1

    def sync(self) -> None:
        """Make every commit made before this call durable (the WAL is synced before a checkpoint),
        so that what the hub acknowledges survives a power cut. Commits made meanwhile are not
        waited for, nor held back."""
        with self._sync_lock:
            self._syncer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def acked(self, table: str) -> tuple[dict[int, int], dict[int, int]]:
        """Per game, the last seq of the unbroken chain of links the hub holds (each names the one
        before it: a gap is acknowledged only once the missing link arrives), and the latest undo
        (retraction) it holds."""
        acked: dict[int, int] = {}
        undone: dict[int, int] = {}
        with self._lock:  # one connection shared by threads: every use under the lock
            rows = self.db.execute("SELECT game_id, seq, prev, kind FROM results WHERE tbl = ? ORDER BY game_id, seq",
                                   (table,)).fetchall()
        for game_id, seq, prev, kind in rows:
            if prev == acked.get(game_id, 0):
                acked[game_id] = seq
            if kind == "retract":
                undone[game_id] = seq
        return acked, undone

    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self.db.execute("SELECT name, online, last_seen, view, health FROM tables ORDER BY name").fetchall()
        return [{"name": r[0], "online": bool(r[1]), "last_seen": r[2], "view": json.loads(r[3]) if r[3] else None,
                 "health": json.loads(r[4]) if r[4] else None} for r in rows]

    def results(self, table: str | None = None) -> list[dict[str, Any]]:
        """The results and games' ends the hub holds: what the tables now show (the retractions
        are only the chain's bookkeeping)."""
        query = "SELECT tbl, body, received FROM results WHERE kind != 'retract'"
        args: tuple = ()
        if table is not None:
            query, args = query + " AND tbl = ?", (table,)
        with self._lock:
            rows = self.db.execute(query + " ORDER BY tbl, game_id, seq", args).fetchall()
        return [{**json.loads(r[1]), "table": r[0], "received": r[2]} for r in rows]

    def close(self) -> None:
        with self._sync_lock:
            self._syncer.close()
        with self._lock:
            self.db.close()
