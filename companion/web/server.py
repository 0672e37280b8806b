"""The web server the dashboard runs on (`companion bench server` and `companion bench memory`,
in companion/bench/, measured the candidates; the figures are in docs/benchmarks.md).

Every tablet and phone watching the table holds a server-sent event stream open for as long as it
watches, and anyone on the network may open streams and idle connections. The server must keep
pages and commands answering whatever they do, keep its memory flat while it streams, and refuse
what is too big at the door. The candidates serve the same Flask app in the service's own process
(the camera, the readers and the SQLite writer live there, so forked worker processes are out):

- ``waitress`` (the default): waitress's event loop and thread pool for pages and commands, with
  the event streams taken off its thread pool. A stream request is answered by the loop itself: the
  connection gets a small buffer that the one fan-out thread (companion/web/streams.py) fills, so
  a stream holds no thread, and no buffer of waitress's (whose buffers keep every byte of an
  endless response written in chunks over 8 KB until 16 MB: 9.5 MiB a minute with 5 tablets).
  Idle connections cost no thread either; the loop polls (no 1024-descriptor select limit).
- ``waitress-pool``: plain waitress, each stream holding a pool thread (what ran before; kept to
  measure against).
- ``werkzeug``: Werkzeug's threaded development server (a thread per connection, no limit).

Limits at the door, the same in every server: a body is at most ``security.MAX_BODY`` bytes,
refused on its Content-Length before it is read (waitress's own limit matches the app's, so no
server buffers more); at most ``CONNECTIONS`` connections, ``CONNECTIONS_PER_CLIENT`` of them
from one address; event streams capped per address and in all (companion/web/streams.py).
"""
from __future__ import annotations

import json
import logging
import resource
import threading
from collections import Counter
from typing import Callable

from companion.web import security, streams

POOL_THREADS = 32           # pages and commands only: a stream holds none (64 held 30 streams before)
POOL_THREADS_STREAMING = 64  # ``waitress-pool``: 30 streams + a burst of page and API requests
CONNECTIONS = 1000          # open at once; idle ones cost a socket and a buffer, no thread
CONNECTIONS_PER_CLIENT = 300  # from one address: no one device can take every connection
SERVERS = ("waitress", "waitress-pool", "werkzeug")
DEFAULT_SERVER = "waitress"

log = logging.getLogger(__name__)


class Server:
    """A started-on-demand server: ``port`` once bound, ``serve_forever()``, ``shutdown()``."""

    def __init__(self, port: int, serve: Callable[[], None], shutdown: Callable[[], None]):
        self.port = port
        self.serve_forever = serve
        self.shutdown = shutdown


def make_server(app, host: str, port: int, kind: str = DEFAULT_SERVER) -> Server:
    """Bind ``host:port`` now (so a busy port fails here, before anything starts) and return the
    server, ready to ``serve_forever()``."""
    if kind in ("waitress", "waitress-pool"):
        _raise_file_limit(CONNECTIONS + 100)
        adj = dict(host=host, port=port, connection_limit=CONNECTIONS, channel_timeout=120,
                   asyncore_use_poll=True, max_request_body_size=security.MAX_BODY + 1,  # it refuses >= this
                   ident="table-companion")
        if kind == "waitress-pool":
            from waitress.server import create_server

            server = create_server(app, threads=POOL_THREADS_STREAMING, **adj)
        else:
            server = _streaming_server(app, adj)
        serve, shutdown = _waitress_loop(server, streams.streams_of(app) if kind == "waitress" else None)
        return Server(int(server.effective_port), serve, shutdown)
    if kind == "werkzeug":
        from werkzeug.serving import make_server as werkzeug_server

        server = werkzeug_server(host, port, app, threaded=True)
        return Server(server.server_port, server.serve_forever, server.shutdown)
    raise ValueError(f"unknown web server {kind!r}; choose one of {', '.join(SERVERS)}")


