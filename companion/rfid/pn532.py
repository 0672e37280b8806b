"""NXP PN532 (13.56 MHz) over its HSU UART, 115200 8N1: the usual red and blue PN532 boards
with the mode switches set to HSU.

Frames (PN532 User Manual UM0701-02, section 6.2):

    normal       00 00 FF LEN LCS TFI PD0..PDn DCS 00     LEN + LCS = 0, TFI + PD.. + DCS = 0 (mod 256)
    extended     00 00 FF FF FF LENM LENL LCS TFI PD.. DCS 00
    ACK          00 00 FF 00 FF 00
    NACK         00 00 FF FF 00 00    ("send that again")
    error        00 00 FF 01 FF 7F 81 00
TFI is D4 from the host, D5 from the PN532, whose answer to command C is C+1.

The driver's sequence: wake the chip from its power-down (HSU needs 55 55 and a long run of
00 before the first command), SAMConfiguration (normal mode; it must be the first command after
wake-up), GetFirmwareVersion, RFConfiguration MaxRetries (so InListPassiveTarget gives up after
two tries instead of waiting for a card forever), then InListPassiveTarget (one target, 106 kbps
type A) every 0.1 s. Each command must be ACKed within 0.25 s and answered within 0.5 s (the chip
ACKs within a few milliseconds; the margin is for a busy Pi); a chip that does not is woken and
configured again (it may have been reset or unpowered). An answer that arrives after its command
timed out is counted as late and ignored. A NACK makes the driver repeat its command.

Removal: a card not found for 0.35 s (three polls) is gone. (Adafruit's and libnfc's loops poll
the same way; neither names a removal timeout, so this one is ours.)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rfid.driver import Driver
from companion.rfid.framing import FrameScanner, Verdict
from companion.rfid.presence import ReaderEvent

HOST_TFI, CHIP_TFI, ERROR_TFI = 0xD4, 0xD5, 0x7F
ACK = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
NACK = bytes([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
WAKEUP = bytes([0x55, 0x55]) + bytes(14)

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

ACK_TIMEOUT = 0.25
RESPONSE_TIMEOUT = 0.5
POLL_INTERVAL = 0.1
UID_LENGTHS = (4, 7, 10)


def encode_frame(data: bytes, tfi: int = HOST_TFI) -> bytes:
    """A normal information frame carrying ``TFI + data`` (data = command code and parameters)."""
    body = bytes([tfi]) + data
    if len(body) > 255:
        raise ValueError("normal frames carry at most 255 bytes; use an extended frame")
    length = len(body)
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0x00])


class Pn532Scanner(FrameScanner):
    """Frames from the start code 00 FF to the DCS; preamble and postamble bytes (00, and 55
    from a host waking the chip) are allowed between frames. A frame must carry the TFI of its
    direction (D5 from the chip; the error frame's 7F) or it is corrupt: with 8-bit checksums a
    damaged ACK can pass them (00 FF 01 FF, then the postamble 00 as TFI and the next preamble
    00 as DCS), and the TFI is what gives it away."""

    max_frame = 7 + 265 + 1

    def __init__(self, fill: bytes = b"\x00", tfi: int = CHIP_TFI) -> None:
        super().__init__()
        self.fill = frozenset(fill)
        self.tfi = tfi

    def check(self, buf: bytearray, i: int) -> tuple[Verdict, int]:
        n = len(buf) - i
        if buf[i] != 0x00:
            return (Verdict.FILL, 1) if buf[i] in self.fill else (Verdict.NOISE, 0)
        if n < 2:
            return Verdict.NEED, 0
        if buf[i + 1] != 0xFF:
            return Verdict.FILL, 1
        if n < 4:
            return Verdict.NEED, 0
        length, lcs = buf[i + 2], buf[i + 3]
        if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):
            return Verdict.OK, 4  # ACK, NACK
        if (length, lcs) == (0xFF, 0xFF):
            if n < 7:
                return Verdict.NEED, 0
            if (buf[i + 4] + buf[i + 5] + buf[i + 6]) & 0xFF:
                return Verdict.NOISE, 0
            length, head = buf[i + 4] * 256 + buf[i + 5], 7
            if not 1 <= length <= 265:
                return Verdict.NOISE, 0
        else:
            if (length + lcs) & 0xFF or length == 0:
                return Verdict.NOISE, 0
            head = 4
        total = head + length + 1
        if n < total:
            return Verdict.NEED, 0
        if sum(buf[i + head:i + total]) & 0xFF:
            return Verdict.CORRUPT, total
        tfi = buf[i + head]
        if tfi != self.tfi and not (tfi == ERROR_TFI and length == 1 and self.tfi == CHIP_TFI):
            return Verdict.CORRUPT, total
        return Verdict.OK, total


def frame_body(frame: bytes) -> bytes:
    """TFI and data of a frame cut by Pn532Scanner (b"" for ACK and NACK)."""
    if len(frame) == 4:
        return b""
    head = 7 if frame[2:4] == b"\xff\xff" else 4
    return frame[head:-1]


def is_ack(frame: bytes) -> bool:
    return frame == ACK[1:5]


def is_nack(frame: bytes) -> bool:
    return frame == NACK[1:5]


class ResponseError(ValueError):
    """An answer with valid checksums whose content the manual does not allow."""


def parse_target(data: bytes) -> str | None:
    """The UID from an InListPassiveTarget answer (data after D5 4B), None when no card."""
    if not data:
        raise ResponseError("empty InListPassiveTarget answer")
    count = data[0]
    if count == 0:
        if len(data) != 1:
            raise ResponseError("no target but extra bytes")
        return None
    if count != 1:
        raise ResponseError(f"{count} targets when one was asked for")
    if len(data) < 6:
        raise ResponseError("target data too short")
    uid_length = data[5]
    if uid_length not in UID_LENGTHS or len(data) < 6 + uid_length:
        raise ResponseError(f"NFCID1 length {uid_length}")
    rest = data[6 + uid_length:]
    if rest and rest[0] != len(rest):
        raise ResponseError("ATS length does not match")
    return data[6:6 + uid_length].hex().upper()


@dataclass
class Pending:
    command: int
    frame: bytes
    sent: float
    acked: bool = False


class Pn532Driver(Driver):
    kind = "pn532"
    baudrate = 115200
    removal_timeout = 0.35

    def __init__(self, config):
        super().__init__(config)
        self.poll_interval = config.poll_interval or POLL_INTERVAL
        self.pending: Pending | None = None
        self.next_poll = 0.0
        self.firmware: str | None = None
        self.timeouts = 0
        self.late_answers = 0
        self.timed_out: int | None = None  # the command that timed out last
        self.nacks = 0
        self.error_frames = 0
        self.polls = 0
        self.configured = False

    def make_scanner(self) -> FrameScanner:
        return Pn532Scanner()

    def _send(self, command: int, params: bytes, now: float, prefix: bytes = b"") -> None:
        frame = encode_frame(bytes([command]) + params)
        self.pending = Pending(command, frame, now)
        self.write(prefix + frame)

    def _wake(self, now: float) -> None:
        self.configured = False
        # mode 1 = normal (no SAM), timeout 0x14 (1 s, virtual card mode only), IRQ pin used
        self._send(SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01]), now, prefix=WAKEUP)

    def on_open(self, write, now: float) -> list[ReaderEvent]:
        events = super().on_open(write, now)
        self._wake(now)
        return events

    def on_idle(self, now: float) -> list[ReaderEvent]:
        events = super().on_idle(now)
        p = self.pending
        if p is not None:
            limit = RESPONSE_TIMEOUT if p.acked else ACK_TIMEOUT
            if now - p.sent > limit:
                # the reason before the count: whoever sees the count (the dashboard, from another
                # thread) sees why too
                self.last_error = (f"the PN532 did not {'answer' if p.acked else 'acknowledge'} command "
                                   f"{p.command:#04x} within {limit:.1f} s; waking it again")
                self.timed_out = p.command
                self.timeouts += 1
                self.ready = False
                self._wake(now)
        elif self.configured and now >= self.next_poll:
            self.polls += 1
            self._send(IN_LIST_PASSIVE_TARGET, bytes([0x01, 0x00]), now)  # 1 target, 106 kbps type A
        return events

    def on_frame(self, frame: bytes, now: float) -> list[ReaderEvent]:
        p = self.pending
        if is_ack(frame):
            if p is not None:
                p.acked = True
            return []
        if is_nack(frame):
            self.nacks += 1
            if p is not None:
                p.sent = now
                self.write(p.frame)
            return []
        body = frame_body(frame)
        if body == bytes([ERROR_TFI]):
            self.error_frames += 1
            self.last_error = "the PN532 sent an error frame (it could not parse our command)"
            self.pending = None
            self._wake(now)
            return []
        if len(body) >= 2 and body[0] == CHIP_TFI and self.timed_out is not None and body[1] == self.timed_out + 1 \
                and (p is None or body[1] != p.command + 1):
            self.late_answers += 1  # the answer to a command we gave up on: not an error of the line
            return []
        if len(body) < 2 or body[0] != CHIP_TFI or p is None or body[1] != p.command + 1:
            self.scanner.note_bad("unexpected answer")
            return []
        self.pending = None
        try:
            return self._answer(p.command, body[2:], now)
        except ResponseError as exc:
            self.scanner.note_bad("malformed answer")
            self.last_error = f"bad answer from the PN532: {exc}"
            self.next_poll = now + self.poll_interval
            return []

    def _answer(self, command: int, data: bytes, now: float) -> list[ReaderEvent]:
        if command == SAM_CONFIGURATION:
            self._send(GET_FIRMWARE_VERSION, b"", now)
        elif command == GET_FIRMWARE_VERSION:
            if len(data) != 4:
                raise ResponseError("firmware version of the wrong length")
            ic, version, revision, _support = data
            self.firmware = f"PN5{ic:02X} v{version}.{revision}"
            # CfgItem 5: MxRtyATR 0xFF, MxRtyPSL 1, MxRtyPassiveActivation 2
            self._send(RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0x02]), now)
        elif command == RF_CONFIGURATION:
            self.configured = True
            self.ready = True
            self.next_poll = now
        elif command == IN_LIST_PASSIVE_TARGET:
            self.next_poll = now + self.poll_interval
            uid = parse_target(data)
            if uid is not None:
                (seat,) = self.config.seats
                return self.seats[seat].seen(uid, now)
        return []

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "firmware": self.firmware, "polls": self.polls, "timeouts": self.timeouts,
                "late_answers": self.late_answers, "nacks": self.nacks, "error_frames": self.error_frames}
