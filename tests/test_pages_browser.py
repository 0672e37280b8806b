"""Every page as a table of players uses it, in headless Chromium: a 10-inch tablet (1280x800) and
phones (390x844), for every game the registry offers (a game added later is covered
without touching this file). Screenshots land in the test's tmp folder; open them to look."""
from __future__ import annotations

import re
from contextlib import ExitStack
from pathlib import Path

import pytest

import companion.pi.announce
import companion.rules
from companion.service import Service
from tests.browser import PHONE, TABLET, TAP_ONLY, hold_pin, picture, revealed, serving

GAMES = companion.rules.available()
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
# Each page and what shows once its script has drawn it.
PAGES = {"/": "#seats article", "/history": ".chapter", "/setup": "#options .option", "/devices": "#health .check",
         "/tags": "h1", "/catalog": "h1", "/calibration": "h1", "seat": "#seat-view .seat, #seat-view .panel"}


def seats(game: str) -> list[dict]:
    n = companion.rules.ruleset_class(game).min_seats
    return [{"seat": i, "name": NAMES[i - 1]} for i in range(1, n + 1)]


def play_a_little(game: str, session) -> None:
    """Some play of the three games on main, so the pages show results, not only a start."""
    if game == "bom-battle":
        session.submit("card_seen", {"zone": "seat:1", "card": "GO300#1"}, "camera")  # Lachoneus 300
        session.submit("card_seen", {"zone": "seat:2", "card": "BD800#1"}, "camera")  # Korihor 800
        assert session.submit("resolve", {}).ok
        session.submit("card_seen", {"zone": "seat:1", "card": "GO500#1"}, "camera")  # battle 2 begins
    elif game == "stratego":
        from tests.test_stratego_support import army
        for seat, colour in ((1, "red"), (2, "blue")):
            for card in army(colour):
                session.submit("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera")
        session.submit("card_seen", {"zone": "tray", "card": "R3#1"}, "camera")  # a Miner attacks
        session.submit("card_seen", {"zone": "tray", "card": "BB#1"}, "camera")  # a Bomb
    elif game == "gt-battle":
        from tests.test_gt_battle_support import identity_keys
        for seat, key in enumerate(identity_keys("VHHV"), 1):
            session.submit("card_seen", {"zone": f"reader:{seat}", "card": key, "hidden": True}, "rfid")
        session.submit("card_seen", {"zone": "center", "card": "F3#1"}, "camera")


def serve_table(game: str, data: Path, stack: ExitStack):
    """A served companion with the game in play (a little played) and the earlier game before it."""
    service = Service(data, **TAP_ONLY)
    service.start_game(game, seats(game))  # an earlier game, for the History page
    session = service.start_game(game, seats(game))
    play_a_little(game, session)
    return game, service, stack.enter_context(serving(service))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The module's tables, one per game, served from the first test that reads one to the module's
    end: tests that only read share them (a table made and served once, not once per test)."""
    tables: dict = {}
    with ExitStack() as stack, pytest.MonkeyPatch.context() as patch:
        patch.setattr(companion.pi.announce, "lan_address", lambda: "192.168.1.50")

        def table_of(game: str):
            if game not in tables:
                tables[game] = serve_table(game, tmp_path_factory.mktemp(game) / "data", stack)
            return tables[game]
        yield table_of


@pytest.fixture
def table(request, served):
    """The game's shared table, for a test that only reads it (never submits, starts or swaps a part;
    earlier tests may have put seat 1 on a phone, and open_page releases it for a new one)."""
    return served(request.param)


@pytest.fixture
def own_table(request, tmp_path, monkeypatch):
    """A table of the test's own, for a test that changes it (plays, starts a game, swaps a part)."""
    monkeypatch.setattr(companion.pi.announce, "lan_address", lambda: "192.168.1.50")
    with ExitStack() as stack:
        yield serve_table(request.param, tmp_path / "data", stack)


