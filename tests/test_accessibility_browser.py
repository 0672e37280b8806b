"""axe-core on every page of every game, on a 10-inch tablet (1280x800) and a phone (390x844):
nothing serious or critical (contrast, names of controls, landmarks...), and no page that scrolls
sideways on a phone 360 to 430 px wide (reflow). The pages show a game
in play: its demo players have played some rounds straight into the session, so results,
greyed previous results, hands and seats are on screen. axe-core's script is vendored with its
licence in tests/vendor/axe-core (npm package axe-core)."""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

import companion.pi.announce
import companion.rules
from companion.demo.driver import default_seats
from companion.rules.demo import play_direct
from companion.service import Service
from tests.browser import TAP_ONLY, picture, serving
from tests.test_pages_browser import PAGES, PHONE, TABLET, open_page

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
GAMES = companion.rules.available()
ROUNDS = {"bom-battle": 7, "stratego": 45, "gt-battle": 14, "warriors": 16, "battlecards-pacific": 30}


def play_some_rounds(game: str, session, rounds: int) -> None:
    """The game's demo players play ``rounds`` rounds of moves (not to the end)."""
    players = companion.rules.demo_players(game)(len(session.derived.start["seats"]), 3)
    try:
        play_direct(players, session, max_rounds=rounds)
    except RuntimeError:  # the game did not end in that many rounds: as wanted
        pass


@pytest.fixture
def table(request, tmp_path, monkeypatch):
    monkeypatch.setattr(companion.pi.announce, "lan_address", lambda: "192.168.1.50")
    game = request.param
    service = Service(tmp_path / "data", **TAP_ONLY)
    players = companion.rules.demo_players(game)(default_seats(game), 3)
    seats, options = players.start()
    service.start_game(game, seats, options)  # an earlier game, for the History page
    session = service.start_game(game, seats, options)
    play_some_rounds(game, session, ROUNDS.get(game, 10))
    with serving(service) as url:
        yield game, service, url


class _AxeFiles(http.server.SimpleHTTPRequestHandler):
    """axe-core's folder, served quietly (no line per request on stderr)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(AXE.parent), **kwargs)

    def log_message(self, *args):
        pass


@functools.cache
def axe_url() -> str:
    """axe-core's script from a URL of its own (a static server on a free loopback port, for this
    process): Chromium keeps a script it has run from a URL compiled, so adding it to the fortieth
    page costs a fifth of what it costs inline (0.03 s of CPU against 0.1-0.17 s, measured)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AxeFiles)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/{AXE.name}"


def serious(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is (axe-core's script is added to a
    page once: the test below runs it again after turning the page to a phone's width)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=axe_url())
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
          .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary.split('\\n')[1] || ''}`));
    }""")
    return found


def sideways(page) -> int:
    """How far the page scrolls sideways (0 when it fits the screen)."""
    return page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")


# Phones from a small Android to a large iPhone. WCAG's reflow criterion (1.4.10): a page reads at a
# phone's width without scrolling in two directions; axe-core does not check it, so the pass measures it.
PHONE_WIDTHS = (PHONE["width"], 360, 430)


@pytest.mark.parametrize("table", GAMES, indirect=True)
def test_no_page_has_a_serious_or_critical_accessibility_problem(table, browser, tmp_path):
    game, service, url = table
    problems = []
    page = None
    for path in PAGES:  # visited in turn in one tab, as a person would
        page = open_page(browser, url, path, TABLET, service, page)
        # Then the phone: the same page turned to its width (no script reads the width, so the layout
        # is the one a phone loading the page gets: test_pages_browser reads the scripts for that).
        for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            found = serious(page)
            problems += [f"{path} ({name}): {p}" for p in found]
            if found or name == "phone":  # the page to look at (beside a finding, or as a phone shows it)
                picture(page, path=str(tmp_path / f"{game}-{name}{path.replace('/', '-') or '-table'}.jpg"), full_page=True)
        for width in PHONE_WIDTHS:
            page.set_viewport_size({**PHONE, "width": width})
            if sideways(page) > 0:
                problems.append(f"{path} at {width} px: scrolls sideways by {sideways(page)} px (reflow)")
        page.set_viewport_size(TABLET)  # the next page opens on the tablet
    page.close()
    assert not problems, "\n".join(problems)
