"""Power cuts and crashes: `kill -9` of `companion demo` at random moments, 20 times, during one
game. After each kill, every event the service had acknowledged (published to the dashboard) is in
the log unchanged, the log replays to the view the dashboard last showed, and the restarted
service shows exactly the state the log replays to.

The simulated players keep playing from the moment the demo restarts, so nothing here reads two
things at different moments and expects them to agree: each view is checked against the log
prefix it was published with, and every wait is on a condition (an event seen), never a time."""
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from companion.session import fold, public_view
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent


def start_demo(data: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--data", str(data), "--host", "127.0.0.1", "--port", "0",
         "--pace", "0.05", "--fps", "20", "--settle", "0.2", "--seed", "3"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://[^:]+:(\d+)/", line)
    assert match, f"the demo did not start: {line!r}"
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


def test_kill_9_twenty_times_loses_nothing_acknowledged(tmp_path):
    rng = random.Random(20)
    data = tmp_path / "data"
    acknowledged_total = 0
    killed_at = (None, 0)  # (game, events of it on disk) when the service was last killed
    for round_number in range(20):
        proc, port = start_demo(data)
        try:
            watcher = Watcher(port)
            watcher.start()
            assert wait_for(lambda: watcher.first_view is not None, 60), "the service did not show a game"
            # Kill after a random number of acknowledged events, at a random moment within the next.
            wanted = rng.randint(1, 5)
            wait_for(lambda: len(watcher.entries) >= wanted, timeout=60)
            time.sleep(rng.uniform(0, 0.2))
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        watcher.join(5)
        game, events = read_log(data, watcher.first_view["game_id"])
        # The restarted service showed a state its log replays to: the resumed game, or the same
        # game a few events on, as the simulated players kept playing while the watcher connected.
        ours = [e for e in watcher.entries if e["game_id"] == game]
        since = killed_at[1] if killed_at[0] == game else 1
        until = ours[0]["seq"] if ours else len(events)
        assert replays_to(events, game, watcher.first_view, range(since, until + 1)), \
            f"restart {round_number}: the state shown differs from the log's"
        for game_id in {e["game_id"] for e in watcher.entries}:
            check_acknowledged(data, game_id, [e for e in watcher.entries if e["game_id"] == game_id], round_number)
        acknowledged_total += len(watcher.entries)
        latest, on_disk = read_log(data)
        killed_at = (latest, len(on_disk))
    assert acknowledged_total > 40, "the demo game should have moved on between kills"


def check_acknowledged(data: Path, game: int, entries: list[dict], round_number: int) -> None:
    """Every acknowledged event is in the log unchanged; the log replays to the view last shown."""
    _, events = read_log(data, game)
    logged = {e.seq: e for e in events}
    for entry in entries:
        kept = logged.get(entry["seq"])
        assert kept is not None, f"kill {round_number}: acknowledged event #{entry['seq']} is missing"
        assert kept.kind == entry["kind"]
    last = entries[-1]
    prefix = [e for seq, e in sorted(logged.items()) if seq <= last["seq"]]
    assert as_json(public_view(fold(prefix), game)) == last["_view"], \
        f"kill {round_number}: the log does not replay to the view last shown"
