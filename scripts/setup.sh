#!/usr/bin/env bash
# Set up everything the companion and its tests need, idempotently:
#   system packages (zbar for pyzbar, Chromium for the browser tests, the AVR toolchain and
#   simavr for the reader firmware, Mosquitto for the tournament hub and its tests), then a virtual environment in .venv with the project.
# Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(libzbar0 chromium gcc-avr binutils-avr avr-libc libsimavr-dev libelf-dev make gcc pkg-config mosquitto mosquitto-clients)
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

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  # On a Raspberry Pi the camera library comes from Raspberry Pi OS (apt install python3-picamera2),
  # so the venv must see the system's packages there.
  if "$PYTHON" -c "import picamera2" 2>/dev/null; then
    "$PYTHON" -m venv --system-site-packages .venv
  else
    "$PYTHON" -m venv .venv
  fi
fi
stamp=.venv/.installed-$(cat pyproject.toml | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test]"
  touch "$stamp"
fi
