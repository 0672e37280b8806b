"""Our reader board (firmware/): up to six MFRC522 readers on one USB serial port.

The protocol is in docs/serial-protocol.md. A frame is

    <length> <sequence 0x10|n> <message id> <arguments...> <crc16 hi> <crc16 lo> <0x7E>

The board debounces presence itself (a card is removed after three empty polls, 100 ms apart),
so this driver does not time anything out; it relays the board's tag-present / tag-removed,
drops repeats (a tag-present for the card the seat already holds is not a tap: that is how the
board re-announces its cards after the host reconnects), and checks what it is told:

- on open it sends IDENTIFY (again every second until the board answers: an Arduino resets
  when its port opens and its bootloader ignores the first second or so);
- the board answers HELLO, a TAG_PRESENT for every card it holds, then a HEARTBEAT whose
  present-mask settles the rest: a seat the host thinks holds a card that the board says is
  empty gets its removal (a removal the board sent while the port was closed);
- a gap in the sequence numbers means lost frames: it asks for IDENTIFY again;
- no frame for HEARTBEAT_SILENCE seconds (the board sends one every second): reported, and
  IDENTIFY is sent again.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rfid.config import ReaderConfig
from companion.rfid.crc import crc_ccitt
from companion.rfid.driver import Driver
from companion.rfid.framing import FrameScanner, Verdict
from companion.rfid.presence import ReaderEvent

SYNC = 0x7E
SEQ_FLAG = 0x10
MIN_FRAME, MAX_FRAME = 5, 64
PROTOCOL_VERSION = 1

MSG_HELLO = 0x01
MSG_TAG_PRESENT = 0x02
MSG_TAG_REMOVED = 0x03
MSG_HEARTBEAT = 0x04
MSG_READER_FAULT = 0x05
MSG_READER_OK = 0x06
CMD_IDENTIFY = 0x81

FAULT_CODES = {0x01: "does not answer (VersionReg read {detail:#04x}): module missing, unpowered or miswired"}
UID_LENGTHS = (4, 7, 10)
IDENTIFY_RETRY = 1.0
HEARTBEAT_SILENCE = 3.0


def encode_frame(seq: int, payload: bytes) -> bytes:
    if not 1 <= len(payload) <= MAX_FRAME - 5:
        raise ValueError(f"a payload is 1..{MAX_FRAME - 5} bytes, not {len(payload)}")
    head = bytes([len(payload) + 5, SEQ_FLAG | (seq & 0x0F)]) + payload
    crc = crc_ccitt(head)
    return head + bytes([crc >> 8, crc & 0xFF, SYNC])


class BoardScanner(FrameScanner):
    max_frame = MAX_FRAME

    def check(self, buf: bytearray, i: int) -> tuple[Verdict, int]:
        length = buf[i]
        if not MIN_FRAME <= length <= MAX_FRAME:
            return Verdict.NOISE, 0
        available = len(buf) - i
        if available >= 2 and buf[i + 1] & 0xF0 != SEQ_FLAG:
            return Verdict.NOISE, 0
        if available < length:
            return Verdict.NEED, 0
        if buf[i + length - 1] != SYNC:
            return Verdict.NOISE, 0
        crc = crc_ccitt(bytes(buf[i:i + length - 3]))
        if buf[i + length - 3] != crc >> 8 or buf[i + length - 2] != crc & 0xFF:
            return Verdict.CORRUPT, length
        return Verdict.OK, length


@dataclass(frozen=True)
class Message:
    seq: int
    kind: int
    args: bytes


class MessageError(ValueError):
    """A frame with a valid CRC whose message is not one the protocol allows."""


def decode_message(frame: bytes) -> Message:
    """Check a frame's message strictly (lengths, ranges). Raises MessageError."""
    seq, payload = frame[1] & 0x0F, frame[2:-3]
    kind, args = payload[0], payload[1:]
    if kind == MSG_HELLO:
        if len(args) != 5:
            raise MessageError("hello of the wrong length")
        if not 1 <= args[3] <= 6:
            raise MessageError(f"hello reports {args[3]} readers")
    elif kind in (MSG_TAG_PRESENT, MSG_TAG_REMOVED):
        if len(args) < 2 or args[1] not in UID_LENGTHS or len(args) != 2 + args[1]:
            raise MessageError("tag message with a bad UID length")
        if not 1 <= args[0] <= 6:
            raise MessageError(f"tag message for reader {args[0]}")
    elif kind == MSG_HEARTBEAT:
        if len(args) != 6:
            raise MessageError("heartbeat of the wrong length")
    elif kind == MSG_READER_FAULT:
        if len(args) != 3 or not 1 <= args[0] <= 6:
            raise MessageError("malformed reader fault")
    elif kind == MSG_READER_OK:
        if len(args) != 2 or not 1 <= args[0] <= 6:
            raise MessageError("malformed reader-ok")
    else:
        raise MessageError(f"unknown message {kind:#04x}")
    return Message(seq, kind, bytes(args))


