#!/usr/bin/env bash
# Set everything up, then start the companion in demo mode: a virtual table camera on which three
# simulated players play real QR-tagged Book of Mormon "Battle" cards. Open the printed address.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/companion demo --data data "$@"
