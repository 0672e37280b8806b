"""The History page draws a finished game as a chart (web/static/chart.js): one line per seat,
one point per battle, ending at the cards each seat held when the game ended; readable on a
tablet and a phone with nothing serious for axe-core. The game is a whole Book of Mormon log
(tests/logs/bom/basic-3-seats.jsonl) played into the table again, then followed by a new game."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.gamelog.fold import fold
from companion.service import Service
from tests.browser import TAP_ONLY, picture, serving
from tests.test_accessibility_browser import serious
from tests.test_pages_browser import PHONE, TABLET

LOG = Path(__file__).parent / "logs" / "bom" / "basic-3-seats.jsonl"


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A table whose earlier game is the whole logged Book of Mormon game; its id (the tests only
    read it: one table for the module)."""
    tmp_path = tmp_path_factory.mktemp("history")
    events = [json.loads(line) for line in LOG.read_text().splitlines() if line and not line.startswith("//")]
    start = events[0]["data"]
    service = Service(tmp_path / "data", **TAP_ONLY)
    session = service.start_game(start["game"], start["seats"], start["options"])
    for e in events[1:]:
        session.submit(e["kind"], e["data"], e["source"])
    assert session.public_view()["over"], "the logged game is played to its end"
    game_id = session.game_id
    service.start_game(start["game"], start["seats"], start["options"])
    with serving(service) as url:
        yield service, url, game_id


def battles_and_final_cards(service, game_id):
    derived = fold(service.store.events(game_id))  # the referee's own count, not the chart's
    battles = sum(1 for e in derived.entries if e.status == "applied" for o in e.outcomes if o["kind"] == "battle")
    final = {s["seat"]: s["cards"] for s in derived.ruleset.public_view(derived.state)["seats"]}
    return battles, final


@pytest.mark.parametrize("name,viewport", [("tablet", TABLET), ("phone", PHONE)])
def test_a_finished_game_is_charted_one_line_per_seat(finished, browser, tmp_path, name, viewport):
    service, url, game_id = finished
    battles, final = battles_and_final_cards(service, game_id)
    page = browser.tab(viewport)
    page.goto(f"{url}/history?game={game_id}")
    page.wait_for_selector("#history-chart .seat-line")
    lines = page.eval_on_selector_all("#history-chart .seat-line", """(ls) => ls.map((l) => ({
        seat: Number(l.dataset.seat), points: l.getAttribute('points').trim().split(' ').length}))""")
    assert sorted(line["seat"] for line in lines) == [1, 2, 3]
    assert all(line["points"] == battles for line in lines) and battles == 70
    legend = page.inner_text("#history-chart .chart-legend")
    for seat, name_ in ((1, "Ann"), (2, "Ben"), (3, "Cal")):
        assert f"{name_}: {final[seat]} cards at the end" in legend
    chart = page.eval_on_selector("#history-chart svg.game-chart-svg", "(s) => s.getBoundingClientRect().width")
    assert 0 < chart <= viewport["width"], "the chart fits the screen"
    assert not serious(page)
    picture(page.locator("#history-chart"), path=str(tmp_path / f"history-chart-{name}.jpg"))


def test_each_battle_in_history_shows_a_face_for_each_of_its_cards(finished, browser, tmp_path):
    """Battle 1 of the log: Ann's Zemnarihah (black oval 900), Ben's Noah (black diamond 1000) and
    Cal's Heth (black oval 100), each drawn from the catalog beside the words."""
    service, url, game_id = finished
    page = browser.tab(TABLET)
    page.goto(f"{url}/history?game={game_id}")
    page.wait_for_selector(".chapter .card-face")
    first = page.locator(".chapter", has_text="Battle 1").last
    faces = first.locator(".card-face").evaluate_all("(fs) => fs.map((f) => f.getAttribute('aria-label'))")
    assert faces == ["Zemnarihah, black oval 900", "Noah, black diamond 1000", "Heth, black oval 100"]
    second = page.locator(".chapter", has_text="Battle 2").last
    assert second.locator(".card-face").count() == 6, "characters and the power cards played with them"
    picture(first, path=str(tmp_path / "battle-1-faces.jpg"))
    picture(second, path=str(tmp_path / "battle-2-faces.jpg"))
