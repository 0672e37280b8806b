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
# Python may keep the bytecode of our modules (a machine setting PYTHONDONTWRITEBYTECODE has each xdist
# worker compile every module and pytest rewrite every test module's asserts afresh, every run: a
# worker's collection takes 11 s of CPU, 3 s with the bytecode kept from an earlier run).
unset PYTHONDONTWRITEBYTECODE
# Every xdist worker collects the whole suite; from a clean clone each compiled every module and rewrote
# every test module's asserts itself (9 s of CPU a worker, 3 s with them kept). Collected once first, the
# workers load what it wrote. (A failure here is the run's own to report: it collects the same modules.)
.venv/bin/python -m pytest --collect-only -q -p no:cacheprovider >/dev/null 2>&1 || true
# 4 workers on 2 cores: the suite keeps both cores busy (idle 19-29 of 845 core-seconds measured from
# /proc/stat with 4), so more workers would gain nothing (3 against 4 was not measured on the cores
# busy: the figure of 1.34 cores used with 3 came from per-process CPU, which misses Chromium). `--maxschedchunk 1`:
# tests go to a worker one at a time as it frees up, the longest first (tests/conftest.py's LONGEST),
# instead of a first block of a quarter of the suite each.
# One thread each for OpenCV's and OpenBLAS's own pools: the workers already share 2 cores, and a pool of
# 2 threads per process spent a quarter more CPU for the same frames (threads waiting on each other).
# Results do not depend on it (each operation gives the same output on any number of threads).
export OPENCV_FOR_THREADS_NUM=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
echo "load before the tests (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
.venv/bin/python -m pytest -n 4 --maxschedchunk 1 "$@" || status=$?
echo "load after the tests (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
