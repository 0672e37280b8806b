"""`companion bench memory`: resident memory of `companion demo` while tablets watch it, on each
candidate web server in the same run (companion/web/server.py).

For each server: the demo plays (Book of Mormon, three simulated players), ``--streams`` tablets
hold the event stream open (each from its own address), one more tablet polls /api/state every
second. RSS is sampled every ``--interval`` seconds; the growth per minute is the least-squares
slope of the samples after ``--warmup`` minutes. Then the streams close and the RSS is taken
again after ``--settle`` seconds: what the server gave back. The first server listed is the
baseline the others are compared with; unless ``--no-baseline``, a first run of the demo on the
first server with no stream open shows what the demo itself grows by.
"""
from __future__ import annotations

import os
import tempfile
import threading
import time

from companion.bench.load import Demo, Streams, timed


def register(bench_sub) -> None:
    from companion.web.server import SERVERS

    memory = bench_sub.add_parser("memory", help="resident memory of `companion demo` with tablets streaming, "
                                                 "per web server: growth a minute, and given back when they close")
    memory.add_argument("--streams", type=int, default=50, help="tablets on the event stream (default 50)")
    memory.add_argument("--minutes", type=float, default=10.0, help="minutes with the streams open, per server")
    memory.add_argument("--warmup", type=float, default=1.0, help="minutes left out of the growth figure")
    memory.add_argument("--interval", type=float, default=5.0, help="seconds between samples")
    memory.add_argument("--settle", type=float, default=20.0, help="seconds after the streams close before the last sample")
    memory.add_argument("--servers", nargs="+", default=list(SERVERS), choices=SERVERS)
    memory.add_argument("--no-baseline", dest="baseline", action="store_false",
                        help="leave out the first run: the demo on the first server with no stream open")
    memory.set_defaults(func=cmd_memory)


def slope_per_minute(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MiB) samples, in MiB a minute."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_m = sum(m for _, m in samples) / n
    var = sum((t - mean_t) ** 2 for t, _ in samples)
    return 60 * sum((t - mean_t) * (m - mean_m) for t, m in samples) / var if var else 0.0


class _Poller(threading.Thread):
    """The tablet that polls instead of streaming: /api/state every second."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.answered = self.failed = 0

    def run(self) -> None:
        while not self.stop.wait(1.0):
            took, status = timed(self.port, "GET", "/api/state")
            if status == 200:
                self.answered += 1
            else:
                self.failed += 1


def measure(kind: str, args, tablets: int) -> dict:
    with tempfile.TemporaryDirectory() as data:
        demo = Demo(kind, data)
        try:
            time.sleep(3)  # the demo's first frames and battles (a bench: a pause, not a condition)
            before = demo.rss_mib()
            streams = Streams(demo.port, tablets)
            streams.start()
            poller = _Poller(demo.port)
            poller.start()
            samples: list[tuple[float, float]] = []
            start = time.monotonic()
            while (elapsed := time.monotonic() - start) < args.minutes * 60:
                samples.append((elapsed, demo.rss_mib()))
                print(f"  {kind:<13} {elapsed:6.0f} s  {samples[-1][1]:7.1f} MiB  threads {demo.threads():4d}  "
                      f"streamed {streams.bytes / 2**20:8.1f} MiB", flush=True)
                time.sleep(args.interval)
            peak = demo.rss_mib()
            poller.stop.set()
            streamed, opened, refused, ended = streams.bytes, streams.opened, len(streams.refused), streams.ended
            streams.close()
            time.sleep(args.settle)
            after = demo.rss_mib()
        finally:
            demo.stop()
    after_warmup = [s for s in samples if s[0] >= args.warmup * 60]
    return {"server": kind, "tablets": tablets, "before": before, "peak": peak, "after_close": after,
            "growth": slope_per_minute(after_warmup), "streamed_mib": streamed / 2**20, "opened": opened,
            "refused": refused, "ended_by_server": ended, "polls": poller.answered, "polls_failed": poller.failed}


def cmd_memory(args) -> int:
    from companion.bench.service import machine

    print(f"`companion demo` with {args.streams} tablets streaming and one polling, {args.minutes:g} min per server "
          f"(growth after {args.warmup:g} min of warm-up), servers {', '.join(args.servers)}; {machine()}, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    results = [measure(args.servers[0], args, 0)] if args.baseline else []
    results += [measure(kind, args, args.streams) for kind in args.servers]
    base = results[0]
    print(f"\nload {os.getloadavg()[0]:.2f} at the end; target: under 1 MiB a minute, and given back when the streams close")
    for r in results:
        ratio = "" if r is base else f" ({r['growth'] - base['growth']:+.2f} MiB/min against the first row)"
        print(f"{r['server']:<13} {r['tablets']:>3} streams: RSS {r['before']:6.1f} MiB before the streams, {r['peak']:6.1f} at the end, "
              f"{r['after_close']:6.1f} {args.settle:g} s after they closed; growth {r['growth']:+6.2f} MiB a minute"
              f"{ratio}; {r['opened']} of {r['tablets']} streams open, {r['refused']} refused, "
              f"{r['ended_by_server']} ended by the server; {r['streamed_mib']:.0f} MiB streamed; "
              f"polls answered {r['polls']}, failed {r['polls_failed']}")
    return 0
