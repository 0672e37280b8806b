"""Our reader board's real firmware, running under simavr (firmware/sim/rfidsim), with the same
hands as the pure-Python FakeBoard: place / remove cards, mute a module, unplug / plug the USB
cable. The firmware's UART comes out on a pty behind ``port`` (a symlink, like a by-id name).

    with SimBoard(tmp_path / "by-id" / "usb-TableCompanion_reader-board") as sim:
        sim.place(3, "04A1B2C3D4E5F6")

``build()`` runs ``make -C firmware firmware sim`` (incremental; needs gcc-avr, avr-libc,
libsimavr-dev, libelf-dev, pkg-config) and raises SimUnavailable saying what is missing.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import threading
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
ELF = FIRMWARE_DIR / "build" / "reader-board.elf"
HARNESS = FIRMWARE_DIR / "build" / "rfidsim"


class SimUnavailable(RuntimeError):
    """The firmware or the harness cannot be built here; the message says why."""


class SimError(RuntimeError):
    """The harness refused a command or stopped."""


def build() -> tuple[Path, Path]:
    missing = [tool for tool in ("make", "avr-gcc", "cc") if shutil.which(tool) is None]
    if missing:
        raise SimUnavailable(f"cannot build the firmware: {', '.join(missing)} not installed "
                             f"(Debian: apt install make gcc gcc-avr avr-libc libsimavr-dev libelf-dev pkg-config)")
    result = make("firmware", "sim")
    if result.returncode != 0:
        raise SimUnavailable(f"make -C firmware firmware sim failed:\n{result.stdout}{result.stderr}")
    return ELF, HARNESS


def make(*targets: str) -> subprocess.CompletedProcess[str]:
    """``make -s -C firmware TARGETS``, one at a time across processes (test workers): a make that
    rewrites the harness while another process starts it fails that start with "Text file busy";
    the second make finds everything built and writes nothing."""
    HARNESS.parent.mkdir(parents=True, exist_ok=True)
    with open(HARNESS.parent / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), *targets], capture_output=True, text=True,
                              timeout=300)


class SimBoard:
    def __init__(self, link: str | os.PathLike[str], readers: int = 6):
        elf, harness = build()
        self.link = Path(link)
        self.link.parent.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen([str(harness), str(elf), "--link", str(self.link), "--readers", str(readers)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._lock = threading.Lock()
        self._stderr: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        first = self.proc.stdout.readline().strip()
        if not first.startswith("@pty "):
            self.close()
            raise SimError(f"rfidsim did not start: {first!r} {''.join(self._stderr)[-500:]}")
        self.pty = first.split(" ", 1)[1]

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-200]

    @property
    def port(self) -> str:
        return str(self.link)

    def command(self, line: str) -> str:
        with self._lock:
            if self.proc.poll() is not None:
                raise SimError(f"rfidsim has stopped ({self.proc.returncode}): {''.join(self._stderr)[-500:]}")
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline().strip()
        if not answer.startswith("@ok"):
            raise SimError(f"rfidsim: {line!r} -> {answer!r}")
        return answer[3:].strip()

    def place(self, reader: int, uid: str) -> None:
        self.command(f"place {reader} {uid}")

    def remove(self, reader: int, uid: str | None = None) -> None:
        self.command(f"remove {reader}" + (f" {uid}" if uid else ""))

    def mute(self, reader: int) -> None:
        self.command(f"mute {reader}")

    def unmute(self, reader: int) -> None:
        self.command(f"unmute {reader}")

    def unplug(self) -> None:
        self.command("unplug")

    def plug(self) -> None:
        self.pty = self.command("plug")

    def chip_stats(self, reader: int) -> dict[str, object]:
        """Counters of a simulated module: transceives, answers, firmware errors."""
        parts = self.command(f"stats {reader}").split(" ", 4)
        return {"transceives": int(parts[0]), "answers": int(parts[1]), "firmware_errors": int(parts[2]),
                "bus_conflicts": int(parts[3]), "last_firmware_error": None if parts[4] == "-" else parts[4]}

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except (BrokenPipeError, ValueError):
                pass

    def __enter__(self) -> "SimBoard":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
