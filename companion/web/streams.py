"""The dashboard's live event streams (/api/stream): who may open one, and the fan-out feeding them.

Every tablet and phone watching the table holds one server-sent event stream open. ``Broadcast``
follows the game in play on one thread: each change's public view is encoded once and appended
to every open stream's small buffer, the devices panel once a second. A stream so costs a buffer,
not a server thread: hundreds of them leave the threads free for pages and commands
(companion/web/server.py, docs/benchmarks.md). A stream whose reader has stalled (more than
``STALL_BYTES`` unsent) is closed rather than dropped silently: its page sees the connection end,
says it is reconnecting, and reads the view afresh once back.

``Gate`` caps the streams open at once, per device and in all, and refuses one past a cap with an
HTTP status and a sentence (never a hang).
"""
from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import Counter
from typing import Any, Callable, Protocol

from companion.web.faces import ResultFaces
from companion.web.security import Refused

log = logging.getLogger(__name__)

PATH = "/api/stream"
PER_CLIENT = 8                # open at once from one address: a tablet with a few pages open
MAX_STREAMS = 400             # open at once from every device together
STALL_BYTES = 256 * 1024      # unsent bytes (about 30 views) after which a reader counts as stalled
DEVICES_EVERY_S = 1.0         # the devices panel, which is also the page's sign of life
RETRY_MS = 2000               # how soon a browser opens a stream again after it ended


def event(name: str, payload: Any) -> bytes:
    """One server-sent event."""
    return f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode()


class Gate:
    """Counts the open streams of each client; ``admit`` refuses one past a cap."""

    def __init__(self, per_client: int = PER_CLIENT, total: int = MAX_STREAMS):
        self.per_client = per_client
        self.total = total
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def admit(self, client: str) -> None:
        """Count a new stream from ``client``, or raise Refused (429, 503) saying why."""
        with self._lock:
            if self._open[client] >= self.per_client:
                raise Refused(429, f"this device already has {self.per_client} live views of the table open "
                                   f"(each open page holds one); close a page or tab and reload",
                              {"Retry-After": "5"})
            if sum(self._open.values()) >= self.total:
                raise Refused(503, f"the table is serving its most live views ({self.total}) at once; "
                                   f"this page will try again by itself", {"Retry-After": "5"})
            self._open[client] += 1

    def release(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]


class Sink(Protocol):
    """One open stream as the fan-out sees it (companion/web/server.py's connection)."""

    def push(self, data: bytes) -> bool:
        """Queue ``data``; False when the reader has stalled (the stream is then ended)."""

    def end(self) -> None:
        """Close the connection (from any thread)."""

    def wake(self) -> None:
        """Have the server send what was queued (called once per round, not per push)."""


class Broadcast:
    """The one subscription to the game in play, fanned out to every open stream."""

    def __init__(self, service):
        self.service = service
        self._lock = threading.Lock()
        self._sinks: set[Sink] = set()
        self._thread: threading.Thread | None = None
        self._latest: bytes | None = None   # the view to send first to a stream that opens
        self._stopped = threading.Event()
        self._faces = ResultFaces()          # the shown result's card faces, used by the fan-out thread only

    def open(self, sink: Sink) -> None:
        """Start feeding ``sink``: the current view first, then every change."""
        with self._lock:
            if self._latest is None:
                session = self.service.session
                self._latest = event("view", {"view": session.public_view() if session else None})
            sink.push(f"retry: {RETRY_MS}\n\n".encode() + self._latest)
            self._sinks.add(sink)
            if self._thread is None or not self._thread.is_alive():
                self._stopped.clear()
                self._thread = threading.Thread(target=self._run, name="event-streams", daemon=True)
                self._thread.start()
        sink.wake()

    def close(self, sink: Sink) -> None:
        with self._lock:
            self._sinks.discard(sink)

    def stop(self) -> None:
        """End every stream and the fan-out thread (the server is shutting down)."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(5)

    def _send(self, data: bytes, latest: bytes | None = None) -> None:
        with self._lock:
            if latest is not None:
                self._latest = latest
            sinks = list(self._sinks)
        stalled = [s for s in sinks if not s.push(data)]
        for sink in stalled:
            log.info("an event stream's reader stalled (over %d bytes unsent): closing it", STALL_BYTES)
            self.close(sink)
            sink.end()
        for wake in {s.wake for s in sinks}:
            wake()

    def _run(self) -> None:
        service = self.service
        followed, q, started = None, None, False
        next_devices = 0.0
        try:
            while not (service.stopping.is_set() or self._stopped.is_set()):
                if not started or service.session is not followed or (q is not None and q.full()):
                    # A new game, or the session dropped our queue (it was full), or the first
                    # round (a change may have come between a stream's first view and now).
                    if followed is not None and q is not None:
                        followed.unsubscribe(q)
                    new_game = started and service.session is not followed
                    followed, started = service.session, True
                    q = followed.subscribe() if followed is not None else None
                    view = followed.public_view() if followed is not None else None
                    faces = self._faces.of(followed, view)
                    message = {"view": view, "faces": faces, "new_game": True} if new_game else {"view": view, "faces": faces}
                    self._send(event("view", message), event("view", {"view": view, "faces": faces}))
                message = self._next(q)
                if message:
                    message = {**message, "faces": self._faces.of(followed, message.get("view"), message.get("entry"))}
                    self._send(event("view", message), event("view", {"view": message.get("view"), "faces": message["faces"]}))
                if time.monotonic() >= next_devices:
                    next_devices = time.monotonic() + DEVICES_EVERY_S
                    self._send(event("devices", service.devices()))
        except Exception:  # the streams end and reopen; nothing of the game is touched
            log.exception("the event streams' fan-out failed; ending every stream")
        finally:
            if followed is not None and q is not None:
                followed.unsubscribe(q)
            with self._lock:
                sinks, self._sinks, self._latest = list(self._sinks), set(), None
            for sink in sinks:
                sink.end()

    def _next(self, q: queue.Queue | None) -> dict[str, Any] | None:
        if q is None:
            self._stopped.wait(0.25)
            return None
        try:
            return q.get(timeout=0.25)
        except queue.Empty:
            return None


class Streams:
    """The app's event streams: the gate and the fan-out (``app.extensions["companion.streams"]``)."""

    def __init__(self, service, gate: Gate | None = None):
        self.gate = gate or Gate()
        self.broadcast = Broadcast(service)


def streams_of(app) -> Streams | None:
    return app.extensions.get("companion.streams")



def once(callback: Callable[[], None]) -> Callable[[], None]:
    """``callback``, run at most once however often (and from whichever thread) it is called."""
    lock = threading.Lock()
    done = []

    def run_once() -> None:
        with lock:
            if done:
                return
            done.append(True)
        callback()
    return run_once