def open_page(browser, url, path, viewport, service, page=None):
    """A tab holding the table's PIN, on ``path`` once its script has drawn it. Given ``page`` (a tab
    from an earlier call, at this viewport), that tab goes there instead: a test looking at every page
    visits them in turn in one tab, as a person would, rather than starting a browser tab per page."""
    if page is None:
        page = browser.tab(viewport)
        hold_pin(page, url, service.pin)
    assert page.viewport_size == viewport
    if path == "seat":  # a new phone for seat 1: the table releases the seat for it first
        service.room.release(service.session.game_id, 1)
        path = "/seat/" + service.seat_token(service.session.game_id, 1)
    page.goto(url + path)
    page.wait_for_selector(PAGES["seat" if path.startswith("/seat/") else path])
    # The table's line of game details (#game-meta) waits for the list of games (app.js's games())
    # and is drawn in a later task than the rest: wait for that list, then for one more task.
    page.evaluate("async () => { await gamesList; await new Promise((done) => setTimeout(done)); }")
    return page


# The pages are laid out by their style sheet alone: no script reads the window's width, so a page drawn
# at a tablet's width and then turned to a phone's lays out as it would loaded there. The accessibility
# pass (test_accessibility_browser.py) turns each page of every game to the phones' widths so, reading
# axe-core's findings and whether the page scrolls sideways (reflow) at each.
def test_no_script_lays_a_page_out_by_the_windows_width():
    scripts = sorted(Path(__file__).parent.parent.joinpath("web", "static").rglob("*.js"))
    assert scripts
    for script in scripts:
        found = re.findall(r"innerWidth|outerWidth|clientWidth|offsetWidth|matchMedia|screen\.width|\bresize\b",
                           script.read_text())
        assert not found, f"{script.name} reads the width ({found}): load each width in the accessibility pass"


@pytest.mark.parametrize("table", GAMES, indirect=True)
def test_the_table_says_who_does_what_next_with_the_options_in_words(table, browser, tmp_path):
    game, service, url = table
    for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page = open_page(browser, url, "/", viewport, service)
        prompt = page.locator("#prompt")
        assert prompt.is_visible() and prompt.inner_text().strip() == service.session.public_view()["prompt"]
        top = prompt.bounding_box()["y"]
        assert top < viewport["height"] / 2, f"the prompt starts {top} px down on the {name}"
        meta = page.inner_text("#game-meta")
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", meta), f"code words in {meta!r}"
        # the phone's bar stays a bar: the page begins within the top ~80 px
        assert page.locator("main").bounding_box()["y"] < 90
        picture(page, path=str(tmp_path / f"{game}-{name}-table.jpg"), full_page=True)
        page.close()


@pytest.mark.parametrize("table", ["stratego"], indirect=True)
def test_stratego_shows_the_colours_and_the_chosen_tie_rule(table, browser):
    _, service, url = table
    page = open_page(browser, url, "/", TABLET, service)
    assert page.inner_text("#seats article[data-seat='1'] .badge.colour") == "Red"
    assert page.inner_text("#seats article[data-seat='2'] .badge.colour") == "Blue"
    assert "Ties: both removed" in page.inner_text("#game-meta")
    assert "Red seat: Ann" in page.inner_text("#game-meta")


@pytest.mark.parametrize("table", ["warriors"], indirect=True)
def test_the_first_player_is_named_not_numbered(table, browser):
    """Warriors' "first" option is a seat (Option(seat=True)), though its name does not end in "_seat": the
    header names the player ("First player: Ann"), as it does every game's seat options (it said "1")."""
    _, service, url = table
    page = open_page(browser, url, "/", TABLET, service)
    assert "First player: Ann" in page.inner_text("#game-meta")


@pytest.mark.parametrize("own_table", ["bom-battle"], indirect=True)
def test_the_result_box_names_its_battle_and_steps_back_when_the_next_begins(own_table, browser, tmp_path):
    _, service, url = own_table
    page = open_page(browser, url, "/", TABLET, service)
    # Battle 2 has begun (a card is down): the box still tells battle 1, marked as the previous one.
    page.wait_for_selector("#result.stale")
    assert page.inner_text("#result-label").upper() == "BATTLE 1 (PREVIOUS)"
    assert "Korihor" in page.inner_text("#result-say")
    picture(page, path=str(tmp_path / "stale-result.jpg"))
    service.session.submit("card_seen", {"zone": "seat:2", "card": "BD600#1"}, "camera")
    service.session.submit("resolve", {})
    page.wait_for_selector("#result:not(.stale)")
    assert page.inner_text("#result-label").upper() == "BATTLE 2"


