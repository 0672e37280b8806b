"""`companion bench server`: the candidate web servers (companion/web/server.py) with 30 open event
streams; the time from an input to its event reaching every client, and pages answered meanwhile.

`companion bench server --lockout`: each candidate under what anyone on the LAN can do without the
PIN (``--idle`` connections that send nothing, ``--streams`` event streams, each from its own
address, and one address opening streams past its cap), while a PIN-holder's page, state,
command and own stream are timed; the same requests timed before the load are the baseline."""
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

    def __init__(self, port: int, source: str):
        super().__init__(daemon=True)
        self.port = port
        self.source = source
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.failed = ""

    def run(self) -> None:
        from companion.bench.service import view_messages

        try:
            for at, message in view_messages(self.port, timeout=60, source=self.source):
                self.ready.set()  # the first view has come: the stream is open
                if message.get("entry"):
                    self.arrived[message["entry"]["seq"]] = at
        except Exception as exc:  # reported in the figures, never raised from a bench thread
            self.failed = f"{type(exc).__name__}: {exc}"
            self.ready.set()


def _measure(kind: str, clients: int, inputs: int) -> dict[str, Any]:
    from companion.bench.load import device
    from companion.service import Service
    from companion.web.app import create_app

    with tempfile.TemporaryDirectory() as data:
        service = Service(data)
        session = service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
        server = make_server(create_app(service), "127.0.0.1", 0, kind)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        watchers = [_Watcher(server.port, device(n)) for n in range(clients)]  # a device each
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


def _pin_holder(port: int, pin: str, rounds: int) -> dict[str, list[float | None]]:
    """A PIN-holder's page, state, command and new stream, timed ``rounds`` times (None: no answer)."""
    from companion.bench.load import first_stream_message, timed

    took: dict[str, list[float | None]] = {"page": [], "state": [], "command": [], "stream": []}
    for _ in range(rounds):
        took["page"].append(timed(port, "GET", "/")[0])
        took["state"].append(timed(port, "GET", "/api/state")[0])
        took["command"].append(timed(port, "POST", "/api/command", pin, {"kind": "ping", "data": {}})[0])
        took["stream"].append(first_stream_message(port))
    return took


def _said(times: list[float | None]) -> str:
    answered = [t * 1000 for t in times if t is not None]
    if not answered:
        return f"no answer in 10 s ({len(times)} of {len(times)})"
    late = len(times) - len(answered)
    return (f"p50 {statistics.median(answered):6.0f} ms, max {max(answered):6.0f} ms"
            + (f", {late} of {len(times)} unanswered in 10 s" if late else ""))


def _lockout(kind: str, args) -> None:
    from companion.bench.load import Demo, Streams, idle_connections
    from companion.web import streams as stream_caps

    with tempfile.TemporaryDirectory() as data:
        demo = Demo(kind, data)
        try:
            time.sleep(2)  # the demo's first frames (a bench: a pause, not a condition)
            quiet = _pin_holder(demo.port, demo.pin, args.rounds)
            idle = idle_connections(demo.port, args.idle)
            tablets = Streams(demo.port, args.streams)
            tablets.start()
            greedy = Streams(demo.port, stream_caps.PER_CLIENT + 2, first_device=5000, per_device=100)  # one device, over its cap
            greedy.start()
            time.sleep(3)  # every stream answered (or queued, on a server that queues them)
            loaded = _pin_holder(demo.port, demo.pin, args.rounds)
            threads, rss = demo.threads(), demo.rss_mib()
            refusal = greedy.refused[0] if greedy.refused else "none"
            print(f"{kind}: {len(idle)} of {args.idle} idle connections held, {tablets.opened} of {args.streams} "
                  f"streams open ({len(tablets.refused)} refused), one device asking {stream_caps.PER_CLIENT + 2} "
                  f"streams: {greedy.opened} open, refused {len(greedy.refused)} ({refusal[:160]!r}); "
                  f"server threads {threads}, RSS {rss:.0f} MiB")
            for what in quiet:
                print(f"    {what:<8} quiet: {_said(quiet[what])}   loaded: {_said(loaded[what])}")
            for sock in idle:
                sock.close()
            tablets.close()
            greedy.close()
        finally:
            demo.stop()


def cmd_bench_lockout(args) -> int:
    from companion.bench.service import machine

    print(f"lock-out: {args.idle} idle connections and {args.streams} event streams from the LAN (each stream its "
          f"own address), a PIN-holder's requests timed {args.rounds} times each before and during; "
          f"{machine()}, load {os.getloadavg()[0]:.2f}; target: every answer under 1 s", flush=True)
    for kind in args.servers:
        _lockout(kind, args)
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


def register_bench(bench_sub) -> None:
    server = bench_sub.add_parser("server", help="web servers with 30 open event streams: event and page latency "
                                                 "(--lockout: idle connections and streams against a PIN-holder)")
    server.add_argument("--clients", type=int, default=30)
    server.add_argument("--inputs", type=int, default=60)
    server.add_argument("--runs", type=int, default=3)
    server.add_argument("--servers", nargs="+", default=list(SERVERS), choices=SERVERS)
    server.add_argument("--lockout", action="store_true", help="measure lock-out instead (see --idle, --streams)")
    server.add_argument("--idle", type=int, default=500, help="--lockout: idle connections")
    server.add_argument("--streams", type=int, default=200, help="--lockout: open event streams")
    server.add_argument("--rounds", type=int, default=10, help="--lockout: timings of each PIN-holder request")
    server.set_defaults(func=lambda args: cmd_bench_lockout(args) if args.lockout else cmd_bench_server(args))
