"""Book of Mormon "Battle" on the real table page, in headless Chromium (issue 8): the Shorter
Game's countdown and its end, the Spy's Trivia clue view (never the name before the card is won),
and the Helpful notes (names with their superscript and pronunciation, plays read aloud).

Each test saves screenshots of a 1280x800 tablet in its tmp_path."""
from __future__ import annotations

import json
import time
from contextlib import contextmanager

from companion.service import Service
from tests.browser import TAP_ONLY, chromium, hold_pin, picture, serving

TABLET = {"width": 1280, "height": 800}
ANN_BO = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]
SPEECH_STUB = """
window.__spoken = [];
const synth = window.speechSynthesis;
synth.speak = (utterance) => window.__spoken.push(utterance.text);
synth.cancel = () => {};
"""


@contextmanager
def table(tmp_path, seats, options, clock=time.time):
    """A bom-battle game served to a fresh browser page the size of a tablet."""
    service = Service(tmp_path / "data", clock=clock, **TAP_ONLY)
    service.start_game("bom-battle", seats, options)
    with serving(service) as url, chromium() as browser:
        page = browser.new_page(viewport=TABLET)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield service, url, page
        assert errors == [], f"the page's script failed: {errors}"


def clock_seconds(page) -> int:
    minutes, seconds = page.inner_text("#bom-timer .bom-clock").split(":")
    return int(minutes) * 60 + int(seconds)


COUNTING = "/^\\d+:\\d\\d$/.test(document.querySelector('#bom-timer .bom-clock')?.textContent)"


def left_on_the_companion(service) -> float:
    """Seconds left on the timer by the companion's clock, now."""
    view = service.session.public_view()
    return view["started"] + view["timer"]["seconds"] - time.time()


def assert_counts_the_companions_time(page, service, at_most: float) -> int:
    """The countdown shows what the companion's clock had left when the page measured it, between
    ``at_most`` (the time left before the page opened) and what is left now: to the second, as the
    HTTP Date header the page measures the difference of the clocks from is rounded to the second."""
    shown = clock_seconds(page)
    assert left_on_the_companion(service) - 2 <= shown <= at_most + 1, (shown, at_most, left_on_the_companion(service))
    return shown


def kinds(service) -> list[str]:
    """Every command the referee received, applied or refused."""
    return [e["kind"] for e in service.session.history()]


def play_one_battle(session):
    """Ann's Nephi¹ (gold diamond 5000) beats Bo's Paanchi (black diamond 100): Ann 37 cards, Bo 35."""
    session.submit("card_seen", {"zone": "seat:1", "card": "GD5000#1"}, "camera")
    session.submit("card_seen", {"zone": "seat:2", "card": "BD100#1"}, "camera")
    assert session.submit("resolve", {}, "dashboard").ok
    session.submit("card_gone", {"zone": "seat:1", "card": "GD5000#1"}, "camera")
    session.submit("card_gone", {"zone": "seat:2", "card": "BD100#1"}, "camera")


# -- Rules for a Shorter Game ---------------------------------------------------------------------

def test_the_timer_counts_down_and_at_zero_ends_the_game_once_the_pin_is_typed(tmp_path):
    """"Set a timer for 15 minutes (or the desired time of play). The player with the most cards
    when the timer goes off wins." A 1-minute timer; the page's clock is driven by Playwright: it
    stands still but when the test moves it, so the page counts exactly the time the test says."""
    with table(tmp_path, ANN_BO, {"shorter_game_minutes": 1}) as (service, url, page):
        play_one_battle(service.session)
        page.clock.install()
        page.clock.pause_at(time.time() + 60)  # any time: the page measures the companion's clock
        opening = left_on_the_companion(service)
        page.goto(url + "/")
        page.wait_for_function(COUNTING)
        before = assert_counts_the_companions_time(page, service, at_most=opening)  # 1:00 or just under
        shown = page.inner_text("#bom-timer .bom-clock")
        picture(page, path=str(tmp_path / "timer-running.jpg"))

        page.clock.fast_forward("00:30")
        page.wait_for_function(f"document.querySelector('#bom-timer .bom-clock').textContent !== '{shown}'")
        after = clock_seconds(page)
        assert before - 31 <= after <= before - 29, (before, after)
        assert page.get_attribute("#bom-timer", "data-state") == "low"  # the last minute

        page.clock.fast_forward("00:31")  # past zero, and no PIN typed on this tablet
        page.wait_for_selector("#notice.error")
        assert page.inner_text("#notice") == "Time is up: type the PIN to end the game"
        assert page.inner_text("#bom-timer .bom-timer-note") == "Type the PIN to end the game."
        assert "time_up" not in kinds(service)
        picture(page, path=str(tmp_path / "timer-needs-pin.jpg"))

        page.fill("#pin", service.pin)
        page.clock.run_for(1000)  # ticks: the PIN stays the same for one, then time_up is sent
        page.wait_for_selector("#bom-timer .bom-timer-note:text-is('Ann wins!')")
        assert page.inner_text("#notice.ok") == "Time is up!"
        picture(page, path=str(tmp_path / "timer-over.jpg"))
        page.clock.run_for(2000)  # more ticks
        state = service.session.state
        assert state.over and state.winner == 1
        assert kinds(service).count("time_up") == 1  # sent once, however many ticks followed
        assert "Time is up: Seat 1 (Ann) wins with 37 cards." in page.inner_text("#prompt")


