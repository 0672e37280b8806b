"""The room, played through the dashboard in headless Chromium for every game with hidden
information: the shared tablet, and two players' phones (two browser contexts, as two phones).

As players at a real table would try it (issue: "hidden information stays hidden in the room"):
the tablet is given the PIN once and never shows it; "Seat codes" shows one seat's code at a time;
the first phone to open a seat holds it and a second is refused until the table releases it; a
phone shows what only its seat may know only while the player holds the button; and nothing only
seat 1 knows is found in the text of the tablet, of seat 2's phone, or of seat 1's own phone before
it is revealed. Every sticker of a hidden card says nothing (its QR payload and its printed text).

What "only seat 1 knows" is derived, not listed by hand: every text in seat 1's view that is in
neither the table's view nor seat 2's. Screenshots are saved in the test's tmp dir.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from card_tags import payload, sheets
from card_tags.private import kept_hidden
from companion.service import Service, write_table_secrets
from tests.browser import TAP_ONLY, picture, revealed, serving
from tests.test_battlecards_game import _to_a_battle
from tests.test_gt_battle_support import NAMES, identity_keys
from tests.test_stratego_support import army
from tests.test_warriors_secrets import BEN_HAND, face_up, reader, tray

TABLET, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
PIN = "731906"  # six digits, so that finding them on a page is no coincidence


def stratego(service: Service) -> None:
    """Both armies scanned; Red lifts a Miner into the covered tray to attack (Blue cannot know it)."""
    service.start_game("stratego", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    for seat, colour in ((1, "red"), (2, "blue")):
        for card in army(colour):
            service.table_input("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera")
    assert service.table_input("card_seen", {"zone": "tray", "card": "R3#1"}, "camera").ok


def gather_together(service: Service) -> None:
    """Four players; each shows their identity on their reader: Ann is a VILLAIN, Ben a HERO."""
    service.start_game("gt-battle", [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)])
    for seat, key in enumerate(identity_keys("VHHV"), 1):
        service.table_input("card_seen", {"zone": f"reader:{seat}", "card": key, "hidden": True}, "rfid")


def warriors(service: Service) -> None:
    """The deal: Ann scans her six cards on her reader, Ben his in the covered tray, and each lays a
    card face up and one face down."""
    service.start_game("warriors", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cy"}])
    for i, name in enumerate(["Moroni", "Abinadi", "Lehi", "Sword", "Faith: Steadfast", "Arrow"]):
        reader(service, 1, name, f"04A1{i:04d}")
    for name in BEN_HAND:
        tray(service, name)
    for i, name in enumerate(["Nephi", "Sam", "Jacob", "Plates", "Prayer", "Liahona"]):
        reader(service, 3, name, f"04C1{i:04d}")
    face_up(service, 1, "Moroni"), reader(service, 1, "Helaman", "04A10010")
    face_up(service, 2, "Laman"), tray(service, "Amlici")


def battlecards(service: Service) -> None:
    """Two players' Reserve Hands and Kept Cards, their forces deployed face down, and a battle."""
    service.start_game("battlecards-pacific", [{"seat": 1, "name": "Aiko"}, {"seat": 2, "name": "Bill"}])
    _to_a_battle(service)


GAMES = {"stratego": stratego, "gt-battle": gather_together, "warriors": warriors, "battlecards-pacific": battlecards}


@pytest.fixture(params=sorted(GAMES))
def table(request, tmp_path):
    data = tmp_path / "data"
    write_table_secrets(data, PIN, "0123456789abcdef0123456789abcdef")
    service = Service(data, **TAP_ONLY)
    GAMES[request.param](service)
    with serving(service) as url:
        yield request.param, service, url


def texts(value, into: set[str]) -> set[str]:
    """Every text in a view, keys included (a label such as "your attacker in the tray")."""
    if isinstance(value, dict):
        for key, inner in value.items():
            into.add(str(key))
            texts(inner, into)
    elif isinstance(value, list):
        for inner in value:
            texts(inner, into)
    elif isinstance(value, str):
        into.add(value)
    return into


def only_seat_one_knows(service: Service) -> set[str]:
    """Texts of seat 1's view in neither the table's view nor seat 2's: seat 1's secrets."""
    session = service.session
    known = "\n".join(texts(session.public_view(), set()) | texts(session.seat_view(2), set()))
    return {t.replace("_", " ") for t in texts(session.seat_view(1), set())
            if len(t) >= 4 and not t.isdigit() and t not in known}


def leaks(secrets: set[str], text: str) -> list[str]:
    return sorted(s for s in secrets if re.search(rf"(?<![\w#]){re.escape(s)}(?![\w#])", text))


def page_text(page) -> str:
    """What the page says and holds: its visible text and its DOM (attributes included)."""
    return page.inner_text("body") + "\n" + page.content()


def seat_token_from_code(tablet, seat: int) -> str:
    """The tablet taps a name; the code shown is read from its image's link (as a phone's camera)."""
    tablet.click(f"#seat-names li[data-seat='{seat}'] .seat-name")
    src = tablet.get_attribute(f"#seat-code figure[data-seat='{seat}'] img", "src")
    assert tablet.locator("#seat-code figure").count() == 1, "one seat's code at a time"
    link = parse_qs(urlsplit(src).query)["text"][0]
    return link.rsplit("/seat/", 1)[1]


