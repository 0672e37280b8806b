"""The dashboard in headless Chromium: watching needs nothing, changing needs the PIN."""
import pytest

import companion.rules
from companion.service import Service
from tests.browser import PHONE, TABLET, TAP_ONLY, chromium, hold_pin, picture, serving
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
    picture(page, path=str(tmp_path / "pin-refused.jpg"))
    assert [e["kind"] for e in service.session.history()] == ["start"]


def test_the_pin_typed_once_is_used_for_changes(site):
    service, url, page = site
    service.session.submit("score", {"seat": 1})
    page.goto(url + "/history")
    page.fill("#pin", service.pin)
    page.click("#undo")
    page.wait_for_selector("#notice.ok")
    assert service.session.state["points"]["1"] == 0
    page.wait_for_selector("li.chapter.undone")


def test_a_tab_lent_to_the_next_test_holds_nothing_of_the_last(site):
    """Tests reuse the tabs earlier tests gave back (tests/browser.py: a new one costs Chromium about
    0.9 s of CPU), emptied: no PIN held, no storage, no page. A change from one is refused, as from
    a tablet that never had the PIN."""
    service, url, _ = site
    with chromium() as browser:
        first = browser.tab(TABLET)
        hold_pin(first, url, service.pin)
        first.goto(url + "/history")
        first.evaluate("() => { localStorage.setItem('left', 'behind'); sessionStorage.setItem('left', 'behind'); }")
        first.set_viewport_size(PHONE)  # turned, as the phone-width test turns its tab
    with chromium() as browser:
        again = browser.tab(TABLET)
        assert again is first, "the tab given back is lent again"
        assert again.url == "about:blank" and again.context.cookies() == [] and again.viewport_size == TABLET
        again.goto(url + "/history")
        assert again.evaluate("localStorage.length + sessionStorage.length") == 0
        again.click("#undo")
        again.wait_for_selector("#notice.error")
        assert "needs the table PIN" in again.inner_text("#notice")
    assert [e["kind"] for e in service.session.history()] == ["start"]


def test_an_illegal_play_shows_the_rulebooks_reason_and_changes_nothing(tmp_path):
    """"Faith: Multiply the original point value of any gold CHARACTER card under 1000 (100-900)
    by 10." Korihor is black: the tablet says why, and Resolve is refused with that reason."""
    service = Service(tmp_path / "data", **TAP_ONLY)
    service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    session = service.session
    session.submit("card_seen", {"zone": "seat:1", "card": "BD800#1"}, "camera")  # Korihor, black 800
    session.submit("card_seen", {"zone": "seat:1", "card": "FAITH#1"}, "camera")
    session.submit("card_seen", {"zone": "seat:2", "card": "GO300#1"}, "camera")
    before = session.state
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url)
        problem = page.wait_for_selector("article.seat[data-seat='1'] .problem")
        assert "Faith" in problem.inner_text() and "gold" in problem.inner_text()
        page.fill("#pin", service.pin)
        page.click("#resolve")
        page.wait_for_selector("#notice.error")
        assert "Faith" in page.inner_text("#notice")
        picture(page, path=str(tmp_path / "illegal-play.jpg"))
    assert session.state == before


def test_a_new_game_is_set_up_from_the_tablet(tmp_path):
    """New game: choose the game, the players clockwise and the variants; the table then shows it."""
    service = Service(tmp_path / "data")
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(url + "/setup")
        page.fill("#pin", service.pin)
        page.select_option("#game", "stratego")
        # the seats are drawn once the page has the game's details: wait for Stratego's two
        page.wait_for_function("document.querySelectorAll('#players input').length === 2")
        inputs = page.query_selector_all("#players input")
        inputs[0].fill("Ann")
        inputs[1].fill("Ben")
        page.select_option("select[name='reveal']", label="Defeated or scout")
        picture(page, path=str(tmp_path / "setup.jpg"))
        page.click("button[type=submit]")
        page.wait_for_url(url + "/")
        page.wait_for_function("document.querySelector('#game-title').textContent.includes('Stratego')")
        # The table then tells who does what, where the pieces go, and the reveal rule chosen.
        page.wait_for_function("document.querySelector('#prompt').textContent.includes('scan your 40 pieces')")
        prompt = page.inner_text("#prompt")
        assert "Ann (Red)" in prompt and "on your reader" in prompt
        assert "the defender shows its rank only if defeated or attacked by a Scout" in prompt
    start = service.session.derived.start
    assert start["game"] == "stratego" and [s["name"] for s in start["seats"]] == ["Ann", "Ben"]
    assert start["options"]["reveal"] == "defeated_or_scout"


def test_a_setup_the_rules_refuse_says_why(tmp_path):
    """The form offers Gather Together's smallest table (4 players); a setup the referee still
    refuses (here, a name left out by a page that sends only three) comes back with its reason."""
    service = Service(tmp_path / "data")
    with serving(service) as url, chromium() as browser:
        page = browser.new_page()
        page.goto(url + "/setup")
        page.fill("#pin", service.pin)
        page.select_option("#game", "gt-battle")
        assert page.locator("#players input").count() == 4 and page.is_disabled("#remove-player")
        page.evaluate("document.querySelector('#players').lastElementChild.remove()")  # an old page's three rows
        page.click("button[type=submit]")
        page.wait_for_selector("#notice.error")
        assert "4 to 10 players" in page.inner_text("#notice")
    assert service.session is None


def test_the_game_log_downloads_only_with_the_pin(site):
    """The raw log holds every hidden card: History's Export asks for the PIN, then saves the file."""
    service, url, page = site
    page.goto(url + "/history")
    page.click("#export")
    page.wait_for_selector("#notice.error")
    assert "needs the table PIN" in page.inner_text("#notice")
    page.fill("#pin", service.pin)
    with page.expect_download() as download:
        page.click("#export")
    saved = download.value
    assert saved.suggested_filename == f"game-{service.session.game_id}.jsonl"
    assert '"kind": "start"' in open(saved.path(), encoding="utf-8").read()


def test_a_capture_chromium_leaves_unanswered_is_asked_for_once_more_and_only_once():
    from playwright.sync_api import TimeoutError as Unanswered

    class Silent:
        """A page whose first ``silences`` captures never answer."""

        def __init__(self, silences: int):
            self.silences, self.asked = silences, 0

        def screenshot(self, **options):
            self.asked += 1
            if self.asked <= self.silences:
                raise Unanswered(f"Page.screenshot: Timeout {options['timeout']}ms exceeded.")
            return b"picture"

    once = Silent(1)
    assert picture(once, full_page=True) == b"picture" and once.asked == 2
    twice = Silent(2)
    with pytest.raises(Unanswered):
        picture(twice)
    assert twice.asked == 2


def test_every_screenshot_in_the_tests_goes_through_picture():
    from pathlib import Path

    here = Path(__file__).parent
    direct = [f"{path.name}:{n}" for path in sorted(here.glob("*.py")) if path.name != "browser.py"
              for n, line in enumerate(path.read_text().splitlines(), 1)
              if ".screenshot(" in line and "def screenshot(" not in line]
    assert not direct, f"use tests.browser.picture (it asks Chromium again for an unanswered capture): {direct}"
