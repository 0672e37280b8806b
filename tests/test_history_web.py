"""The History page's API and the seat links, without a browser: every game of the table listed,
an earlier game read through its ruleset's public view (no secret of it leaks), its raw log only
with the PIN; seat links that a phone can open."""
from __future__ import annotations

import re

import pytest

import companion.pi.announce
from companion.web.app import create_app
from companion.service import Service
from tests.browser import TAP_ONLY
from tests.test_gt_battle_support import NAMES, identity_keys

GT_SEATS = [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)]


@pytest.fixture
def service(tmp_path):
    service = Service(tmp_path / "data", **TAP_ONLY)
    earlier = service.start_game("gt-battle", GT_SEATS)
    for seat, key in enumerate(identity_keys("VHHV"), 1):  # identities shown privately on the readers
        earlier.submit("card_seen", {"zone": f"reader:{seat}", "card": key, "hidden": True}, "rfid")
    service.start_game("stratego", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    return service


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def test_every_game_of_the_table_is_listed_newest_first(client):
    games = client.get("/api/history/games").get_json()["games"]
    assert [(g["game"], g["in_play"]) for g in games] == [("stratego", True), ("gt-battle", False)]
    assert games[1]["players"] == ["Ann", "Ben", "Cy", "Dee"] and games[1]["inputs"] == 5
    assert games[1]["title"] == "Battle (Gather Together Games)"


def test_an_earlier_game_is_read_through_its_public_view(client, service):
    """Identities shown on a reader are secret: the earlier game's history and view, readable
    without the PIN, never name them (the raw log does)."""
    earlier = service.session.game_id - 1
    reply = client.get(f"/api/history/{earlier}")
    body = reply.get_data(as_text=True)
    assert reply.status_code == 200 and reply.get_json()["in_play"] is False
    view = reply.get_json()["view"]
    assert view["game"] == "gt-battle" and [s["name"] for s in view["standings"]] == ["Ann", "Ben", "Cy", "Dee"]
    assert [e["kind"] for e in reply.get_json()["entries"]] == ["start"] + ["card_seen"] * 4
    raw = "".join(e.data.get("card", "") for e in service.store.events(earlier))
    assert re.search(r"HERO|VILLAIN", raw), "the raw log holds the identity cards"
    assert not re.search(r"HERO#|VILLAIN#|SUPERHERO", body)


def test_an_earlier_games_log_leaves_only_with_the_pin(client, service):
    earlier = service.session.game_id - 1
    refused = client.get(f"/api/history/{earlier}/export.jsonl")
    assert refused.status_code == 403 and "PIN" in refused.get_json()["error"]
    given = client.get(f"/api/history/{earlier}/export.jsonl", headers={"X-Table-PIN": service.pin})
    assert given.status_code == 200 and len(given.get_data(as_text=True).splitlines()) == 5


def test_a_game_the_table_never_played_is_not_found(client, service):
    reply = client.get("/api/history/99")
    assert reply.status_code == 404 and "no game 99" in reply.get_json()["error"]
    assert client.get("/api/history/99/export.jsonl", headers={"X-Table-PIN": service.pin}).status_code == 404


def test_seat_links_name_the_player_and_use_the_pis_lan_address(client, service, monkeypatch):
    """A tablet that opened the dashboard as localhost must still give phones a link they can open."""
    monkeypatch.setattr(companion.pi.announce, "lan_address", lambda: "192.168.1.50")
    links = client.get("/api/seat-links", headers={"X-Table-PIN": service.pin},
                       base_url="http://localhost:8080").get_json()["links"]
    assert [(link["seat"], link["name"]) for link in links] == [(1, "Ann"), (2, "Ben")]
    assert all(link["url"].startswith("http://192.168.1.50:8080/seat/") for link in links)


def test_without_a_network_the_seat_links_keep_the_tablets_host(client, service, monkeypatch):
    monkeypatch.setattr(companion.pi.announce, "lan_address", lambda: "127.0.0.1")
    links = client.get("/api/seat-links", headers={"X-Table-PIN": service.pin},
                       base_url="http://table.local:8080").get_json()["links"]
    assert links[0]["url"].startswith("http://table.local:8080/seat/")


def test_the_setup_page_learns_in_which_phases_a_game_takes_resolve(client):
    games = {g["game"]: g for g in client.get("/api/games").get_json()["games"]}
    assert games["gt-battle"]["resolve_phases"] == ["battle"]  # not during the deal
    # Spy's Trivia has no battle to resolve until time runs out; a battle, a mounting tie and the
    # last battle after the timer do.
    assert sorted(games["bom-battle"]["resolve_phases"]) == ["battle", "mounting", "tiebreak"]
