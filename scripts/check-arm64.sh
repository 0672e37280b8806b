#!/usr/bin/env bash
# The companion on arm64 (a Raspberry Pi's architecture) without a Pi: build a Debian 12 arm64
# root from Debian's archive (debootstrap), then, under qemu user emulation through proot (no
# binfmt_misc needed), run the project's own setup (pip picks the aarch64 wheel of every
# dependency), a named subset of the test suite, and `companion bench scan`.
#
#   sudo bash scripts/check-arm64.sh              # everything; a root already built is reused
#   sudo bash scripts/check-arm64.sh --root-only  # build the arm64 root and stop
#
# Emulated code takes about 8 times the CPU time of x86 code here: the figures it prints are EMULATED, and
# never a Pi's timings. It takes 15-35 minutes with the root built (by the load), 75 from nothing (docs/benchmarks.md),
# so it is not in the test command.
# Environment: ARM64_ROOT (default /var/tmp/companion-arm64), DEBIAN_MIRROR (debootstrap's default
# when unset), ARM64_TESTS (test files to run instead of the subset below), ARM64_BENCH_ARGS (default
# "--only cold --repeats 3": the cold first frame at 1920x1080 against zxing-cpp alone, in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
PROJECT=$(pwd)
ROOT=${ARM64_ROOT:-/var/tmp/companion-arm64}
SUITE=bookworm

# The subset: the rules of every game (and the BATTLECARDS odds' compiled play-outs and count against Python's), the game
# log's store and session, decoding of the real
# photographs in tests/data, the web app without a browser (its API, its request guards, and every
# page and route anyone may read, crawled for every game). No browser test: the root has no Chromium,
# and Playwright's driver wants libraries the runtime setup does not install (libatomic).
DEFAULT_TESTS=(
  tests/test_bom_rules.py tests/test_bom_battle.py tests/test_stratego_combat.py tests/test_gt_battle_battle.py
  tests/test_warriors_game.py tests/test_battlecards_battle.py tests/test_battlecards_playout.py
  tests/test_battlecards_exact_compiled.py tests/test_contract.py
  tests/test_store.py tests/test_session.py tests/test_snapshots.py
  tests/test_scan_real_photos.py
  tests/test_dashboard_api.py tests/test_security_requests.py tests/test_public_surface_secrets.py
)
read -r -a TESTS <<< "${ARM64_TESTS:-${DEFAULT_TESTS[*]}}"

say() { echo "check-arm64 [$(date -u +%H:%M:%S)] $*"; }
step_start=0
timed() {  # timed NAME COMMAND...: run it, say how long it took, and return its status
  local name=$1 rc=0; shift
  step_start=$(date +%s)
  say "$name..."
  "$@" || rc=$?
  say "$name: done in $(( $(date +%s) - step_start )) s (status $rc)"
  return $rc
}

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v proot >/dev/null || need+=(proot)
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "check-arm64: install first: ${need[*]}" >&2; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The host's certificate bundle for pip, where the network's TLS needs one the root lacks.
HOST_CA=${PIP_CERT:-${SSL_CERT_FILE:-}}
# Temporary files at the same path inside and out: proot does not translate the path of every
# system call qemu makes (glibc's faccessat2, behind os.access), so a file under the root's own /tmp
# looks missing or read-only to such a call, and the game log refuses the folder as read-only.
SHARED_TMP=${ARM64_TMP:-/var/tmp/companion-arm64-tmp}
mkdir -p "$SHARED_TMP"
binds=(-b /dev -b /proc -b /sys -b /etc/resolv.conf -b /etc/hosts -b "$SHARED_TMP:$SHARED_TMP")
pip_env=(TMPDIR="$SHARED_TMP" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=${PIP_DEFAULT_TIMEOUT:-180})
if [ -n "$HOST_CA" ] && [ -f "$HOST_CA" ]; then
  binds+=(-b "$HOST_CA:/etc/ssl/certs/host-ca.crt")
  pip_env+=(PIP_CERT=/etc/ssl/certs/host-ca.crt)
fi

# proot: -0 plays root (dpkg and apt want it), -q runs every arm64 binary through qemu.
in_root() {
  proot -0 -q qemu-aarch64-static -r "$ROOT" "${binds[@]}" \
    -w /opt/companion /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${pip_env[@]}" "$@"
}

first_stage() {  # download and unpack, on the host (nothing arm64 runs yet)
  rm -rf "$ROOT"
  debootstrap --foreign --arch=arm64 --variant=minbase \
    --include=python3,python3-venv,libzbar0,ca-certificates "$SUITE" "$ROOT" ${DEBIAN_MIRROR:+"$DEBIAN_MIRROR"}
}

second_stage() {  # configure every package, each maintainer script running under emulation
  mkdir -p "$ROOT/opt/companion"
  in_root env DEBOOTSTRAP_DIR=/debootstrap /debootstrap/debootstrap --second-stage
  touch "$ROOT/.companion-root-ready"
}

if [ ! -f "$ROOT/.companion-root-ready" ]; then
  [ -d "$ROOT/debootstrap" ] || timed "debootstrap, first stage (host)" first_stage
  timed "debootstrap, second stage (emulated)" second_stage
fi
say "arm64 root: $ROOT ($(in_root uname -m), $(in_root python3 --version))"
[ "${1:-}" = "--root-only" ] && exit 0

copy_project() {  # the project as committed plus what is not yet: every tracked file, no venv, no data
  mkdir -p "$ROOT/opt/companion"
  find "$ROOT/opt/companion" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
  git -C "$PROJECT" ls-files -z --cached --others --exclude-standard | tar -C "$PROJECT" --null -T - -cf - |
    tar -C "$ROOT/opt/companion" -xf -
}
timed "copying the project" copy_project
# gcc (the BATTLECARDS odds' play-outs, built by setup) finds cc1, collect2, its crt files and libc's by
# access(), one of the calls proot leaves untranslated (above): it would look on the host, where no aarch64
# gcc is. The host gets links to the root's folders for the run (where it has none of its own), so the
# look finds the root's files; every exec and open is translated to the same files.
host_links=()
for folder in /usr/lib/gcc/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
  if [ ! -e "$folder" ] && [ -d "$ROOT$folder" ]; then ln -s "$ROOT$folder" "$folder" && host_links+=("$folder"); fi
done
trap 'rm -f "${host_links[@]}"' EXIT
# only what the service and this subset need: no browser, no AVR toolchain, no broker
timed "scripts/setup.sh (emulated: pip installs the aarch64 wheels)" in_root env COMPANION_SETUP=runtime bash scripts/setup.sh
in_root .venv/bin/python - <<'EOF'
import importlib.metadata as md, platform
print("check-arm64: machine", platform.machine(), "python", platform.python_version())
for name in ("numpy", "opencv-python-headless", "zxing-cpp", "pyzbar", "reportlab", "pillow", "zeroconf", "flask", "waitress"):
    print(f"check-arm64:   {name} {md.version(name)}")
EOF
status=0
# pyproject's addopts already say -q (a second -q would hide the count of passed and failed tests)
timed "the test subset (emulated): ${TESTS[*]}" in_root .venv/bin/python -m pytest -p no:cacheprovider -rfE "${TESTS[@]}" || status=$?
timed "companion bench scan (EMULATED, not a Pi timing)" in_root .venv/bin/python -m companion bench scan ${ARM64_BENCH_ARGS:---only cold --repeats 3} || status=$?
say "finished with status $status"
exit $status
