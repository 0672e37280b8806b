"""Pure-Python fake readers on pseudo-terminals, for fast tests and for trying the companion
without hardware. Each looks to the companion exactly like the real device: a serial port at a
stable path (a symlink, as udev makes under /dev/serial/by-id/) speaking the reader's wire
format. Each can be unplugged (the pty closes and the symlink goes, as when a USB cable is
pulled) and plugged back (a new pty behind the same symlink).

    FakeBoard      our reader board (the firmware's behaviour, in Python: polls, debounce,
                   hello, heartbeats, IDENTIFY, reader faults)
    FakeRdm6300    repeats the card's frame every 0.1 s while it lies on the reader
    FakeId12       sends a card once when it is placed
    FakePn532      answers the PN532 commands the driver uses, after a proper wake-up

``send_raw(bytes)`` writes anything (garbage, a corrupt frame) into the stream.
"""
from __future__ import annotations

import errno
import fcntl
import os
import struct
import termios
import threading
import time
import tty
from abc import ABC, abstractmethod
from pathlib import Path

from companion.rfid import board, em4100, pn532


class PtyDevice:
    """A serial device on a pseudo-terminal behind a symlink."""

    def __init__(self, link: str | os.PathLike[str]):
        self.link = Path(link)
        self.link.parent.mkdir(parents=True, exist_ok=True)
        self.master: int | None = None
        self.slave: int | None = None
        self._write_lock = threading.Lock()
        self._plug()

    @property
    def port(self) -> str:
        return str(self.link)

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation, before anyone opens it
        os.set_blocking(master, False)
        tmp = self.link.with_name(self.link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.link)
        # keeping a slave descriptor open means the master never sees a hang-up when the host
        # closes the port; only unplug() ends the device
        self.master, self.slave = master, slave

    def unplug(self) -> None:
        with self._write_lock:
            self.link.unlink(missing_ok=True)
            for fd in (self.master, self.slave):
                if fd is not None:
                    os.close(fd)
            self.master = self.slave = None

    def plug(self) -> None:
        with self._write_lock:
            if self.master is None:
                self._plug()

    def send_raw(self, data: bytes, timeout: float = 5.0) -> bool:
        """Write to the host; False when unplugged or the host stopped reading for ``timeout``."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        with self._write_lock:
            while view:
                if self.master is None:
                    return False
                try:
                    view = view[os.write(self.master, view):]
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        return False
                    time.sleep(0.002)
                except OSError:
                    return False
        return True

    def wait_until_read(self, timeout: float = 2.0) -> bool:
        """Wait until the host has read everything sent so far (the pty's input queue is empty)."""
        deadline = time.monotonic() + timeout
        while self.slave is not None and time.monotonic() < deadline:
            pending = struct.unpack("i", fcntl.ioctl(self.slave, termios.FIONREAD, b"\0\0\0\0"))[0]
            if pending == 0:
                return True
            time.sleep(0.005)
        return False

    def read_available(self) -> bytes:
        # Under the lock unplug() takes: the device's thread must not read a descriptor that a test's
        # unplug() is closing (EBADF killed the thread, and the reader never came back after plug()).
        with self._write_lock:
            if self.master is None:
                return b""
            try:
                return os.read(self.master, 4096)  # non-blocking: never waits while holding the lock
            except BlockingIOError:
                return b""
            except OSError as exc:
                if exc.errno == errno.EIO:  # nobody has the port open
                    return b""
                raise

    def close(self) -> None:
        self.unplug()


class _Ticking(PtyDevice, ABC):
    """A fake with a background thread calling tick() every ``interval`` seconds."""

    interval = 0.01

    def __init__(self, link):
        super().__init__(link)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"fake-{self.link.name}", daemon=True)

    def _start(self) -> None:
        """Subclasses call this at the end of their __init__."""
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                self.tick(time.monotonic())

    @abstractmethod
    def tick(self, now: float) -> None:
        """The device's own loop, run every ``interval`` seconds under its lock."""

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2)
        super().close()


