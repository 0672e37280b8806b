"""One reader's thread: owns its serial port, survives unplugging, feeds its driver.

States, as the dashboard shows them:

    connecting   never opened yet
    connected    the port is open and the reader has answered (our board's hello, the PN532's
                 configuration, or simply an open port for the 125 kHz readers)
    reopening    the port is open again (or being opened) but the reader has not answered yet
    unplugged    the port failed or vanished; retried every ``retry`` seconds (0.2 s doubling to
                 2 s), forever, while the rest of the companion runs on
    stopped      the service was stopped

The port is opened by the configured path, normally a /dev/serial/by-id/... symlink, which udev
removes when the reader is unplugged and recreates when it returns, whatever ttyUSB number it
gets. Cards the reader held are remembered across the gap (see presence.py): a card still on
the reader when it returns is not a new tap; one that left meanwhile is reported removed.
"""
from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable

import serial

from companion.rfid.board import BoardDriver
from companion.rfid.config import ReaderConfig
from companion.rfid.driver import Driver
from companion.rfid.em4100 import Id12Driver, Rdm6300Driver
from companion.rfid.pn532 import Pn532Driver
from companion.rfid.presence import ReaderEvent

DRIVERS: dict[str, type[Driver]] = {"board": BoardDriver, "rdm6300": Rdm6300Driver, "id12": Id12Driver,
                                    "pn532": Pn532Driver}
READ_TIMEOUT = 0.05
RETRY_FIRST, RETRY_MAX = 0.2, 2.0

Opener = Callable[[ReaderConfig, int], Any]  # returns an object with read(n), write(b), close(), in_waiting


def open_serial(config: ReaderConfig, baudrate: int) -> serial.Serial:
    return serial.Serial(config.port, baudrate=baudrate, timeout=READ_TIMEOUT, write_timeout=0.5)


class ReaderRunner:
    def __init__(self, config: ReaderConfig, on_event: Callable[[ReaderEvent], None],
                 opener: Opener = open_serial, clock: Callable[[], float] = time.monotonic,
                 retry: tuple[float, float] = (RETRY_FIRST, RETRY_MAX)):
        self.config = config
        self.driver = DRIVERS[config.kind](config)
        self.on_event = on_event
        self.opener = opener
        self.clock = clock
        self.retry_first, self.retry_max = retry
        self.state = "connecting"
        self.port: Any = None
        self.opened_at: float | None = None
        self.unplugs = 0
        self.reopens = 0
        self.last_error: str | None = None
        self.unknown: dict[str, dict[str, Any]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name=f"rfid-{self.config.label}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close()
        self.state = "stopped"

    def run(self) -> None:
        delay = self.retry_first
        while not self._stop.is_set():
            try:
                if self.port is None:
                    if self._open():
                        delay = self.retry_first
                    else:
                        self._stop.wait(delay)
                        delay = min(delay * 2, self.retry_max)
                    continue
                self._step()
            except Exception as exc:  # a bug must not silence a reader for the rest of the game
                self._unplugged(RuntimeError(f"internal error, port reopened: {exc!r}"))
                self._stop.wait(delay)

    # -- one pass -------------------------------------------------------------------------------
    def _open(self) -> bool:
        baudrate = self.config.baudrate or self.driver.baudrate
        try:
            port = self.opener(self.config, baudrate)
        except (serial.SerialException, OSError, ValueError) as exc:
            if self.state in ("connected", "reopening"):
                self._unplugged(exc)
            elif self.state == "connecting":
                self.last_error = f"cannot open {self.config.port}: {_reason(exc)}"
            return False
        with self._lock:
            self.port = port
            self.opened_at = self.clock()
            if self.state != "connecting":
                self.reopens += 1
            self.state = "reopening" if self.driver.handshake else "connected"
        self._deliver(self.driver.on_open(self._write, self.clock()))
        self._take_driver_error()
        return True

    def _step(self) -> None:
        try:
            data = self.port.read(max(1, self.port.in_waiting))
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            # TypeError/AttributeError: pyserial's read on a port closed under it by stop()
            if not self._stop.is_set():
                self._unplugged(exc)
            return
        now = self.clock()
        events = self.driver.on_bytes(data, now) if data else []
        events += self.driver.on_idle(now)
        if self.driver.ready and self.state == "reopening":
            self.state = "connected"
        self._take_driver_error()
        self._deliver(events)

    def _take_driver_error(self, prefix: str = "") -> None:
        if self.driver.last_error:
            self.last_error = prefix + self.driver.last_error
            self.driver.last_error = None

    def _write(self, data: bytes) -> None:
        port = self.port
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            self.last_error = f"write failed: {_reason(exc)}"

    def _unplugged(self, exc: BaseException) -> None:
        self.last_error = f"{self.config.port}: {_reason(exc)}"
        self._close()
        events = self.driver.on_close(self.clock())
        self._take_driver_error(prefix=f"{self.last_error}; ")
        # the state changes last, so that whoever sees "unplugged" sees its counts and reason too
        if self.state != "unplugged":
            self.unplugs += 1
        self.state = "unplugged"
        self._deliver(events)

    def _close(self) -> None:
        with self._lock:
            port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _deliver(self, events: list[ReaderEvent]) -> None:
        for event in events:
            self.on_event(event)

    # -- unknown UIDs (the service tells us which taps were not played) --------------------------
    def note_unknown(self, seat: int, uid: str, when: float) -> None:
        entry = self.unknown.setdefault(uid, {"uid": uid, "seat": seat, "count": 0, "first_seen": when})
        entry["count"] += 1
        entry["last_seen"] = when
        entry["seat"] = seat

    def forget_unknown(self, uid: str) -> None:
        self.unknown.pop(uid, None)

    # -- dashboard ------------------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        # the driver's counts first, then its error not yet taken over (``_take_driver_error`` sets
        # ours before it clears the driver's): a count the dashboard sees comes with its reason
        driver = self.driver.stats()
        last_error = self.driver.last_error or self.last_error
        return {"name": self.config.label, "kind": self.config.kind, "port": self.config.port,
                "device": _resolved(self.config.port), "seats": list(self.config.seats), "state": self.state,
                "frames": driver.pop("frames"), "last_error": last_error,
                "unplugs": self.unplugs, "reopens": self.reopens,
                "unknown_uids": sorted(self.unknown.values(), key=lambda u: u["first_seen"]), **driver}


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "[Errno 2]" in text:
        return "no such device (unplugged?)"
    return text


def _resolved(path: str) -> str | None:
    try:
        return os.path.realpath(path) if os.path.exists(path) else None
    except OSError:
        return None
