#!/usr/bin/env bash
# Set everything up, then lint and run the whole test suite (unit, scenario, firmware under simavr,
# end-to-end in headless Chromium) on every core. Exits non-zero on any failure.
# `bash scripts/test.sh -m "not slow"` runs the rules and unit tests alone.
# (Not --dist loadgroup: with pytest 9.2 and pytest-xdist 3.8 its groups are not applied, the
# suffix xdist puts on a test's id does not take, so each test is sent alone as with "load".)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
exec .venv/bin/python -m pytest -n auto "$@"
