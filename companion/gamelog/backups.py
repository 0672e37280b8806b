"""Backups of the game log, made by the running service: at each game's end and once a day.

Each is a consistent single-file copy (SQLite's online backup, ``Store.backup``, read on a
connection of its own so that play goes on meanwhile) in ``<data>/backups/companion-<when>-<why>.db``;
the newest ``KEEP`` are kept, older ones deleted, and a copy cut short (its ``.part`` file) is
removed at the next start.
The table's private tag codes (``private-tags.json``: without them its hidden cards' stickers name
nothing) are copied beside each, as ``companion-<when>-<why>.private-tags.json``, owner-only.
A copy is restored with ``companion import`` of its exported log, or by stopping the service and
putting the file in place of ``companion.db`` (hardware.md, "Backups").
"""
from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)

KEEP = 14
DAY = 24 * 3600


class Backups:
    """Watches the service's game: ``note_change()`` after every change (cheap: it only looks at
    whether the game just ended); ``tick()`` from a background loop for the daily copy."""

    def __init__(self, service, keep: int = KEEP, every: float = DAY, clock: Callable[[], float] = time.time):
        self.service = service
        self.folder = Path(service.data_dir) / "backups"
        self.keep = keep
        self.every = every
        self.clock = clock
        self._ended: set[int] = set()
        self._lock = threading.Lock()
        self._clean()
        latest = self.existing()
        self.last = latest[-1].stat().st_mtime if latest else 0.0
        session = service.session
        if session is not None and session.ruleset.is_over(session.state):
            self._ended.add(session.game_id)  # ended before this start: already backed up then

    def _clean(self) -> None:
        """A copy cut short (the power went, the service was killed) leaves its ``.part`` file:
        none is being written before this service makes one, so every one found is such a leftover."""
        for part in self.folder.glob("companion-*.db.part"):
            try:
                part.unlink()
                log.info("removed %s, a backup cut short", part)
            except OSError as exc:
                log.warning("could not remove %s, a backup cut short: %s", part, exc)

    def existing(self) -> list[Path]:
        return sorted(self.folder.glob("companion-*.db"))

    def note_change(self) -> None:
        """Called under the session's lock after every change: back up once when a game ends."""
        session = self.service.session
        if session is None or session.game_id in self._ended or not session.ruleset.is_over(session.state):
            return
        self._ended.add(session.game_id)
        threading.Thread(target=self.make, args=(f"game{session.game_id}-end",), name="backup", daemon=True).start()

    def tick(self) -> None:
        if self.clock() - self.last >= self.every:
            self.make("daily")

    def _copy_private_tags(self, dest: Path) -> None:
        source = Path(self.service.data_dir) / "private-tags.json"
        if not source.exists():
            return
        try:
            fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(source.read_bytes())
        except OSError as exc:
            log.error("could not back up the private tags to %s: %s", dest, exc)

    def make(self, why: str) -> Path | None:
        """Write one backup now and prune the oldest; a failure is logged, never raised (a full
        disk must not stop the referee)."""
        with self._lock:
            self.last = self.clock()
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.clock()))
            dest = self.folder / f"companion-{stamp}-{why}.db"
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                written = self.service.store.backup(dest)
            except Exception as exc:
                log.error("could not back up the game log to %s: %s", dest, exc)
                return None
            self._copy_private_tags(dest.with_suffix(".private-tags.json"))
            for old in self.existing()[:-self.keep]:
                old.unlink(missing_ok=True)
                old.with_suffix(".private-tags.json").unlink(missing_ok=True)
            log.info("backed up the game log to %s", written)
            return written
