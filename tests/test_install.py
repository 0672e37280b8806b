"""Installing the companion as a service: the systemd unit kept in the repo (verified by systemd
itself), the install script's dry run, and the service started by hand with the unit's own
command line, telling systemd it is ready and pinging its watchdog."""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "companion.service"
INSTALL = ROOT / "scripts" / "install.sh"


def unit_settings() -> dict[str, str]:
    settings = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def local_unit(tmp_path: Path, text: str | None = None) -> Path:
    """The repo's unit with its program path pointing at this checkout's (systemd checks it exists)."""
    path = tmp_path / "companion.service"
    text = text if text is not None else UNIT.read_text()
    path.write_text(text.replace("/opt/companion/.venv/bin/companion", str(Path(sys.executable).parent / "companion")))
    return path


needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")


@needs_systemd_analyze
def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    done = subprocess.run(["systemd-analyze", "verify", str(local_unit(tmp_path))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@needs_systemd_analyze
def test_systemd_analyze_does_catch_a_broken_unit(tmp_path):
    broken = UNIT.read_text().replace("Type=notify", "Type=notifyy")
    done = subprocess.run(["systemd-analyze", "verify", str(local_unit(tmp_path, broken))], capture_output=True, text=True)
    assert done.returncode != 0 or "notifyy" in done.stderr


def test_the_unit_starts_on_boot_restarts_on_failure_and_has_a_watchdog():
    unit = unit_settings()
    assert unit["Type"] == "notify" and unit["WatchdogSec"] == "30"
    assert unit["Restart"] == "on-failure"
    assert unit["WantedBy"] == "multi-user.target"
    assert unit["User"] == "companion" and set(unit["SupplementaryGroups"].split()) == {"video", "dialout"}
    assert "--data /var/lib/companion" in unit["ExecStart"]


def dry_run(*args: str) -> list[str]:
    done = subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]


def test_install_on_a_pi_brings_picamera2_and_lets_the_venv_see_it():
    commands = dry_run("--pi", "--name", "club-table-3", "--port", "8090")
    apt = next(c for c in commands if "apt-get install" in c)
    assert "python3-picamera2" in apt and "libzbar0" in apt
    assert "python3 -m venv --system-site-packages /opt/companion/.venv" in commands
    # pip is held to the system's numpy (and what is built against it): no numpy 2 shadows it
    pip = next(c for c in commands if " install -q " in c and "-e /opt/companion" in c)
    assert "-c /opt/companion/.venv/system-constraints.txt" in pip
    assert "usermod -a -G video,dialout companion" in commands
    assert any("install -d -o companion -g companion -m 0750 /var/lib/companion" == c for c in commands)
    unit = next(c for c in commands if c.startswith("install deploy/companion.service"))
    assert "--port 8090 --name club-table-3" in unit
    assert commands[-1] == "systemctl enable --now companion.service"


def test_install_on_debian_needs_no_camera_library():
    commands = dry_run("--not-pi")
    assert not any("picamera2" in c or "constraints" in c for c in commands)
    assert "python3 -m venv /opt/companion/.venv" in commands


def test_uninstall_removes_the_service_and_keeps_the_data():
    commands = dry_run("--uninstall")
    assert "systemctl disable --now companion.service" in commands
    assert not any("/var/lib/companion" in c for c in commands)


def test_install_refuses_a_bad_port_before_doing_anything():
    done = subprocess.run(["bash", str(INSTALL), "--dry-run", "--port", "80;rm"], capture_output=True, text=True)
    assert done.returncode == 2 and "--port must be a number" in done.stderr and "+ " not in done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_service_started_with_the_units_command_line_tells_systemd_it_is_ready(tmp_path):
    """As systemd would run it: the unit's ExecStart (paths and port made local), $NOTIFY_SOCKET and
    $WATCHDOG_USEC set. READY=1 comes once the dashboard answers; WATCHDOG=1 follows; SIGTERM (what
    `systemctl stop` sends) stops it cleanly with STOPPING=1."""
    port = free_port()
    argv = shlex.split(unit_settings()["ExecStart"])
    argv = [sys.executable, "-m", "companion", *argv[1:]]
    argv = [str(tmp_path / "data") if a == "/var/lib/companion" else str(port) if a == "8080" else a for a in argv]
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify.sock"))
    notify.settimeout(1)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
           "WATCHDOG_USEC": "1000000"}
    proc = subprocess.Popen([*argv, "--host", "127.0.0.1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    messages: list[str] = []

    def wait_for(message: str) -> None:
        deadline = time.monotonic() + 120
        while message not in messages:
            assert proc.poll() is None, f"the service exited ({proc.returncode}): {proc.stderr.read()}"
            assert time.monotonic() < deadline, f"no {message} from the service; got {messages}"
            try:
                messages.append(notify.recv(256).decode())
            except TimeoutError:
                continue

    try:
        wait_for("READY=1")
        assert messages[0] == "READY=1"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=30) as reply:
            assert reply.status == 200
        wait_for("WATCHDOG=1")
        proc.send_signal(signal.SIGTERM)
        wait_for("STOPPING=1")
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate()
        notify.close()
    assert "Traceback" not in err, err


def test_a_second_stop_signal_while_stopping_does_not_cut_the_stop_short():
    """The first SIGTERM (or Ctrl-C) stops the service through its finally, which closes the game log
    and the server; a second one while that runs (Ctrl-C pressed twice, a SIGTERM after it) is let
    pass, instead of raising in the middle of the stop."""
    from companion.commands import stop_on_signals

    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    closed = []
    try:
        stop_on_signals()
        try:
            signal.raise_signal(signal.SIGTERM)
            raise AssertionError("the first SIGTERM did not stop the serving loop")
        except KeyboardInterrupt:
            pass
        finally:
            signal.raise_signal(signal.SIGTERM)     # the second, while stopping
            signal.raise_signal(signal.SIGINT)
            closed.append("the game log")
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
    assert closed == ["the game log"]
