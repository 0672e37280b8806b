"""`companion bench hub --tables 50`: simulated tables playing through a real Mosquitto to a hub.

Each table is a real Service with a Stratego game whose players make moves (each move a result),
publishing through its own HubPublisher; one hub subscribes. Midway the broker is restarted and
one table's link to it is cut for a while. Prints messages per second through the broker, the
result-to-hub latency (p50/p95), and results lost or duplicated: every result in every table's
own log must be at the hub exactly once.
"""
from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .broker import Broker
from .publisher import HubPublisher
from .server import Hub, wait_until


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
                               f"max_queued_messages 100000\n")
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


def run(tables: int, moves: int, folder: Path) -> dict:
    from ..service import Service

    broker = Broker_(folder)
    broker.start()
    hub = Hub(Broker.parse(f"mqtt://127.0.0.1:{broker.port}"), folder / "hub")
    hub.start()
    hub.connected.wait(30)
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
    started = time.perf_counter()
    for move in range(moves):
        if move == moves // 3:
            broker.stop()   # the broker restarts while the tables play on
            broker.start()
        if move == moves // 2:
            link.cut()      # table t0 loses its network for a while
        if move == (2 * moves) // 3:
            link.mend()
        for service in services:
            service.session.submit("move", {"seat": 1 + move % 2})
        time.sleep(0.02)
    expected = {f"t{n}": [(s.session.game_id, e["seq"]) for e in s.session.history()
                          if e["status"] == "applied" and e["outcomes"]] for n, s in enumerate(services)}
    complete = lambda: all(_held(hub, t) == want for t, want in expected.items())  # noqa: E731
    wait_until(complete, 300, step=0.5)
    elapsed = time.perf_counter() - started
    held = {t: _held(hub, t) for t in expected}
    lost = sum(len(set(want) - set(held[t])) for t, want in expected.items())
    results = hub.store.results()
    latencies = sorted((r["received"] - r["sent"]) * 1000 for r in results if r.get("sent"))
    published = sum(s.hub.published for s in services)
    for service in services:
        service.stop()
    hub.stop()
    broker.stop()
    return {"tables": tables, "results": sum(len(w) for w in expected.values()), "lost": lost,
            "duplicated": sum(len(h) - len(set(h)) for h in held.values()), "messages": published,
            "elapsed": elapsed, "p50": statistics.median(latencies), "p95": latencies[int(0.95 * (len(latencies) - 1))]}


def _held(hub: Hub, table: str) -> list[tuple[int, int]]:
    return [(r["game_id"], r["seq"]) for r in hub.store.results(table) if r["kind"] == "result"]


def _scan_armies(session) -> None:
    from card_tags.games.stratego import ARMY

    for seat, colour in ((1, "R"), (2, "B")):
        for rank, (_, count) in ARMY.items():
            for copy_no in range(1, count + 1):
                session.submit("card_seen", {"zone": f"seat:{seat}", "card": f"{colour}{rank}#{copy_no}"}, "camera")


def cmd_bench_hub(args) -> int:
    from ..bench import machine

    with tempfile.TemporaryDirectory() as folder:
        figures = run(args.tables, args.moves, Path(folder))
    print(f"hub with {figures['tables']} tables through a real mosquitto; {machine()}, load {os.getloadavg()[0]:.2f}")
    print(f"results: {figures['results']}, messages published: {figures['messages']} in {figures['elapsed']:.1f} s "
          f"({figures['messages'] / figures['elapsed']:.0f}/s)")
    print(f"result -> hub latency: p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms "
          f"(a broker restart and a table's outage included: their results wait for the link)")
    print(f"lost across the broker restart and the outage: {figures['lost']}; duplicated at the hub: {figures['duplicated']}")
    return 1 if figures["lost"] or figures["duplicated"] else 0


def register_bench(bench_sub) -> None:
    hub = bench_sub.add_parser("hub", help="simulated tables through a real mosquitto to a hub: throughput, latency, losses")
    hub.add_argument("--tables", type=int, default=50)
    hub.add_argument("--moves", type=int, default=30, help="results each table produces")
    hub.set_defaults(func=cmd_bench_hub)
