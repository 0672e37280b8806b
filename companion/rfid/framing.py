"""Cutting frames out of a serial byte stream, for every reader's wire format.

A reader's bytes arrive in arbitrary pieces: a frame can be split across reads, preceded by
garbage (line noise, a reader booting, a port opened mid-frame), truncated (a byte lost), or
damaged (a wrong checksum). ``FrameScanner.feed`` returns the valid frames and drops the rest,
counting every dropped piece, and never raises on any input.

How it resynchronises: at every byte position it asks the format's ``check`` whether a frame
starts there. The first position holding a complete valid frame wins; everything before it is
dropped. So a good frame directly after garbage is found at once (not only after a sync byte, as
a simpler scanner would), and a false start (a garbage byte that looks like a length) cannot
swallow the frame behind it. The formats' checks are cheap structural tests first (start byte,
length, end byte) and the checksum last.

Counting: a dropped stretch is split into frames that were complete and well-formed but failed
their checksum ("corrupt", one count each) and runs of other bytes ("noise": garbage,
truncated frames; one count per run). ``bad`` is their sum.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Verdict(Enum):
    OK = "ok"            # a complete, valid frame of the given length starts here
    NEED = "need"        # could be a frame; more bytes are needed to tell
    NOISE = "noise"      # no frame starts here
    CORRUPT = "corrupt"  # a complete frame of the given length whose checksum is wrong
    FILL = "fill"        # a byte the format allows between frames (PN532's preamble 00)


@dataclass
class ScanStats:
    good: int = 0
    corrupt: int = 0
    noise: int = 0
    bytes_dropped: int = 0
    fill_bytes: int = 0      # bytes the format allows between frames (not errors)
    reasons: dict[str, int] = field(default_factory=dict)

    @property
    def bad(self) -> int:
        return self.corrupt + self.noise

    def as_dict(self) -> dict[str, Any]:
        return {"good": self.good, "bad": self.bad, "corrupt": self.corrupt, "noise": self.noise,
                "bytes_dropped": self.bytes_dropped, "fill_bytes": self.fill_bytes, "reasons": dict(self.reasons)}


class FrameScanner(ABC):
    """Base of every wire format's parser. Subclasses set ``max_frame`` and implement
    ``check(buf, i) -> (Verdict, length)``; ``feed`` does the rest."""

    max_frame = 64

    def __init__(self) -> None:
        self.buf = bytearray()
        self.stats = ScanStats()
        self._in_noise = False  # the last dropped byte was noise: more noise is the same run

    @abstractmethod
    def check(self, buf: bytearray, i: int) -> tuple[Verdict, int]:
        """What starts at buf[i]: a Verdict, and the frame's length for OK and CORRUPT. Must not
        answer NOISE or CORRUPT from bytes that have not arrived yet."""

    def feed(self, data: bytes) -> list[bytes]:
        """Frames completed by these bytes, in order."""
        self.buf += data
        frames: list[bytes] = []
        while True:
            found = self._next_frame()
            if found is None:
                return frames
            frames.append(found)

    def reset(self) -> int:
        """Forget a partial frame (the port closed under it); it counts as dropped noise."""
        dropped = len(self.buf)
        if dropped:
            self._drop(dropped)
        return dropped

    def _next_frame(self) -> bytes | None:
        buf = self.buf
        keep_from = len(buf)  # where the bytes we must keep begin
        corrupt_ends: list[tuple[int, int]] = []
        for start in range(len(buf)):
            verdict, length = self.check(buf, start)
            if verdict is Verdict.OK:
                self._drop(start)
                frame = bytes(self.buf[:length])
                del self.buf[:length]
                self.stats.good += 1
                self._in_noise = False
                return frame
            if verdict is Verdict.NEED and keep_from == len(buf):
                keep_from = start
            elif verdict is Verdict.CORRUPT:
                corrupt_ends.append((start, start + length))
        # A corrupt frame that runs past the kept bytes is kept whole, so that it is counted
        # the same way however the stream was cut into reads.
        for start, end in corrupt_ends:
            if start < keep_from < end:
                keep_from = start
                break
        self._drop(keep_from)
        return None

    def _drop(self, count: int) -> None:
        """Drop buf[:count], counting corrupt frames and noise runs in it."""
        if count <= 0:
            return
        i = 0
        while i < count:
            verdict, length = self.check(self.buf, i)
            if verdict is Verdict.CORRUPT and i + length <= count:
                self.stats.corrupt += 1
                self._reason("checksum")
                self.stats.bytes_dropped += length
                i += length
                self._in_noise = False
                continue
            if verdict is Verdict.FILL:
                self.stats.fill_bytes += 1
                i += 1
                continue
            if not self._in_noise:
                self.stats.noise += 1
                self._in_noise = True
            self.stats.bytes_dropped += 1
            i += 1
        del self.buf[:count]

    def _reason(self, reason: str) -> None:
        self.stats.reasons[reason] = self.stats.reasons.get(reason, 0) + 1

    def note_bad(self, reason: str) -> None:
        """A frame that passed the framing but whose content is not a valid message."""
        self.stats.good -= 1
        self.stats.corrupt += 1
        self._reason(reason)
