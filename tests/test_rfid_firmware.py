"""The reader board's firmware: it builds for the ATmega328P with Debian's gcc-avr and avr-libc,
its pure logic passes its host unit tests (CRC, framing, debounce, ISO 14443 arithmetic, and the
MFRC522 driver against a simulated chip), and under simavr it talks the protocol the companion's
driver expects. The end-to-end runs under simavr are in test_rfid_readers.py and
test_rfid_game.py (the `simavr` cases)."""
from __future__ import annotations

import subprocess
import time

import serial

from companion.rfid import board
from companion.rfid.sim import ELF, FIRMWARE_DIR, SimBoard, build
from tests.rfid_support import wait_for


def test_host_unit_tests_pass():
    result = subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), "host-test"], capture_output=True, text=True,
                            timeout=300)
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
        port = serial.Serial(sim.port, 115200, timeout=0.1)
        scanner = board.BoardScanner()
        messages: list[board.Message] = []
        raw: list[bytes] = []

        def read_until(kind: int, timeout: float = 3.0) -> board.Message:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                for frame in scanner.feed(port.read(256)):
                    raw.append(frame)
                    messages.append(board.decode_message(frame))
                for m in messages:
                    if m.kind == kind:
                        messages.remove(m)
                        return m
            raise AssertionError(f"no message {kind:#04x} within {timeout} s")

        boot_beat = read_until(board.MSG_HEARTBEAT)  # the board announces itself at power-up
        assert int.from_bytes(boot_beat.args[:4], "big") == 0
        # byte for byte what the Python side builds: avr-libc's _crc_ccitt_update and ours agree
        assert raw[0] == board.encode_frame(0, bytes([board.MSG_HELLO, 1, 1, 0, 6, 0]))
        assert raw[0].hex(" ").upper() == "0B 10 01 01 01 00 06 00 29 2D 7E"  # docs/serial-protocol.md
        sim.place(5, "04A1B2C3D4E5F6")
        present = read_until(board.MSG_TAG_PRESENT)
        assert present.args == bytes([5, 7]) + bytes.fromhex("04A1B2C3D4E5F6")
        port.write(board.encode_frame(0, bytes([board.CMD_IDENTIFY])))
        hello = read_until(board.MSG_HELLO)
        assert hello.args == bytes([1, 1, 0, 6, 0])  # protocol 1, firmware 1.0, 6 readers, no faults
        assert read_until(board.MSG_TAG_PRESENT).args == present.args  # the card, announced again
        assert read_until(board.MSG_HEARTBEAT).args[4] == 0b010000  # present-mask: reader 5
        later = read_until(board.MSG_HEARTBEAT, timeout=2.5)  # then one a second
        assert int.from_bytes(later.args[:4], "big") >= 1
        assert scanner.stats.bad == 0
        port.close()
        # the simulated module saw only well-formed commands from the firmware
        stats = sim.chip_stats(5)
        assert stats["firmware_errors"] == 0 and stats["bus_conflicts"] == 0 and stats["answers"] > 0


def test_simulated_board_two_cards_on_one_reader_reads_one_of_them(tmp_path):
    """Anticollision: two tags on one reader (cards stacked) — the board reads one, steadily."""
    from companion.rfid.config import parse_reader_spec
    from tests.rfid_support import Recorder, start_service

    with SimBoard(tmp_path / "board") as sim:
        rec = Recorder()
        service = start_service([parse_reader_spec(f"kind=board,port={sim.port}")], rec)
        try:
            sim.place(1, "04112233445566")
            sim.place(1, "04112233C45566")  # differs in the fourth byte: a second anticollision round
            wait_for(lambda: rec.taps(1), what="a tap")
            time.sleep(0.5)
            assert rec.taps(1) == ["04112233C45566"]  # the one with a 1 where they first differ
            assert sim.chip_stats(1)["firmware_errors"] == 0
        finally:
            service.stop()