class BoardDriver(Driver):
    kind = "board"
    baudrate = 115200
    removal_timeout = None  # the board reports removals itself

    def __init__(self, config: ReaderConfig):
        super().__init__(config)
        self.hello: dict[str, Any] | None = None
        self.faults: dict[int, str] = {}
        self.expected_seq: int | None = None
        self.seq_gaps = 0
        self.unmapped = 0
        self.reconciled = 0
        self.uptime: int | None = None
        self.heartbeats = 0
        self.last_frame = 0.0
        self.next_identify = 0.0
        self.last_identify = float("-inf")
        self.tx_seq = 0

    def make_scanner(self) -> FrameScanner:
        return BoardScanner()

    def identify(self, now: float) -> None:
        self.write(encode_frame(self.tx_seq, bytes([CMD_IDENTIFY])))
        self.tx_seq = (self.tx_seq + 1) & 0x0F
        self.last_identify = now
        self.next_identify = now + IDENTIFY_RETRY

    # -- the runner's calls ---------------------------------------------------------------------
    def on_open(self, write, now: float) -> list[ReaderEvent]:
        events = super().on_open(write, now)
        self.expected_seq = None
        self.last_frame = now
        self.identify(now)
        return events

    def on_idle(self, now: float) -> list[ReaderEvent]:
        if not self.ready and now >= self.next_identify:
            self.identify(now)
        elif self.ready and now - self.last_frame > HEARTBEAT_SILENCE and now >= self.next_identify:
            self.last_error = f"the board has sent nothing for {now - self.last_frame:.0f} s (no heartbeat)"
            self.identify(now)
        return []

    def on_frame(self, frame: bytes, now: float) -> list[ReaderEvent]:
        try:
            message = decode_message(frame)
        except MessageError as exc:
            self.scanner.note_bad("malformed message")
            self.last_error = f"bad message from the board: {exc}"
            return []
        self.last_frame = now
        self._check_sequence(message, now)
        handler = {MSG_HELLO: self._hello, MSG_TAG_PRESENT: self._tag, MSG_TAG_REMOVED: self._tag,
                   MSG_HEARTBEAT: self._heartbeat, MSG_READER_FAULT: self._fault, MSG_READER_OK: self._ok}
        return handler[message.kind](message, now)

    # -- messages -------------------------------------------------------------------------------
    def _check_sequence(self, message: Message, now: float) -> None:
        if message.kind != MSG_HELLO and self.expected_seq is not None and message.seq != self.expected_seq:
            self.seq_gaps += 1
            self.last_error = f"lost frames (sequence {message.seq}, expected {self.expected_seq}); asked again"
            if now - self.last_identify >= 0.2:
                self.identify(now)
        self.expected_seq = (message.seq + 1) & 0x0F

    def _hello(self, m: Message, now: float) -> list[ReaderEvent]:
        proto, major, minor, count, fault_mask = m.args
        self.hello = {"protocol": proto, "firmware": f"{major}.{minor}", "readers": count}
        if proto != PROTOCOL_VERSION:
            self.ready = False
            self.last_error = (f"the board speaks protocol {proto}; this companion speaks {PROTOCOL_VERSION}: "
                               f"flash the firmware that comes with this companion")
            return []
        self.ready = True
        for reader in range(1, count + 1):
            if not fault_mask & (1 << (reader - 1)):
                self.faults.pop(reader, None)
        if len(self.config.seats) > count:
            self.last_error = (f"configured for {len(self.config.seats)} readers but the board has {count}; "
                               f"seats {list(self.config.seats[count:])} have no reader")
        return []

    def _seat(self, reader: int) -> int | None:
        seat = self.config.seat_of_reader(reader)
        if seat is None:
            self.unmapped += 1
        return seat

    def _tag(self, m: Message, now: float) -> list[ReaderEvent]:
        reader, uid = m.args[0], m.args[2:].hex().upper()
        seat = self._seat(reader)
        if seat is None:
            return []
        presence = self.seats[seat]
        if m.kind == MSG_TAG_PRESENT:
            return presence.seen(uid, now)
        return presence.gone(uid)

    def _heartbeat(self, m: Message, now: float) -> list[ReaderEvent]:
        self.uptime = int.from_bytes(m.args[:4], "big")
        self.heartbeats += 1
        present_mask, fault_mask = m.args[4], m.args[5]
        events: list[ReaderEvent] = []
        for reader, seat in enumerate(self.config.seats, 1):
            bit = 1 << (reader - 1)
            if fault_mask & bit:
                continue  # a faulty reader cannot tell; keep what we know
            held = self.seats[seat].uid
            if held is not None and not present_mask & bit:
                self.reconciled += 1
                events += self.seats[seat].gone()
            elif held is None and present_mask & bit and now >= self.next_identify:
                self.identify(now)  # a card we were never told about: ask for the full state
        return events

    def _fault(self, m: Message, now: float) -> list[ReaderEvent]:
        reader, code, detail = m.args
        text = FAULT_CODES.get(code, "fault code {code:#04x}").format(detail=detail, code=code)
        seat = self.config.seat_of_reader(reader)
        self.faults[reader] = f"reader {reader} (seat {seat}) {text}"
        self.last_error = self.faults[reader]
        return []

    def _ok(self, m: Message, now: float) -> list[ReaderEvent]:
        self.faults.pop(m.args[0], None)
        return []

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "board": self.hello, "uptime_s": self.uptime, "heartbeats": self.heartbeats, "faults": dict(self.faults),
                "sequence_gaps": self.seq_gaps, "unmapped_tags": self.unmapped, "reconciled": self.reconciled}