def test_hidden_information_stays_hidden_in_the_room(table, browser, tmp_path):
    game, service, url = table
    secrets = only_seat_one_knows(service)
    assert secrets, f"{game}: seat 1 must know something seat 2 and the table do not"

    # -- the shared tablet: the PIN typed once, masked, then held as a lock, never drawn --------------
    tablet = browser.tab(TABLET)
    tablet.goto(url + "/")
    tablet.wait_for_selector("#seats article")
    assert tablet.get_attribute("#pin", "type") == "password"
    tablet.fill("#pin", PIN)
    tablet.press("#pin", "Enter")
    tablet.wait_for_selector("#pin-held", state="visible")
    assert tablet.input_value("#pin") == "" and tablet.locator("#pin").is_hidden()
    assert tablet.evaluate("JSON.stringify(localStorage)").find(PIN) < 0
    assert not tablet.evaluate("document.cookie"), "the session cookie is HttpOnly: no script reads it"
    tablet.reload()  # the hold outlives a reload; the digits are nowhere
    tablet.wait_for_selector("#pin-held", state="visible")
    assert PIN not in page_text(tablet)

    # -- seat codes, one at a time; the first phone holds the seat --------------------------------------
    tablet.click("#seat-links")
    tablet.wait_for_selector("#seat-names .seat-name")
    assert tablet.locator("#seat-codes figure").count() == 0
    first = seat_token_from_code(tablet, 1)
    ann = browser.tab(PHONE)
    ann.goto(f"{url}/seat/{first}")
    ann.wait_for_selector("#reveal", state="visible")
    tablet.wait_for_selector("#seat-code figure", state="detached")  # opened by a phone: the code hides
    tablet.wait_for_selector("#seat-names li.claimed[data-seat='1']")

    ben = browser.tab(PHONE)
    ben.goto(f"{url}/seat/{first}")  # Ben photographed Ann's code
    ben.wait_for_selector("#seat-view .problem")
    assert "already open on another phone" in ben.inner_text("#seat-view")
    assert not leaks(secrets, page_text(ben))
    ben.goto(f"{url}/seat/{seat_token_from_code(tablet, 2)}")
    ben.wait_for_selector("#seat-title")
    ben.wait_for_function("document.body.dataset.revealed !== undefined")

    # -- private by default: nothing of seat 1's on the tablet, on Ben's phone, on Ann's unrevealed ---
    picture(tablet, path=str(tmp_path / f"{game}-tablet.jpg"), full_page=True)
    picture(ann, path=str(tmp_path / f"{game}-ann-hidden.jpg"), full_page=True)
    assert not leaks(secrets, page_text(tablet)), "the tablet"
    assert not leaks(secrets, page_text(ann)), "Ann's phone before she reveals"
    with revealed(ann):
        shown = page_text(ann)
        picture(ann, path=str(tmp_path / f"{game}-ann-revealed.jpg"), full_page=True)
    assert leaks(secrets, shown), "revealed, Ann's phone shows what only she knows"
    ann.wait_for_function("document.body.dataset.revealed === 'no'")
    assert not leaks(secrets, page_text(ann)), "hidden again once let go"
    if ben.locator("#reveal").is_visible():
        with revealed(ben):
            assert not leaks(secrets, page_text(ben)), "Ben's own secrets, never Ann's"
            picture(ben, path=str(tmp_path / f"{game}-ben-revealed.jpg"), full_page=True)
    assert not leaks(secrets, page_text(ben))

    # -- the table releases Ann's seat: another phone may take it -------------------------------------
    tablet.click("#seat-names li[data-seat='1'] button:text-is('Release')")
    tablet.wait_for_selector("#seat-names li[data-seat='1']:not(.claimed)")
    new_phone = browser.tab(PHONE)
    new_phone.goto(f"{url}/seat/{first}")
    new_phone.wait_for_selector("#reveal", state="visible")
    ann.reload()
    ann.wait_for_selector("#seat-view .problem")  # the old phone no longer holds it

    # -- stickers: a hidden card's QR payload and its printed text say nothing -----------------------
    catalog = service.session.ruleset.catalog
    hidden = kept_hidden(catalog)
    assert hidden
    layout = sheets.default_layout(game)
    svg = tablet.request.get(f"{url}/tags/{game}/{layout}.svg?page=1")
    assert svg.ok, svg.text()
    assert ben.request.get(f"{url}/tags/{game}/{layout}.svg?page=1").status == 403, "a phone prints no sheet"
    sheet = sheets.build(catalog, layout, private=service.private_tags.codes_for(catalog))
    names = {catalog[c].name for c in hidden} | set(hidden)
    stickers = [p for page in sheet.pages for p in page if p.ref.card in hidden]
    assert len(stickers) == sum(catalog[c].copies for c in hidden)
    for placed in stickers:
        with pytest.raises(payload.PrivateTag):
            payload.decode(placed.payload)  # no phone's camera app learns the card
        said = f"{placed.payload} {placed.label}"
        assert not [n for n in names if re.search(rf"\b{re.escape(n)}\b", said, re.I)], said
        assert service.private_tags.lookup[placed.payload] == placed.ref  # only this table knows
    drawn = svg.text()
    assert all(f">{p.label}<" in drawn for p in sheet.pages[0] if p.ref.card in hidden), "the sheet downloaded is it"
    assert "Key, the same for each colour" not in drawn  # the printed key of ranks is gone
