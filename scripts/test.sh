#!/usr/bin/env bash
# Set everything up, then lint and run the whole test suite (unit, scenario, firmware under simavr,
# end-to-end in headless Chromium) on every core. Exits non-zero on any failure.
# `bash scripts/test.sh -m "not slow"` runs the rules and unit tests alone. --dist loadgroup: tests are
# handed out one at a time as with "load", except a module whose tests share a module-scoped fixture
# (a served table, photos read, a venv made by setup.sh; tests/conftest.py marks them) goes to one
# worker, which makes it once instead of once per worker.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
exec .venv/bin/python -m pytest -n auto --dist loadgroup "$@"
