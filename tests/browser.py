"""Helpers for the dashboard tests in a real browser: Debian's Chromium, headless, driven by
Playwright (its own browser download is not used), and the companion served on a free port."""
from __future__ import annotations

import threading
from contextlib import contextmanager

from companion.web.app import create_app
from companion.web.server import make_server

CHROMIUM = "/usr/bin/chromium"
TABLET = {"width": 1280, "height": 800}  # a 10-inch tablet by the table
PHONE = {"width": 390, "height": 844}
# A service whose battles resolve on a tap only: no settle after the last card, and none of the quicker
# one for a play the rules call complete (quick_settle_seconds applies whatever settle_seconds is; left
# at 0.5 s, a loaded machine's auto-resolve once ended a game before the test's click).
TAP_ONLY = {"settle_seconds": 1e9, "quick_settle_seconds": 1e9}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync"]


@contextmanager
def serving(service):
    """Serve the dashboard of a service on 127.0.0.1 and a free port with the server `companion
    serve` uses; yields the base URL."""
    server = make_server(create_app(service), "127.0.0.1", 0)
    service.start_background()  # auto-resolve, as `companion serve` does
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        service.stop()  # first: the open event streams end, so the server can close
        server.shutdown()


# Every wait in a browser test is a wait for a condition; this is only how long a condition may take
# on a loaded 2-core machine before the test gives up (Playwright's own default is 30 s).
PATIENCE_MS = 120_000
# Chromium's capture of a page (Page.captureScreenshot; a full page's reaches beyond the viewport) now
# and then never answers on a loaded machine: a whole suite's run failed on one at load 8 (after 120 s),
# and a loop capturing every page of a game at both sizes at load 12 met one in 3,840 captures (the
# others took at most 4.8 s). So a capture that has not come in half the patience is asked for once
# more, and a second silence fails the test. (Whether the second ask is answered was not seen: no
# capture went unanswered while the loop could ask again.)
CAPTURE_MS = PATIENCE_MS // 2


def picture(target, **options):
    """``target.screenshot(**options)`` (a page or a locator: a picture for a person to look at, or
    pixels a test reads), asked for a second time when Chromium leaves the first unanswered."""
    from playwright.sync_api import TimeoutError as Unanswered

    try:
        return target.screenshot(timeout=CAPTURE_MS, **options)
    except Unanswered:
        return target.screenshot(timeout=CAPTURE_MS, **options)


class PatientBrowser:
    """The session's one browser, lent to a test: its pages (and contexts' pages) wait up to
    PATIENCE_MS for a condition, and whatever the test opened is closed or given back when the test
    ends (each test gets fresh contexts, or tabs with nothing left in them: no cookie or storage passes
    from one test to the next)."""

    def __init__(self, browser):
        self._browser = browser
        self._opened: list = []
        self._tabs: list = []

    def tab(self, viewport):
        """A tab at ``viewport``, for a test that navigates and reads (no listener, route or script
        of its own added to the page): a tab an earlier test gave back, emptied, when there is one.
        A new tab costs Chromium about 0.9 s of CPU here (a browser context is nothing, a renderer
        process and its first page are most of it): reusing them saves a quarter of the browser
        tests' CPU."""
        size = (viewport["width"], viewport["height"])
        spare = _spare_tabs.setdefault(size, [])
        while spare:
            context, page = spare.pop()
            if not page.is_closed():
                break
            context.close()
        else:
            context = self._browser.new_context(viewport=viewport)
            context.set_default_timeout(PATIENCE_MS)
            page = context.new_page()
        self._tabs.append((size, context, page))
        return page

    def new_page(self, *args, **kwargs):
        context = self.new_context(*args, **kwargs)  # a page of its own context: nothing shared
        return context.new_page()

    def new_context(self, *args, **kwargs):
        context = self._browser.new_context(*args, **kwargs)
        context.set_default_timeout(PATIENCE_MS)
        self._opened.append(context)
        return context

    def give_back(self) -> None:
        for context in self._opened:
            try:
                context.close()
            except Exception:  # a context whose pages crashed is gone already
                pass
        self._opened.clear()
        for size, context, page in self._tabs:
            try:
                _empty(context, page)
                page.set_viewport_size({"width": size[0], "height": size[1]})  # as it was made
                _spare_tabs.setdefault(size, []).append((context, page))
            except Exception:  # closed by the test, or crashed: not lent again
                try:
                    context.close()
                except Exception:
                    pass
        self._tabs.clear()

    def __getattr__(self, name):
        return getattr(self._browser, name)


