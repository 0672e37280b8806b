"""The dashboard in headless Chromium: watching needs nothing, changing needs the PIN."""
import pytest

import companion.rules
from companion.service import Service
from tests.browser import chromium, serving
from tests.tally_game import Tally


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    service = Service(tmp_path / "data")
    service.start_game("tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    with serving(service) as url, chromium() as browser:
        yield service, url, browser.new_page()


def test_a_change_without_the_pin_is_refused_in_the_browser(site, tmp_path):
    service, url, page = site
    page.goto(url + "/history")
    page.click("#undo")
    page.wait_for_selector("#notice.error")
    assert "needs the table PIN" in page.inner_text("#notice")
    page.screenshot(path=str(tmp_path / "pin-refused.png"))
    assert [e["kind"] for e in service.session.history()] == ["start"]


def test_the_pin_typed_once_is_used_for_changes(site):
    service, url, page = site
    service.session.submit("score", {"seat": 1})
    page.goto(url + "/history")
    page.fill("#pin", service.pin)
    page.click("#undo")
    page.wait_for_selector("#notice.ok")
    assert service.session.state["points"]["1"] == 0
    page.wait_for_selector("tr.undone")


def test_an_illegal_play_shows_the_rulebooks_reason_and_changes_nothing(tmp_path):
    """"Faith: Multiply the original point value of any gold CHARACTER card under 1000 (100-900)
    by 10." Korihor is black: the tablet says why, and Resolve is refused with that reason."""
    service = Service(tmp_path / "data", settle_seconds=1e9)
    service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    session = service.session
    session.submit("card_seen", {"zone": "seat:1", "card": "BD800#1"}, "camera")  # Korihor, black 800
    session.submit("card_seen", {"zone": "seat:1", "card": "FAITH#1"}, "camera")
    session.submit("card_seen", {"zone": "seat:2", "card": "GO300#1"}, "camera")
    before = session.state
    with serving(service) as url, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        problem = page.wait_for_selector("article.seat[data-seat='1'] .problem")
        assert "Faith" in problem.inner_text() and "gold" in problem.inner_text()
        page.fill("#pin", service.pin)
        page.click("#resolve")
        page.wait_for_selector("#notice.error")
        assert "Faith" in page.inner_text("#notice")
        page.screenshot(path=str(tmp_path / "illegal-play.png"))
    assert session.state == before
