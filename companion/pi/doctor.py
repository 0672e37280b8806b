"""`companion doctor`: the table's health, one line each, with what to do about it.

Checks: the camera, the serial readers, the data folder's free space, the clock, the CPU's
temperature, and on a Raspberry Pi throttling and under-voltage (``vcgencmd get_throttled``).
The camera is asked of the running companion (its ``/api/devices``: source, size, frames per second
delivered, age of the last frame, focus on the mat's corner markers), which holds the device;
only when no companion answers does the doctor open the camera itself. The same checks feed the
Devices page. Every command a check suggests exists (tests/test_doctor.py runs each).

Every source of facts can be pointed elsewhere (``sysfs``, ``vcgencmd``, ``timedatectl``) so the
tests run each check against faked outputs.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.scan.camera_health import FOCUS_SHARP, MIN_PX_PER_MODULE, marker_focus

OK, WARN, FAIL = "ok", "warn", "fail"
MB = 1024 * 1024

# vcgencmd get_throttled bits (Raspberry Pi documentation, "vcgencmd"): now, and since boot.
THROTTLE_BITS = {
    0: "under-voltage now", 1: "the CPU frequency is capped now", 2: "throttled now",
    3: "the soft temperature limit is active now",
    16: "under-voltage has occurred since boot", 17: "frequency capping has occurred since boot",
    18: "throttling has occurred since boot", 19: "the soft temperature limit has occurred since boot",
}


@dataclass(frozen=True)
class Check:
    name: str
    status: str   # ok | warn | fail
    says: str     # one line, in words, with what to do when it is not ok

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "says": self.says}

    def line(self) -> str:
        mark = {OK: "ok  ", WARN: "WARN", FAIL: "FAIL"}[self.status]
        return f"{mark}  {self.name:<12} {self.says}"


@dataclass
class Facts:
    """Where the checks read the machine: real paths and commands by default, fakes in tests."""

    sysfs: Path = Path("/sys")
    vcgencmd: str = "vcgencmd"
    timedatectl: str = "timedatectl"
    clock: Callable[[], float] = time.time


def _run(command: list[str]) -> str | None:
    """A command's output, or None when it is not there or fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


# -- the checks -------------------------------------------------------------------------------------
def check_disk(data_dir: Path) -> Check:
    folder = data_dir if data_dir.exists() else data_dir.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError as exc:
        return Check("disk", FAIL, f"cannot read the free space of {folder}: {exc.strerror}")
    said = f"{free / MB / 1024:.1f} GB free in {data_dir}"
    if free < 100 * MB:
        return Check("disk", FAIL, f"{said}: the game log needs room; delete old backups or use a bigger card")
    if free < 1024 * MB:
        return Check("disk", WARN, f"{said}: getting full; delete old backups (data/backups)")
    return Check("disk", OK, said)


def check_clock(facts: Facts) -> Check:
    """A Pi has no battery clock: until it reaches a time server its clock may be years off, and
    the game log's times with it."""
    year = time.gmtime(facts.clock()).tm_year
    if year < 2024:
        return Check("clock", FAIL, f"the clock says {year}: connect the Pi to a network with a time server "
                                    f"(the log's times are wrong until then)")
    out = _run([facts.timedatectl, "show", "-p", "NTPSynchronized", "--value"])
    if out is None:
        return Check("clock", OK, f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(facts.clock()))} "
                                  f"(synchronisation unknown: no timedatectl)")
    if out.strip() != "yes":
        return Check("clock", WARN, "not synchronised with a time server yet; the log's times may be off "
                                    "(check the network, or `timedatectl`)")
    return Check("clock", OK, "synchronised with a time server")


def cpu_temperature(facts: Facts) -> float | None:
    """The hottest thermal zone in degrees C, or None when the machine reports none."""
    temps = []
    for zone in sorted((facts.sysfs / "class" / "thermal").glob("thermal_zone*")):
        try:
            temps.append(int((zone / "temp").read_text().strip()) / 1000)
        except (OSError, ValueError):
            continue
    return max(temps) if temps else None


def check_temperature(facts: Facts) -> Check:
    temp = cpu_temperature(facts)
    if temp is None:
        return Check("temperature", OK, "this machine reports no CPU temperature")
    if temp >= 85:
        return Check("temperature", FAIL, f"CPU at {temp:.0f} C: the Pi throttles hard from 85 C; add a heatsink "
                                          f"or fan and keep the case out of the sun")
    if temp >= 80:
        return Check("temperature", WARN, f"CPU at {temp:.0f} C: the Pi starts throttling at 80 C; a heatsink or "
                                          f"fan keeps scanning smooth")
    return Check("temperature", OK, f"CPU at {temp:.0f} C")


