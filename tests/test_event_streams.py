"""The live view's event streams against what anyone on the table's network can do without the PIN:
open more streams than the server has threads, open too many from one device, or go silent
mid-stream. The PIN-holder's page and commands keep answering; a stream past a cap is refused with
a status and a sentence, never left hanging; a page whose stream went silent says it is
reconnecting and, once back, shows what it missed."""
from __future__ import annotations

import http.client
import json
import socket
import threading
from contextlib import contextmanager

import pytest

from companion.service import Service
from companion.web import streams
from companion.web.app import create_app
from companion.web.server import make_server
from tests.browser import chromium
from tests.timing import wait_for

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]


@contextmanager
def served(tmp_path, gate: streams.Gate | None = None):
    """The companion as `companion serve` runs it, on a free port: yields (service, app, port)."""
    service = Service(tmp_path)
    service.start_game("stratego", SEATS)
    app = create_app(service)
    if gate is not None:
        app.extensions["companion.streams"].gate = gate
    server = make_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield service, app, server.port
    finally:
        service.stop()
        server.shutdown()


class Tablet:
    """One device's event stream, from its own loopback address (each tablet has its own on the LAN)."""

    def __init__(self, port: int, address: str):
        self.sock = socket.socket()
        self.sock.bind((address, 0))
        self.sock.settimeout(60)  # only bounds a test that is failing anyway
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.received = b""

    def read_until(self, marker: bytes) -> bytes:
        while marker not in self.received:
            data = self.sock.recv(65536)
            if not data:
                break
            self.received += data
        return self.received

    def status(self) -> int:
        head = self.read_until(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1])

    def close(self) -> None:
        self.sock.close()


