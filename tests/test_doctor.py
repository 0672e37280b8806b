"""`companion doctor`: each check against faked machine facts, and the camera's focus measured on
the mat markers of real rendered frames."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from companion.pi import doctor
from companion.pi.doctor import FAIL, OK, WARN, Facts


def fake_command(folder: Path, name: str, output: str, code: int = 0) -> str:
    path = folder / name
    path.write_text(f"#!/bin/sh\ncat <<'EOF'\n{output}\nEOF\nexit {code}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def fake_sysfs(folder: Path, *millidegrees: int) -> Path:
    for n, temp in enumerate(millidegrees):
        zone = folder / "class" / "thermal" / f"thermal_zone{n}"
        zone.mkdir(parents=True)
        (zone / "temp").write_text(f"{temp}\n")
    return folder


@pytest.mark.parametrize("output, status, words", [
    ("throttled=0x0", OK, "no under-voltage"),
    ("throttled=0x50000", WARN, "under-voltage has occurred since boot"),
    ("throttled=0x50005", FAIL, "under-voltage now"),
    ("throttled=0x4", FAIL, "throttled now"),
])
def test_throttling_and_under_voltage_from_vcgencmd(tmp_path, output, status, words):
    facts = Facts(vcgencmd=fake_command(tmp_path, "vcgencmd", output))
    check = doctor.check_throttling(facts)
    assert check.status == status and words in check.says
    if "under-voltage" in words and status != OK:
        assert "power supply" in check.says  # it says what to do


def test_not_a_pi_has_nothing_to_throttle(tmp_path):
    assert doctor.check_throttling(Facts(vcgencmd=str(tmp_path / "absent"))).status == OK


@pytest.mark.parametrize("temps, status", [((45000,), OK), ((52000, 81500), WARN), ((86000,), FAIL)])
def test_cpu_temperature_from_the_hottest_thermal_zone(tmp_path, temps, status):
    check = doctor.check_temperature(Facts(sysfs=fake_sysfs(tmp_path, *temps)))
    assert check.status == status
    assert f"{max(temps) / 1000:.0f} C" in check.says


def test_a_clock_not_synchronised_is_a_warning_and_a_clock_in_1970_fails(tmp_path):
    unsynced = Facts(timedatectl=fake_command(tmp_path, "timedatectl", "no"))
    assert doctor.check_clock(unsynced).status == WARN
    synced = Facts(timedatectl=fake_command(tmp_path, "timedatectl2", "yes"))
    assert doctor.check_clock(synced).status == OK
    epoch = Facts(timedatectl=fake_command(tmp_path, "timedatectl3", "no"), clock=lambda: 0.0)
    check = doctor.check_clock(epoch)
    assert check.status == FAIL and "1970" in check.says


def test_disk_space_of_the_data_folder(tmp_path, monkeypatch):
    free = {"bytes": 50 * 1024**3}
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda p: type("U", (), {"free": free["bytes"]}))
    assert doctor.check_disk(tmp_path).status == OK
    free["bytes"] = 500 * 1024**2
    assert doctor.check_disk(tmp_path).status == WARN
    free["bytes"] = 50 * 1024**2
    assert doctor.check_disk(tmp_path).status == FAIL


def _mat_frame():
    from companion.scan.virtual_table import VirtualTable

    return VirtualTable(1280, 720).render()


def test_camera_focus_is_measured_on_the_mat_markers(tmp_path):
    frame = _mat_frame()
    sharp, blurred = tmp_path / "sharp", tmp_path / "blurred"
    sharp.mkdir(), blurred.mkdir()
    cv2.imwrite(str(sharp / "f.png"), frame)
    cv2.imwrite(str(blurred / "f.png"), cv2.GaussianBlur(frame, (0, 0), 3.0))
    crisp = doctor.check_camera(str(sharp), seconds=0.5)
    soft = doctor.check_camera(str(blurred), seconds=0.5)
    assert crisp.status == OK and "focus" in crisp.says
    assert soft.status == WARN and "focus ring" in soft.says


def test_a_camera_that_is_not_there_fails_with_what_to_check():
    check = doctor.check_camera("/dev/video99")
    assert check.status == FAIL and "no such camera device" in check.says


def test_the_command_prints_one_line_per_check_and_fails_on_a_failure(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
           "COMPANION_VCGENCMD": fake_command(tmp_path, "vcgencmd", "throttled=0x50005"),
           "COMPANION_SYSFS": str(fake_sysfs(tmp_path / "sys", 47000))}
    done = subprocess.run([sys.executable, "-m", "companion", "doctor", "--source", "none", "--data", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr
    assert [line.split()[1] for line in lines[:-1]] == ["readers", "disk", "clock", "temperature", "power"]
    assert lines[-1] == "Something needs fixing (FAIL above)."
    assert "Traceback" not in done.stderr


def test_the_devices_page_warns_in_words_when_the_pi_throttles(tmp_path):
    """The Devices page shows the doctor's machine checks; under-voltage is a failure in words."""
    from companion.service import Service
    from tests.browser import chromium, picture, serving

    service = Service(tmp_path / "data")
    service.facts = Facts(vcgencmd=fake_command(tmp_path, "vcgencmd", "throttled=0x50005"),
                          sysfs=fake_sysfs(tmp_path / "sys", 83000))
    checks = {c["name"]: c for c in service.devices()["health"]}
    assert checks["power"]["status"] == FAIL and checks["temperature"]["status"] == WARN
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 390, "height": 844})
        page.goto(url + "/devices")
        page.wait_for_selector("#health .check.fail[data-check='power']")
        assert "under-voltage now" in page.inner_text("#health [data-check='power']")
        assert "83 C" in page.inner_text("#health [data-check='temperature']")
        picture(page, path=str(tmp_path / "devices-throttled.jpg"))


def suggested_commands() -> set[str]:
    """Every `companion ...` command the doctor's checks (and the camera errors it repeats) suggest."""
    import re

    from companion.scan import sources

    text = Path(doctor.__file__).read_text() + Path(sources.__file__).read_text()
    return {m.group(1) for m in re.finditer(r"`(companion [^`]+)`", text)} - {"companion doctor"}


def test_every_command_the_doctor_suggests_exists_with_the_options_it_names():
    commands = suggested_commands()
    assert {"companion mat print", "companion readers list", "companion doctor --source /dev/video0"} <= commands
    for command in sorted(commands):
        words = command.split()[1:]
        done = subprocess.run([sys.executable, "-m", "companion", *words, "--help"], capture_output=True, text=True,
                              timeout=120, cwd=Path(__file__).resolve().parent.parent)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        for option in (w for w in words if w.startswith("--")):
            assert option in done.stdout, f"{command}: {option} is not an option of it"


def test_a_picamera2_that_does_not_import_is_named_with_its_error(tmp_path, monkeypatch):
    from companion.scan import sources

    from .test_scan_sources import broken_picamera2

    broken_picamera2(tmp_path, monkeypatch)
    monkeypatch.setattr(sources, "video_devices", lambda: ["/dev/video0"])
    check = doctor.check_camera("auto")
    assert check.status == FAIL and "picamera2 is installed but does not import" in check.says
    assert "NumPy 1.x" in check.says
