"""125 kHz readers of EM4100 tags: the RDM6300 and the ID-12LA / ID-20LA (ID Innovations).

Both send a tag as ASCII, 9600 baud 8N1:

    RDM6300:  02 | 10 hex digits | 2 hex digits | 03                  (14 bytes)
    ID-12LA:  02 | 10 hex digits | 2 hex digits | 0D 0A | 03          (16 bytes)

The ten digits are five bytes (a version/customer byte and the 32-bit card number); the two
after them are the XOR of those five bytes. Digits are upper-case 0-9 A-F; anything else, a
missing end byte or a wrong checksum drops the frame. The UID reported is the ten digits.

Removal (documented in docs/serial-protocol.md):
- The RDM6300 repeats the frame while a tag stays in its field, so a tag is removed after
  0.3 s without a frame (RDM6300_DEFAULT_TAG_TIMEOUT_MS = 300 in the arduino12/rdm6300
  library).
- The ID-12LA / ID-20LA send a tag once when it enters the field; their serial line never says
  it left (their "tag in range" pin does, which a USB serial adapter does not carry). So no
  removal is reported for them, and the same tag read again after 1 s without a read is a new
  tap.
"""
from __future__ import annotations

from companion.rfid.driver import Driver
from companion.rfid.framing import FrameScanner, Verdict
from companion.rfid.presence import ReaderEvent

STX, ETX = 0x02, 0x03
HEX_DIGITS = frozenset(b"0123456789ABCDEF")


class Em4100Scanner(FrameScanner):
    """STX, 12 upper-case hex digits, ``trailer``, ETX."""

    trailer = b""

    def __init__(self) -> None:
        super().__init__()
        self.length = 1 + 12 + len(self.trailer) + 1
        self.max_frame = self.length

    def check(self, buf: bytearray, i: int) -> tuple[Verdict, int]:
        if buf[i] != STX:
            return Verdict.NOISE, 0
        end = min(len(buf), i + self.length)
        # Reject early on a non-digit, so garbage after a stray 02 does not hold up the stream.
        for j in range(i + 1, min(end, i + 13)):
            if buf[j] not in HEX_DIGITS:
                return Verdict.NOISE, 0
        for k, byte in enumerate(self.trailer):
            if i + 13 + k < end and buf[i + 13 + k] != byte:
                return Verdict.NOISE, 0
        if len(buf) - i < self.length:
            return Verdict.NEED, 0
        if buf[i + self.length - 1] != ETX:
            return Verdict.NOISE, 0
        data = bytes.fromhex(buf[i + 1:i + 11].decode("ascii"))
        checksum = int(buf[i + 11:i + 13].decode("ascii"), 16)
        xor = 0
        for byte in data:
            xor ^= byte
        if xor != checksum:
            return Verdict.CORRUPT, self.length
        return Verdict.OK, self.length


class Rdm6300Scanner(Em4100Scanner):
    trailer = b""


class Id12Scanner(Em4100Scanner):
    trailer = b"\r\n"


def uid_of(frame: bytes) -> str:
    return frame[1:11].decode("ascii")


def encode_frame(uid: str, trailer: bytes = b"") -> bytes:
    """A reader's frame for a ten-digit UID (used by the fake readers and the tests)."""
    data = bytes.fromhex(uid)
    if len(data) != 5:
        raise ValueError("an EM4100 UID is 10 hex digits")
    xor = 0
    for byte in data:
        xor ^= byte
    return bytes([STX]) + uid.upper().encode() + f"{xor:02X}".encode() + trailer + bytes([ETX])


class Rdm6300Driver(Driver):
    kind = "rdm6300"
    baudrate = 9600
    removal_timeout = 0.3
    handshake = False

    def make_scanner(self) -> FrameScanner:
        return Rdm6300Scanner()

    def on_frame(self, frame: bytes, now: float) -> list[ReaderEvent]:
        self.ready = True  # these readers cannot be asked anything: a good frame is the handshake
        (seat,) = self.config.seats
        return self.seats[seat].seen(uid_of(frame), now)


class Id12Driver(Rdm6300Driver):
    kind = "id12"
    removal_timeout = None
    rearm = 1.0

    def make_scanner(self) -> FrameScanner:
        return Id12Scanner()
