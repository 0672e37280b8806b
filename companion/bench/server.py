"""`companion bench server`: the candidate web servers (companion/web/server.py) with 30 open event
streams; the time from an input to its event reaching every client, and pages answered meanwhile."""
from __future__ import annotations

import http.client
import os
import statistics
import tempfile
import threading
import time
from typing import Any

from companion.web.server import SERVERS, make_server

class _Watcher(threading.Thread):
    """One tablet: holds /api/stream open and timestamps each logged entry (by seq) on arrival."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.failed = ""

    def run(self) -> None:
        from companion.bench.service import view_messages

        try:
            for at, message in view_messages(self.port, timeout=60):
                self.ready.set()  # the first view has come: the stream is open
                if message.get("entry"):
                    self.arrived[message["entry"]["seq"]] = at
        except Exception as exc:  # reported in the figures, never raised from a bench thread
            self.failed = f"{type(exc).__name__}: {exc}"
            self.ready.set()


def _measure(kind: str, clients: int, inputs: int) -> dict[str, Any]:
    from companion.web.app import create_app
    from companion.service import Service

    with tempfile.TemporaryDirectory() as data:
        service = Service(data)
        session = service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
        server = make_server(create_app(service), "127.0.0.1", 0, kind)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        watchers = [_Watcher(server.port) for _ in range(clients)]
        for w in watchers:
            w.start()
        for w in watchers:
            w.ready.wait(30)
        time.sleep(1.0)  # let every stream send its first view (a bench, not a test: no condition to wait on)
        sent: dict[int, float] = {}
        keys = [f"GD{v}#1" for v in (100, 200, 300, 400, 500, 600, 700, 800, 900)]
        for n in range(inputs):
            key = keys[n % len(keys)]
            kind_ = "card_seen" if (n // len(keys)) % 2 == 0 else "card_gone"
            t0 = time.perf_counter()
            done = session.submit(kind_, {"zone": "seat:1", "card": key}, "camera")
            sent[done.event.seq] = t0
            time.sleep(0.05)
        pages = []
        for _ in range(30):
            t0 = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("GET", "/api/state")
            conn.getresponse().read()
            conn.close()
            pages.append((time.perf_counter() - t0) * 1000)
        time.sleep(1.0)
        delays = [(w.arrived[seq] - t0) * 1000 for w in watchers for seq, t0 in sent.items() if seq in w.arrived]
        missing = sum(1 for w in watchers for seq in sent if seq not in w.arrived)
        failed = [w.failed for w in watchers if w.failed]
        server.shutdown()
        service.stop()
    return {"server": kind, "clients": clients, "inputs": inputs, "missed": missing, "failed": len(failed),
            "event_p50_ms": statistics.median(delays) if delays else None,
            "event_p95_ms": _pct(delays, 95), "page_p50_ms": statistics.median(pages), "page_p95_ms": _pct(pages, 95)}


def _pct(values: list[float], p: float) -> float | None:
    from companion.bench.service import percentile

    return percentile(values, p) if values else None


def cmd_bench_server(args) -> int:
    import logging

    from companion.bench.service import machine

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request would time the terminal

    print(f"web servers with {args.clients} open event streams, {args.inputs} inputs each run, {args.runs} runs; "
          f"{machine()}, load {os.getloadavg()[0]:.2f}")
    results: dict[str, list[dict[str, Any]]] = {k: [] for k in args.servers}
    for _ in range(args.runs):
        for kind in args.servers:  # interleaved, so a change in the machine's load hits all alike
            results[kind].append(_measure(kind, args.clients, args.inputs))
    base = None
    for kind in args.servers:
        runs = results[kind]
        p50 = statistics.median(r["event_p50_ms"] for r in runs if r["event_p50_ms"] is not None)
        p95 = statistics.median(r["event_p95_ms"] for r in runs if r["event_p95_ms"] is not None)
        page = statistics.median(r["page_p50_ms"] for r in runs)
        base = base or p95
        print(f"{kind:<9} event to all {args.clients} clients p50 {p50:6.1f} ms  p95 {p95:6.1f} ms "
              f"({p95 / base:4.2f}x the first)  page p50 {page:5.1f} ms  missed {sum(r['missed'] for r in runs)}  "
              f"streams failed {sum(r['failed'] for r in runs)}")
    return 0


def register_bench(bench_sub) -> None:
    server = bench_sub.add_parser("server", help="web servers with 30 open event streams: event and page latency")
    server.add_argument("--clients", type=int, default=30)
    server.add_argument("--inputs", type=int, default=60)
    server.add_argument("--runs", type=int, default=3)
    server.add_argument("--servers", nargs="+", default=list(SERVERS), choices=SERVERS)
    server.set_defaults(func=cmd_bench_server)