@pytest.mark.parametrize("own_table", ["bom-battle"], indirect=True)
def test_without_a_game_the_table_offers_no_game_buttons(own_table, browser):
    _, service, url = own_table
    service.session = None
    page = browser.tab(TABLET)
    page.goto(url + "/")
    page.wait_for_selector("#seats a[href='/setup']")
    for button in ("#resolve", "#undo", "#seat-links"):
        assert not page.locator(button).is_visible()


@pytest.mark.parametrize("own_table", ["stratego"], indirect=True)  # no seat on a phone yet: the shared table's are
def test_seat_codes_show_in_view_by_name_and_link_to_the_pis_lan_address(own_table, browser, tmp_path):
    """The names are listed; a code shows only for the name tapped, one seat at a time."""
    _, service, url = own_table
    page = open_page(browser, url, "/", PHONE, service)  # opened as 127.0.0.1, as a tablet may be
    page.click("#seat-links")
    page.wait_for_selector("#seat-names .seat-name")
    page.wait_for_function("(() => { const r = document.querySelector('#seat-codes').getBoundingClientRect();"
                           " return r.top >= 0 && r.top < innerHeight; })()")
    assert page.locator("#seat-names .seat-name").all_inner_texts() == ["Ann", "Ben"]
    assert page.locator("#seat-codes figure").count() == 0  # no code until a name is tapped
    page.click("#seat-names li[data-seat='1'] .seat-name")
    page.wait_for_selector("#seat-codes figure")
    assert page.locator("#seat-codes figcaption b").all_inner_texts() == ["Ann"]
    src = page.get_attribute("#seat-codes figure[data-seat='1'] img", "src")
    port = url.rsplit(":", 1)[1]
    assert f"http%3A%2F%2F192.168.1.50%3A{port}%2Fseat%2F" in src and "127.0.0.1" not in src
    picture(page, path=str(tmp_path / "seat-codes-phone.jpg"))


@pytest.mark.parametrize("table", GAMES, indirect=True)
def test_the_private_seat_page_shows_its_own_facts_without_the_tables_controls(table, browser, tmp_path):
    game, service, url = table
    page = open_page(browser, url, "seat", PHONE, service)
    assert page.locator("nav").count() == 0 and page.locator("#pin").count() == 0
    assert "New game" not in page.inner_text("body")
    assert page.inner_text("#seat-title").startswith("Ann")
    picture(page, path=str(tmp_path / f"{game}-seat-phone.jpg"), full_page=True)


@pytest.mark.parametrize("table", ["stratego"], indirect=True)
def test_a_stratego_phone_shows_its_own_colour(table, browser):
    _, service, url = table
    page = open_page(browser, url, "seat", PHONE, service)
    assert "Red" in page.inner_text("#seat-view article.seat")  # a colour is no secret: shown unasked
    with revealed(page):
        assert "Red" in page.inner_text("#seat-view .own")


@pytest.mark.parametrize("own_table", ["stratego"], indirect=True)
def test_the_new_game_form_fits_the_game_and_speaks_in_words(own_table, browser, tmp_path):
    _, service, url = own_table
    page = open_page(browser, url, "/setup", TABLET, service)
    page.select_option("#game", "bom-battle")
    page.click("#add-player")  # three for Book of Mormon, then back to Stratego
    page.select_option("#game", "stratego")
    assert page.locator("#players input").count() == 2  # "Stratego is a game for two players"
    assert page.is_disabled("#add-player")
    page.locator("#players input").nth(0).fill("Ann")
    page.locator("#players input").nth(1).fill("Ben")
    ties = page.locator("select[name='ties'] option").all_inner_texts()
    assert ties == ["Both removed", "Attacker wins"]
    assert page.locator("select[name='red_seat'] option").all_inner_texts() == ["Ann (seat 1)", "Ben (seat 2)"]
    box = page.locator("input[name='rescue']").bounding_box()
    assert box["width"] >= 28 and box["height"] >= 28  # finger-sized
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", page.inner_text("#options"))
    page.select_option("select[name='red_seat']", label="Ben (seat 2)")
    page.select_option("select[name='ties']", label="Attacker wins")
    picture(page, path=str(tmp_path / "setup-stratego.jpg"), full_page=True)
    page.click("button[type=submit]")
    page.wait_for_url(url + "/")
    start = service.session.derived.start
    assert start["options"]["red_seat"] == 2 and start["options"]["ties"] == "attacker_wins"
    assert [s["name"] for s in start["seats"]] == ["Ann", "Ben"]


