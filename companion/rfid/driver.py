"""The shape every reader driver has. A driver knows one wire format and one reader's habits;
it does no I/O itself. The runner (runner.py) owns the serial port and calls:

    on_open(write, now)   the port has just been opened; ``write(bytes)`` sends to the reader
    on_bytes(data, now)   bytes arrived
    on_idle(now)          called at least every 50 ms: timers (polls, retries, removal timeouts)
    on_close(now)         the port is gone (unplugged) or being closed

Each returns the ReaderEvents (taps and removals per seat) it produced. ``ready`` says whether
the reader has answered since the port opened (a handshake for the PN532 and our board; the
first good frame for the 125 kHz readers, which cannot be asked anything).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar

from companion.rfid.config import ReaderConfig
from companion.rfid.framing import FrameScanner
from companion.rfid.presence import Presence, ReaderEvent

Write = Callable[[bytes], None]


class Driver(ABC):
    kind: ClassVar[str]
    baudrate: ClassVar[int]
    removal_timeout: ClassVar[float | None]  # seconds; None: the reader reports removal, or cannot
    rearm: ClassVar[float | None] = None      # see presence.py
    handshake: ClassVar[bool] = True          # False: the reader cannot be asked anything

    def __init__(self, config: ReaderConfig):
        self.config = config
        self.scanner: FrameScanner = self.make_scanner()
        timeout = config.removal_timeout if config.removal_timeout is not None else self.removal_timeout
        self.seats = {seat: Presence(seat, timeout, self.rearm) for seat in config.seats}
        self.ready = False
        self.write: Write = lambda data: None
        self.last_error: str | None = None

    @abstractmethod
    def make_scanner(self) -> FrameScanner:
        """The parser of this reader's wire format."""

    # -- called by the runner ---------------------------------------------------------------
    def on_open(self, write: Write, now: float) -> list[ReaderEvent]:
        self.write = write
        self.ready = False
        for presence in self.seats.values():
            presence.resume(now)
        return []

    def on_bytes(self, data: bytes, now: float) -> list[ReaderEvent]:
        events: list[ReaderEvent] = []
        for frame in self.scanner.feed(data):
            events += self.on_frame(frame, now)
        return events

    @abstractmethod
    def on_frame(self, frame: bytes, now: float) -> list[ReaderEvent]:
        """One valid frame from the reader: what it means for the seats."""

    def on_idle(self, now: float) -> list[ReaderEvent]:
        events: list[ReaderEvent] = []
        for presence in self.seats.values():
            events += presence.expire(now)
        return events

    def on_close(self, now: float) -> list[ReaderEvent]:
        cut = self.scanner.reset()
        if cut:
            self.last_error = f"port closed with {cut} bytes of an unfinished frame"
        self.ready = False
        self.write = lambda data: None
        for presence in self.seats.values():
            presence.pause()
        return []

    # -- reporting ----------------------------------------------------------------------------
    def present(self) -> dict[int, str | None]:
        return {seat: p.uid for seat, p in self.seats.items()}

    def stats(self) -> dict[str, Any]:
        return {"frames": self.scanner.stats.as_dict(), "present": self.present()}
