"""CPU seconds per test and per module, for measuring the suite on a shared machine where wall times
swing with everyone else's load: `pytest -p tests.cpu_durations --cpu-durations=30 ...` prints the 30
tests and modules that used the most CPU (this process's threads, the subprocesses it waited for,
and its live descendants such as the browser, read from /proc). Works with pytest-xdist: each worker's figures travel to
the controller in the test reports.

Run as root where the cgroup v1 `cpuacct` controller is mounted (as here), each process running tests puts
itself in a cgroup of its own and reads its CPU there: every thread and every process it started, alive
or ended, the session's shared Chromium included, so a test is charged what its pages cost the browser.
Without it the figures undercount Chromium: the whole suite's per-test figures added up to 588 s of CPU
where /proc/stat showed the 2 cores busy 822 core-seconds for the same run, about 350 of them Chromium's
(docs/benchmarks.md)."""
from __future__ import annotations

import os
import resource
import time
from pathlib import Path
from collections import defaultdict

import pytest

_KEY = "cpu_seconds"
_start = pytest.StashKey[float]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=20, metavar="N",
                     help="show the N tests and modules that used the most CPU")


_TICK = os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        listings = list(Path(f"/proc/{pid}/task").glob("*/children"))
    except OSError:  # the process ended between being listed and being read
        return found
    for listing in listings:
        try:
            found += [int(child) for child in listing.read_text().split()]
        except OSError:  # ended meanwhile
            pass
    return found


def _descendants_cpu() -> float:
    """CPU seconds of this process's live descendants (Playwright's driver and Chromium), read
    from /proc (each thread's list of children, no scan of every process on the machine; a kernel
    without those lists counts none)."""
    ticks, waiting = 0, _children(os.getpid())
    while waiting:
        pid = waiting.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
        waiting += _children(pid)
    return ticks / _TICK


_CPUACCT = Path("/sys/fs/cgroup/cpuacct")
_own_group: list[Path] = []  # this process's cgroup, once it has moved into one


def pytest_configure(config: pytest.Config) -> None:
    group = _CPUACCT / f"cpu_durations_{os.getpid()}"
    try:
        group.mkdir()
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:  # no cgroup v1 cpuacct here, or not root: read /proc instead
        return
    _own_group.append(group)


def pytest_unconfigure(config: pytest.Config) -> None:
    for group in _own_group:
        try:
            (_CPUACCT / "cgroup.procs").write_text(str(os.getpid()))  # back to where it was
            group.rmdir()
        except OSError:  # a process it started lives on in it: the group goes when that ends
            pass


def _cpu() -> float:
    if _own_group:
        return int((_own_group[0] / "cpuacct.usage").read_text()) / 1e9
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime + _descendants_cpu()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    item.stash[_start] = _cpu()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if call.when == "teardown" and _start in item.stash:
        report.user_properties.append((_KEY, _cpu() - item.stash[_start]))


_seen: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for key, value in report.user_properties:
        if key == _KEY:
            _seen[report.nodeid] = value


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if not _seen or hasattr(config, "workerinput"):
        return
    count = config.getoption("cpu_durations")
    by_module: dict[str, float] = defaultdict(float)
    for nodeid, seconds in _seen.items():
        by_module[nodeid.split("::")[0]] += seconds
    write = terminalreporter.write_line
    write(f"CPU seconds, {len(_seen)} tests: {sum(_seen.values()):.1f} in all")
    write(f"-- the {count} modules that used the most --")
    for module, seconds in sorted(by_module.items(), key=lambda kv: -kv[1])[:count]:
        write(f"{seconds:8.2f}  {module}")
    write(f"-- the {count} tests that used the most --")
    for nodeid, seconds in sorted(_seen.items(), key=lambda kv: -kv[1])[:count]:
        write(f"{seconds:8.2f}  {nodeid}")