def pin_holder_answers(service, port: int) -> None:
    """The table's own tablet: its page, and a command with the PIN, are answered."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/")
    page = conn.getresponse()
    assert page.status == 200 and b"connection" in page.read()
    conn.request("POST", "/api/command", json.dumps({"kind": "resign", "data": {"seat": 2}}),
                 {"Content-Type": "application/json", "X-Table-PIN": service.pin})
    reply = conn.getresponse()
    assert reply.status == 200 and json.loads(reply.read())["ok"]
    conn.close()


def test_pages_and_commands_answer_with_more_streams_open_than_the_server_has_threads(tmp_path):
    """70 tablets watching (more than the 64 threads waitress had, each of which a stream held)."""
    with served(tmp_path) as (service, _, port):
        tablets = [Tablet(port, f"127.0.2.{1 + n // 7}") for n in range(70)]
        for tablet in tablets:
            assert tablet.status() == 200
            tablet.read_until(b"event: view")
        pin_holder_answers(service, port)
        for tablet in tablets:  # and every one of them sees the result
            tablet.read_until(b'"resign"')
            assert b'"resign"' in tablet.received
            tablet.close()


def test_past_its_cap_a_device_is_refused_a_stream_with_a_reason_while_the_page_answers(tmp_path):
    with served(tmp_path) as (service, _, port):
        mine = [Tablet(port, "127.0.3.1") for _ in range(streams.PER_CLIENT)]
        for tablet in mine:
            assert tablet.status() == 200
        one_more = Tablet(port, "127.0.3.1")
        assert one_more.status() == 429
        body = one_more.read_until(b"}")
        assert "live views of the table open" in json.loads(body.split(b"\r\n\r\n", 1)[1])["error"]
        other = Tablet(port, "127.0.3.2")  # another device is not affected
        assert other.status() == 200
        pin_holder_answers(service, port)
        mine[0].close()  # one page closed: this device may open one again
        wait_for(lambda: Tablet(port, "127.0.3.1").status() == 200, "a stream once one was closed")


def test_past_the_total_cap_a_stream_is_refused_with_a_reason_while_the_page_answers(tmp_path):
    with served(tmp_path, streams.Gate(per_client=2, total=3)) as (service, _, port):
        held = [Tablet(port, f"127.0.4.{n + 1}") for n in range(3)]  # three devices, one stream each
        assert [tablet.status() for tablet in held] == [200, 200, 200]
        refused = Tablet(port, "127.0.4.9")
        assert refused.status() == 503
        assert "most live views" in refused.read_until(b"}").decode()
        pin_holder_answers(service, port)


class FreezingProxy:
    """A Wi-Fi between the tablet and the Pi that can stop passing anything without closing a
    connection (``freeze``), and pass again (``thaw``)."""

    def __init__(self, port: int):
        self.target = port
        self.flowing = threading.Event()
        self.flowing.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        self.flowing.clear()

    def thaw(self) -> None:
        self.flowing.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while self.flowing.wait() and (data := source.recv(65536)):
                self.flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.listener.close()


@pytest.mark.slow  # a browser
def test_a_page_whose_stream_went_silent_says_it_is_reconnecting_and_shows_what_it_missed(tmp_path):
    """The Wi-Fi stops passing anything, without closing the connection: the page must not go on
    looking live. Once the Wi-Fi is back, it shows the result that came meanwhile."""
    with served(tmp_path) as (service, _, port), chromium() as browser:
        wifi = FreezingProxy(port)
        page = browser.tab({"width": 390, "height": 844})
        page.goto(f"http://127.0.0.1:{wifi.port}/")
        page.wait_for_selector("#game-title:has-text('Stratego')")
        assert page.is_hidden("#connection")
        wifi.freeze()
        page.wait_for_selector("#connection", state="visible")
        assert "Reconnecting" in page.inner_text("#connection")
        service.session.submit("resign", {"seat": 1})  # a result the page has not heard of
        wifi.thaw()
        page.wait_for_selector("#connection", state="hidden")
        page.wait_for_selector("#game-meta:has-text('Game over')")
        wifi.close()


def test_a_stream_the_table_stopped_feeding_ends_instead_of_looking_live(tmp_path, monkeypatch):
    """A threaded server's stream (werkzeug; Flask's test client here) whose reader fell 1,000
    changes behind is dropped by the session: it must end, so that its page reconnects and reads
    the view afresh, not go on sending the devices panel every second as if it were live."""
    import companion.rules
    from tests.tally_game import Tally

    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    service = Service(tmp_path)
    session = service.start_game("tally", SEATS)
    client = create_app(service).test_client()
    reply = client.get("/api/stream", buffered=False)
    chunks = iter(reply.response)
    assert next(chunks).startswith(b"event: view")  # the stream is open and subscribed
    for _ in range(1001):  # the reader stalls while the table goes on: its queue fills, and is dropped
        session.submit("score", {"seat": 1}, "dashboard")
    for chunk in chunks:  # what it still sends: nothing that says "live" (it ended on its own)
        assert b"event: devices" not in chunk, "the dropped stream went on as if it were live"
    reply.close()
    service.stop()


def test_a_server_whose_loop_ends_as_it_is_stopped_stops_without_an_error(tmp_path, monkeypatch):
    """Stopping the server wakes its loop; the loop may see the stop and close everything first (its poll
    ends every second on its own). Then the wake finds its socket closed: the stop still ends cleanly
    (it raised "Bad file descriptor" into whoever stopped the server, one run in a few hundred)."""
    from waitress.server import BaseWSGIServer

    service = Service(tmp_path)
    server = make_server(create_app(service), "127.0.0.1", 0)
    loop = threading.Thread(target=server.serve_forever, daemon=True)
    loop.start()
    wake = BaseWSGIServer.pull_trigger

    def wake_once_the_loop_has_ended(self):
        loop.join(60)  # the loop saw the stop on its own and closed its sockets, the wake's among them
        assert not loop.is_alive()
        wake(self)

    monkeypatch.setattr(BaseWSGIServer, "pull_trigger", wake_once_the_loop_has_ended)
    service.stop()
    server.shutdown()
    assert not loop.is_alive()
