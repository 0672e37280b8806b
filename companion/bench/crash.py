"""Power cuts and crashes, measured: ``companion bench crash [--kills 20]`` runs `companion demo`,
kills it with SIGKILL at random moments (after a random number of acknowledged events), restarts
it, and counts what a power cut could cost:

- acknowledged events (published to the dashboard's event stream) missing from the log, or changed;
- views shown that the log does not replay to (the last view before each kill; the first after
  each restart, which must be the log's own state, or the same game a few events on, as the
  simulated players keep playing from the moment the demo is back).

tests/test_crash_recovery.py runs 20 kills and expects every count but the first to be zero.
Every wait is on a condition (an event seen), never on a time.
"""
from __future__ import annotations

import http.client
import io
import json
import multiprocessing
import multiprocessing.process
import os
import random
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.gamelog.fold import fold
from companion.gamelog.session import public_view
from companion.gamelog.store import Store


@dataclass
class CrashReport:
    kills: int = 0
    acknowledged: int = 0
    missing: list[str] = field(default_factory=list)        # acknowledged events lost or changed
    restarts_differing: list[int] = field(default_factory=list)
    views_differing: list[int] = field(default_factory=list)


# What `companion demo` imports, imported once in the process the demos are forked from: each start
# then costs the demo's own setting up, not 0.6 s of CPU importing the companion again (20 kills in the
# test). A name missing here only makes a start slower: multiprocessing skips a preload that fails.
PRELOAD = ["companion.commands", "companion.demo.driver", "companion.web.server", "companion.scan.pipeline",
           "companion.scan.virtual_table", "companion.rules.bom.demo", "companion.rules.bom.table", "card_tags.sheets"]


class _Lines(io.TextIOBase):
    """A demo's standard output, sent to the process that started it until it stops listening (it
    reads the dashboard's address only)."""

    def __init__(self, conn) -> None:
        super().__init__()
        self.conn = conn

    def write(self, text: str) -> int:
        try:
            self.conn.send(text)
        except OSError:  # the starter has its address and closed the pipe: the rest goes nowhere
            pass
        return len(text)


def _demo(argv: list[str], conn) -> None:
    """`companion demo ARGS` in a forked process: its output to ``conn``, its warnings nowhere."""
    from companion.cli import main

    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    sys.stdout = _Lines(conn)
    main(argv)


def start_demo(data: Path) -> tuple[multiprocessing.process.BaseProcess, int]:
    """`companion demo` in a process of its own, forked from one that has the companion imported (the
    process it kills is a demo like any other: its log, its database and its open files are its own)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    argv = ["demo", "--data", str(data), "--host", "127.0.0.1", "--port", "0", "--pace", "0.05", "--fps", "20",
            "--settle", "0.2", "--seed", "3"]
    reader, writer = context.Pipe(duplex=False)
    proc = context.Process(target=_demo, args=(argv, writer), daemon=True)
    proc.start()
    writer.close()  # the demo holds the only writing end: its death ends the reading
    said = ""
    with reader:
        while "\n" not in said:
            try:
                said += reader.recv()
            except EOFError:
                break
    match = re.search(r"http://[^:]+:(\d+)/", said)
    if not match:
        proc.kill()
        proc.join()
        raise RuntimeError(f"the demo did not start: {said!r}")
    return proc, int(match.group(1))


class Watcher(threading.Thread):
    """A dashboard: records the first view it is shown, then every entry and view the service
    publishes (what it acknowledged)."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.first_view: dict | None = None
        self.entries: list[dict] = []
        self.connected = threading.Event()

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", "/api/stream")
            response = conn.getresponse()
            event = None
            while True:
                line = response.readline().decode()
                if not line:
                    return
                if line.startswith("event: "):
                    event = line[7:].strip()
                elif line.startswith("data: ") and event == "view":
                    message = json.loads(line[6:])
                    if message.get("entry"):  # with the view it was published with
                        self.entries.append({**message["entry"], "game_id": message["view"]["game_id"],
                                             "_view": message["view"]})
                    elif self.first_view is None:
                        self.first_view = message["view"]
                    self.connected.set()
        except (OSError, http.client.HTTPException, ValueError):
            return  # the service was killed mid-line


