#!/usr/bin/env bash
# Set everything up, then run the whole test suite (unit, scenario, firmware under simavr,
# end-to-end in headless Chromium). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
