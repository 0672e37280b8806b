"""The web server the dashboard runs on, and `companion bench server`, which chose it.

A table's worth of tablets and phones (up to ~30) each hold one server-sent event stream open for
as long as they watch, so the server must give every open stream its own thread (or equivalent)
and flush each event as it is written. The candidates, all serving the same Flask app in the
service's own process (the camera, the readers and the SQLite writer live there, so forking
worker processes is not an option):

- ``waitress``: a production WSGI server (pure Python, on Debian as python3-waitress); a fixed pool
  of threads, sized here for 30 streams plus requests; it sends each event as it is yielded (since
  waitress 3 no ``send_bytes`` tuning is needed: `companion bench server` shows no event held back).
- ``werkzeug``: Werkzeug's threaded development server (a thread per connection, no limit).

gunicorn is not a candidate: it serves the app from worker processes its arbiter forks and signals,
while the app must share one process with the camera, readers and SQLite writer; run with one
worker it is a thread pool like waitress's, behind a process manager we do not need (systemd is).

`companion bench server` measures each with 30 open streams: the time from an input to its event
reaching all 30 clients, and page requests answered meanwhile. The figures and the choice are in
docs/benchmarks.md.
"""
from __future__ import annotations

import http.client
import os
import statistics
import tempfile
import threading
import time
from typing import Any, Callable

STREAM_THREADS = 64  # 30 streams + a burst of page and API requests, with room to spare
SERVERS = ("waitress", "werkzeug")
DEFAULT_SERVER = "waitress"


class Server:
    """A started-on-demand server: ``port`` once bound, ``serve_forever()``, ``shutdown()``."""

    def __init__(self, port: int, serve: Callable[[], None], shutdown: Callable[[], None]):
        self.port = port
        self.serve_forever = serve
        self.shutdown = shutdown


def make_server(app, host: str, port: int, kind: str = DEFAULT_SERVER) -> Server:
    """Bind ``host:port`` now (so a busy port fails here, before anything starts) and return the
    server, ready to ``serve_forever()``."""
    if kind == "waitress":
        from waitress.server import create_server

        server = create_server(app, host=host, port=port, threads=STREAM_THREADS,
                               connection_limit=200, channel_timeout=120, ident="table-companion")
        serve, shutdown = _waitress_loop(server)
        return Server(int(server.effective_port), serve, shutdown)
    if kind == "werkzeug":
        from werkzeug.serving import make_server as werkzeug_server

        server = werkzeug_server(host, port, app, threaded=True)
        return Server(server.server_port, server.serve_forever, server.shutdown)
    raise ValueError(f"unknown web server {kind!r}; choose one of {', '.join(SERVERS)}")


def _waitress_loop(server) -> tuple[Callable[[], None], Callable[[], None]]:
    """waitress's loop, stoppable from another thread: the loop itself closes the listening socket
    and every connection once asked (closing them from another thread while the loop polls them
    leaves the port listening)."""
    stop, running, done = threading.Event(), threading.Event(), threading.Event()

    def serve() -> None:
        running.set()
        try:
            while not stop.is_set():
                server.asyncore.loop(timeout=server.adj.asyncore_loop_timeout, map=server._map,
                                     use_poll=server.adj.asyncore_use_poll, count=1)
        finally:
            for channel in list(server._map.values()):
                channel.close()
            server.task_dispatcher.shutdown(timeout=2)
            done.set()

    def shutdown() -> None:
        stop.set()
        if done.is_set():  # the loop has ended already (Ctrl-C, SIGTERM in its thread)
            return
        if running.is_set():
            server.pull_trigger()  # wake the loop from its poll
            done.wait(10)
        else:  # bound but never served: nothing else holds the socket
            server.close()

    return serve, shutdown


# -- the benchmark ----------------------------------------------------------------------------------
class _Watcher(threading.Thread):
    """One tablet: holds /api/stream open and timestamps each logged entry (by seq) on arrival."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.failed = ""

    def run(self) -> None:
        from .bench import view_messages

        try:
            for at, message in view_messages(self.port, timeout=60):
                self.ready.set()  # the first view has come: the stream is open
                if message.get("entry"):
                    self.arrived[message["entry"]["seq"]] = at
        except Exception as exc:  # reported in the figures, never raised from a bench thread
            self.failed = f"{type(exc).__name__}: {exc}"
            self.ready.set()


def _measure(kind: str, clients: int, inputs: int) -> dict[str, Any]:
    from .app import create_app
    from .service import Service

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
    from .bench import percentile

    return percentile(values, p) if values else None


def cmd_bench_server(args) -> int:
    import logging

    from .bench import machine

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
