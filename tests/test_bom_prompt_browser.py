"""Book of Mormon "Battle" on the tablet, in headless Chromium: at each phase of a battle the prompt
names who does what next (the seats still to lay, the seat whose play must change, whose turn it
is, who turns a POWER card face up, the seats of a mounting battle), never a seat that has done
it, as the referee's state has it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.service import Service
from tests.browser import TAP_ONLY, serving, shows_prompt
from tests.test_pages_browser import TABLET

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cal"}]
ANN, BEN, CAL = "Seat 1 (Ann)", "Seat 2 (Ben)", "Seat 3 (Cal)"
LOG = Path(__file__).parent / "logs" / "bom" / "basic-3-seats.jsonl"


@pytest.fixture
def table(request, tmp_path, browser):
    """A table of three with the options asked for; no resolve but the test's own."""
    service = Service(tmp_path / "data", **TAP_ONLY)
    service.start_game("bom-battle", SEATS, getattr(request, "param", {}))
    with serving(service) as url:
        page = browser.tab(TABLET)
        page.goto(url + "/")
        yield service, page


def lay(service, seat: int, *cards: str) -> None:
    for card in cards:
        service.session.submit("card_seen", {"zone": f"seat:{seat}", "card": f"{card}#1"}, "camera")


def resolve_and_collect(service) -> None:
    """The table resolves (as it does once the cards lie still); the cards are taken off the mat."""
    service.session.submit("resolve", {}, "auto")
    for key, zones in list(service.session.state.collecting.items()):
        for zone in list(zones):
            service.session.submit("card_gone", {"zone": zone, "card": key}, "camera")


@pytest.mark.parametrize("table", [{"mounting_battles": True}], indirect=True)
def test_the_prompt_names_the_seats_still_to_lay_then_the_one_to_fix_then_a_mounting_battle(table):
    service, page = table
    shows_prompt(page, service, "Battle 1", ANN, BEN, CAL, "lay your play")
    lay(service, 1, "GD500")
    shows_prompt(page, service, BEN, CAL, "lay your play", unsaid=(ANN,))
    lay(service, 2, "BD100")
    shows_prompt(page, service, CAL, unsaid=(ANN, BEN))
    lay(service, 3, "GO100", "GO200")  # two CHARACTER cards that do not make one play
    shows_prompt(page, service, CAL, "fix your play", unsaid=(ANN, BEN, "lay your play"))
    assert page.locator("[data-seat='3'] .problem").count() == 1, "the problem is shown under Cal's name"
    service.session.submit("card_gone", {"zone": "seat:3", "card": "GO200#1"}, "camera")
    shows_prompt(page, service, "everyone has played", unsaid=(ANN, BEN, CAL, "lay your play", "fix"))
    resolve_and_collect(service)
    shows_prompt(page, service, "Battle 2", ANN, BEN, CAL, "lay your play", unsaid=("everyone has played",))
    lay(service, 1, "GO500")
    lay(service, 2, "BO500")
    lay(service, 3, "GD100")
    service.session.submit("resolve", {}, "auto")  # Ann and Ben tie at 500: the battle mounts
    shows_prompt(page, service, "mounts", ANN, BEN, unsaid=(CAL,))
    lay(service, 1, "GO900")
    shows_prompt(page, service, BEN, unsaid=(ANN, CAL))


@pytest.mark.parametrize("table", [{"secret_weapon": True}], indirect=True)
def test_under_secret_weapon_the_prompt_follows_the_turns_and_the_reveals(table):
    service, page = table
    shows_prompt(page, service, f"{ANN}'s turn to play", unsaid=(BEN, CAL))
    lay(service, 1, "GD500")
    service.session.submit("face_down", {"seat": 1}, "dashboard")  # Ann's POWER card, face down
    shows_prompt(page, service, f"{BEN}'s turn to play", unsaid=(ANN, CAL))
    lay(service, 2, "BD800")
    shows_prompt(page, service, f"{CAL}'s turn to play", unsaid=(ANN, BEN))
    lay(service, 3, "GO100", "GD200")
    service.session.submit("face_down", {"seat": 3}, "dashboard")
    # every seat has laid: the face-down POWER cards are turned up in turn, Ann's first
    shows_prompt(page, service, ANN, "turn your POWER card face up", unsaid=(BEN, CAL, "turn to play"))
    lay(service, 1, "FAITH")
    shows_prompt(page, service, CAL, "turn your POWER card face up", unsaid=(ANN, BEN))
    lay(service, 3, "TITLE")
    shows_prompt(page, service, "everyone has played", unsaid=(ANN, BEN, CAL, "face up"))
    resolve_and_collect(service)
    shows_prompt(page, service, f"{BEN}'s turn to play", unsaid=(ANN, CAL))  # the next seat begins


def test_a_finished_game_names_its_winner_and_asks_for_nothing(tmp_path, browser):
    events = [json.loads(line) for line in LOG.read_text().splitlines() if line and not line.startswith("//")]
    start = events[0]["data"]
    service = Service(tmp_path / "data", **TAP_ONLY)
    session = service.start_game(start["game"], start["seats"], start["options"])
    for e in events[1:]:
        session.submit(e["kind"], e["data"], e["source"])
    view = session.public_view()
    winner = next(s["name"] for s in view["seats"] if s["seat"] == view["winner"])
    with serving(service) as url:
        page = browser.tab(TABLET)
        page.goto(url + "/")
        shows_prompt(page, service, winner, unsaid=("lay your play", "turn", "fix", "resolve"))
