"""The dashboard as a tablet app, in a real browser: installable (manifest and icons), the screen
kept awake while a game runs, and the event stream back by itself after the connection drops,
with the results missed meanwhile shown."""
from __future__ import annotations

import json
import threading
import urllib.request

from companion.web.app import create_app
from companion.service import Service
from companion.web.server import make_server
from tests.browser import chromium, picture, serving

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]


def test_the_manifest_lets_a_tablet_add_the_dashboard_to_its_home_screen(tmp_path):
    service = Service(tmp_path)
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url)
        href = page.get_attribute("link[rel=manifest]", "href")
        with urllib.request.urlopen(url + href) as reply:
            assert reply.headers["Content-Type"].startswith("application/manifest+json")
            manifest = json.load(reply)
        assert manifest["display"] == "fullscreen" and manifest["start_url"] == "/"
        sizes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
        for icon in manifest["icons"]:  # every icon is a real PNG of its stated size
            with urllib.request.urlopen(url + icon["src"]) as reply:
                png = reply.read()
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]


def test_the_screen_is_kept_awake_while_a_game_runs_and_let_go_after(tmp_path):
    service = Service(tmp_path)
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_function("document.body.dataset.wakeLock === 'off'")  # no game: the screen may sleep
        session = service.start_game("stratego", SEATS)
        page.wait_for_function("['on', 'video'].includes(document.body.dataset.wakeLock)")
        # Taken through the Screen Wake Lock API where the browser offers it (127.0.0.1 is a secure origin).
        assert page.evaluate("'wakeLock' in navigator") and page.evaluate("document.body.dataset.wakeLock") == "on"
        session.submit("resign", {"seat": 2})
        page.wait_for_function("document.body.dataset.wakeLock === 'off'")


def test_the_stream_comes_back_after_a_drop_and_shows_what_was_missed(tmp_path):
    """The Pi restarts mid-game (a power blip): the tablet says it is reconnecting, and once the
    service is back it shows the result that came while it was away."""
    service = Service(tmp_path)
    server = make_server(create_app(service), "127.0.0.1", 0)
    port = server.port
    threading.Thread(target=server.serve_forever, daemon=True).start()
    service.start_game("stratego", SEATS)
    with chromium() as browser:
        page = browser.tab({"width": 390, "height": 844})
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("#game-title:has-text('Stratego')")
        assert page.is_hidden("#connection")
        service.stop()  # the service goes away: its event streams end, then its server
        server.shutdown()
        page.wait_for_selector("#connection", state="visible", timeout=60_000)
        assert "Reconnecting" in page.inner_text("#connection")
        service = Service(tmp_path)  # back, with the game from the log
        service.session.submit("resign", {"seat": 1})  # a result the tablet has not heard of
        server = make_server(create_app(service), "127.0.0.1", port)  # on the same address
        threading.Thread(target=server.serve_forever, daemon=True).start()
        page.wait_for_selector("#connection", state="hidden", timeout=60_000)
        page.wait_for_selector("#game-meta:has-text('Game over')", timeout=60_000)
        picture(page, path=str(tmp_path / "reconnected-phone.jpg"))
    service.stop()
    server.shutdown()
