"""The dashboard's API: anyone may watch, every change needs the table PIN, seat links open one
seat of one game only. Uses the same small counting game as test_session."""
import json

import pytest

import companion.rules
from companion.web.app import create_app
from companion.service import Service
from tests.tally_game import Tally


@pytest.fixture
def service(tmp_path, monkeypatch):
    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    service = Service(tmp_path / "data")
    service.start_game("tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    return service


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def test_anyone_may_watch_the_table(client):
    reply = client.get("/api/state").get_json()
    assert reply["view"]["standings"] == [{"seat": 1, "points": 0}, {"seat": 2, "points": 0}]


def test_a_change_without_the_pin_is_refused_and_changes_nothing(client, service):
    reply = client.post("/api/command", json={"kind": "score", "data": {"seat": 1}})
    assert reply.status_code == 403 and "needs the table PIN" in reply.get_json()["error"]
    wrong = client.post("/api/command", json={"kind": "score", "data": {"seat": 1}}, headers={"X-Table-PIN": "x"})
    assert wrong.status_code == 403 and "wrong table PIN" in wrong.get_json()["error"]
    assert service.session.state["points"] == {"1": 0, "2": 0}
    assert [e["kind"] for e in service.session.history()] == ["start"], "nothing was even logged"


def test_a_change_with_the_pin_is_applied(client, service):
    reply = client.post("/api/command", json={"kind": "score", "data": {"seat": 2}}, headers={"X-Table-PIN": service.pin})
    assert reply.get_json()["ok"] and service.session.state["points"]["2"] == 1


def test_an_illegal_command_comes_back_with_the_rules_reason(client, service):
    reply = client.post("/api/command", json={"kind": "cheat"}, headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 409 and reply.get_json()["error"] == "cheat is not allowed in Tally"


def test_the_camera_inputs_cannot_be_forged_from_the_dashboard(client, service):
    reply = client.post("/api/command", json={"kind": "card_seen", "data": {"zone": "seat:1", "card": "X#1"}},
                        headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 400 and service.session.state["seen"] == []


def test_the_pin_is_kept_across_restarts(tmp_path, service):
    again = Service(tmp_path / "data")
    assert again.pin == service.pin and len(service.pin) == 4


def test_a_seat_link_opens_that_seat_only_and_not_in_a_later_game(client, service):
    links = client.get("/api/seat-links", headers={"X-Table-PIN": service.pin}).get_json()["links"]
    token = links[1]["token"]
    assert client.get(f"/api/seat/{token}").get_json()["view"]["seat"] == 2
    forged = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert client.get(f"/api/seat/{forged}").status_code == 403
    other_seat = token.replace("-2-", "-1-")
    assert client.get(f"/api/seat/{other_seat}").status_code == 403
    service.start_game("tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    stale = client.get(f"/api/seat/{token}")
    assert stale.status_code == 403 and "earlier game" in stale.get_json()["error"]


def test_seat_links_need_the_pin(client):
    assert client.get("/api/seat-links").status_code == 403


def test_the_event_stream_sends_the_view_first(client):
    response = client.get("/api/stream")
    first = next(response.response).decode()
    assert first.startswith("event: view") and json.loads(first.split("data: ", 1)[1])["view"]["game"] == "tally"
    response.close()
