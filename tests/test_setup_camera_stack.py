"""scripts/setup.sh keeps the system's camera stack: where picamera2 comes from apt (Raspberry Pi
OS), it is compiled against apt's numpy 1.x, and a numpy 2 pip-installed into the venv would shadow
that numpy and break it. Here, on Debian 12, apt's python3-numpy and python3-bottleneck (compiled
against numpy's C API, `Depends: python3-numpy-abi9`) stand in for picamera2 and simplejpeg: setup
runs in the "system camera stack" mode, and the venv it makes must import the system's numpy, the
ABI-bound package, and the companion (which must then decode a photograph with that numpy).

Slow (pip installs the project into a fresh venv), but it runs in the test command."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.once import run_folder

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
STAND_INS = ("python3-venv", "python3-numpy", "python3-bottleneck")
PHOTO = ROOT / "tests" / "data" / "real_photos" / "blackbox-qrcode-1-01.jpg"

pytestmark = pytest.mark.slow


def installed(package: str) -> bool:
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return "install ok installed" in done.stdout


@pytest.fixture(scope="module")
def system_stack():
    """apt's numpy and an apt package bound to its ABI (installed here when missing and we are root)."""
    if shutil.which("dpkg-query") is None or not Path(SYSTEM_PYTHON).exists():
        pytest.skip("not a Debian machine")
    missing = [p for p in STAND_INS if not installed(p)]
    if missing:
        if os.geteuid() != 0:
            pytest.skip(f"needs root to apt-get install {' '.join(missing)} (scripts/setup.sh installs them)")
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, capture_output=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    probe = "import numpy, bottleneck; print(numpy.__file__); print(numpy.__version__)"
    numpy_file, numpy_version = subprocess.run([SYSTEM_PYTHON, "-c", probe], check=True, capture_output=True,
                                               text=True).stdout.split()
    return numpy_file, numpy_version


def project_copy(dest: Path) -> Path:
    """This checkout's files (tracked or new, not ignored): no .venv, no data."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@pytest.fixture(scope="module")
def venv_made_by_setup(system_stack, tmp_path_factory):
    """The venv setup makes in the system camera stack mode: made once per run, not once per xdist
    worker that gets one of these tests (about 28 s of CPU each); the others wait for it."""
    shared = run_folder(tmp_path_factory, "camera-stack-setup")
    said = shared / "setup-said.txt"  # setup's exit status, then its output
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not said.exists():
            project = project_copy(shared / "project")
            env = {**os.environ, "PYTHON": SYSTEM_PYTHON, "COMPANION_CAMERA_STACK": "system", "COMPANION_SETUP": "runtime",
                   "COMPANION_PIP_EXTRAS": ""}  # the service alone: these tests import and run it, no test tools
            env.pop("VIRTUAL_ENV", None)
            done = subprocess.run(["bash", "scripts/setup.sh"], cwd=project, env=env, capture_output=True, text=True,
                                  timeout=1800)
            said.write_text(f"{done.returncode}\n{done.stdout}{done.stderr}")
    status, _, output = said.read_text().partition("\n")
    assert status == "0", output
    return shared / "project" / ".venv" / "bin" / "python"


def in_venv(python: Path, code: str) -> str:
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_venv_imports_the_systems_numpy_not_one_of_its_own(system_stack, venv_made_by_setup):
    numpy_file, numpy_version = system_stack
    assert in_venv(venv_made_by_setup, "import numpy; print(numpy.__file__, numpy.__version__)") == \
        f"{numpy_file} {numpy_version}"
    assert numpy_file.startswith("/usr/lib/python3/dist-packages/")


def test_a_package_compiled_against_the_systems_numpy_still_works_in_the_venv(venv_made_by_setup):
    said = in_venv(venv_made_by_setup, "import numpy, bottleneck; print(bottleneck.__file__); "
                                       "print(bottleneck.nansum(numpy.array([1.0, numpy.nan, 2.0])))")
    where, total = said.split()
    assert where.startswith("/usr/lib/python3/dist-packages/") and float(total) == 3.0


def test_the_companion_reads_a_photograph_with_the_systems_numpy(venv_made_by_setup):
    done = subprocess.run([str(venv_made_by_setup), "-m", "companion", "scan", str(PHOTO)], capture_output=True,
                          text=True, timeout=300, cwd=venv_made_by_setup.parent.parent.parent)
    assert done.returncode == 0, done.stderr
    assert '"text"' in done.stdout
