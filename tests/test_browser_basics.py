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
