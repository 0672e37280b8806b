"""BATTLECARDS WWII Pacific on the real dashboard in headless Chromium: the tablet (1280x800) shows the
battle, who fires, every shot, the odds and the VP race, and its buttons work; a phone (390x844) opened
with its seat's token shows its Reserve Hand and Kept Cards. Screenshots are saved in tmp_path."""
from __future__ import annotations

import time

import pytest

from companion.service import Service
from tests.browser import chromium, picture, revealed, serving
from tests.test_battlecards_game import _hidden, _to_a_battle

TABLET, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


@pytest.fixture
def site(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("battlecards-pacific", [{"seat": 1, "name": "Aiko"}, {"seat": 2, "name": "Bill"}])
    _to_a_battle(service)
    with serving(service) as url, chromium() as browser:
        yield service, url, browser


def test_the_tablet_shows_the_battle_and_its_odds(site, tmp_path):
    service, url, browser = site
    page = browser.tab(TABLET)
    page.goto(url + "/")
    page.wait_for_selector("#bp-board .bp-battle")
    state = service.session.state
    battle = state.battle
    card = service.session.ruleset.deck.card(battle.card)
    board = page.inner_text("#bp-board")
    assert card.name in board and "Fight on:" in board and "Victory points (40 to win)" in board
    assert f"Round {battle.round}" in board
    picture(page, path=str(tmp_path / "battlecards-tablet.jpg"), full_page=True)
    hidden = set().union(*_hidden(service).values())
    assert not any(k in page.content() for k in hidden)
    # A button, with the PIN: the tablet's first offer is taken, and the page shows what it decided.
    entries = len(service.session.derived.entries)
    page.fill("#pin", service.pin)
    page.click("#game-actions button >> nth=0")
    deadline = time.monotonic() + 60
    while len(service.session.derived.entries) == entries and time.monotonic() < deadline:
        page.wait_for_timeout(50)   # poll: the command travels through the page and the app
    logged = service.session.derived.entries
    assert len(logged) == entries + 1 and logged[-1].status == "applied"
    said = logged[-1].outcomes[-1]["say"]
    page.wait_for_function("(said) => document.getElementById('bp-board').innerText.includes(said)", arg=said)
    picture(page, path=str(tmp_path / "battlecards-tablet-after.jpg"), full_page=True)


def test_a_phone_shows_its_reserve_hand_and_kept_cards(site, tmp_path):
    service, url, browser = site
    seat = next(s for s, a in service.session.state.armies.items() if a.kept)
    page = browser.tab(PHONE)
    page.goto(url + "/seat/" + service.seat_token(service.session.game_id, seat))
    page.wait_for_selector("#reveal")
    assert page.locator("#bp-seat").count() == 0  # the hand shows only while its player holds the button
    army = service.session.state.armies[seat]
    deck = service.session.ruleset.deck
    with revealed(page):
        page.wait_for_selector("#bp-seat")
        text = page.inner_text("#bp-seat")
        assert "Your Reserve Hand" in text and "Your Kept Cards" in text
        for key in army.hand + army.kept:
            assert page.locator(f"#bp-seat [data-card='{key}']").count() == 1, deck.card(key).name
        picture(page, path=str(tmp_path / "battlecards-phone.jpg"), full_page=True)


def test_the_tablet_shows_both_theatres_piles_with_four_players(tmp_path):
    """Combining sets: "each player will draw from their own theatre's conflict deck at all times"; both
    discard piles lie face up, and the tablet names each."""
    import json

    from card_tags.catalog import DECKS
    from tests.test_battlecards_combined import HANDS, WESTERN

    deck = json.loads((DECKS / "battlecards-pacific.json").read_text())
    deck["cards"] += WESTERN
    path = tmp_path / "combined.json"
    path.write_text(json.dumps(deck))
    service = Service(tmp_path / "data")
    service.start_game("battlecards-pacific", [{"seat": n, "name": name} for n, name in
                                               ((1, "Gerd"), (2, "Bea"), (3, "Aiko"), (4, "Bill"))], deck=str(path))
    session = service.session
    for seat, keys in HANDS.items():
        for key in keys:
            assert session.submit("card_seen", {"zone": f"reader:{seat}", "card": key}).ok
        for key in keys[:3]:
            assert session.submit("card_seen", {"zone": f"seat:{seat}", "card": key, "face_down": True}).ok
    for zone, key in (("center", "WSPY#1"), ("center", "WREINF#1"), ("reader:2", "BSPIT#5"), ("reader:2", "BSPIT#6")):
        assert session.submit("card_seen", {"zone": zone, "card": key}).ok
    with serving(service) as url, chromium() as browser:
        page = browser.tab(TABLET)
        page.goto(url + "/")
        page.wait_for_selector("#bp-board .bp-pile[data-theatre='western']")
        assert "Pacific CONFLICT deck: 54 cards" in page.inner_text("#bp-board .bp-pile[data-theatre='pacific']")
        western = page.inner_text("#bp-board .bp-pile[data-theatre='western']")
        assert "Western European CONFLICT deck: 1 cards" in western and "top: Reinforcements" in western
        picture(page, path=str(tmp_path / "battlecards-four-players.jpg"), full_page=True)
