"""Fuzzing every reader parser with hypothesis: ``python -m companion.bench.rfid_fuzz [-n 100000]``.

For each wire format, hypothesis builds byte streams of valid frames, damaged frames (a byte
changed, bytes cut off) and garbage, and feeds them in random pieces. Each stream must satisfy:

- nothing raises;
- every valid frame comes out, in order (garbage between frames never hides the next one);
- every damaged frame is counted (``bad`` is at least the number of damaged frames);
- every byte is accounted for: frame bytes + dropped + allowed fill + still buffered = input;
- the same stream fed whole or in pieces gives the same frames and counts.

Then the drivers above the parsers get random well-checksummed frames with random contents
(wrong lengths, unknown message ids, impossible UIDs) and must drop them without raising.

The test suite (tests/test_rfid_fuzz.py) runs the same properties with a few hundred examples
per parser; this command runs at least 100 000 per parser and prints counts and timings.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.rfid import board, em4100, pn532
from companion.rfid.config import ReaderConfig
from companion.rfid.framing import FrameScanner

# -- valid frames of each format ---------------------------------------------------------------
# Each format turns a (choice, 16 random bytes) seed into one valid frame: one cheap draw per
# frame keeps hypothesis fast enough for 100 000 inputs.
Seed = tuple[int, bytes]
seeds = st.tuples(st.integers(0, 255), st.binary(min_size=16, max_size=16))


def board_frame(seed: Seed) -> bytes:
    choice, r = seed
    reader, kind = 1 + r[0] % 6, choice % 7
    if kind == 0:
        payload = bytes([board.MSG_HELLO, 1, 1, 0, 1 + r[1] % 6, r[2] % 64])
    elif kind in (1, 2):
        n = (4, 7, 10)[r[1] % 3]
        payload = bytes([board.MSG_TAG_PRESENT if kind == 1 else board.MSG_TAG_REMOVED, reader, n]) + r[2:2 + n]
    elif kind == 3:
        payload = bytes([board.MSG_HEARTBEAT]) + r[1:7]
    elif kind == 4:
        payload = bytes([board.MSG_READER_FAULT, reader, 1, r[1]])
    elif kind == 5:
        payload = bytes([board.MSG_READER_OK, reader, 0x92])
    else:
        payload = r[: 1 + r[0] % 15] * (1 + r[1] % 3)  # anything, up to 45 bytes
    return board.encode_frame(r[15], payload)


def em4100_frame(trailer: bytes) -> Callable[[Seed], bytes]:
    return lambda seed: em4100.encode_frame(seed[1][:5].hex(), trailer)


def pn532_frame(seed: Seed) -> bytes:
    choice, r = seed
    if choice < 30:
        return pn532.ACK
    if choice < 40:
        return pn532.NACK
    if choice < 50:
        return bytes([0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00])  # error frame
    # bodies without 00: a body holding "00 FF 00 FF" is an ACK inside a frame, a real
    # ambiguity of this format which the split-invariance property would trip over
    body = bytes(x or 1 for x in r[: 1 + choice % 16])
    return pn532.encode_frame(body, tfi=pn532.CHIP_TFI)


@dataclass
class Format:
    name: str
    scanner: Callable[[], FrameScanner]
    frame: Callable[[Seed], bytes]
    noise_byte: Callable[[int], int] = lambda b: b
    trim: Callable[[bytes], bytes] = lambda f: f  # the part of a sent frame the scanner returns
    # PN532 frames are only damaged by a changed byte between start code and DCS: with 8-bit
    # checksums, a frame cut short and the frame after it can make a valid frame (1 in 256),
    # and a lost preamble or postamble byte is no damage at all
    cuts_allowed: bool = True
    margin: int = 0


FORMATS = {
    "board": Format("board", board.BoardScanner, board_frame),
    "rdm6300": Format("rdm6300", em4100.Rdm6300Scanner, em4100_frame(b"")),
    "id12": Format("id12", em4100.Id12Scanner, em4100_frame(b"\r\n")),
    # no 00 in PN532 noise: 00 FF starts a frame, and a false start whose 8-bit checksums happen
    # to match could cover the next real frame; the garbage property uses any bytes
    "pn532": Format("pn532", pn532.Pn532Scanner, pn532_frame, noise_byte=lambda b: b or 0x42,
                    trim=lambda f: f[1:-1], cuts_allowed=False, margin=1),
}


def damage(fmt: Format, frame: bytes, how: int, where: int, xor: int) -> bytes:
    """A frame with one byte changed, or cut short (lengths and checksums will not match)."""
    if fmt.cuts_allowed and how % 2 and len(frame) > 2:
        return frame[: 1 + where % (len(frame) - 1)]
    i = fmt.margin + where % (len(frame) - 2 * fmt.margin)
    return frame[:i] + bytes([frame[i] ^ (1 + xor % 255)]) + frame[i + 1:]


@dataclass
class Case:
    stream: bytes = b""
    expected: list[bytes] = field(default_factory=list)
    damaged: int = 0
    cuts: list[int] = field(default_factory=list)


class Bytes:
    """Reads a hypothesis-made blob as a sequence of choices (0 once it runs out). One draw per
    input keeps hypothesis fast enough for 100 000 inputs per parser, while its mutations of
    the blob still explore the choices."""

    def __init__(self, blob: bytes):
        self.blob, self.pos = blob, 0

    def byte(self) -> int:
        self.pos += 1
        return self.blob[self.pos - 1] if self.pos <= len(self.blob) else 0

    def take(self, n: int) -> bytes:
        return bytes(self.byte() for _ in range(n))

    def seed(self) -> Seed:
        return self.byte(), self.take(16)


def cases(fmt: Format) -> st.SearchStrategy[Case]:
    return st.binary(min_size=1, max_size=600).map(lambda blob: build_case(fmt, Bytes(blob)))


def build_case(fmt: Format, r: Bytes) -> Case:
    case = Case()
    for _ in range(1 + r.byte() % 8):
        what, frame = r.byte() % 4, fmt.frame(r.seed())
        if what <= 1:
            case.stream += frame
            case.expected.append(fmt.trim(frame))
        elif what == 2:
            # a damaged frame must be followed by a good one to be told from a slow one
            follow = fmt.frame(r.seed())
            case.stream += damage(fmt, frame, r.byte(), r.byte(), r.byte()) + follow
            case.damaged += 1
            case.expected.append(fmt.trim(follow))
        else:
            case.stream += bytes(fmt.noise_byte(b) for b in r.take(r.byte() % 41))
    case.cuts = sorted({r.byte() * 2 % (len(case.stream) + 1) for _ in range(r.byte() % 7)})
    return case


def feed(fmt: Format, stream: bytes, cuts: list[int]) -> tuple[list[bytes], FrameScanner]:
    scanner = fmt.scanner()
    frames: list[bytes] = []
    last = 0
    for cut in cuts + [len(stream)]:
        frames += scanner.feed(stream[last:cut])
        last = cut
    return frames, scanner


def is_subsequence(expected: list[bytes], got: list[bytes]) -> bool:
    it = iter(got)
    return all(any(e == g for g in it) for e in expected)


def check_case(fmt: Format, case: Case) -> tuple[int, int]:
    """Assert the properties of the module docstring; returns (good, bad) counts."""
    frames, scanner = feed(fmt, case.stream, case.cuts)
    whole, whole_scanner = feed(fmt, case.stream, [])
    stats = scanner.stats
    assert is_subsequence(case.expected, frames), (case, frames)
    assert stats.bad >= case.damaged, (case, stats)
    accounted = sum(map(len, frames)) + stats.bytes_dropped + stats.fill_bytes + len(scanner.buf)
    assert accounted == len(case.stream), (case, stats, accounted)
    # Where a stream is cut changes only how a dropped stretch is itemised (a PN532 DCS of 00
    # may be held back as a possible start code), never the frames or the number of bad ones.
    assert frames == whole and stats.bad == whole_scanner.stats.bad, (case, frames, whole)
    return stats.good, stats.bad


def check_garbage(fmt: Format, stream: bytes, cuts: list[int]) -> None:
    """Any bytes at all: no exception, every byte accounted for."""
    frames, scanner = feed(fmt, stream, cuts)
    stats = scanner.stats
    assert sum(map(len, frames)) + stats.bytes_dropped + stats.fill_bytes + len(scanner.buf) == len(stream)


# -- the drivers above the parsers --------------------------------------------------------------
def board_driver_case(payloads: list[bytes]) -> int:
    driver = board.BoardDriver(ReaderConfig("board", "/dev/null", (1, 2, 3, 4, 5, 6)))
    driver.on_open(lambda data: None, 0.0)
    stream = b"".join(board.encode_frame(i, p) for i, p in enumerate(payloads))
    events = driver.on_bytes(stream, 1.0) + driver.on_idle(2.0)
    for event in events:
        assert event.kind in ("tap", "removed") and len(event.uid) in (8, 14, 20)
        assert 1 <= event.seat <= 6
    return len(events)


def pn532_driver_case(bodies: list[bytes]) -> int:
    driver = pn532.Pn532Driver(ReaderConfig("pn532", "/dev/null", (1,)))
    driver.on_open(lambda data: None, 0.0)
    events = []
    for i, body in enumerate(bodies):
        driver.pending = pn532.Pending(pn532.IN_LIST_PASSIVE_TARGET, b"", float(i), acked=True)
        events += driver.on_bytes(pn532.ACK + pn532.encode_frame(body, tfi=pn532.CHIP_TFI), float(i))
        events += driver.on_idle(float(i))
    for event in events:  # whatever came back, only well-formed taps and removals at its one seat
        assert event.kind in ("tap", "removed") and 4 <= len(event.uid) <= 20 and event.seat == 1
    return len(events)


def board_payloads(blob: bytes) -> list[bytes]:
    """Well-formed messages mixed with payloads of random ids and lengths."""
    r, payloads = Bytes(blob), []
    for _ in range(r.byte() % 7):
        if r.byte() % 2:
            payloads.append(board_frame((r.byte() % 6, r.take(16)))[2:-3])
        else:
            payloads.append(bytes([r.byte() % 8]) + r.take(r.byte() % 20))
    return payloads


def pn532_bodies(blob: bytes) -> list[bytes]:
    """InListPassiveTarget answers: valid targets, no target, and random bytes."""
    r, bodies = Bytes(blob), []
    for _ in range(r.byte() % 5):
        choice = r.byte() % 3
        if choice == 0:
            n = (4, 7, 10)[r.byte() % 3]
            bodies.append(bytes([0x4B, 1, 1, 0, 0x44, 0, n]) + r.take(n))
        elif choice == 1:
            bodies.append(bytes([0x4B, 0]))
        else:
            bodies.append(bytes([0x4B]) + r.take(r.byte() % 20))
    return bodies


random_payloads = st.binary(max_size=200).map(board_payloads)
random_pn532 = st.binary(max_size=120).map(pn532_bodies)


# -- the benchmark --------------------------------------------------------------------------------
BENCH_SETTINGS = dict(deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))


def _run(examples: int, test: Callable[[], None], counter: dict[str, int]) -> tuple[float, int]:
    """Run a @given test for ``examples`` inputs; returns (seconds, inputs actually run)."""
    counter["n"] = 0
    start = time.perf_counter()
    settings(max_examples=examples, **BENCH_SETTINGS)(test)()
    return time.perf_counter() - start, counter["n"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench.rfid_fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--examples", type=int, default=100_000, help="inputs per parser (default 100000)")
    parser.add_argument("--only", choices=sorted(FORMATS) + ["board-driver", "pn532-driver"], action="append")
    args = parser.parse_args(argv)
    names = args.only or sorted(FORMATS) + ["board-driver", "pn532-driver"]
    print(f"{'parser':<14}{'inputs':>9}{'frames good':>13}{'bad':>9}{'garbage inputs':>16}{'events':>9}"
          f"{'seconds':>9}")
    for name in names:
        print(_fuzz_format(name, args.examples) if name in FORMATS else _fuzz_driver(name, args.examples))
        sys.stdout.flush()
    return 0



def _fuzz_format(name: str, examples: int) -> str:
    """One parser against well-formed streams and against garbage: its line of the table."""
    totals = {"good": 0, "bad": 0, "n": 0}
    fmt = FORMATS[name]

    @given(cases(fmt))
    def stream_test(case):
        totals["n"] += 1
        good, bad = check_case(fmt, case)
        totals["good"] += good
        totals["bad"] += bad

    @given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=5))
    def garbage_test(stream, cuts):
        totals["n"] += 1
        check_garbage(fmt, stream, sorted(c for c in set(cuts) if c <= len(stream)))

    seconds, count = _run(examples, stream_test, totals)
    seconds2, count2 = _run(examples // 10, garbage_test, totals)
    return (f"{name:<14}{count:>9}{totals['good']:>13}{totals['bad']:>9}{count2:>16}{'':>9}"
            f"{seconds + seconds2:>9.1f}")


def _fuzz_driver(name: str, examples: int) -> str:
    """One reader driver against random messages: its line of the table."""
    totals = {"good": 0, "bad": 0, "n": 0}
    case, strategy = ((board_driver_case, random_payloads) if name == "board-driver"
                      else (pn532_driver_case, random_pn532))

    @given(strategy)
    def driver_test(items):
        totals["n"] += 1
        totals["good"] += case(items)

    seconds, count = _run(examples, driver_test, totals)
    return f"{name:<14}{count:>9}{'':>13}{'':>9}{'':>16}{totals['good']:>9}{seconds:>9.1f}"


if __name__ == "__main__":
    sys.exit(main())