@pytest.mark.parametrize("table", ["bom-battle"], indirect=True)
def test_history_lists_battles_with_sightings_folded_and_earlier_games(table, browser, tmp_path):
    _, service, url = table
    page = open_page(browser, url, "/history", PHONE, service)
    battle = page.locator(".chapter", has_text="Battle 1")
    assert "Korihor" in battle.inner_text()
    assert battle.locator("summary").inner_text() == "2 camera or reader sightings"
    assert not battle.locator(".sightings ul").is_visible()  # folded until tapped
    assert page.locator(".chapter.open summary").inner_text() == "1 camera or reader sighting"
    picture(page, path=str(tmp_path / "history-phone.jpg"), full_page=True)
    earlier = service.session.game_id - 1
    page.click(f"#past-games a[href='/history?game={earlier}']")
    page.wait_for_selector(".chapter")
    assert "(earlier game)" in page.inner_text("#history-title")
    assert page.locator(".chapter").count() == 1 and page.is_hidden("#undo")  # only its start
    assert page.locator("#history-seats article").count() == 2  # its standings
    with page.expect_download() as download:
        page.click("#export")
    assert download.value.suggested_filename == f"game-{earlier}.jsonl"


@pytest.mark.parametrize("table", ["bom-battle"], indirect=True)
def test_an_export_without_the_pin_is_refused(table, browser):
    _, service, url = table
    page = browser.tab(PHONE)
    page.goto(url + "/history")
    page.wait_for_selector(".chapter")
    page.click("#export")
    page.wait_for_selector("#notice.error")
    assert "PIN" in page.inner_text("#notice")


@pytest.mark.parametrize("table", ["gt-battle"], indirect=True)
def test_resolve_shows_only_in_the_phases_that_take_it(table, browser):
    """Gather Together takes Resolve in its battle phase only: not while the cards are dealt or
    while a player draws."""
    _, service, url = table
    page = open_page(browser, url, "/", TABLET, service)
    assert service.session.public_view()["phase"] != "battle"
    page.wait_for_function("document.querySelector('#game-meta').textContent.length > 0")
    assert page.is_hidden("#resolve") and page.is_visible("#undo")


class QuietCamera:
    """A camera that has had no error yet, as the scan pipeline reports it."""

    def stats(self):
        return {"state": "running", "fps": 15.0, "last_error": "", "last_error_at": None}

    def stop(self):
        pass


@pytest.mark.parametrize("own_table", ["bom-battle"], indirect=True)
def test_the_devices_page_never_says_null(own_table, browser):
    _, service, url = own_table
    service.pipeline = QuietCamera()
    page = open_page(browser, url, "/devices", PHONE, service)
    page.wait_for_selector("#camera dt")
    camera = page.inner_text("#camera")
    assert "running" in camera and "null" not in camera and "last error" not in camera


@pytest.mark.parametrize("table", ["gt-battle"], indirect=True)
def test_the_new_game_form_offers_the_game_in_play_and_its_players(table, browser):
    _, service, url = table
    page = open_page(browser, url, "/setup", PHONE, service)
    assert page.input_value("#game") == "gt-battle"
    assert [i.input_value() for i in page.locator("#players input").all()] == ["Ann", "Ben", "Cy", "Dee"]
    assert page.locator("select[name='first_dealer'] option").all_inner_texts()[:2] == ["Ann (seat 1)", "Ben (seat 2)"]