def _empty(context, page) -> None:
    """What a tab held for a test, gone: the page's storage, the page itself (its scripts and its event
    stream stop), the context's cookies (the table PIN's hold among them) and permissions."""
    if page.url.startswith("http"):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.goto("about:blank")
    context.clear_cookies()
    context.clear_permissions()


# Tabs given back, emptied, for the next test's tab(), by the size their context was made at: Chromium's
# headless window is that size, and a tab made at a tablet's size then turned to a phone's took its
# full-page screenshots differently (a phone's held reveal button let go during the capture).
_spare_tabs: dict[tuple[int, int], list] = {}
_shared: dict = {}  # "playwright", "browser": one Chromium for the whole test session


def _browser():
    browser = _shared.get("browser")
    if browser is None or not browser.is_connected():
        from playwright.sync_api import sync_playwright

        if "playwright" not in _shared:
            _shared["playwright"] = sync_playwright().start()
        browser = _shared["playwright"].chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        _shared["browser"] = browser
    return browser


@contextmanager
def chromium():
    """Chromium for one test: the session's browser (launched once, a second or two saved per
    test), with everything the test opens closed afterwards."""
    lent = PatientBrowser(_browser())
    try:
        yield lent
    finally:
        lent.give_back()


def close_shared() -> None:
    """End the session's browser (conftest.py calls this when the test session finishes)."""
    _spare_tabs.clear()
    if "browser" in _shared:
        _shared.pop("browser").close()
    if "playwright" in _shared:
        _shared.pop("playwright").stop()


def hold_pin(page, url: str, pin: str) -> None:
    """Give this page's browser context the table's PIN as a tablet holds it after typing it once:
    a session cookie (POST /api/unlock), never the digits."""
    reply = page.request.post(url + "/api/unlock", data={"pin": pin})
    assert reply.ok, reply.text()


@contextmanager
def revealed(page):
    """A player's thumb on the seat page's reveal button: what only the seat may see is drawn while
    it is held (mouse down on the button), and hidden again when it is let go."""
    page.wait_for_selector("#reveal", state="visible")
    page.hover("#reveal")
    page.mouse.down()
    page.wait_for_selector("body[data-revealed='yes']")
    try:
        yield page
    finally:
        page.mouse.up()


PROMPT_SHOWN = "(want) => document.querySelector('#prompt').textContent === want"


def shows_prompt(page, service, *said: str, unsaid: tuple[str, ...] = ()) -> str:
    """The table page shows the state's prompt (the referee's public view, read afresh); it says
    each of ``said`` and none of ``unsaid``. Returns the prompt."""
    want = service.session.public_view()["prompt"]
    page.wait_for_function(PROMPT_SHOWN, arg=want)
    for words in said:
        assert words in want, (words, want)
    for words in unsaid:
        assert words not in want, (words, want)
    return want


def prompts_through_a_demo_game(browser, data, game: str, players, max_rounds: int, check) -> set[str]:
    """A table page on a tablet while a game's demo players play up to ``max_rounds`` rounds of
    moves straight into the table (`play_direct`, as the camera would report them): after each
    round whose prompt is new, the page must show it (shows_prompt), and ``check(view, page)``
    judges it against the state's public view and returns the step it was checked at. Returns the
    steps checked. A game going on beyond those rounds is as wanted; players with nothing to do in
    a game not over fail the test."""
    from companion.rules.demo import play_direct
    from companion.service import Service

    service = Service(data, **TAP_ONLY)
    seats, options = players.start()
    service.start_game(game, seats, options)
    checked: set[str] = set()
    shown: list[str | None] = [None]
    with serving(service) as url:
        page = browser.tab(TABLET)
        page.goto(url + "/")

        def after(session):  # after each round of the players' moves
            view = session.public_view()
            if view["prompt"] != shown[0]:
                shown[0] = shows_prompt(page, service)
                checked.add(check(view, page))

        try:
            play_direct(players, session=service.session, max_rounds=max_rounds, after=after)
        except RuntimeError as error:
            if "did not end" not in str(error):  # only the rounds running out is as wanted
                raise
    return checked
