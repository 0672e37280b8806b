"""The load a table's network can put on the dashboard, for `companion bench memory` and
`companion bench server --lockout`: `companion demo` on a chosen web server in a process of its
own, tablets holding event streams (each from its own loopback address, as each tablet has its own
on the LAN), idle connections, and a PIN-holder's page and command timed meanwhile.

Every client talks to 127.0.0.0/8 only, and every loop is bounded in count and time.
"""
from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

# The demo's command line, with the web server replaced by the one measured (a bench's choice,
# beyond the choices `companion demo --server` offers).
_LAUNCH = ("import sys, companion.web.server as s; kind = sys.argv[1]; make = s.make_server; "
           "s.make_server = lambda app, host, port, _kind='waitress': make(app, host, port, kind); "
           "from companion.cli import main; sys.exit(main(sys.argv[2:]))")


def device(n: int) -> str:
    """The loopback address of the n-th simulated device (127.0.0.1 is the PIN-holder's)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


class Demo:
    """`companion demo` on ``kind``, in its own process, until ``stop()``."""

    def __init__(self, kind: str, data: str, pace: float = 0.3):
        self.kind = kind
        self.proc = subprocess.Popen([sys.executable, "-c", _LAUNCH, kind, "demo", "--data", data, "--port", "0",
                                      "--host", "127.0.0.1", "--pace", str(pace)],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        found = re.search(r":(\d+)/\s+Table PIN: (\S+)", line)
        if not found:
            self.stop()
            raise RuntimeError(f"the demo on {kind} did not start: {line!r}")
        self.port, self.pin = int(found.group(1)), found.group(2)

    def rss_mib(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024

    def threads(self) -> int:
        return int(re.search(r"Threads:\s+(\d+)", Path(f"/proc/{self.proc.pid}/status").read_text()).group(1))

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


class Streams(threading.Thread):
    """``count`` tablets on /api/stream, ``per_device`` from each address, all read by one thread
    (the bench must not be the bottleneck)."""

    def __init__(self, port: int, count: int, first_device: int = 0, per_device: int = 1):
        super().__init__(daemon=True)
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.bytes = 0
        self.opened = 0
        self.refused: list[str] = []   # the first line of each refusal
        self.ended = 0                 # streams the server closed
        self._halt = threading.Event()
        self._heads: dict[socket.socket, bytes] = {}
        for n in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((device(first_device + n // per_device), 0))
            sock.settimeout(30)
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            sock.setblocking(False)
            self._heads[sock] = b""
            self.selector.register(sock, selectors.EVENT_READ)

    def run(self) -> None:
        while not self._halt.is_set() and self.selector.get_map():
            for key, _ in self.selector.select(timeout=0.2):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    self.ended += 1
                    self.selector.unregister(sock)
                    sock.close()
                    continue
                self.bytes += len(data)
                if sock in self._heads:
                    head = self._heads.pop(sock) + data
                    if head.startswith(b"HTTP/1.1 200") or head.startswith(b"HTTP/1.0 200"):
                        self.opened += 1
                    else:
                        self.refused.append(head.split(b"\r\n", 1)[0].decode() + " " +
                                            head.rpartition(b"\r\n\r\n")[2].decode(errors="replace"))

    def close(self) -> None:
        self._halt.set()
        self.join(10)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()


def idle_connections(port: int, count: int, first_device: int = 1000, per_device: int = 100) -> list[socket.socket]:
    """``count`` connections that send nothing, ``per_device`` from each address (those refused
    at once by a per-address cap are counted by the caller as closed)."""
    held = []
    for n in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((device(first_device + n // per_device), 0))
        sock.settimeout(10)
        try:
            sock.connect(("127.0.0.1", port))
        except OSError:
            sock.close()
            continue
        held.append(sock)
    return held


def timed(port: int, method: str, path: str, pin: str = "", body: dict | None = None,
          timeout: float = 10.0) -> tuple[float | None, int | None]:
    """A PIN-holder's request from 127.0.0.1: (seconds to the whole answer or None, status)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"X-Table-PIN": pin, "Content-Type": "application/json"} if pin else {}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        reply = conn.getresponse()
        reply.read()
        return time.perf_counter() - started, reply.status
    except OSError:
        return None, None
    finally:
        conn.close()


def first_stream_message(port: int, timeout: float = 10.0) -> float | None:
    """Seconds until a PIN-holder's new stream delivers its first view (None: not within timeout)."""
    started = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            seen = b""
            while b"event: view" not in seen:
                data = sock.recv(65536)
                if not data:
                    return None
                seen += data
            return time.perf_counter() - started
    except OSError:
        return None
