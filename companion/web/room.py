"""Who holds what in the room: tablets that hold the PIN, and phones that hold a seat.

A tablet that is given the PIN once gets a session instead of keeping the digits: a random token
in an HttpOnly cookie (no script on the page can read it, the page never draws it), valid for
``SESSION_HOURS``, ended by "Lock" on that tablet or revoked from the Devices page, and ended for
every tablet when the PIN changes (``companion pin --new``).

A seat link is claimed by the first phone that opens it: that phone gets a cookie bound to the
seat; another phone opening the same link is refused until the table (with the PIN) releases the
seat. A seat's link can also be revoked (its token changes; the old QR opens nothing), and every
link dies with its game.

Only hashes of the tokens are kept (``<data>/room.json``, readable by its owner only), so a copy
of the file opens nothing; the file keeps sessions and claims across a restart of the service.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

SESSION_HOURS = 12.0          # a game night; then the PIN is asked again
SESSION_COOKIE = "table_session"
MAX_SESSIONS = 32             # tablets remembered at once (the oldest are dropped first)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def seat_cookie(game_id: int, seat: int) -> str:
    """The cookie that binds one phone to one seat of one game."""
    return f"seat_{game_id}_{seat}"


class Room:
    """Tablet sessions and seat claims (see the module docstring). ``path`` None keeps them in
    memory only (a service without a data folder, in tests)."""

    def __init__(self, path: Path | None, pin_mark: str = "", clock: Callable[[], float] = time.time):
        self.path = path
        self.clock = clock
        self.pin_mark = pin_mark  # sessions opened under another PIN are over
        self._lock = threading.Lock()
        self._sessions: dict[str, dict[str, Any]] = {}   # token hash -> {id, label, opened, expires, pin}
        self._claims: dict[str, dict[str, Any]] = {}     # "game:seat" -> {cookie hash, claimed}
        self._links: dict[str, int] = {}                 # "game:seat" -> link generation (revocations)
        self._load()

    # -- tablets holding the PIN ------------------------------------------------------------------
    def open_session(self, label: str) -> tuple[str, float]:
        """A new session for the tablet that gave the right PIN: (its token, when it expires)."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires = now + SESSION_HOURS * 3600
        with self._lock:
            self._drop_expired(now)
            while len(self._sessions) >= MAX_SESSIONS:
                oldest = min(self._sessions, key=lambda h: self._sessions[h]["opened"])
                del self._sessions[oldest]
            self._sessions[_hash(token)] = {"id": secrets.token_hex(4), "label": label[:80], "opened": now,
                                            "expires": expires, "pin": self.pin_mark}
            self._save()
        return token, expires

    def session(self, token: str | None) -> dict[str, Any] | None:
        """The session a cookie's token opens, or None (none, expired, revoked, another PIN's)."""
        if not token:
            return None
        with self._lock:
            found = self._sessions.get(_hash(token))
            if found is None or found["expires"] <= self.clock() or found["pin"] != self.pin_mark:
                return None
            return dict(found)

    def end_session(self, token: str | None = None, session_id: str | None = None) -> bool:
        """End one session, by its token (the tablet's own "Lock") or its id (the Devices page)."""
        with self._lock:
            for key, found in list(self._sessions.items()):
                if (token and key == _hash(token)) or (session_id and found["id"] == session_id):
                    del self._sessions[key]
                    self._save()
                    return True
        return False

    def sessions(self) -> list[dict[str, Any]]:
        """The tablets that hold the PIN now, for the Devices page (no token, no hash)."""
        with self._lock:
            now = self.clock()
            return [{k: s[k] for k in ("id", "label", "opened", "expires")} for s in self._sessions.values()
                    if s["expires"] > now and s["pin"] == self.pin_mark]

    def _drop_expired(self, now: float) -> None:
        for key in [k for k, s in self._sessions.items() if s["expires"] <= now or s["pin"] != self.pin_mark]:
            del self._sessions[key]

    # -- phones holding a seat --------------------------------------------------------------------
    def link_generation(self, game_id: int, seat: int) -> int:
        with self._lock:
            return self._links.get(f"{game_id}:{seat}", 0)

    def claim(self, game_id: int, seat: int, cookie: str | None) -> tuple[bool, str | None]:
        """Whether the phone with this seat cookie may open the seat: (yes, a new cookie to set
        when this phone is the first), or (no, None) when another phone holds it."""
        key = f"{game_id}:{seat}"
        with self._lock:
            held = self._claims.get(key)
            if held is not None:
                return bool(cookie) and hmac.compare_digest(held["cookie"], _hash(cookie or "")), None
            token = secrets.token_urlsafe(24)
            self._claims = {k: v for k, v in self._claims.items() if k.split(":")[0] == str(game_id)}
            self._claims[key] = {"cookie": _hash(token), "claimed": self.clock()}
            self._save()
            return True, token

    def release(self, game_id: int, seat: int, new_link: bool = False) -> None:
        """Free a seat for the next phone to open it; ``new_link`` also revokes its link."""
        key = f"{game_id}:{seat}"
        with self._lock:
            self._claims.pop(key, None)
            if new_link:
                self._links = {k: v for k, v in self._links.items() if k.split(":")[0] == str(game_id)}
                self._links[key] = self._links.get(key, 0) + 1
            self._save()

    def claimed(self, game_id: int) -> dict[int, float]:
        """The seats of this game that a phone holds, and since when."""
        with self._lock:
            return {int(k.split(":")[1]): c["claimed"] for k, c in self._claims.items()
                    if k.split(":")[0] == str(game_id)}

    # -- the file ---------------------------------------------------------------------------------
    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            saved = json.loads(self.path.read_text())
            self._sessions = {str(k): dict(v) for k, v in saved.get("sessions", {}).items()}
            self._claims = {str(k): dict(v) for k, v in saved.get("claims", {}).items()}
            self._links = {str(k): int(v) for k, v in saved.get("links", {}).items()}
        except (ValueError, AttributeError, TypeError) as exc:  # damaged: tablets and phones start afresh
            log.warning("%s cannot be read (%s); every tablet and phone must be let in again", self.path, exc)
            self._sessions, self._claims, self._links = {}, {}, {}

    def _save(self) -> None:
        if self.path is None:
            return
        body = json.dumps({"sessions": self._sessions, "claims": self._claims, "links": self._links})
        tmp = self.path.with_suffix(".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(body)
            tmp.replace(self.path)
        except OSError as exc:  # a full disk: the room still works until the next restart
            log.error("%s cannot be written: %s", self.path, exc)
