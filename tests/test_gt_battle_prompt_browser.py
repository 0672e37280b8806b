"""Gather Together "Battle" on the tablet, in headless Chromium: at each phase of a short game the
prompt names who does what next (never something already done), as the state has it."""
from __future__ import annotations

import pytest

from companion.service import Service
from tests.browser import chromium, serving, shows_prompt as shows
from tests.test_gt_battle_support import NAMES, identity_keys


@pytest.fixture
def table(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("gt-battle", [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)], {"target": 1})
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url + "/")
        yield service, page


def test_the_prompt_follows_a_short_game_phase_by_phase(table):
    service, page = table
    submit = service.session.submit
    shows(page, service, "Ann (seat 1)", "flip the first discard")
    for seat, key in enumerate(identity_keys("VHHV"), 1):
        submit("card_seen", {"zone": f"reader:{seat}", "card": key, "hidden": True}, "rfid")
    shows(page, service, "flip the first discard", unsaid=("Ann (seat 1)", "identity"))
    submit("card_seen", {"zone": "center", "card": "F3#1"}, "camera")
    # building: Ben (left of the dealer) draws; Fight 3 on top could be taken, so the tablet asks
    shows(page, service, "Ben (seat 2): draw from the deck or take the top discard", unsaid=("flip",))
    page.fill("#pin", service.pin)
    page.click("text=Ben drew from the deck")
    page.wait_for_selector("text=Ben (seat 2) draws from the deck.")  # the tap is applied (the page is told)
    shows(page, service, "Ben (seat 2): discard one card", unsaid=("draw",))
    submit("card_seen", {"zone": "center", "card": "SKIP#1"}, "camera")  # Cy is skipped
    # SKIP on top cannot be taken: Dee's draw needs no tap
    shows(page, service, "Dee (seat 4): draw from the deck, then discard", unsaid=("Ben", "Cy", "tap which"))
    submit("card_seen", {"zone": "center", "card": "BATTLE#1"}, "camera")  # Dee drew the BATTLE card
    shows(page, service, "Dee (seat 4)", unsaid=("draw", "discard"))
    assert service.session.public_view()["phase"] == "battle"
    submit("pass", {"seat": 4}, "dashboard")
    shows(page, service, "Ann (seat 1)", unsaid=("Dee",))
    submit("confirm_count", {"seat": 1, "cards": 0}, "dashboard")  # Ann's fight cards are gone
    submit("card_seen", {"zone": "center", "card": identity_keys("V")[0]}, "camera")  # she goes out
    # both Villains reach the target together: the tie-break, and the round told seat by seat
    shows(page, service, "Tie-break", "Ann (seat 1), Dee (seat 4)", unsaid=("New round", "discard"))
    page.wait_for_selector("#result-terms li")
    assert page.inner_text("#result-terms").count("+1") == 2  # "all the Villains score a point"
    page.click("#result-details summary")
    assert "world domination" in page.inner_text("#result-details")
    submit("tiebreak_draw", {"seat": 1, "card": "save"}, "dashboard")
    shows(page, service, "Tie-break", "Dee (seat 4)", unsaid=("Ann",))
    submit("tiebreak_draw", {"seat": 4, "card": "eliminate"}, "dashboard")
    shows(page, service, "Ann (seat 1) wins the game!", unsaid=("Tie-break", "draw"))
