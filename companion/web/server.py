"""The web server the dashboard runs on (`companion bench server`, in companion/bench/server.py, chose it).

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

import threading
from typing import Callable

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