def throttled_flags(facts: Facts) -> int | None:
    out = _run([facts.vcgencmd, "get_throttled"])
    if out is None or "=" not in out:
        return None
    try:
        return int(out.strip().split("=", 1)[1], 16)
    except ValueError:
        return None


def check_throttling(facts: Facts) -> Check:
    flags = throttled_flags(facts)
    if flags is None:
        return Check("power", OK, "not a Raspberry Pi (no vcgencmd): nothing to check")
    if flags == 0:
        return Check("power", OK, "no under-voltage or throttling since boot")
    said = "; ".join(words for bit, words in THROTTLE_BITS.items() if flags & (1 << bit))
    advice = (" Use the official 5 V power supply (5 A for a Pi 5, 3 A for a Pi 4) and a short cable."
              if flags & 0x10001 else " Cool the Pi (heatsink, fan).")
    return Check("power", FAIL if flags & 0xF else WARN, f"{said} (get_throttled=0x{flags:x}).{advice}")


def check_readers(config_readers: list[Any] | None = None) -> Check:
    from companion.rfid.discovery import find_devices

    try:
        devices = find_devices()
    except OSError as exc:
        return Check("readers", WARN, f"cannot list serial devices: {exc}")
    wanted = len(config_readers or [])
    found = ", ".join(d.path for d in devices) if devices else "none"
    if wanted and len(devices) < wanted:
        return Check("readers", FAIL, f"{wanted} reader(s) configured, serial devices found: {found}; check the "
                                      f"USB cables (`companion readers list`)")
    if not devices:
        return Check("readers", OK, "no serial readers plugged in (they are optional)")
    return Check("readers", OK, f"serial devices: {found}")


def check_camera(spec: str, seconds: float = 2.0) -> Check:
    """Open the camera, count frames for a moment, and measure focus on the mat's markers."""
    import numpy as np

    from companion.scan.calibration import detect_markers
    from companion.scan.sources import EndOfSource, SourceError, open_source

    try:
        source = open_source(spec)
        source.open()
    except (SourceError, OSError, ValueError) as exc:
        return Check("camera", FAIL, f"{exc}. Check the ribbon cable or USB plug (a running companion holds the "
                                     f"camera: start it, and `companion doctor --url URL` asks it), or try another "
                                     f"camera with `companion doctor --source /dev/video0`")
    frames, started, last = 0, time.monotonic(), None
    try:
        while time.monotonic() - started < seconds:
            try:
                frame = source.read()
            except EndOfSource:  # a file or folder: every frame has been read
                break
            if frame is None:
                break
            frames, last = frames + 1, frame
    except Exception as exc:  # a camera failing mid-read is reported, not raised
        return Check("camera", FAIL, f"the camera opened but failed while reading: {exc}")
    finally:
        source.close()
    elapsed = max(time.monotonic() - started, 1e-6)
    if last is None:
        return Check("camera", FAIL, "the camera opened but gave no frame")
    gray = last if last.ndim == 2 else last.mean(axis=2).astype(np.uint8)
    fps = frames / elapsed
    focus = marker_focus(gray, detect_markers(gray))
    size = f"{gray.shape[1]}x{gray.shape[0]}"
    if focus is None:
        return Check("camera", WARN, f"{size} at {fps:.0f} fps, but no mat corner marker in view: aim the camera "
                                     f"at the mat (`companion mat print`) to measure focus")
    if focus < FOCUS_SHARP:
        return Check("camera", WARN, f"{size} at {fps:.0f} fps, focus {focus:.0f} on the markers (sharp is "
                                     f"{FOCUS_SHARP:.0f}+): turn the lens's focus ring until the markers are crisp")
    return Check("camera", OK, f"{size} at {fps:.0f} fps, focus {focus:.0f} on the markers")


# The camera has delivered no frame for this long: the Table page says so (it hears every second).
NO_FRAMES_ALERT_S = 1.5


def small_tag_advice(px_per_module: float, resolution: list[int] | None) -> str:
    """What to do about tags too small in the picture, in words."""
    higher = ("use a higher resolution (--camera-size 1920x1080)"
              if resolution and resolution[0] < 1920 else "use a camera with more pixels")
    return (f"the smallest tag in view is {px_per_module:.1f} pixels per module; {MIN_PX_PER_MODULE} or more reads "
            f"reliably: lower the camera, print larger tags (`companion tags size` says how large), or {higher}")


def delivers_no_frames(camera: dict[str, Any]) -> bool:
    age = camera.get("last_frame_age_s")
    return camera.get("state") not in ("ended", "stopped") and (
        camera.get("state") in ("failed", "stalled") or (age is not None and age >= NO_FRAMES_ALERT_S))


