"""`companion bench hub --tables 50`: simulated tables playing through a real Mosquitto to a hub.

Each table is a real Service with a Stratego game whose players make moves (each move a result),
publishing through its own HubPublisher; one hub subscribes, in a process of its own as
``companion hub`` runs (``--hub-in-process``: in the bench's process, sharing one interpreter lock
with every simulated table). Tables report on a schedule: every table in the same instant every
``--period`` (``--clock together``, the worst case) or each at its own moment of the period
(``--clock own``, as separate Pis). Midway the broker is restarted and one table's link to it is
cut for a while. Prints messages per second through the broker, the result-to-hub latency
(p50/p95) from the table's publication and from its log, and results lost or duplicated: every
result in every table's own log must be at the hub exactly once.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from companion.hub.broker import Broker
from companion.hub.publisher import HubPublisher
from companion.hub.server import Hub, wait_until
from companion.hub.store import HubStore


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker_:
    """A mosquitto of the bench's own on a loopback port."""

    def __init__(self, folder: Path):
        self.port = _free_port()
        self.config = folder / "mosquitto.conf"
        self.config.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                               f"max_queued_messages 100000\nset_tcp_nodelay true\n")  # as docs/hub.md advises
        self.proc = None

    def start(self) -> None:
        self.proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


