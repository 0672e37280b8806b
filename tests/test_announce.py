"""The table found by name: its mDNS/DNS-SD announcement, browsed for as a tablet's browser would."""
from __future__ import annotations

import threading
import time

import pytest

from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

from companion.pi.announce import SERVICE_TYPE, announce, table_name, terminal_qr


def test_a_table_name_is_a_dns_label():
    assert table_name("Club Table 3") == "club-table-3"
    assert table_name("  Ann's kitchen!! ") == "ann-s-kitchen"
    assert table_name("???") == "table"


@pytest.fixture
def no_event_loop_in_this_thread():
    """zeroconf's blocking calls refuse to run where an asyncio loop is running, and the session's
    shared Playwright (tests/browser.py) keeps one in this thread: end it first (the next browser
    test starts another)."""
    from tests import browser

    browser.close_shared()


@pytest.mark.usefixtures("no_event_loop_in_this_thread")
def test_the_table_is_announced_and_found_by_browsing():
    announced = announce(table_name("Test Table 7"), 8123, "127.0.0.1", interfaces=["127.0.0.1"])
    found: list[tuple[str, int, str, list[str]]] = []
    seen = threading.Event()

    class Listener(ServiceListener):
        def add_service(self, zc, kind, name):
            info = zc.get_service_info(kind, name, 5000)
            if info is not None and name.startswith("test-table-7."):
                found.append((name, info.port, info.server, info.parsed_addresses()))
                seen.set()

        def update_service(self, zc, kind, name):
            self.add_service(zc, kind, name)

        def remove_service(self, zc, kind, name):
            pass

    browser_zc = Zeroconf(interfaces=["127.0.0.1"])
    try:
        ServiceBrowser(browser_zc, SERVICE_TYPE, Listener())
        deadline = time.monotonic() + 60
        while not seen.wait(0.2):
            assert time.monotonic() < deadline, "the announcement was never found"
        name, port, server, addresses = found[0]
        assert (name, port, server) == ("test-table-7._http._tcp.local.", 8123, "test-table-7.local.")
        assert addresses == ["127.0.0.1"]
        assert announced.url == "http://test-table-7.local:8123/"
    finally:
        browser_zc.close()
        announced.close()


def test_the_banner_qr_code_is_drawn_in_the_terminal():
    drawn = terminal_qr("http://192.168.1.20:8080/")
    rows = drawn.splitlines()
    assert len(rows) > 10 and all(len(r) == len(rows[0]) for r in rows)
