"""The hub's own SQLite copy of what the tables sent, so it restarts without losing history."""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, online INTEGER NOT NULL DEFAULT 0,
    last_seen REAL, view TEXT, health TEXT);
CREATE TABLE IF NOT EXISTS results (tbl TEXT NOT NULL, game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    prev INTEGER NOT NULL, kind TEXT NOT NULL, game TEXT NOT NULL, sent REAL, received REAL NOT NULL,
    body TEXT NOT NULL, PRIMARY KEY (tbl, game_id, seq));
"""


class HubStore:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        self._lock = threading.Lock()

    def seen(self, table: str, **fields: Any) -> None:
        """A message from a table: it is alive; store what it carries (view, health, online)."""
        columns = {k: json.dumps(v) if k in ("view", "health") else v for k, v in fields.items()}
        with self._lock:
            self.db.execute("INSERT OR IGNORE INTO tables (name) VALUES (?)", (table,))
            sets = ", ".join(f"{k} = ?" for k in columns)
            self.db.execute(f"UPDATE tables SET last_seen = ?{', ' + sets if sets else ''} WHERE name = ?",
                            (time.time(), *columns.values(), table))

    def add_result(self, table: str, result: dict[str, Any]) -> bool:
        """Store a result once; False if the hub already holds it (a table resending)."""
        with self._lock:
            self.db.execute("INSERT OR IGNORE INTO tables (name) VALUES (?)", (table,))
            cur = self.db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table, int(result["game_id"]), int(result["seq"]), int(result["prev"]), str(result["kind"]),
                 str(result["game"]),
                 float(result.get("sent") or 0), time.time(), json.dumps(result)))
            self.db.execute("UPDATE tables SET last_seen = ? WHERE name = ?", (time.time(), table))
            return cur.rowcount == 1

    def acked(self, table: str) -> dict[int, int]:
        """Per game, the last seq of the unbroken chain of results the hub holds (each result names
        the one before it): a gap is acknowledged only once the missing result arrives."""
        acked: dict[int, int] = {}
        rows = self.db.execute("SELECT game_id, seq, prev FROM results WHERE tbl = ? ORDER BY game_id, seq", (table,))
        for game_id, seq, prev in rows:
            if prev == acked.get(game_id, 0):
                acked[game_id] = seq
        return acked

    def tables(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT name, online, last_seen, view, health FROM tables ORDER BY name")
        return [{"name": r[0], "online": bool(r[1]), "last_seen": r[2], "view": json.loads(r[3]) if r[3] else None,
                 "health": json.loads(r[4]) if r[4] else None} for r in rows]

    def results(self, table: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT tbl, body, received FROM results"
        args: tuple = ()
        if table is not None:
            query, args = query + " WHERE tbl = ?", (table,)
        rows = self.db.execute(query + " ORDER BY tbl, game_id, seq", args)
        return [{**json.loads(r[1]), "table": r[0], "received": r[2]} for r in rows]

    def close(self) -> None:
        self.db.close()
