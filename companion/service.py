"""The running companion: one table, its data folder, its game, its camera and readers.

Everything the dashboard and the hardware touch goes through here:

    camera pipeline ──┐
    RFID readers ─────┼─▶ Service.table_input() ─▶ Session.submit() ─▶ SQLite, then the ruleset
    dashboard ────────┘

The table PIN and the secret behind seat tokens live in ``<data>/table.json`` so that they
survive restarts (players keep the PIN they were told and the seat links on their phones).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.gamelog.session import LogError, Session, open_store
from companion.gamelog.store import Store, StoreError
from companion.pi.systemd import Heartbeat
from companion.scan.stillness import STILL_FRAMES

log = logging.getLogger(__name__)


PIN_DIGITS = 4
AUTO_RESOLVE_TICK_S = 0.02


def load_table_secrets(data_dir: Path) -> dict[str, str]:
    """The table's PIN and token secret, created on first start and kept across restarts.
    The file is readable by its owner only (it is the key to every change and every seat)."""
    path = data_dir / "table.json"
    if path.exists():
        try:
            saved = json.loads(path.read_text())
            if str(saved.get("pin", "")).isdigit() and saved.get("token_secret"):
                _owner_only(path)
                return {"pin": str(saved["pin"]), "token_secret": str(saved["token_secret"])}
        except (json.JSONDecodeError, AttributeError, UnicodeDecodeError):
            pass
        raise SystemExit(f"{path}: not a table settings file (expected a PIN and a token secret); "
                         f"move it aside and a new PIN will be made")
    return write_table_secrets(data_dir, new_pin(PIN_DIGITS), secrets.token_hex(16))


def new_pin(digits: int) -> str:
    return "".join(str(secrets.randbelow(10)) for _ in range(digits))


def write_table_secrets(data_dir: Path, pin: str, token_secret: str) -> dict[str, str]:
    """Write table.json atomically, created readable and writable by its owner only."""
    made = {"pin": pin, "token_secret": token_secret}
    data_dir.mkdir(parents=True, exist_ok=True)
    path, tmp = data_dir / "table.json", data_dir / "table.json.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps(made))
    os.chmod(tmp, 0o600)  # an older tmp file may have had wider rights
    tmp.replace(path)
    return made


def _owner_only(path: Path) -> None:
    """Tighten a table.json written by an older version (world-readable) to its owner only."""
    if path.stat().st_mode & 0o077:
        try:
            os.chmod(path, 0o600)
        except OSError as exc:  # not ours to change: say so, keep running
            log.warning("%s is readable by others and cannot be tightened: %s", path, exc)


class Service:
    def __init__(self, data_dir: str | Path, settle_seconds: float = 1.5, clock: Callable[[], float] = time.time,
                 quick_settle_seconds: float = 0.5, still_frames: int = STILL_FRAMES):
        self.data_dir = Path(data_dir)
        self.store: Store = open_store(self.data_dir)
        table = load_table_secrets(self.data_dir)
        self.pin = table["pin"]
        self._token_secret = table["token_secret"].encode()
        from companion.web.room import Room

        # Tablets holding the PIN and phones holding seats; a new PIN ends every tablet's session.
        pin_mark = hmac.new(self._token_secret, self.pin.encode(), hashlib.sha256).hexdigest()[:16]
        self.room = Room(self.data_dir / "room.json", pin_mark)
        from card_tags.private import PrivateTags

        # The codes of this table's private tags (the stickers of hidden cards): the camera's map.
        self.private_tags = PrivateTags(self.data_dir)
        self.settle_seconds = settle_seconds
        # Every play complete by the rules (nothing could still be added): a shorter wait will do.
        self.quick_settle_seconds = quick_settle_seconds
        # With a camera watching: frames in a row that show the table still (companion/scan/stillness.py).
        self.still_frames = still_frames
        self.clock = clock
        self.pipeline = None   # a companion.scan.pipeline.ScanPipeline when a camera is in use
        self.readers = None    # a companion.rfid.service.ReaderService when RFID readers are configured
        self.demo = None       # the simulated players of `companion demo`
        self.hub = None        # a companion.hub.publisher.HubPublisher when the table reports to a hub
        self.unpaired_uids: list[dict[str, Any]] = []
        self.facts = None  # companion.pi.doctor.Facts: where the health checks read the machine (tests fake it)
        self._health: tuple[float, list[dict[str, str]]] | None = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self.stopping = self._stop  # set when the service stops: event streams end, the watchdog stops
        self.heartbeat = Heartbeat()  # the referee loop's; systemd's watchdog pings only while it beats
        self._game_listeners: list[Callable[[Session], None]] = []
        self.session: Session | None = None
        self._change_listeners: list[Callable[[], None]] = []
        try:
            self.session = Session.resume(self.store, clock)
        except (LogError, StoreError) as exc:
            raise SystemExit(f"{self.store.path}: the latest game's log cannot be replayed: "
                             f"{str(exc).removeprefix(f'{self.store.path}: ')}") from None
        from companion.gamelog.backups import Backups

        self.backups = Backups(self)  # at each game's end, and daily while the service runs
        self.on_change(self.backups.note_change)

    # -- games ----------------------------------------------------------------------------------
    def start_game(self, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
                   deck: Any = None, source: str = "dashboard") -> Session:
        with self._lock:
            self.session = Session.start(self.store, game, seats, options, deck, source, self.clock)
            self.session.listeners.extend(self._change_listeners)
        for listener in list(self._change_listeners):
            listener()
        for listener in list(self._game_listeners):
            listener(self.session)
        return self.session

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call listener() after every change to the game in play, and when a game starts. It runs
        under the session's lock: it must only note the change (set an event), not wait."""
        self._change_listeners.append(listener)
        if self.session is not None:
            self.session.listeners.append(listener)

    def on_new_game(self, listener: Callable[[Session], None]) -> None:
        """Call listener(session) whenever a game starts (the camera re-lays its zones)."""
        self._game_listeners.append(listener)

    def table_input(self, kind: str, data: dict[str, Any], source: str):
        """A card seen or gone, from the camera or a reader. Ignored (and said so) with no game."""
        session = self.session
        if session is None:
            log.info("no game in progress; %s %s ignored", kind, data)
            return None
        return session.submit(kind, data, source)

    def table_inputs(self, inputs: list[tuple[str, dict[str, Any]]], source: str) -> list[Any]:
        """Cards seen or gone together (one camera frame's), told to the watchers together."""
        session = self.session
        if session is None:
            log.info("no game in progress; %s ignored", inputs)
            return []
        return session.submit_all([(kind, data, source) for kind, data in inputs])

    # -- seat tokens ----------------------------------------------------------------------------
    def seat_token(self, game_id: int, seat: int) -> str:
        """A token that opens one seat's private view of one game, and nothing else. Revoking a
        seat's link (a new generation) makes another token; the old one then opens nothing."""
        generation = self.room.link_generation(game_id, seat)
        signed = f"{game_id}:{seat}" + (f":{generation}" if generation else "")
        mac = hmac.new(self._token_secret, signed.encode(), hashlib.sha256).hexdigest()[:20]
        return f"{game_id}-{seat}-{mac}"

    def seat_for_token(self, token: str) -> int:
        """The seat a token opens in the current game, or ValueError saying why it opens none."""
        if not re.fullmatch(r"[0-9]{1,9}-[0-9]{1,3}-[0-9a-f]{20}", token):
            raise ValueError("that is not a seat link of this table")
        try:
            game_id, seat, _ = token.split("-")
            game_id, seat = int(game_id), int(seat)
        except ValueError:
            raise ValueError("that is not a seat link of this table") from None
        if not hmac.compare_digest(token, self.seat_token(game_id, seat)):
            raise ValueError("that seat link is not valid at this table (it may have been replaced by a new "
                             "one: scan the seat code on the tablet again)")
        if self.session is None or game_id != self.session.game_id:
            raise ValueError("that seat link belongs to an earlier game; scan the seat code on the tablet again")
        return seat

    # -- background work ------------------------------------------------------------------------
    def start_background(self) -> None:
        threading.Thread(target=self._auto_resolve_loop, name="auto-resolve", daemon=True).start()

    def _auto_resolve_loop(self) -> None:
        # A short tick: each one is a cheap check, and the result reaches the tablet that much
        # sooner after the settle (the tick was a tenth of the sub-second target).
        ticks = 0
        while not self._stop.wait(AUTO_RESOLVE_TICK_S):
            self.heartbeat.beat()
            ticks += 1
            if ticks % int(60 / AUTO_RESOLVE_TICK_S) == 0:  # once a minute: is a daily backup due?
                self.backups.tick()
            if ticks % int(2 / AUTO_RESOLVE_TICK_S) == 0:  # `companion tags print` beside the running service made new codes
                self._reload_private_tags()
            session = self.session
            if session is not None:
                try:
                    session.maybe_auto_resolve(self.settle_seconds, self.quick_settle_seconds, self.table_still())
                except Exception:  # never let one bad tick stop the referee
                    log.exception("auto-resolve failed")

    def _reload_private_tags(self) -> None:
        try:
            self.private_tags.reload_if_changed()
        except SystemExit as exc:  # a damaged file: keep the codes already known, say why
            log.error("%s", exc)

    def table_still(self) -> bool | None:
        """Whether the camera's latest ``still_frames`` frames in a row showed the table still;
        None without a camera watching it (readers alone cannot see a hand about to add a card)."""
        still_frames = getattr(self.pipeline, "still_frames", None)
        frames = still_frames() if still_frames is not None else None
        return None if frames is None else frames >= self.still_frames

    def devices(self) -> dict[str, Any]:
        """The devices panel as everyone may see it (no hidden card, no UID naming one)."""
        from companion.web.devices import public_devices

        session = self.session
        return public_devices(self.raw_devices(), session.ruleset if session is not None else None)

    def raw_devices(self) -> dict[str, Any]:
        """Everything the devices know, hidden cards and UIDs included: never sent to a browser."""
        return {
            "camera": self.pipeline.stats() if self.pipeline is not None else None,
            "readers": self.readers.stats() if self.readers is not None else None,
            "unpaired_uids": self.unpaired_uids[-10:],
            "database": str(self.store.path),
            "health": self.health(),
            "hub": self.hub.stats() if self.hub is not None else None,
        }

    def health(self) -> list[dict[str, str]]:
        """The machine's checks (companion doctor's, without the camera), at most every 10 s: the
        Devices page asks every second, and a check may run vcgencmd."""
        from companion.pi.doctor import machine_checks

        now = time.monotonic()
        if self._health is None or now - self._health[0] > 10:
            self._health = (now, [c.as_dict() for c in machine_checks(self.data_dir, self.facts)])
        return self._health[1]

    def stop(self) -> None:
        self._stop.set()
        if self.demo is not None:
            self.demo.stopped.set()
        for part in (self.pipeline, self.readers, self.hub):
            if part is not None:
                part.stop()
        if self.session is not None:
            self.session.close()  # a last snapshot
        self.store.checkpoint()  # shutdown is a safe point: companion.db alone holds every game

    def close(self) -> None:
        """Stop, and let go of the store: what a program or a test that opened the service does when
        done with it. The snapshot writers are waited for first (``stop``); a connection closed under
        one of them, as a test that closed ``store.db`` itself did, crashed the process in SQLite."""
        self.stop()
        self.store.close()
