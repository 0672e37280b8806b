#!/usr/bin/env bash
# Install the table companion as a system service on Raspberry Pi OS (Bookworm, 64-bit) or Debian:
# system packages, a dedicated user with the camera and serial devices, the project in
# /opt/companion with its own venv, the game data in /var/lib/companion, and the systemd unit
# deploy/companion.service (starts on boot, restarts on failure, watchdog, logs to the journal).
#
#   sudo bash scripts/install.sh [--port 8080] [--name club-table-3]   install, or update, and start
#   sudo bash scripts/install.sh --uninstall                           remove it; the game data stays
#   bash scripts/install.sh --dry-run [--pi|--not-pi]                  print every command, run none
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=/opt/companion
DATA=/var/lib/companion
UNIT=/etc/systemd/system/companion.service
USER_NAME=companion
PORT=8080
NAME=""
DRY=0
ACTION=install
PI=auto

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=1 ;;
    --uninstall) ACTION=uninstall ;;
    --port) PORT="$2"; shift ;;
    --name) NAME="$2"; shift ;;
    --pi) PI=yes ;;
    --not-pi) PI=no ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

case "$PORT" in ''|*[!0-9]*) echo "install.sh: --port must be a number, not '$PORT'" >&2; exit 2 ;; esac
case "$NAME" in *[!a-zA-Z0-9-]*) echo "install.sh: --name takes letters, digits and hyphens only" >&2; exit 2 ;; esac

if [ "$PI" = auto ]; then
  if grep -qs "Raspberry Pi" /proc/device-tree/model; then PI=yes; else PI=no; fi
fi

run() {  # print the command; run it unless this is a dry run
  echo "+ $*"
  if [ "$DRY" = 0 ]; then "$@"; fi
}

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run it as root (sudo bash scripts/install.sh), or with --dry-run to see what it does" >&2
  exit 1
fi

if [ "$ACTION" = uninstall ]; then
  run systemctl disable --now companion.service
  run rm -f "$UNIT"
  run systemctl daemon-reload
  run rm -rf "$PREFIX"
  echo "Removed the service and $PREFIX. The game data stays in $DATA (and the user $USER_NAME);"
  echo "remove them by hand if you want: sudo rm -rf $DATA && sudo userdel $USER_NAME"
  exit 0
fi

# 1. System packages: Python, zbar for pyzbar, a C compiler for the BATTLECARDS odds' play-outs and count
# (companion/rules/battlecards/compiled.py), and on a Pi the camera library (from Raspberry Pi OS).
PACKAGES=(python3 python3-venv python3-pip libzbar0 gcc libc6-dev)
if [ "$PI" = yes ]; then PACKAGES+=(python3-picamera2 python3-numpy); fi
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}"

# 2. A user of its own, allowed the camera (video) and the serial readers (dialout), nothing else.
if ! id "$USER_NAME" >/dev/null 2>&1 || [ "$DRY" = 1 ]; then
  run useradd --system --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin --user-group "$USER_NAME"
fi
run usermod -a -G video,dialout "$USER_NAME"

# 3. The project and its venv. picamera2 comes from the system, so on a Pi the venv sees it.
run mkdir -p "$PREFIX"
run tar --exclude=./.venv --exclude=./data --exclude=./.git --exclude=./companion/rules/battlecards/_build \
  -cf /tmp/companion-install.tar .
run tar -xf /tmp/companion-install.tar -C "$PREFIX"
run rm -f /tmp/companion-install.tar
if [ "$PI" = yes ]; then
  run python3 -m venv --system-site-packages "$PREFIX/.venv"
else
  run python3 -m venv "$PREFIX/.venv"
fi
run "$PREFIX/.venv/bin/pip" install -q --upgrade pip
CONSTRAINTS=()
if [ "$PI" = yes ]; then
  # pip held to the system's numpy and what is built against it: a numpy 2 in the venv would shadow
  # the one picamera2 and simplejpeg are compiled for, and the camera would not import (setup.sh too)
  echo "+ python3 scripts/system_pins.py > $PREFIX/.venv/system-constraints.txt"
  if [ "$DRY" = 0 ]; then python3 scripts/system_pins.py > "$PREFIX/.venv/system-constraints.txt"; fi
  CONSTRAINTS=(-c "$PREFIX/.venv/system-constraints.txt")
fi
run "$PREFIX/.venv/bin/pip" install -q "${CONSTRAINTS[@]}" -e "$PREFIX"  # editable: web/ is read from $PREFIX
# the odds' play-outs and exact count compiled now, into $PREFIX (readable by the service), not at the first battle
run "$PREFIX/.venv/bin/python" -c 'from companion.rules.battlecards.compiled import main; main()'

# 4. The data folder (the game log, the PIN), readable by the service's user only.
run install -d -o "$USER_NAME" -g "$USER_NAME" -m 0750 "$DATA"

# 5. The unit, with this table's port and name, then start it now and on every boot.
EXEC="$PREFIX/.venv/bin/companion serve --data $DATA --port $PORT"
if [ -n "$NAME" ]; then EXEC="$EXEC --name $NAME"; fi
echo "+ install deploy/companion.service -> $UNIT (ExecStart=$EXEC)"
if [ "$DRY" = 0 ]; then
  sed "s|^ExecStart=.*|ExecStart=$EXEC|" deploy/companion.service > "$UNIT"
  chmod 0644 "$UNIT"
fi
run systemd-analyze verify "$UNIT"
run systemctl daemon-reload
run systemctl enable --now companion.service

SHOWN=${NAME:-$(hostname)}
echo "Installed. Open http://${SHOWN}.local:${PORT}/ on the tablet (or this machine's address)."
echo "Check it with: $PREFIX/.venv/bin/companion doctor --data $DATA --url http://127.0.0.1:$PORT   and   journalctl -u companion -f"
