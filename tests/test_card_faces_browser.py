"""Cards drawn as small faces from the catalog (web/static/faces.js, companion/web/faces.py) on the
table page and a seat's phone, in headless Chromium: a result shows the cards it was fought with,
and a phone shows its own cards only while its player reveals them; no face ever shows a card the
viewer may not see."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import companion.rules
from companion.rules.demo import play_direct
from companion.service import Service
from tests.browser import TAP_ONLY, picture, revealed, serving
from tests.test_accessibility_browser import serious
from tests.test_gt_battle_support import NAMES, identity_keys
from tests.test_pages_browser import PHONE, TABLET

BOM_LOG = Path(__file__).parent / "logs" / "bom" / "basic-3-seats.jsonl"
FACES = "(fs) => fs.map((f) => f.getAttribute('aria-label'))"


def faces(page, where: str) -> list[str]:
    return page.locator(f"{where} .card-face").evaluate_all(FACES)


def seat_page(browser, url, service, seat, viewport=PHONE):
    page = browser.tab(viewport)
    page.goto(f"{url}/seat/{service.seat_token(service.session.game_id, seat)}")
    page.wait_for_selector("#seat-view .seat, #seat-view .panel")
    return page


@pytest.fixture
def bom_battle_1(tmp_path):
    """Battle 1 of a logged Book of Mormon game, resolved: Ann's Zemnarihah (black oval 900), Ben's
    Noah (black diamond 1000) and Cal's Heth (black oval 100)."""
    events = [json.loads(line) for line in BOM_LOG.read_text().splitlines() if line and not line.startswith("//")]
    start = events[0]["data"]
    service = Service(tmp_path / "data", **TAP_ONLY)
    session = service.start_game(start["game"], start["seats"], start["options"])
    for e in events[1:5]:  # three cards laid, then the resolve
        session.submit(e["kind"], e["data"], e["source"])
    with serving(service) as url:
        yield service, url


@pytest.mark.parametrize("name,viewport", [("tablet", TABLET), ("phone", PHONE)])
def test_a_battle_result_on_the_table_shows_a_face_for_each_card(bom_battle_1, browser, tmp_path, name, viewport):
    service, url = bom_battle_1
    page = browser.tab(viewport)
    page.goto(url + "/")
    page.wait_for_selector("#result-faces .card-face")
    assert "Noah" in page.inner_text("#result-say")
    assert faces(page, "#result-faces") == ["Zemnarihah, black oval 900", "Noah, black diamond 1000", "Heth, black oval 100"]
    width = page.eval_on_selector("#result-faces", "(f) => f.getBoundingClientRect().right")
    assert width <= viewport["width"], "the faces fit the screen"
    assert not serious(page)
    picture(page, path=str(tmp_path / f"bom-result-{name}.jpg"), full_page=True)
    # the next battle's first card: the result greys out as "previous" and keeps its faces
    service.session.submit("card_seen", {"zone": "seat:1", "card": "GD700#1"}, "camera")
    page.wait_for_selector("#result.stale")
    assert len(faces(page, "#result-faces")) == 3


def test_a_players_phone_shows_the_latest_result_with_its_faces(bom_battle_1, browser):
    service, url = bom_battle_1
    page = seat_page(browser, url, service, 2)
    page.wait_for_selector(".seat-result .card-face")
    assert faces(page, ".seat-result") == ["Zemnarihah, black oval 900", "Noah, black diamond 1000", "Heth, black oval 100"]
    assert not serious(page)


class CombatFound(Exception):
    pass


def test_a_stratego_combat_shows_both_pieces_in_their_colours(tmp_path, browser):
    """A combat names its two pieces by rank; their faces are the catalog's pieces of those ranks
    in the colours of the seats that fought."""
    service = Service(tmp_path / "data", **TAP_ONLY)
    players = companion.rules.demo_players("stratego")(2, 3)
    seats, options = players.start()
    session = service.start_game("stratego", seats, options)

    def stop_at_a_combat(session):  # after a round of moves: is the result shown a combat's?
        shown = (session.public_view()["last_outcome"] or {}).get("say") or ""
        combats = [o for e in session.derived.entries[-3:] for o in e.outcomes if o["kind"] == "combat" and o["say"] in shown]
        if combats:
            raise CombatFound(combats[-1])

    with pytest.raises(CombatFound) as found:
        play_direct(players, session, after=stop_at_a_combat)
    combat = found.value.args[0]["data"]
    colour = {s["seat"]: s["colour"] for s in session.public_view()["standings"]}
    names = {c.attrs["rank"]: c.name for c in session.ruleset.catalog.cards.values()}
    want = [f"{names[combat[side]['rank']]}, {colour[combat[side]['seat']]} {combat[side]['rank']}" for side in ("attacker", "defender")]
    with serving(service) as url:
        page = browser.tab(TABLET)
        page.goto(url + "/")
        page.wait_for_selector("#result-faces .card-face")
        assert faces(page, "#result-faces") == want


@pytest.fixture
def gt_table(tmp_path):
    service = Service(tmp_path / "data", **TAP_ONLY)
    service.start_game("gt-battle", [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)], {"target": 1})
    for seat, key in enumerate(identity_keys("VHHV"), 1):
        service.session.submit("card_seen", {"zone": f"reader:{seat}", "card": key, "hidden": True}, "rfid")
    with serving(service) as url:
        yield service, url


def test_a_phone_shows_its_own_identity_card_only_while_revealed_and_no_one_elses(gt_table, browser, tmp_path):
    service, url = gt_table
    ann = seat_page(browser, url, service, 1)
    assert faces(ann, "#seat-view") == [], "veiled: nothing of Ann's own on the screen"
    with revealed(ann):
        ann.wait_for_selector(".own-cards .card-face")
        assert faces(ann, ".own-cards") == ["VILLAIN"]
        assert not serious(ann)
        picture(ann, path=str(tmp_path / "gt-seat-revealed.jpg"), full_page=True)
    ann.wait_for_selector("body[data-revealed='no']")
    assert faces(ann, "#seat-view") == []
    ben = seat_page(browser, url, service, 2)
    with revealed(ben):
        ben.wait_for_selector(".own-cards .card-face")
        assert faces(ben, ".own-cards") == ["SUPERHERO"], "Ben sees his card, never Ann's"
    table = browser.tab(TABLET)
    table.goto(url + "/")
    table.wait_for_selector("#seats article")
    assert "VILLAIN" not in table.content() and "SUPERHERO" not in table.content()
