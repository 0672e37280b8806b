"""BATTLECARDS on the tablet, in headless Chromium (issue 33): at each step of a battle the prompt names who does
what next, never something already done, as the state has it; the steps are cards the camera sees."""
from __future__ import annotations

import pytest

from companion.service import Service
from tests.battlecards_support import BY_ACTION
from tests.browser import chromium, serving, shows_prompt as shows

JAPAN_SIX = ("JZERO#1", "JAKAGI#1", "JGUARDS#1", "JVAL#1", "JKATE#1", "JDIV2#1")
US_SIX = ("UWILDCAT#1", "UENTERP#1", "UMAR1#1", "UDAUNTL#1", "UAVENGER#1", "UMAR2#1")


@pytest.fixture
def table(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("battlecards-pacific", [{"seat": 1, "name": "Aiko"}, {"seat": 2, "name": "Bill"}])
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url + "/")
        yield service, page


def test_the_prompt_follows_a_battle_step_by_step(table):
    service, page = table
    submit = service.session.submit
    misses = iter(BY_ACTION[1] + BY_ACTION[2] + BY_ACTION[3])   # every Defense here is 3 or more: they miss

    def turn_a_miss() -> None:
        assert submit("card_seen", {"zone": "center", "card": next(misses)}, "camera").ok

    shows(page, service, "Setup", "Aiko (0/6 drawn, 0/3 deployed), Bill (0/6 drawn, 0/3 deployed)")
    for seat, keys in ((1, JAPAN_SIX), (2, US_SIX)):
        for key in keys:
            assert submit("card_seen", {"zone": f"reader:{seat}", "card": key}, "rfid").ok
        for key in keys[:3]:
            assert submit("card_seen", {"zone": f"seat:{seat}", "card": key, "face_down": True}, "rfid").ok
    shows(page, service, "Aiko (Japan): draw a CONFLICT card", unsaid=("Setup", "Bill"))
    assert submit("card_seen", {"zone": "center", "card": "PEARL#1"}, "camera").ok
    shows(page, service, "Pearl Harbor: Aiko (Japan), flip your Air and Sea stacks face up to fight this battle",
          unsaid=("draw a CONFLICT card", "fires"))
    assert submit("card_seen", {"zone": "seat:1", "card": "JZERO#1"}, "camera").ok      # Aiko flips: she fights
    shows(page, service, "Round 1, phase 1: Aiko fires. A6M Zero fires at F4F Wildcat (the only target)",
          unsaid=("flip", "fight this battle"))
    turn_a_miss()
    shows(page, service, "Round 1, phase 1: Bill fires. F4F Wildcat fires at A6M Zero", unsaid=("Aiko fires",))
    turn_a_miss()
    shows(page, service, "Round 1, phase 2: Aiko fires. IJN Akagi fires at USS Enterprise (CV-6) (the likeliest to be "
                         "destroyed)", "Aiko taps another target first", unsaid=("phase 1", "Bill fires"))
    turn_a_miss()
    shows(page, service, "Round 1, phase 2: Bill fires. USS Enterprise (CV-6) fires at", unsaid=("Aiko fires",))
    turn_a_miss()
    shows(page, service, "Withdrawal phase: Aiko, then Bill, tap to withdraw", "turn the next CONFLICT card",
          unsaid=("fires",))
    for key in ("JZERO#1", "JAKAGI#1"):      # Aiko picks her units up: withdrawn
        assert submit("card_gone", {"zone": "seat:1", "card": key}, "camera").ok
    shows(page, service, "Bill (the US): draw a CONFLICT card", unsaid=("Withdrawal", "Aiko"))
    assert service.session.state.armies[2].won == ["PEARL#1"]