class FakeBoard(_Ticking):
    """Our reader board, modelled on firmware/src/main.c."""

    def __init__(self, link, readers: int = 6, poll_interval: float = 0.1, heartbeat_interval: float = 1.0,
                 misses: int = 3, firmware: tuple[int, int] = (1, 0), protocol: int = board.PROTOCOL_VERSION):
        self.readers = readers
        self.poll_interval = poll_interval
        self.heartbeat_interval = heartbeat_interval
        self.misses_to_remove = misses
        self.firmware = firmware
        self.protocol = protocol
        self.cards: dict[int, list[str]] = {r: [] for r in range(1, readers + 1)}
        self.muted: set[int] = set()
        self._power_up(time.monotonic())
        super().__init__(link)
        self._boot()
        self._start()

    def _power_up(self, now: float) -> None:
        self.seq = 0
        self.present: dict[int, str | None] = {r: None for r in self.cards}
        self.missed: dict[int, int] = {r: 0 for r in self.cards}
        self.faulty: set[int] = set()
        self.uptime = 0
        self.next_poll = now + self.poll_interval
        self.next_beat = now + self.heartbeat_interval
        self.scanner = board.BoardScanner()
        self.identify_requests = 0

    def _boot(self) -> None:
        # as the firmware: read every reader once, then announce (hello, cards, heartbeat)
        self.faulty = set(self.muted)
        for reader in self.cards:
            if reader not in self.faulty:
                self._poll(reader, report=False)
        self._identify()
        for reader in sorted(self.faulty):
            self._send(bytes([board.MSG_READER_FAULT, reader, 0x01, 0x00]))

    # -- the test's hands -----------------------------------------------------------------------
    def place(self, reader: int, uid: str) -> None:
        with self._lock:
            self.cards[reader].append(uid.upper())

    def remove(self, reader: int, uid: str | None = None) -> None:
        with self._lock:
            self.cards[reader] = [] if uid is None else [u for u in self.cards[reader] if u != uid.upper()]

    def mute(self, reader: int) -> None:
        with self._lock:
            self.muted.add(reader)

    def unmute(self, reader: int) -> None:
        with self._lock:
            self.muted.discard(reader)

    def unplug(self, mid_frame: bool = False) -> None:
        """Pull the cable; with mid_frame, after sending the first half of a frame."""
        with self._lock:
            if mid_frame and self.plugged:
                frame = board.encode_frame(self.seq, bytes([board.MSG_HEARTBEAT, 0, 0, 0, 0, 0, 0]))
                self.send_raw(frame[: len(frame) // 2])
                # the host holds half a frame when the cable goes (the kernel moves written bytes
                # to the reading side a moment later, so first give it that moment)
                time.sleep(0.1)
                self.wait_until_read()
            super().unplug()

    def plug(self) -> None:
        """Plug back in: the board powers up again; the cards are still on the readers."""
        with self._lock:
            super().plug()
            self._power_up(time.monotonic())
            self._boot()

    # -- the firmware's loop --------------------------------------------------------------------
    def _send(self, payload: bytes) -> None:
        self.send_raw(board.encode_frame(self.seq, payload))
        self.seq = (self.seq + 1) & 0x0F

    def _hello(self) -> bytes:
        mask = sum(1 << (r - 1) for r in self.faulty)
        return bytes([board.MSG_HELLO, self.protocol, *self.firmware, self.readers, mask])

    def _tag(self, kind: int, reader: int, uid: str) -> bytes:
        data = bytes.fromhex(uid)
        return bytes([kind, reader, len(data)]) + data

    def _heartbeat(self) -> bytes:
        present = sum(1 << (r - 1) for r, uid in self.present.items() if uid)
        faults = sum(1 << (r - 1) for r in self.faulty)
        return bytes([board.MSG_HEARTBEAT]) + self.uptime.to_bytes(4, "big") + bytes([present, faults])

    def tick(self, now: float) -> None:
        if not self.plugged:
            return
        for frame in self.scanner.feed(self.read_available()):
            if frame[2:-3] == bytes([board.CMD_IDENTIFY]):
                self.identify_requests += 1
                self._identify()
        if now >= self.next_poll:
            self.next_poll = now + self.poll_interval
            for reader in self.cards:
                self._poll(reader)
        if now >= self.next_beat:
            self.next_beat += self.heartbeat_interval
            self.uptime += 1
            self._send(self._heartbeat())

    def _identify(self) -> None:
        self._send(self._hello())
        for reader, uid in self.present.items():
            if uid:
                self._send(self._tag(board.MSG_TAG_PRESENT, reader, uid))
        self._send(self._heartbeat())

    def _poll(self, reader: int, report: bool = True) -> None:
        if not report:
            self.present[reader] = self.cards[reader][0] if self.cards[reader] else None
            return
        if reader in self.muted:
            if reader not in self.faulty:
                self.faulty.add(reader)
                self._send(bytes([board.MSG_READER_FAULT, reader, 0x01, 0x00]))
            return
        if reader in self.faulty:
            self.faulty.discard(reader)
            self._send(bytes([board.MSG_READER_OK, reader, 0x92]))
        seen = self.cards[reader][0] if self.cards[reader] else None
        held = self.present[reader]
        if seen is None:
            if held and (missed := self.missed[reader] + 1) >= self.misses_to_remove:
                self.present[reader] = None
                self.missed[reader] = 0
                self._send(self._tag(board.MSG_TAG_REMOVED, reader, held))
            elif held:
                self.missed[reader] = missed
            return
        self.missed[reader] = 0
        if seen != held:
            if held:
                self._send(self._tag(board.MSG_TAG_REMOVED, reader, held))
            self.present[reader] = seen
            self._send(self._tag(board.MSG_TAG_PRESENT, reader, seen))


class FakeRdm6300(_Ticking):
    trailer = b""
    repeat: float | None = 0.1  # seconds between frames while a card is present (None: once)

    def __init__(self, link):
        self.card: str | None = None
        self.next_frame = 0.0
        super().__init__(link)
        self._start()

    def place(self, uid: str) -> None:
        with self._lock:
            self.card = uid.upper()
            self.next_frame = 0.0

    def remove(self) -> None:
        with self._lock:
            self.card = None

    def plug(self) -> None:
        """Powered up again: a card lying on the reader is read anew."""
        with self._lock:
            super().plug()
            self.next_frame = 0.0

    def frame(self, uid: str) -> bytes:
        return em4100.encode_frame(uid, self.trailer)

    def tick(self, now: float) -> None:
        self.read_available()  # these readers ignore what the host sends
        if self.card is None or now < self.next_frame:
            return
        self.send_raw(self.frame(self.card))
        self.next_frame = now + self.repeat if self.repeat is not None else float("inf")


class FakeId12(FakeRdm6300):
    trailer = b"\r\n"
    repeat = None


class FakePn532(_Ticking):
    """A PN532 in HSU mode: asleep until woken with 55 55 00..., then SAMConfiguration first."""

    def __init__(self, link, firmware: bytes = bytes([0x32, 0x01, 0x06, 0x07])):
        self.card: str | None = None
        self.firmware = firmware
        self.silent = False  # stops answering (a PN532 that lost power behind its USB adapter)
        self._reset()
        super().__init__(link)
        self._start()

    def _reset(self) -> None:
        self.awake = False
        self.sam_done = False
        self.scanner = _HostToPn532Scanner()
        self.commands: list[int] = []

    def place(self, uid: str) -> None:
        with self._lock:
            self.card = uid.upper()

    def remove(self) -> None:
        with self._lock:
            self.card = None

    def plug(self) -> None:
        with self._lock:
            super().plug()
            self._reset()  # powered down with the adapter: asleep again

    def tick(self, now: float) -> None:
        data = self.read_available()
        if not data or self.silent:
            return
        if not self.awake:
            if 0x55 not in data:
                return  # asleep: the first bytes only wake it
            self.awake = True
            data = data[data.index(0x55):]
        for frame in self.scanner.feed(data):
            body = pn532.frame_body(frame)
            if len(body) < 2 or body[0] != pn532.HOST_TFI:
                continue
            self._command(body[1], body[2:])

    def _answer(self, data: bytes) -> None:
        self.send_raw(pn532.encode_frame(data, tfi=pn532.CHIP_TFI))

    def _command(self, code: int, params: bytes) -> None:
        self.commands.append(code)
        if not self.sam_done and code != pn532.SAM_CONFIGURATION:
            return  # after wake-up SAMConfiguration must come first; the chip ignores the rest
        self.send_raw(pn532.ACK)
        if code == pn532.SAM_CONFIGURATION:
            self.sam_done = True
            self._answer(bytes([0x15]))
        elif code == pn532.GET_FIRMWARE_VERSION:
            self._answer(bytes([0x03]) + self.firmware)
        elif code == pn532.RF_CONFIGURATION:
            self._answer(bytes([0x33]))
        elif code == pn532.IN_LIST_PASSIVE_TARGET:
            self._answer(bytes([0x4B]) + self._target())
        else:
            self.send_raw(bytes([0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]))  # error frame

    def _target(self) -> bytes:
        if self.card is None:
            return bytes([0x00])
        uid = bytes.fromhex(self.card)
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(uid)]
        sel_res = 0x08 if len(uid) == 4 else 0x00
        return bytes([0x01, 0x01, 0x00, 0x04 | size, sel_res, len(uid)]) + uid


class _HostToPn532Scanner(pn532.Pn532Scanner):
    def __init__(self) -> None:
        super().__init__(fill=b"\x00\x55", tfi=pn532.HOST_TFI)


__all__ = ["FakeBoard", "FakeId12", "FakePn532", "FakeRdm6300", "PtyDevice"]
