"""Battle on the real dashboard, in headless Chromium: the table page shows no hidden identity and
its buttons work; a player's phone page (opened with the seat's token) shows their own identity."""
from __future__ import annotations

import re

import pytest

from companion.service import Service
from tests.browser import chromium, revealed, serving
from tests.test_gt_battle_support import NAMES, identity_keys


@pytest.fixture
def site(tmp_path):
    service = Service(tmp_path / "data")
    session = service.start_game("gt-battle", [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)])
    for seat, key in enumerate(identity_keys("VHHV"), 1):
        session.submit("card_seen", {"zone": f"reader:{seat}", "card": key, "hidden": True}, "rfid")
    session.submit("card_seen", {"zone": "center", "card": "F3#1"}, "camera")
    with serving(service) as url, chromium() as browser:
        yield service, url, browser.new_page()


def test_the_table_page_keeps_identities_and_the_phone_shows_its_own(site):
    service, url, page = site
    page.goto(url + "/")
    page.wait_for_selector("#game-actions button")
    text = page.inner_text("body")
    assert "Ben drew from the deck" in text
    assert not re.search(r"SUPERHERO|VILLAIN|HERO#|VILLAIN#", text)

    page.fill("#pin", service.pin)
    page.click("text=Ben drew from the deck")
    page.wait_for_selector("text=Ben keeps all cards (no discard)")
    assert service.session.state.hands[2] == 13

    page.goto(url + "/seat/" + service.seat_token(service.session.game_id, 1))  # Ann's phone
    page.wait_for_selector("#reveal")
    assert "VILLAIN" not in page.inner_text("body")  # not until Ann holds the button
    with revealed(page):
        page.wait_for_selector(".big-name")
        assert page.inner_text(".big-name") == "VILLAIN"
        assert "cards in hand" in page.inner_text("body")
    page.wait_for_selector(".big-name", state="detached")