class Link(threading.Thread):
    """A TCP relay to the broker that can be cut (a table's Wi-Fi going away) and mended."""

    def __init__(self, target_port: int):
        super().__init__(daemon=True)
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = threading.Event()
        self.up.set()
        self.conns: list[socket.socket] = []
        self.start()

    def run(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if not self.up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while chunk := a.recv(65536):
                b.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        self.up.clear()
        for conn in self.conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conns.clear()

    def mend(self) -> None:
        self.up.set()


class HubRunner:
    """The hub under test: in a process of its own, as ``companion hub`` runs on a club's laptop, or
    (``in_process``) in the bench's own process, sharing one interpreter lock with every table."""

    def __init__(self, url: str, data_dir: Path, in_process: bool = False):
        self.hub = self.proc = None
        if in_process:
            self.hub = Hub(Broker.parse(url), data_dir)
            self.hub.start()
            self.hub.connected.wait(30)
            self.store = self.hub.store
            return
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        self.ready, self.stopping = context.Event(), context.Event()
        self.proc = context.Process(target=_serve_hub, args=(url, str(data_dir), self.ready, self.stopping),
                                    daemon=True)
        self.proc.start()
        if not self.ready.wait(60):
            raise RuntimeError("the hub did not start")
        self.store = HubStore(data_dir / "hub.db")  # a reader of the hub's database

    def held(self, table: str) -> list[tuple[int, int]]:
        return [(r["game_id"], r["seq"]) for r in self.store.results(table) if r["kind"] == "result"]

    def stop(self) -> None:
        if self.hub is not None:
            self.hub.stop()
            return
        self.store.close()
        self.stopping.set()
        self.proc.join(30)


def _serve_hub(url: str, data_dir: str, ready, stopping) -> None:
    hub = Hub(Broker.parse(url), Path(data_dir))
    hub.start()
    hub.connected.wait(30)
    ready.set()
    stopping.wait()
    hub.stop()


def schedule(tables: int, moves: int, period: float, clock: str, seed: int = 1) -> list[tuple[float, int, int]]:
    """(seconds from the start, move, table) of every move. ``together``: every table reports in the
    same instant, every ``period`` (the worst case); ``own``: each table on its own clock, at its own
    moment of the period, drifting a little from one move to the next, as separate Pis do."""
    rng = random.Random(seed)
    phase = [0.0 if clock == "together" else rng.uniform(0, period) for _ in range(tables)]
    out = []
    for n in range(tables):
        at = phase[n]
        for move in range(moves):
            out.append((at, move, n))
            at += period if clock == "together" else period * rng.uniform(0.9, 1.1)
    return sorted(out)


def run(tables: int, moves: int, folder: Path, clock: str = "together", period: float = 0.2,
        hub_in_process: bool = False) -> dict:
    from companion.service import Service

    broker = Broker_(folder)
    broker.start()
    hub = HubRunner(f"mqtt://127.0.0.1:{broker.port}", folder / "hub", hub_in_process)
    link = Link(broker.port)
    services = []
    for n in range(tables):
        service = Service(folder / f"t{n}")
        session = service.start_game("stratego", [{"seat": 1, "name": f"P{2 * n}"}, {"seat": 2, "name": f"P{2 * n + 1}"}])
        _scan_armies(session)
        port = link.port if n == 0 else broker.port
        service.hub = HubPublisher(service, Broker.parse(f"mqtt://127.0.0.1:{port}"), f"t{n}")
        service.hub.start()
        services.append(service)
    wait_until(lambda: all(hub.held(f"t{n}") for n in range(tables)), 120)  # the armies' results are in
    started = wall_started = time.perf_counter()
    began = time.time()
    faults = {moves // 3: "restart", moves // 2: "cut", (2 * moves) // 3: "mend"}
    steady_until = None
    for at, move, n in schedule(tables, moves, period, clock):
        fault = faults.pop(move, None)
        if fault:
            before = time.perf_counter()
            if fault == "restart":
                steady_until = time.time()  # results before this crossed a broker that stayed up
                broker.stop()   # the broker restarts while the tables play on
                broker.start()
            else:
                (link.cut if fault == "cut" else link.mend)()  # table t0 loses its network for a while
            started += time.perf_counter() - before  # the schedule resumes where it stood
        delay = started + at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        services[n].session.submit("move", {"seat": 1 + move % 2})
    played = time.perf_counter() - wall_started
    expected = {f"t{n}": [(s.session.game_id, e["seq"]) for e in s.session.history()
                          if e["status"] == "applied" and e["outcomes"]] for n, s in enumerate(services)}
    complete = lambda: all(hub.held(t) == want for t, want in expected.items())  # noqa: E731
    wait_until(complete, 300, step=0.5)
    elapsed = time.perf_counter() - wall_started
    held = {t: hub.held(t) for t in expected}
    lost = sum(len(set(want) - set(held[t])) for t, want in expected.items())
    moved = [r for r in hub.store.results() if r.get("sent") and r["ts"] >= began]  # the play, not the setup
    published = sum(s.hub.published for s in services)
    for service in services:
        service.stop()
    hub.stop()
    broker.stop()
    steady = [r for r in moved if r["sent"] < (steady_until or float("inf"))]
    return {"tables": tables, "clock": clock, "period": period, "hub_in_process": hub_in_process,
            "results": sum(len(w) for w in expected.values()), "lost": lost,
            "duplicated": sum(len(h) - len(set(h)) for h in held.values()), "messages": published,
            "elapsed": elapsed, "played": played, "moves": len(moved),
            "whole": _spread(moved, "sent"), "steady": _spread(steady, "sent"), "logged": _spread(steady, "ts")}


def _spread(results: list[dict], since: str) -> dict[str, float]:
    """p50 and p95, in ms, from each result's ``since`` (sent: published by the table; ts: logged
    at the table) to its arrival at the hub."""
    ms = sorted((r["received"] - r[since]) * 1000 for r in results)
    return {"p50": statistics.median(ms), "p95": ms[int(0.95 * (len(ms) - 1))]} if ms else {"p50": 0.0, "p95": 0.0}


def _scan_armies(session) -> None:
    from card_tags.games.stratego import ARMY

    for seat, colour in ((1, "R"), (2, "B")):
        for rank, (_, count) in ARMY.items():
            for copy_no in range(1, count + 1):
                session.submit("card_seen", {"zone": f"seat:{seat}", "card": f"{colour}{rank}#{copy_no}"}, "camera")


def cmd_bench_hub(args) -> int:
    from companion.bench.service import machine

    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        figures = run(args.tables, args.moves, Path(folder), args.clock, args.period, args.hub_in_process)
    where = "in the bench's own process" if args.hub_in_process else "in its own process"
    clock = ("every table in the same instant" if args.clock == "together"
             else "each table on its own clock")
    print(f"hub with {figures['tables']} tables through a real mosquitto, the hub {where}; {machine()}, "
          f"load {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"tables report {clock}, every {args.period * 1000:.0f} ms: {figures['moves']} results in "
          f"{figures['played']:.1f} s of play ({figures['moves'] / figures['played']:.0f}/s)")
    print(f"results: {figures['results']}, messages published: {figures['messages']} in {figures['elapsed']:.1f} s "
          f"({figures['messages'] / figures['elapsed']:.0f}/s)")
    for name, what in (("steady", "published -> hub, while the broker is up"),
                       ("logged", "logged at the table -> hub, while the broker is up"),
                       ("whole", "published -> hub, over the whole run (a broker restart and a table's outage "
                                 "wait for the link)")):
        print(f"result latency, {what}: p50 {figures[name]['p50']:.1f} ms, p95 {figures[name]['p95']:.1f} ms")
    print(f"lost across the broker restart and the outage: {figures['lost']}; duplicated at the hub: {figures['duplicated']}")
    return 1 if figures["lost"] or figures["duplicated"] else 0


def register_bench(bench_sub) -> None:
    hub = bench_sub.add_parser("hub", help="simulated tables through a real mosquitto to a hub: throughput, latency, losses")
    hub.add_argument("--tables", type=int, default=50)
    hub.add_argument("--moves", type=int, default=30, help="results each table produces")
    hub.add_argument("--clock", choices=("together", "own"), default="together",
                     help="together: every table reports in the same instant (the worst case); own: each table "
                          "on its own clock, as separate Pis")
    hub.add_argument("--period", type=float, default=0.2, help="seconds between a table's results (default 0.2)")
    hub.add_argument("--hub-in-process", action="store_true",
                     help="run the hub in the bench's process (sharing its interpreter lock with every table) "
                          "instead of a process of its own")
    hub.set_defaults(func=cmd_bench_hub)
