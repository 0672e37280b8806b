"""The reader board's firmware: it builds for the ATmega328P with Debian's gcc-avr and avr-libc,
its pure logic passes its host unit tests (CRC, framing, debounce, ISO 14443 arithmetic, and the
MFRC522 driver against a simulated chip), and under simavr it talks the protocol the companion's
driver expects. The end-to-end runs under simavr are in test_rfid_readers.py and
test_rfid_game.py (the `simavr` cases)."""
from __future__ import annotations

import os
import select
import subprocess
import time

from companion.rfid import board
from companion.rfid.sim import ELF, SimBoard, build, make
from tests.rfid_support import Recorder, next_heartbeat, start_service
from tests.timing import PATIENCE_S, wait_for


def test_host_unit_tests_pass():
    result = make("host-test")
    assert result.returncode == 0, result.stdout + result.stderr
    checks, failed = [int(w) for w in result.stdout.split() if w.isdigit()][-2:]
    assert failed == 0 and checks > 1000, result.stdout


def test_firmware_fits_an_atmega328p():
    build()
    size = subprocess.run(["avr-size", "-A", str(ELF)], capture_output=True, text=True, check=True).stdout
    sections = {line.split()[0]: int(line.split()[1]) for line in size.splitlines() if line.startswith(".")}
    flash = sections.get(".text", 0) + sections.get(".data", 0)
    ram = sections.get(".data", 0) + sections.get(".bss", 0)
    # 32 KB of flash less the 0.5 KB Optiboot bootloader; 2 KB of RAM with room for the stack
    assert flash < 32 * 1024 - 512 and ram < 1024, size
    hex_file = ELF.with_suffix(".hex")
    assert hex_file.exists() and hex_file.read_text().startswith(":")


def test_simulated_board_says_hello_heartbeats_and_answers_identify(tmp_path):
    with SimBoard(tmp_path / "board") as sim:
        # Not through pyserial: opening a port with it empties the port's input, where the board's
        # power-up announcement may already wait (the harness holds the pty open from the start).
        port = os.open(sim.port, os.O_RDWR | os.O_NOCTTY)
        scanner = board.BoardScanner()
        messages: list[board.Message] = []
        raw: list[bytes] = []

        def read_until(kind: int) -> board.Message:
            deadline = time.monotonic() + PATIENCE_S
            while time.monotonic() < deadline:
                for frame in scanner.feed(os.read(port, 256) if select.select([port], [], [], 0.1)[0] else b""):
                    raw.append(frame)
                    messages.append(board.decode_message(frame))
                for m in messages:
                    if m.kind == kind:
                        messages.remove(m)
                        return m
            raise AssertionError(f"no message {kind:#04x} within {PATIENCE_S:.0f} s")

        boot_beat = read_until(board.MSG_HEARTBEAT)  # the board announces itself at power-up
        assert int.from_bytes(boot_beat.args[:4], "big") == 0
        # byte for byte what the Python side builds: avr-libc's _crc_ccitt_update and ours agree
        assert raw[0] == board.encode_frame(0, bytes([board.MSG_HELLO, 1, 1, 0, 6, 0]))
        assert raw[0].hex(" ").upper() == "0B 10 01 01 01 00 06 00 29 2D 7E"  # docs/serial-protocol.md
        sim.place(5, "04A1B2C3D4E5F6")
        present = read_until(board.MSG_TAG_PRESENT)
        assert present.args == bytes([5, 7]) + bytes.fromhex("04A1B2C3D4E5F6")
        messages.clear()  # a heartbeat from before the card was read is no answer to IDENTIFY
        os.write(port, board.encode_frame(0, bytes([board.CMD_IDENTIFY])))
        hello = read_until(board.MSG_HELLO)
        assert hello.args == bytes([1, 1, 0, 6, 0])  # protocol 1, firmware 1.0, 6 readers, no faults
        assert read_until(board.MSG_TAG_PRESENT).args == present.args  # the card, announced again
        assert read_until(board.MSG_HEARTBEAT).args[4] == 0b010000  # present-mask: reader 5
        later = read_until(board.MSG_HEARTBEAT)  # then one a second (of the board's uptime)
        assert int.from_bytes(later.args[:4], "big") >= 1
        assert scanner.stats.bad == 0
        os.close(port)
        # the simulated module saw only well-formed commands from the firmware
        stats = sim.chip_stats(5)
        assert stats["firmware_errors"] == 0 and stats["bus_conflicts"] == 0 and stats["answers"] > 0


def test_simulated_board_two_cards_on_one_reader_reads_one_of_them(tmp_path):
    """Anticollision: two tags on one reader (cards stacked) — the board reads one, steadily."""
    from companion.rfid.config import parse_reader_spec

    with SimBoard(tmp_path / "board") as sim:
        rec = Recorder()
        service = start_service([parse_reader_spec(f"kind=board,port={sim.port}")], rec)
        try:
            sim.place(1, "04112233445566")
            sim.place(1, "04112233C45566")  # differs in the fourth byte: a second anticollision round
            wait_for(lambda: rec.taps(1), what="a tap")
            next_heartbeat(service, 2)  # a second of polls (ten) and more with both cards on it
            assert rec.taps(1) == ["04112233C45566"]  # the one with a 1 where they first differ
            assert sim.chip_stats(1)["firmware_errors"] == 0
        finally:
            service.stop()