def camera_check(camera: dict[str, Any] | None) -> Check:
    """The running camera's line, from the pipeline's stats (the Devices page's, `companion doctor`'s)."""
    if not camera:
        return Check("camera", WARN, "the companion runs with no camera (--source none)")
    source = camera.get("source") or "the camera"
    if delivers_no_frames(camera):
        age = camera.get("last_frame_age_s")
        since = f"for {age:.0f} s" if camera.get("frames_ever") else "yet"
        why = camera.get("last_error") if camera.get("state") != "running" else ""
        return Check("camera", FAIL, f"{source} has delivered no frame {since} ({camera.get('state')})"
                                     f"{': ' + why if why else ''}. Cards played now are not seen. Check the ribbon "
                                     f"cable or USB plug; the service reopens the camera by itself")
    size = "x".join(map(str, camera.get("resolution") or [])) or "size unknown"
    said = (f"{source}, {size}, {camera.get('delivered_fps', 0):.0f} fps delivered, last frame "
            f"{camera.get('last_frame_age_s') or 0:.1f} s ago")
    focus, px = camera.get("focus"), camera.get("smallest_tag_px_per_module")
    said += f", focus {focus:.0f} on the markers" if focus is not None else ""
    said += f", smallest tag {px:.1f} px/module" if px is not None else ""
    if focus is None:
        return Check("camera", WARN, f"{said}; no mat corner marker in view: aim the camera at the mat "
                                     f"(`companion mat print` prints the markers) to measure focus")
    if focus < FOCUS_SHARP:
        return Check("camera", WARN, f"{said}; sharp is {FOCUS_SHARP:.0f}+: turn the lens's focus ring until "
                                     f"the markers are crisp")
    if px is not None and px < MIN_PX_PER_MODULE:
        return Check("camera", WARN, f"{said}; {small_tag_advice(px, camera.get('resolution'))}")
    return Check("camera", OK, said)


def machine_checks(data_dir: Path, facts: Facts | None = None) -> list[Check]:
    """The checks that need no camera: what the Devices page shows every few seconds."""
    facts = facts or Facts()
    return [check_disk(data_dir), check_clock(facts), check_temperature(facts), check_throttling(facts)]


def service_camera(url: str, timeout: float = 3.0) -> tuple[bool, dict[str, Any] | None]:
    """(whether a companion answered at ``url``, its camera's stats or None when it runs without one)."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/api/devices", timeout=timeout) as reply:
            devices = json.loads(reply.read())
    except (urllib.error.URLError, OSError, ValueError):
        return False, None
    return True, devices.get("camera") if isinstance(devices, dict) else None


def run(data_dir: Path, camera: str | None, readers: list[Any] | None = None, facts: Facts | None = None,
        url: str | None = None) -> list[Check]:
    """``camera``: a source to open, "none", or None: ask the companion at ``url``, and open the
    camera (auto) only when none answers."""
    checks = []
    if camera is None and url:
        answered, stats = service_camera(url)
        checks.append(camera_check(stats) if answered else check_camera("auto"))
    elif camera and camera != "none":
        checks.append(check_camera(camera))
    return checks + [check_readers(readers)] + machine_checks(data_dir, facts)


# -- the command ------------------------------------------------------------------------------------
def register(sub: argparse._SubParsersAction) -> None:
    doctor = sub.add_parser("doctor", help="check the table's camera, readers, disk, clock, temperature and power")
    doctor.add_argument("--data", default="data", help="data folder (default: ./data)")
    doctor.add_argument("--url", default="http://127.0.0.1:8080",
                        help="the running companion, asked for its camera (default: http://127.0.0.1:8080)")
    doctor.add_argument("--source", default=None,
                        help="open this camera instead of asking the running companion (as `serve --source`), or none")
    doctor.add_argument("--sysfs", default=os.environ.get("COMPANION_SYSFS", "/sys"), help=argparse.SUPPRESS)
    doctor.add_argument("--vcgencmd", default=os.environ.get("COMPANION_VCGENCMD", "vcgencmd"), help=argparse.SUPPRESS)
    doctor.add_argument("--timedatectl", default=os.environ.get("COMPANION_TIMEDATECTL", "timedatectl"),
                        help=argparse.SUPPRESS)
    doctor.set_defaults(func=cmd_doctor)


def cmd_doctor(args) -> int:
    facts = Facts(Path(args.sysfs), args.vcgencmd, args.timedatectl)
    checks = run(Path(args.data), args.source, None, facts, args.url)
    for check in checks:
        print(check.line())
    worst = max((c.status for c in checks), key=[OK, WARN, FAIL].index)
    print({OK: "All good.", WARN: "Usable, with warnings above.", FAIL: "Something needs fixing (FAIL above)."}[worst])
    return 1 if worst == FAIL else 0


if __name__ == "__main__":
    sys.exit(cmd_doctor(argparse.Namespace(data="data", source="none", sysfs="/sys", vcgencmd="vcgencmd",
                                           timedatectl="timedatectl", url=None)))
