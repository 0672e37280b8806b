#!/usr/bin/env bash
# Set up everything the companion and its tests need, idempotently:
#   system packages (zbar for pyzbar, Chromium for the browser tests, the AVR toolchain and
#   simavr for the reader firmware, Mosquitto for the tournament hub and its tests), then a virtual environment in .venv with the project.
# Safe to run again; it only installs what is missing.
#
# The camera stack (COMPANION_CAMERA_STACK): "system" where picamera2 comes from apt (Raspberry Pi
# OS): the venv sees the system's packages and pip is held to the versions of the system's numpy
# and of everything built against it (scripts/system_pins.py), so that no numpy 2 in the venv
# shadows the numpy 1.x that picamera2 and simplejpeg are compiled for. "pip" elsewhere: the venv
# has its own of everything. "auto" (the default) is "system" when the system's python3 has picamera2.
# COMPANION_SETUP=runtime installs only the Debian packages the service needs (no browser, no AVR
# toolchain, no broker): scripts/check-arm64.sh uses it.
# COMPANION_PIP_EXTRAS: the project's extras pip installs with it ("test" unless set; empty for the
# service alone: tests/test_setup_camera_stack.py, which only imports and runs the service).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
CAMERA_STACK=${COMPANION_CAMERA_STACK:-auto}
if [ "$CAMERA_STACK" = auto ]; then
  # find_spec, not import: a picamera2 that is there but fails to import is still the system's stack
  if "$PYTHON" -c "import importlib.util as u, sys; sys.exit(u.find_spec('picamera2') is None)" 2>/dev/null; then
    CAMERA_STACK=system
  else
    CAMERA_STACK=pip
  fi
fi
case "$CAMERA_STACK" in system|pip) ;; *) echo "setup: COMPANION_CAMERA_STACK is auto, system or pip, not '$CAMERA_STACK'" >&2; exit 2 ;; esac

# gcc and libc6-dev: the BATTLECARDS odds' play-outs and exact count are compiled C (companion/rules/battlecards/compiled.py)
APT_PACKAGES=(libzbar0 gcc libc6-dev)
if [ "${COMPANION_SETUP:-full}" != runtime ]; then
  APT_PACKAGES+=(chromium gcc-avr binutils-avr avr-libc libsimavr-dev libelf-dev make pkg-config mosquitto mosquitto-clients)
  # tests/test_setup_camera_stack.py: apt's numpy and a package compiled against its ABI
  APT_PACKAGES+=(python3-venv python3-numpy python3-bottleneck)
fi
if [ "$CAMERA_STACK" = system ]; then APT_PACKAGES+=(python3-venv python3-numpy); fi
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing system packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null; then
    echo "setup: installing system packages with sudo: ${missing[*]}"
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: please install these Debian packages first: ${missing[*]}" >&2
    exit 1
  fi
fi

want_system=false
[ "$CAMERA_STACK" = system ] && want_system=true
if [ -x .venv/bin/python ] && ! grep -qs "include-system-site-packages = $want_system" .venv/pyvenv.cfg; then
  echo "setup: .venv was made for the other camera stack; making it again ($CAMERA_STACK)"
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  if [ "$CAMERA_STACK" = system ]; then
    "$PYTHON" -m venv --system-site-packages .venv
  else
    "$PYTHON" -m venv .venv
  fi
fi

constraints=()
if [ "$CAMERA_STACK" = system ]; then
  "$PYTHON" scripts/system_pins.py > .venv/system-constraints.txt
  constraints=(-c .venv/system-constraints.txt)
fi
stamp=.venv/.installed-$({ cat pyproject.toml; cat .venv/system-constraints.txt 2>/dev/null || true; echo "${COMPANION_PIP_EXTRAS-test}"; } | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  # Python 3.11's venvs come with pip 22.3 or later (Debian's 23.0), which installs this project editable
  # (PEP 660: pip 21.3). Only an older one is upgraded: fetching pip took 2.7 s of every fresh setup here.
  if ! .venv/bin/python -c "import sys, pip; sys.exit(tuple(map(int, pip.__version__.split('.')[:2])) < (21, 3))"; then
    .venv/bin/python -m pip install -q --upgrade pip
  fi
  extras=${COMPANION_PIP_EXTRAS-test}
  .venv/bin/python -m pip install -q "${constraints[@]}" -e ".${extras:+[$extras]}"
  touch "$stamp"
fi

if [ "$CAMERA_STACK" = system ]; then
  # the venv must import the very numpy the system's python imports, and picamera2 with it
  system_numpy=$("$PYTHON" -c "import numpy; print(numpy.__file__)")
  venv_numpy=$(.venv/bin/python -c "import numpy; print(numpy.__file__)")
  if [ "$system_numpy" != "$venv_numpy" ]; then
    echo "setup: the venv's numpy ($venv_numpy) shadows the system's ($system_numpy): the Pi camera would fail" >&2
    exit 1
  fi
  if "$PYTHON" -c "import importlib.util as u, sys; sys.exit(u.find_spec('picamera2') is None)" 2>/dev/null &&
     ! error=$(.venv/bin/python -c "import picamera2" 2>&1); then
    echo "setup: WARNING: picamera2 is installed but does not import in the venv; the Pi camera cannot be used:" >&2
    echo "$error" | tail -3 >&2
  fi
fi

# The BATTLECARDS odds' play-outs and exact count, compiled ahead so that no table waits for the compiler (without one the
# odds still come, from Python, slower: the command says which).
.venv/bin/python -c 'from companion.rules.battlecards.compiled import main; main()'
