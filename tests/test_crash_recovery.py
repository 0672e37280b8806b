"""Power cuts and crashes: `kill -9` of `companion demo` at random moments, 20 times, during one
game. After each kill, every event the service had acknowledged (published to the dashboard) is in
the log unchanged, the log replays to the view the dashboard last showed, and the restarted
service shows exactly the state the log replays to."""
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
    """A dashboard: records every entry and view the service publishes (what it acknowledged)."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.entries: list[dict] = []
        self.last_view: dict | None = None
        self.connected = threading.Event()

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
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
                    if message.get("entry"):
                        self.entries.append(message["entry"])
                        self.last_view = message["view"]
                    self.connected.set()
        except (OSError, http.client.HTTPException, ValueError):
            return  # the service was killed mid-line


def as_json(value):
    """A view as a browser receives it (tuples become lists)."""
    return json.loads(json.dumps(value))


def get_view(port: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/state")
    return json.loads(conn.getresponse().read())["view"]


def test_kill_9_twenty_times_loses_nothing_acknowledged(tmp_path):
    rng = random.Random(20)
    data = tmp_path / "data"
    acknowledged_total = 0
    for round_number in range(20):
        proc, port = start_demo(data)
        try:
            if round_number:  # the restarted service shows the state its log replays to
                store = Store(data / "companion.db")
                game = store.latest_game()
                events = store.events(game)
                store.close()
                expected = as_json(public_view(fold(events), game))
                assert get_view(port) == expected, f"restart {round_number}: state differs from the log's"
            watcher = Watcher(port)
            watcher.start()
            assert watcher.connected.wait(10)
            time.sleep(rng.uniform(0.3, 2.5))
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        watcher.join(5)
        store = Store(data / "companion.db")
        game = store.latest_game()
        logged = {e.seq: e for e in store.events(game)}
        for entry in watcher.entries:
            kept = logged.get(entry["seq"])
            assert kept is not None, f"kill {round_number}: acknowledged event #{entry['seq']} is missing"
            assert kept.kind == entry["kind"]
        acknowledged_total += len(watcher.entries)
        if watcher.entries:
            last_seq = watcher.entries[-1]["seq"]
            prefix = [e for seq, e in sorted(logged.items()) if seq <= last_seq]
            assert as_json(public_view(fold(prefix), game)) == watcher.last_view, \
                f"kill {round_number}: the log does not replay to the view last shown"
        store.close()
    assert acknowledged_total > 40, "the demo game should have moved on between kills"
