"""Stratego on the tablet, in headless Chromium: at each phase the prompt begins with who does what
next (the side still scanning its army, the side to play, the defender to scan, the winner), never
a side that has done it, as the referee's state has it. (The prompt goes on to name both players'
colours and the rules in play, so a name's absence is checked in its first sentence.)"""
from __future__ import annotations

import pytest

from companion.service import Service
from tests.browser import TAP_ONLY, serving, shows_prompt
from tests.test_pages_browser import TABLET
from tests.test_stratego_support import army, key


@pytest.fixture
def table(tmp_path, browser):
    service = Service(tmp_path / "data", **TAP_ONLY)
    service.start_game("stratego", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], {})
    with serving(service) as url:
        page = browser.tab(TABLET)
        page.goto(url + "/")
        yield service, page


def first_sentence(prompt: str) -> str:
    return prompt.split(". ")[0]


def step(page, service, starts: str, *unsaid: str) -> str:
    """The prompt shown begins with ``starts``; its first sentence says none of ``unsaid``."""
    prompt = shows_prompt(page, service)
    assert prompt.startswith(starts), (starts, prompt)
    for words in unsaid:
        assert words not in first_sentence(prompt), (words, prompt)
    return prompt


def scan(service, zone: str, card: str) -> None:
    service.session.submit("card_seen", {"zone": zone, "card": card}, "camera")


def fight(service, attacker: str, defender: str) -> None:
    """Both pieces scanned in the tray, then back on the board (the camera sees them go)."""
    scan(service, "tray", attacker)
    scan(service, "tray", defender)
    for card in (attacker, defender):
        service.session.submit("card_gone", {"zone": "tray", "card": card}, "camera")


def test_the_prompt_follows_the_armies_the_turns_an_attack_and_the_end(table):
    service, page = table
    prompt = step(page, service, "Ann (Red): scan your 40 pieces")
    assert "Ben (Blue): scan your 40 pieces" in prompt, "both armies are still to scan"
    for card in army("red"):
        scan(service, "seat:1", card)
    step(page, service, "Ben (Blue): scan your 40 pieces", "Ann (Red)")
    for card in army("blue"):
        scan(service, "seat:2", card)
    step(page, service, "Ann (Red) to play, turn 1", "Ben", "scan your 40")
    service.session.submit("move", {"seat": 1}, "dashboard")  # Ann moved a piece: a tap
    step(page, service, "Ben (Blue) to play, turn 2", "Ann")
    scan(service, "tray", key("blue", "10"))  # Ben's Marshal attacks...
    step(page, service, "Blue's attacker is scanned: scan the Red defender", "to play")
    scan(service, "tray", key("red", "2"))  # ...Ann's Scout, and wins
    for card in (key("blue", "10"), key("red", "2")):
        service.session.submit("card_gone", {"zone": "tray", "card": card}, "camera")
    step(page, service, "Ann (Red) to play, turn 3", "Ben", "attacker is scanned")
    fight(service, key("red", "S"), key("blue", "10"))  # the Spy defeats the Marshal
    step(page, service, "Ben (Blue) to play, turn 4", "Ann")
    fight(service, key("blue", "3"), key("red", "F"))  # a Blue Miner takes the Red Flag
    prompt = step(page, service, "Blue captured the Red Flag and wins", "to play", "scan")
    assert "The game is over." in prompt
