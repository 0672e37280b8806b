"""The dashboard's deck pages: /catalog shows the deck of the game in play (a custom one too), and
/tags prints its sheets for the camera geometry given, warning when the tags would be too small."""
from __future__ import annotations

import json

import pytest

from card_tags import custom
from companion.web.app import create_app
from companion.service import Service

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]


@pytest.fixture
def service(tmp_path):
    return Service(tmp_path / "data")


@pytest.fixture
def client(service):
    return create_app(service).test_client()


@pytest.fixture
def custom_stratego(tmp_path):
    path = tmp_path / "feld.json"
    custom.copy_reference("stratego", path)
    data = json.loads(path.read_text())
    next(c for c in data["cards"] if c["id"] == "R10")["name"] = "Feldmarschall"
    path.write_text(json.dumps(data))
    return str(path)


def test_catalog_without_a_game_offers_the_reference_decks(client):
    page = client.get("/catalog").get_data(as_text=True)
    assert "No game is in play" in page
    assert 'href="/catalog?game=warriors"' in page and 'href="/catalog?game=battlecards-pacific"' in page
    warriors = client.get("/catalog?game=warriors").get_data(as_text=True)
    assert "Reference deck: 102 cards, 152 physical copies" in warriors
    assert '<tr id="card-NEPHI"><td>NEPHI</td><td>Nephi</td><td>1</td>' in warriors
    assert "FVISION+2" in warriors


def test_catalog_shows_the_custom_deck_in_play(client, service, custom_stratego):
    service.start_game("stratego", SEATS, deck=custom_stratego)
    page = client.get("/catalog").get_data(as_text=True)
    assert "The deck of the game in play: 24 cards, 80 physical copies" in page
    assert "<td>R10</td><td>Feldmarschall</td><td>1</td>" in page
    assert custom_stratego in page


def test_tags_page_downloads_the_sheets_of_the_deck_in_play(client, service, custom_stratego):
    service.start_game("stratego", SEATS, deck=custom_stratego)
    page = client.get("/tags").get_data(as_text=True)
    assert '<option value="stratego" selected>' in page
    assert "80 tags on 1 page" in page
    assert 'role="alert">the tags on stratego are 15.0 mm wide' in page, "the camera cannot read them at 600 mm"
    assert 'href="/tags/stratego/stratego.pdf?' in page and 'href="/tags/stratego/stratego.svg?page=1' in page
    # The sheet says which private sticker goes on which piece: it needs the PIN.
    assert client.get("/tags/stratego/stratego.pdf").status_code == 403
    pin = {"X-Table-PIN": service.pin}
    pdf = client.get("/tags/stratego/stratego.pdf", headers=pin)
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    svg = client.get("/tags/stratego/stratego.svg?page=1", headers=pin).get_data(as_text=True)
    # the custom deck's names, in the margin's placement guide only: a sticker says "Red" and its code
    assert "Red: Feldmarschall, " in svg
    code = service.private_tags.codes_for(service.session.ruleset.catalog)
    first = next(iter(code.values()))
    assert f">Red {first.split(':')[2][:4]}<" in svg


def test_tags_page_follows_the_camera_given(client):
    near = client.get("/tags?game=stratego&layout=stratego&camera_height=200").get_data(as_text=True)
    assert 'role="alert"' not in near and "camera_height=200" in near
    far = client.get("/tags?game=warriors&layout=card-63x88&camera_height=900&resolution=1280x720")
    assert "tags on 17 pages" in far.get_data(as_text=True)


def test_tags_refuses_what_does_not_exist(client):
    assert client.get("/tags/warriors/poster.pdf").status_code == 404
    assert client.get("/tags/chess/card-63x88.pdf").status_code == 404
    assert client.get("/tags/warriors/round-40.svg?page=99").status_code in (403, 404)  # hidden cards: PIN first
    assert client.get("/tags/warriors/round-40.pdf?resolution=huge").status_code == 400
    assert "round stickers, 40 mm" in client.get("/tags?game=warriors&layout=round-40&paper=letter").get_data(as_text=True)
