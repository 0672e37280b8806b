"""Benchmarks of the whole service (the scan path's own are in companion/bench/scan.py).

Figures are printed, never asserted: this machine is shared and noisy, so each figure comes with
a baseline measured in the same run and the ratio between them.

- ``companion bench latency``: a card entering the virtual camera's view until the dashboard's
  event stream delivers it, p50 and p95 over N placements at 30 frames per second. Baseline: a
  dashboard command's round trip to the same event stream (the part that is not camera). Then
  the last card still -> the result on the stream, for the quick settle (every play complete) and
  the long one side by side (bench_settle.py).
- ``companion bench memory``: resident memory of ``companion demo`` with tablets streaming, on each
  web server in the same run (companion/bench/memory.py).
- ``companion bench resume``: a restart and an undo with snapshots, against folding the whole log
  (companion/bench/resume.py).
"""
from __future__ import annotations

import http.client
import json
import logging
import os
import platform
import queue
import tempfile
import threading
import time


def register_bench(bench_sub) -> None:
    latency = bench_sub.add_parser("latency", help="card in view -> dashboard event stream, p50/p95")
    latency.add_argument("--placements", type=int, default=200)
    latency.add_argument("--fps", type=float, default=30.0)
    latency.add_argument("--decoder", default="zxing")
    latency.add_argument("--settles", type=int, default=30, help="plays resolved on their own (half quick, half long)")
    latency.set_defaults(func=cmd_latency)


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def view_messages(port: int, timeout: float | None = None, source: str | None = None):
    """The dashboard's event stream, as (arrival time, message) for every "view" message; from
    the loopback address ``source`` when given (a device of its own: streams are capped per device)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    conn.request("GET", "/api/stream")
    response = conn.getresponse()
    event = None
    while line := response.readline():
        line = line.decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "view":
            yield time.perf_counter(), json.loads(line[6:])


class StreamClient(threading.Thread):
    """Reads the dashboard's server-sent events and timestamps every logged entry on arrival."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.arrivals: queue.Queue = queue.Queue()
        self.ready = threading.Event()

    def run(self) -> None:
        for at, message in view_messages(self.port):
            self.ready.set()
            if message.get("entry"):
                self.arrivals.put((at, message["entry"]))

    def wait_for(self, match, timeout: float = 5.0) -> float | None:
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            try:
                at, entry = self.arrivals.get(timeout=left)
            except queue.Empty:
                return None
            if match(entry):
                return at


def cmd_latency(args) -> int:
    from werkzeug.serving import make_server

    from companion.web.app import create_app
    from companion.scan.sources import VirtualTableSource
    from companion.scan.virtual_table import VirtualTable
    from companion.service import Service
    from companion.wiring import attach_camera

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        service = Service(tmp, settle_seconds=1e9)  # never resolve: this measures the scan path only
        service.start_game("bom-battle", [{"seat": n, "name": f"P{n}"} for n in (1, 2, 3)])
        table = VirtualTable(seed=7)
        pipeline = attach_camera(service, VirtualTableSource(table, fps=args.fps), args.decoder)
        server = make_server("127.0.0.1", 0, create_app(service), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        client = StreamClient(server.server_port)
        client.start()
        client.ready.wait(10)
        # the camera's start: its markers searched and the table read a tile a frame (spread_start), not timed
        deadline = time.monotonic() + 30
        while not (pipeline.calibration.ready and pipeline.decoder and not pipeline.decoder.sweeping) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        zones = pipeline.zones
        refs = list(service.session.ruleset.catalog.refs())
        camera, missed = [], 0
        for n in range(args.placements):
            ref = refs[n % len(refs)]
            seat = 1 + n % 3
            table.place(ref, zones.slot(f"seat:{seat}", (n // 3) % 4), angle_deg=(n * 37) % 360)
            placed = time.perf_counter()
            arrived = client.wait_for(lambda e, key=ref.key: e["kind"] == "card_seen" and e["data"].get("card") == key)
            if arrived is None:
                missed += 1
            else:
                camera.append((arrived - placed) * 1000)
            if n % 12 == 11:  # clear the table now and then, waiting for the cards to be gone
                table.clear()
                client.wait_for(lambda e: False, timeout=1.2)
        baseline = []
        for _ in range(50):
            sent = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", server.server_port)
            conn.request("POST", "/api/command", json.dumps({"kind": "ping_latency", "data": {}}),
                         {"Content-Type": "application/json", "X-Table-PIN": service.pin})
            conn.getresponse().read()
            arrived = client.wait_for(lambda e: e["kind"] == "ping_latency")
            if arrived is not None:
                baseline.append((arrived - sent) * 1000)
        from companion.bench import settle as bench_settle

        service.settle_seconds, service.quick_settle_seconds = bench_settle.SETTLE, bench_settle.QUICK
        service.start_background()
        table.clear()
        settled = bench_settle.measure(service, table, pipeline, client, args.settles)
        server.shutdown()
        service.stop()
    report = {
        "machine": machine(),
        "frames_per_second": args.fps, "decoder": args.decoder, "placements": args.placements, "missed": missed,
        "camera_to_stream_ms": {"p50": round(percentile(camera, 50), 1), "p95": round(percentile(camera, 95), 1)},
        "baseline_command_to_stream_ms": {"p50": round(percentile(baseline, 50), 1),
                                          "p95": round(percentile(baseline, 95), 1)},
        "frame_interval_ms": round(1000 / args.fps, 1),
        "p95_in_frame_intervals": round(percentile(camera, 95) / (1000 / args.fps), 2),
        "target": "p95 under 150 ms",
        **bench_settle.report(settled, percentile),
    }
    print(json.dumps(report, indent=2))
    return 0