def test_the_timer_runs_on_the_companions_clock_when_the_tablets_is_wrong(tmp_path):
    """The tablet's clock is three hours fast: the countdown still starts from a full minute and
    sends nothing (the page measures the difference from the companion's Date header)."""
    with table(tmp_path, ANN_BO, {"shorter_game_minutes": 1}) as (service, url, page):
        page.clock.install(time=time.time() + 3 * 3600)
        page.clock.pause_at(time.time() + 3 * 3600 + 60)  # the page's time moves when the test says
        hold_pin(page, url, service.pin)
        opening = left_on_the_companion(service)
        page.goto(url + "/")
        page.wait_for_function(COUNTING)
        shown = assert_counts_the_companions_time(page, service, at_most=opening)  # 1:00 or just under
        page.clock.run_for(1200)  # five of the countdown's ticks
        assert shown - 2 <= clock_seconds(page) <= shown - 1
        assert page.get_attribute("#bom-timer", "data-state") in ("low", "running")
        assert "time_up" not in kinds(service)


def test_a_tie_when_time_is_up_shows_the_last_battle_then_its_winner(tmp_path):
    """"In case of a tie, tied players shuffle their CHARACTER cards and draw one card randomly for
    battle." The companion's clock says the game started two minutes ago: a 1-minute timer is
    over when the tablet opens the page, and the tablet (PIN saved) ends it at once."""
    with table(tmp_path, ANN_BO, {"shorter_game_minutes": 1}, clock=lambda: time.time() - 120) as (service, url, page):
        hold_pin(page, url, service.pin)
        page.goto(url + "/")
        tie = "Tie! Last battle: Ann and Bo, one random CHARACTER card each."
        page.wait_for_selector(f"#bom-timer .bom-timer-note:text-is('{tie}')")
        assert service.session.state.tiebreak == [1, 2]
        picture(page, path=str(tmp_path / "timer-tie.jpg"))

        session = service.session
        session.submit("card_seen", {"zone": "seat:1", "card": "BO300#1"}, "camera")  # Tubaloth, black oval 300
        session.submit("card_seen", {"zone": "seat:2", "card": "GO300#1"}, "camera")  # Lachoneus, gold oval 300
        page.click("#resolve")
        page.wait_for_selector("#bom-timer .bom-timer-note:text-is('Bo wins!')")
        assert service.session.state.winner == 2
        assert kinds(service).count("time_up") == 1


# -- Spy's Trivia ---------------------------------------------------------------------------------

ZEEZROM = {"key": "BD500#1", "id": "BD500", "name": "Zeezrom", "reference": "Alma 11", "pronunciation": "zee-EZ-rum"}


def secrets_in(text: str) -> list[str]:
    return [v for k, v in ZEEZROM.items() if k != "key" and v in text] + ([ZEEZROM["key"]] if ZEEZROM["key"] in text else [])