def _raise_file_limit(wanted: int) -> None:
    """Each connection is a file descriptor; the usual soft limit (1024) would cap them first."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if target > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _streaming_server(app, adj: dict):
    """waitress, with /api/stream answered by its event loop (``_Channel``) instead of its pool."""
    from waitress.adjustments import Adjustments
    from waitress.channel import HTTPChannel
    from waitress.server import TcpWSGIServer
    from waitress.task import ErrorTask
    from waitress.utilities import RequestEntityTooLarge

    app_streams = streams.streams_of(app)

    class _ErrorTask(ErrorTask):
        """waitress's own refusals; a body over the limit is said as the app says it."""

        def execute(self):
            if not isinstance(self.request.error, RequestEntityTooLarge):
                return super().execute()
            self.status = "413 Request Entity Too Large"
            self.response_headers.append(("Content-Type", "application/json"))
            self.set_close_on_finish()
            body = json.dumps({"ok": False, "error": f"this request is over {security.MAX_BODY} bytes; "
                                                      f"a change is at most {security.MAX_BODY} bytes"}).encode()
            self.content_length = len(body)
            self.write(body)

    class _Channel(HTTPChannel):
        """One connection: waitress's, until it asks for the event stream; then ``stream`` serves it."""

        error_task_class = _ErrorTask
        stream: _Stream | None = None
        counted_as: str | None = None   # the address this connection counts against

        def __init__(self, server, sock, addr, adj, map=None):
            super().__init__(server, sock, addr, adj, map)
            client = _client(addr)
            if self.server.per_client[client] >= CONNECTIONS_PER_CLIENT:
                log.info("%s has %d connections open; closing its next ones", client, CONNECTIONS_PER_CLIENT)
                self.close()  # closed at once: no device can take every connection
                return
            self.server.per_client[client] += 1
            self.counted_as = client

        def readable(self):
            if self.stream is not None:  # read only to notice the page going away
                return not self.will_close
            return super().readable()

        def writable(self):
            if self.stream is not None:
                return self.will_close or self.stream.pending()
            return super().writable()

        def handle_read(self):
            if self.stream is None:
                return super().handle_read()
            self.recv(4096)  # a page sends nothing more on a stream; b"" (it left) closes the channel
            return None

        def handle_write(self):
            if self.stream is None:
                return super().handle_write()
            self.stream.flush()
            if self.will_close:
                self.handle_close()
            return None

        def handle_close(self):
            if self.stream is not None:
                self.stream.closed()
            super().handle_close()

        def close(self):
            if self.stream is not None:
                self.stream.closed()
            super().close()

        def del_channel(self, map=None):
            client = self.counted_as
            if client is not None:
                self.counted_as = None
                self.server.per_client[client] -= 1
                if self.server.per_client[client] <= 0:
                    del self.server.per_client[client]
            super().del_channel(map)

    class _Server(TcpWSGIServer):
        channel_class = _Channel

        def __init__(self, *args, **kwargs):
            self.per_client: Counter[str] = Counter()
            super().__init__(*args, **kwargs)

        def add_task(self, channel):
            request = channel.requests[0]
            if (app_streams is not None and request.error is None and request.command in ("GET", "HEAD")
                    and request.path == streams.PATH):
                _Stream(self, channel, request, app_streams).start()
            else:
                super().add_task(channel)

    adjustments = Adjustments(threads=POOL_THREADS, **adj)
    return _Server(app, map={}, adj=adjustments, sockinfo=adjustments.listen[0])


class _Stream:
    """The event stream on one waitress connection: a bounded buffer the fan-out fills (from its
    thread) and the event loop sends (from its own)."""

    def __init__(self, server, channel, request, app_streams: streams.Streams):
        self.server = server
        self.channel = channel
        self.request = request
        self.streams = app_streams
        self.client = _client(channel.addr)
        self._lock = threading.Lock()
        self._buffer = bytearray()
        self._ending = False     # close once the buffer is sent
        self._admitted = False
        self._closed = False
        self.wake = server.pull_trigger  # the same for every stream of a server: one wake a round

    def start(self) -> None:
        version = self.request.version if self.request.version in ("1.0", "1.1") else "1.1"
        self.channel.stream = self
        try:
            self.streams.gate.admit(self.client)
        except security.Refused as refused:
            body = json.dumps({"ok": False, "error": refused.message}).encode()
            headers = "".join(f"{k}: {v}\r\n" for k, v in refused.headers.items())
            self._queue_and_end(f"HTTP/{version} {refused.status} {_reason(refused.status)}\r\n"
                                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n{headers}"
                                f"Connection: close\r\n\r\n".encode() + body)
            return
        self._admitted = True
        head = (f"HTTP/{version} 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                f"X-Accel-Buffering: no\r\nServer: table-companion\r\nConnection: close\r\n\r\n").encode()
        if self.request.command == "HEAD":
            self._queue_and_end(head)
            return
        self.push(head)
        self.streams.broadcast.open(self)

    def _queue_and_end(self, data: bytes) -> None:
        self.push(data)
        self._ending = True
        self.wake()

    # -- the fan-out's side (any thread) ---------------------------------------------------------
    def push(self, data: bytes) -> bool:
        with self._lock:
            if self._closed:
                return True  # being closed already; the fan-out forgets it on close
            if len(self._buffer) + len(data) > streams.STALL_BYTES:
                return False
            self._buffer += data
            return True

    def end(self) -> None:
        self._ending = True
        with self._lock:
            self._buffer.clear()  # a stalled reader gets nothing more; the page reads afresh
        self.wake()

    # -- the event loop's side -------------------------------------------------------------------
    def pending(self) -> bool:
        with self._lock:
            return bool(self._buffer) or self._ending

    def flush(self) -> None:
        with self._lock:
            chunk = bytes(self._buffer[:self.channel.sendbuf_len])
        if chunk:
            sent = self.channel.send(chunk)
            if sent:
                with self._lock:
                    del self._buffer[:sent]
        with self._lock:
            if self._ending and not self._buffer:
                self.channel.will_close = True

    def closed(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._buffer = bytearray()
        self.streams.broadcast.close(self)
        if self._admitted:
            self.streams.gate.release(self.client)
        self.channel.requests = []


def _client(addr) -> str:
    return addr[0] if isinstance(addr, tuple) else str(addr)


def _reason(status: int) -> str:
    from http import HTTPStatus

    return HTTPStatus(status).phrase


def _waitress_loop(server, app_streams: streams.Streams | None) -> tuple[Callable[[], None], Callable[[], None]]:
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
            if app_streams is not None:
                app_streams.broadcast.stop()
            for channel in list(server._map.values()):
                channel.close()
            server.task_dispatcher.shutdown(timeout=2)
            done.set()

    def shutdown() -> None:
        stop.set()
        if done.is_set():  # the loop has ended already (Ctrl-C, SIGTERM in its thread)
            return
        if running.is_set():
            try:
                server.pull_trigger()  # wake the loop from its poll
            except OSError:  # the loop saw `stop` between the check above and here, and closed the trigger
                pass
            done.wait(10)
        else:  # bound but never served: nothing else holds the socket
            server.close()

    return serve, shutdown
