"""Warriors on the real dashboard, in headless Chromium, at tablet (1280x800) and phone (390x844)
size: the table shows the Challenge's running points term by term, the round's order, the decks
and no face-down card; its buttons work; a player's phone shows the hand as scanned and the
face-down cards. Screenshots are saved in the test's tmp dir."""
from __future__ import annotations

import pytest

from companion.service import Service
from tests.browser import chromium, picture, revealed, serving
from tests.test_warriors_secrets import BEN_HAND, face_up, reader, tray
from tests.test_warriors_support import key_of

ANN_HAND = ["Moroni", "Abinadi", "Lehi", "Sword", "Faith: Steadfast", "Arrow"]


@pytest.fixture
def site(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("warriors", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cy"}])
    for i, name in enumerate(ANN_HAND):
        reader(service, 1, name, f"04A1{i:04d}")
    for name in BEN_HAND:
        tray(service, name)
    for i, name in enumerate(["Nephi", "Sam", "Jacob", "Plates", "Prayer", "Liahona"]):
        reader(service, 3, name, f"04C1{i:04d}")
    face_up(service, 1, "Moroni"), reader(service, 1, "Helaman", "04A10010")
    face_up(service, 2, "Laman"), tray(service, "Amlici")
    face_up(service, 3, "Nephi"), reader(service, 3, "Enos", "04C10010")
    reader(service, 1, "Sword", "04A10003"), reader(service, 1, "Gid", "04A10011")
    tray(service, "Lib"), tray(service, "Morianton")
    reader(service, 3, "Plates", "04C10003"), reader(service, 3, "Ether", "04C10011")
    reader(service, 1, "Faith: Steadfast", "04A10004"), reader(service, 1, "Gideon", "04A10012")
    service.session.submit("call", {"seat": 1})
    tray(service, "Wickedness: Greed"), tray(service, "Shared")
    reader(service, 3, "Prayer", "04C10004"), reader(service, 3, "Omner", "04C10012")
    assert service.session.public_view()["step"] == "challenge"
    with serving(service) as url, chromium() as browser:
        yield service, url, browser


def test_the_tablet_shows_the_challenge_term_by_term_and_no_face_down_card(site, tmp_path):
    service, url, browser = site
    page = browser.tab({"width": 1280, "height": 800})
    page.goto(url + "/")
    page.wait_for_selector("#wr-order")
    page.fill("#pin", service.pin)
    page.click("text=Ann challenges Ben")
    page.wait_for_selector("[data-wr-side='2']")
    service.session.submit("card_seen", {"zone": "seat:1", "card": key_of("Sword")}, "camera")
    service.session.submit("card_seen", {"zone": "seat:2", "card": key_of("Lib")}, "camera")
    page.wait_for_selector("[data-wr-side='2'] li >> text=Lib")
    ann = page.inner_text("[data-wr-side='1']")
    assert "Ann (challenger)" in ann and "Moroni: +3" in ann and "Sword: +2 (weapon)" in ann and "5" in ann
    assert "turns a card next" in ann
    # one Resolve: Warriors offers 'Decide the Challenge' when it would be taken (the page hides its own
    # once it has read the game's declarations, which it fetches: wait for that, not for a time)
    page.wait_for_selector("#resolve", state="hidden")
    assert "Laman: +2" in page.inner_text("[data-wr-side='2']")
    order = page.inner_text("#wr-order")
    assert "Ann challenges" in order and "Ben defends" in order and "Cy to battle" in order
    assert "Warrior deck" in page.inner_text("article.seat[data-seat='3']")
    assert page.locator("article.seat[data-seat='1'] .card.wr-down").count() == 1
    picture(page, path=str(tmp_path / "warriors-tablet.jpg"), full_page=True)
    text = page.content()
    for name in ("Faith: Steadfast", "Wickedness: Greed", "Abinadi", "Prayer"):
        assert name not in text, name
    for key in (key_of("Faith: Steadfast"), key_of("Wickedness: Greed"), key_of("Prayer")):
        assert key not in text


def test_the_phone_shows_the_hand_as_scanned_and_the_face_down_cards(site, tmp_path):
    service, url, browser = site
    page = browser.tab({"width": 390, "height": 844})
    page.goto(url + "/seat/" + service.seat_token(service.session.game_id, 1))
    page.wait_for_selector("#reveal")
    assert "Abinadi" not in page.inner_text("body")  # the hand shows only while Ann holds the button
    with revealed(page):
        page.wait_for_selector(".wr-hand")
        body = page.inner_text("#seat-view")
        arrow = page.inner_text(f"div.card[data-card='{key_of('Arrow')}']")   # the hand's card, not its drawn face
        face_down = page.locator("article.seat .card.wr-down").count()
        picture(page, path=str(tmp_path / "warriors-phone.jpg"), full_page=True)
    assert "Your hand as scanned (6)" in body
    for name in ("Abinadi", "Lehi", "Arrow", "Helaman", "Gid", "Gideon"):
        assert name in body, name
    assert face_down == 2 and "Warrior deck" in body
    assert "Your face-down cards" in body and "Faith: Steadfast" in body and "Sword" in body
    assert "Secondary cards need to have at least one icon" in arrow
    assert "Wickedness: Greed" not in body and "Prayer" not in body


def test_the_game_over_box_names_the_games_winner_not_the_last_challenges(tmp_path):
    """The tablet's "Game over" box once a game is stopped after a Challenge: it names who won the
    game, never the last Challenge's winner."""
    from companion.gamelog.session import open_store
    from tests.test_warriors_game import stopped_after_a_challenge

    store = open_store(tmp_path / "data")
    store.begin_game("warriors", stopped_after_a_challenge().log())
    store.close()
    service = Service(tmp_path / "data")
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url + "/")
        page.wait_for_selector("#result-label >> text=Game over")
        said = page.inner_text("#result-say")
        assert said == "The game is stopped: Ann has the most Warrior cards and wins the game."
        assert "won the Challenge" not in said
        picture(page, path=str(tmp_path / "warriors-game-over.jpg"))