def test_trivia_shows_one_clue_at_a_time_and_the_name_only_once_the_card_is_won(tmp_path):
    """"One player starts with the top card and reads the clues ... The player who guesses first
    gets the card. ... If there is a tie ..., ask for the book of scripture or chapter where this
    character can be found.\""""
    seats = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]
    with table(tmp_path, seats, {"spys_trivia": True}) as (service, url, page):
        session = service.session
        clues = service.session.ruleset.deck.card(ZEEZROM["key"])["description"]
        watching = session.subscribe()  # what every tablet receives by the stream
        hold_pin(page, url, service.pin)
        page.goto(url + "/")
        page.wait_for_selector("#bom-trivia .bom-clue:text-is('Ann reads next: put the top card of your pile in the scan tray.')")

        session.submit("card_seen", {"zone": "tray", "card": ZEEZROM["key"]}, "camera")
        page.wait_for_selector(f"#bom-trivia .bom-clue:text-is({json.dumps(clues[0])})")
        assert page.inner_text("#bom-trivia .bom-clue-count") == f"CLUE 1 OF {len(clues)}"  # shown in capitals
        assert secrets_in(page.inner_text("body")) == []
        picture(page, path=str(tmp_path / "trivia-clue-1.jpg"))

        page.click("#game-actions button:text-is('Next clue')")
        page.wait_for_selector(f"#bom-trivia .bom-clue:text-is({json.dumps(clues[1])})")
        assert page.inner_text("#bom-trivia .bom-earlier") == clues[0]
        assert secrets_in(page.inner_text("body")) == []

        tie = page.locator("#game-actions [data-kind='trivia_tie']")
        tie.locator("select").select_option(label="Bo and Cy")
        tie.locator("button").click()
        page.wait_for_selector("#bom-trivia .bom-question")
        assert page.inner_text("#bom-trivia .bom-question") == \
            "Bo and Cy: Tie! In which book of scripture, and which chapter, is this character found?"
        assert secrets_in(page.inner_text("body")) == []
        picture(page, path=str(tmp_path / "trivia-tie.jpg"))

        seen = []
        while not watching.empty():
            seen.append(json.dumps(watching.get_nowait()))
        assert len(seen) >= 3 and secrets_in(" ".join(seen)) == []
        assert secrets_in(page.request.get(url + "/api/history").text()) == []

        award = page.locator("#game-actions [data-kind='trivia_award']")
        award.locator("select").select_option(label="Bo")
        award.locator("button").click()
        page.wait_for_selector("#bom-trivia .bom-last")
        last = page.inner_text("#bom-trivia .bom-last")
        assert secrets_in(last) == ["Zeezrom", "Alma 11", "zee-EZ-rum"] and "Bo won it." in last
        assert page.inner_text("#bom-trivia .bom-clue") == "Bo reads next: put the top card of your pile in the scan tray."
        assert page.inner_text("#seats .seat[data-seat='2'] .counts").split("\n") == ["won 1", "to read 19"]
        picture(page, path=str(tmp_path / "trivia-won.jpg"))


# -- Helpful notes ----------------------------------------------------------------------------------

def test_a_new_play_is_read_aloud_once_and_names_keep_their_superscript(tmp_path):
    """"announce the names of your CHARACTER cards in each battle. For example, "I attack with
    Zeezrom!"" The browser's speech synthesis is replaced by a recorder."""
    with table(tmp_path, ANN_BO, {}) as (service, url, page):
        session = service.session
        session.submit("card_seen", {"zone": "seat:1", "card": "BD500#1"}, "camera")  # on the table before the page opens
        page.add_init_script(SPEECH_STUB)
        page.clock.install()  # the page's time flows, and the test can run it on past a play's settling
        page.goto(url + "/")
        page.wait_for_selector("#seats .seat[data-seat='1'] .say-line")
        page.click("#bom-read-aloud")
        assert page.inner_text("#bom-read-aloud") == "Read aloud: on"

        session.submit("card_seen", {"zone": "seat:2", "card": "BD5000#1"}, "camera")  # Coriantumr³
        page.wait_for_function("window.__spoken.length > 0")
        session.submit("card_seen", {"zone": "seat:2", "card": "NOPE#1"}, "camera")  # refused: one more view update
        page.wait_for_selector("#notice:has-text('Not accepted')", state="attached")  # the page has drawn it
        page.clock.run_for(1500)  # longer than a play takes to settle before it is read (1 s)
        assert page.evaluate("window.__spoken") == ["I attack with Coriantumr!"]  # once, and not Zeezrom's

        name = "#seats .seat[data-seat='2'] .card .name"
        assert page.inner_text(f"{name} sup") == "3"
        assert page.inner_text(name) == "Coriantumr3"
        assert "kor-ee-AN-tum-er" in page.inner_text("#seats .seat[data-seat='2'] .card")
        assert page.inner_text("#seats .seat[data-seat='2'] .say-line sup") == "3"
        picture(page, path=str(tmp_path / "read-aloud.jpg"))

        page.click("#seats .seat[data-seat='1'] .bom-speak")  # Ann's play again, on demand
        assert page.evaluate("window.__spoken") == ["I attack with Coriantumr!", "I attack with Zeezrom!"]

        page.click("#bom-read-aloud")  # off: the next battle's plays are not read
        page.fill("#pin", service.pin)
        page.click("#resolve")
        for seat, card in ((1, "BD500#1"), (2, "BD5000#1")):
            session.submit("card_gone", {"zone": f"seat:{seat}", "card": card}, "camera")
        session.submit("card_seen", {"zone": "seat:1", "card": "GD200#1"}, "camera")
        page.wait_for_selector("#seats .seat[data-seat='1'] .say-line:has-text('I attack with Enos!')")
        page.clock.run_for(1500)  # longer than a play takes to settle before it is read (1 s)
        assert page.evaluate("window.__spoken") == ["I attack with Coriantumr!", "I attack with Zeezrom!"]
