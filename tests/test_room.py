"""The room through the dashboard's routes: a tablet holds the PIN as a session (never the digits),
a seat is held by the first phone that opens it, and a hidden card's sticker names nothing."""
from __future__ import annotations

import re

import numpy as np
import pytest

from card_tags import payload, sheets
from card_tags.catalog import load_game
from card_tags.private import PrivateTags, kept_hidden
from companion.scan.decoders import Detection
from companion.scan.pipeline import ScanPipeline, classify
from companion.service import Service, write_table_secrets
from companion.web import room
from companion.web.app import create_app

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]


@pytest.fixture
def service(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("stratego", SEATS)
    yield service
    service.close()


def client_of(service):
    return create_app(service).test_client()


# -- the tablet's hold on the PIN ---------------------------------------------------------------------
def test_the_pin_given_once_becomes_an_httponly_session_and_changes_go_with_it(service):
    tablet = client_of(service)
    assert tablet.post("/api/command", json={"kind": "undo"}).status_code == 403
    reply = tablet.post("/api/unlock", json={"pin": service.pin})
    cookie = reply.headers["Set-Cookie"]
    assert reply.status_code == 200 and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    # The PIN as a number of its own (not digits inside the expiry time, as a run once found)
    pin_alone = re.compile(rf"(?<![0-9.]){service.pin}(?![0-9.])")
    assert not pin_alone.search(cookie) and not pin_alone.search(reply.get_data(as_text=True))
    assert tablet.get("/api/unlock").get_json()["held"] is True
    assert tablet.get("/api/seat-links").status_code == 200  # a PIN-only read, with the session
    other = client_of(service)
    assert other.get("/api/seat-links").status_code == 403  # another browser holds nothing
    tablet.post("/api/lock")
    assert tablet.get("/api/seat-links").status_code == 403


def test_a_wrong_pin_opens_no_session(service):
    tablet = client_of(service)
    reply = tablet.post("/api/unlock", json={"pin": "0000" if service.pin != "0000" else "1111"})
    assert reply.status_code == 403 and "Set-Cookie" not in reply.headers
    assert tablet.get("/api/unlock").get_json()["held"] is False


def test_a_session_is_revoked_from_the_devices_page_and_ends_with_a_new_pin(service, tmp_path):
    lost, kept = client_of(service), client_of(service)
    for tablet in (lost, kept):
        tablet.post("/api/unlock", json={"pin": service.pin})
    tablets = kept.get("/api/room").get_json()["tablets"]
    assert len(tablets) == 2 and sum(t["this"] for t in tablets) == 1
    lost_id = next(t["id"] for t in tablets if not t["this"])
    assert kept.post("/api/room/revoke", json={"tablet": lost_id}).get_json()["ok"]
    refused = lost.get("/api/seat-links")
    assert refused.status_code == 403 and "type the PIN again" in refused.get_json()["error"]
    assert kept.get("/api/seat-links").status_code == 200
    # `companion pin --new`: every tablet's hold ends
    write_table_secrets(tmp_path / "data", "98765", service._token_secret.decode())
    service.stop()
    again = Service(tmp_path / "data")
    assert client_of(again).get("/api/room", headers={"Cookie": kept.get_cookie(room.SESSION_COOKIE).decoded_key
                                                       + "=" + kept.get_cookie(room.SESSION_COOKIE).value}
                                 ).status_code == 403
    again.close()


def test_a_session_expires():
    now = [1000.0]
    tablets = room.Room(None, "mark", clock=lambda: now[0])
    token, expires = tablets.open_session("tablet")
    assert tablets.session(token) is not None and expires == 1000.0 + room.SESSION_HOURS * 3600
    now[0] = expires
    assert tablets.session(token) is None


# -- a seat held by one phone ----------------------------------------------------------------------------
def test_the_first_phone_holds_the_seat_and_another_is_refused_until_it_is_released(service):
    token = service.seat_token(service.session.game_id, 1)
    ann, ben = client_of(service), client_of(service)
    assert ann.get(f"/api/seat/{token}").get_json()["view"]["seat"] == 1
    assert ann.get(f"/api/seat/{token}").status_code == 200  # the same phone again
    refused = ben.get(f"/api/seat/{token}")
    assert refused.status_code == 403 and "already open on another phone" in refused.get_json()["error"]
    assert "view" not in refused.get_json()
    tablet = client_of(service)
    pin = {"X-Table-PIN": service.pin}
    assert tablet.get("/api/seats", headers=pin).get_json()["seats"][0]["claimed"] is True
    assert tablet.post("/api/seat-release", json={"seat": 1}, headers=pin).get_json()["ok"]
    assert ben.get(f"/api/seat/{token}").status_code == 200
    assert ann.get(f"/api/seat/{token}").status_code == 403


def test_a_new_code_revokes_the_old_link(service):
    old = service.seat_token(service.session.game_id, 2)
    client_of(service).get(f"/api/seat/{old}")
    tablet = client_of(service)
    assert tablet.post("/api/seat-release", json={"seat": 2, "new_link": True},
                       headers={"X-Table-PIN": service.pin}).get_json()["ok"]
    new = service.seat_token(service.session.game_id, 2)
    assert new != old and client_of(service).get(f"/api/seat/{old}").status_code == 403
    assert client_of(service).get(f"/api/seat/{new}").status_code == 200


def test_a_seat_release_needs_the_pin(service):
    assert client_of(service).post("/api/seat-release", json={"seat": 1}).status_code == 403


def test_a_seat_view_with_secrets_is_veiled_and_one_without_is_not(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("bom-battle", SEATS)
    reply = client_of(service).get(f"/api/seat/{service.seat_token(service.session.game_id, 1)}").get_json()
    assert reply["veiled"] is False  # Book of Mormon "Battle": nothing face down yet
    service.start_game("stratego", SEATS)
    reply = client_of(service).get(f"/api/seat/{service.seat_token(service.session.game_id, 1)}").get_json()
    assert reply["veiled"] is True and "army" not in reply["public"]
    service.close()


# -- private tags --------------------------------------------------------------------------------------
def test_a_private_tag_names_no_card_and_is_checked(tmp_path):
    tags = PrivateTags(tmp_path)
    stratego = load_game("stratego")
    codes = tags.codes_for(stratego)
    marshal = codes[next(r for r in stratego.refs() if r.card == "R10")]
    assert "R10" not in marshal.split(":") and len(marshal) <= payload.MAX_LENGTH  # no field names the piece
    with pytest.raises(payload.PrivateTag):
        payload.decode(marshal)
    altered = marshal[:8] + ("A" if marshal[8] != "A" else "B") + marshal[9:]
    with pytest.raises(payload.PayloadError) as damaged:
        payload.decode(altered)
    assert not isinstance(damaged.value, payload.PrivateTag)  # its check character fails: damaged
    assert tags.lookup[marshal].key == "R10#1"


def test_private_codes_are_kept_reprinted_the_same_and_replaced_on_demand(tmp_path):
    gt = load_game("gt-battle")
    first = PrivateTags(tmp_path).codes_for(gt)
    assert {r.card for r in first} == kept_hidden(gt) == {"HERO", "VILLAIN"}  # the identity cards only
    assert (tmp_path / "private-tags.json").stat().st_mode & 0o077 == 0
    assert PrivateTags(tmp_path).codes_for(gt) == first  # a damaged sticker printed again matches
    replaced = PrivateTags(tmp_path).codes_for(gt, new_set=True)
    assert set(replaced.values()).isdisjoint(first.values())


def test_the_scanner_finds_a_private_tag_in_the_tables_map_and_counts_old_sheets(tmp_path):
    tags = PrivateTags(tmp_path)
    codes = tags.codes_for(load_game("stratego"))
    ref, text = next(iter(codes.items()))
    assert classify(text, "stratego", tags.lookup)[2] == ref
    stranger = payload.encode_private("stratego", "ZZZZZZZZZZ")
    assert classify(stranger, "stratego", tags.lookup)[0] == "other-table"
    pipeline = ScanPipeline(None, "zxing", game="stratego", private=tags)
    corners = np.zeros((4, 2))
    pipeline._understand([Detection(text, corners), Detection(payload.encode(ref), corners)])
    assert pipeline.old_sheet_cards == {ref.key}  # only the readable tag gives its piece away


def test_the_sheet_of_a_hidden_game_prints_no_rank_and_no_key(tmp_path):
    stratego = load_game("stratego")
    sheet = sheets.build(stratego, "stratego", private=PrivateTags(tmp_path).codes_for(stratego))
    ranks = {card.name for card in stratego.cards.values()}
    for placed in (p for page in sheet.pages for p in page):
        assert placed.label.split()[0] in ("Red", "Blue") and not ranks & set(placed.label.split())
    assert sheet.key == ""
    drawn = [item.text for item in sheets.page_items(sheet, 0) if isinstance(item, sheets.Text)]
    assert not any("Key, the same for each colour" in text for text in drawn)
    assert any(text.startswith("Red: Marshal, General, 2 Colonel") for text in drawn)  # the margin's guide


def test_backups_copy_the_private_tags(service, tmp_path):
    PrivateTags(tmp_path / "data").codes_for(load_game("stratego"))
    made = service.backups.make("test")
    copy = made.with_suffix(".private-tags.json")
    assert copy.read_text() == (tmp_path / "data" / "private-tags.json").read_text()
    assert copy.stat().st_mode & 0o077 == 0


def test_the_private_tags_export_needs_the_pin(service):
    client = client_of(service)
    service.private_tags.codes_for(load_game("stratego"))
    assert client.get("/api/private-tags.json").status_code == 403
    exported = client.get("/api/private-tags.json", headers={"X-Table-PIN": service.pin})
    assert exported.status_code == 200 and '"stratego"' in exported.get_data(as_text=True)