def as_json(value):
    """A view as a browser receives it (tuples become lists)."""
    return json.loads(json.dumps(value))


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def read_log(data: Path, game: int | None = None) -> tuple[int, list]:
    """The log as it is on disk (read only: the test must not checkpoint under the service)."""
    store = Store(data / "companion.db")
    try:
        game = game or store.latest_game()
        return game, store.events(game)
    finally:
        store.db.close()


def replays_to(events: list, game: int, view: dict, candidates: range) -> bool:
    """Does some prefix of the log (of a length in ``candidates``) replay to this view?"""
    return any(as_json(public_view(fold(events[:n]), game)) == view for n in candidates if 0 < n <= len(events))


def run(kills: int, data: Path, seed: int = 20) -> CrashReport:
    rng = random.Random(seed)
    report = CrashReport()
    killed_at = (None, 0)  # (game, events of it on disk) when the service was last killed
    for round_number in range(kills):
        proc, port = start_demo(data)
        try:
            watcher = Watcher(port)
            watcher.start()
            if not wait_for(lambda w=watcher: w.first_view is not None, 60):
                raise RuntimeError("the restarted demo showed no game within a minute")
            wanted = rng.randint(1, 5)
            wait_for(lambda w=watcher, n=wanted: len(w.entries) >= n, timeout=60)
            time.sleep(rng.uniform(0, 0.2))  # a random moment within the next event
        finally:
            proc.kill()  # SIGKILL: no handler, no flush, no clean-up, as a power cut
            proc.join()
        watcher.join(5)
        report.kills += 1
        game, events = read_log(data, watcher.first_view["game_id"])
        ours = [e for e in watcher.entries if e["game_id"] == game]
        since = killed_at[1] if killed_at[0] == game else 1
        until = ours[0]["seq"] if ours else len(events)
        if not replays_to(events, game, watcher.first_view, range(since, until + 1)):
            report.restarts_differing.append(round_number)
        for game_id in {e["game_id"] for e in watcher.entries}:
            check_acknowledged(data, game_id, [e for e in watcher.entries if e["game_id"] == game_id],
                               round_number, report)
        report.acknowledged += len(watcher.entries)
        latest, on_disk = read_log(data)
        killed_at = (latest, len(on_disk))
    return report


def check_acknowledged(data: Path, game: int, entries: list[dict], round_number: int, report: CrashReport) -> None:
    """Every acknowledged event is in the log unchanged; the log replays to the view last shown."""
    _, events = read_log(data, game)
    logged = {e.seq: e for e in events}
    for entry in entries:
        kept = logged.get(entry["seq"])
        if kept is None or kept.kind != entry["kind"]:
            report.missing.append(f"kill {round_number}: game {game} event #{entry['seq']} ({entry['kind']})")
    last = entries[-1]
    prefix = [e for seq, e in sorted(logged.items()) if seq <= last["seq"]]
    if as_json(public_view(fold(prefix), game)) != last["_view"]:
        report.views_differing.append(round_number)


def cmd_bench(args) -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        report = run(args.kills, Path(tmp) / "data", args.seed)
    print(f"{report.kills} kill -9 of `companion demo` in {time.perf_counter() - started:.0f} s: "
          f"{report.acknowledged} events acknowledged, {len(report.missing)} lost; "
          f"restarts showing a state the log does not replay to: {len(report.restarts_differing)}; "
          f"last views the log does not replay to: {len(report.views_differing)}")
    for line in report.missing[:10]:
        print("  lost:", line)
    return 1 if report.missing or report.restarts_differing or report.views_differing else 0
