"""Face-down cards and hands are secret but known to the companion: a game in progress through the
real Flask app, its public routes, history and event stream crawled for any card nobody has turned
face up. The legality verdicts are public; the cards are only in their owner's seat view."""
from __future__ import annotations

import json

import pytest

from companion.web.app import create_app
from companion.service import Service
from tests.test_warriors_support import challenge, key_of, prepare_battle

# Cards that are secret when the crawl runs: in a hand, or face down in play.
ANN_HAND = ["Moroni", "Abinadi", "Lehi", "Sword", "Faith: Steadfast", "Arrow"]
BEN_HAND = ["Laman", "Lib", "Zerahemnah", "Javelin", "Wickedness: Greed", "Shield"]
CY_HAND = ["Nephi", "Sam", "Jacob", "Plates", "Prayer", "Sword#2"]


@pytest.fixture
def table(tmp_path):
    service = Service(tmp_path / "data")
    service.start_game("warriors", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cy"}])
    watcher = service.session.subscribe()
    client = create_app(service).test_client()
    return service, client, watcher


def reader(service, seat, name, uid):
    """A tap on the seat's RFID reader, then the card lifted off it (the bridge reports both)."""
    data = {"zone": f"reader:{seat}", "card": key_of(name), "uid": uid}
    result = service.table_input("card_seen", data, "rfid")
    service.table_input("card_gone", data, "rfid")
    return result


def tray(service, name):
    data = {"zone": "tray", "card": key_of(name)}
    result = service.table_input("card_seen", data, "camera")
    service.table_input("card_gone", data, "camera")
    return result


def face_up(service, seat, name):
    return service.table_input("card_seen", {"zone": f"seat:{seat}", "card": key_of(name)}, "camera")


def command(client, service, kind, **data):
    reply = client.post("/api/command", json={"kind": kind, "data": data}, headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def a_battle_under_way(service, client):
    """Ann on her reader, Ben at the covered tray, Cy on his reader (three players, so that Ann has
    someone to choose between with her Prophecy); a refused card on the way; Prophecy; one card each
    turned over. Left secret: Ann's Prophecy, Ben's Wickedness: Greed, and both hands."""
    for i, name in enumerate(ANN_HAND):
        assert reader(service, 1, name, f"04A1{i:04d}").ok
    for name in BEN_HAND:
        assert tray(service, name).ok
    for i, name in enumerate(CY_HAND):
        assert reader(service, 3, name, f"04C3{i:04d}").ok, name
    assert face_up(service, 1, "Moroni").ok and reader(service, 1, "Prophecy", "04A10010").ok
    assert face_up(service, 2, "Laman").ok and tray(service, "Amlici").ok
    assert face_up(service, 3, "Nephi").ok and reader(service, 3, "Enos", "04C30010").ok
    assert not reader(service, 1, "Arrow", "04A10005").ok          # an Arrow cannot go with Moroni
    assert reader(service, 1, "Sword", "04A10003").ok and reader(service, 1, "Helaman", "04A10011").ok
    assert tray(service, "Lib").ok and tray(service, "Morianton").ok
    assert reader(service, 3, "Sam", "04C30001").ok and reader(service, 3, "Shiblon", "04C30011").ok
    assert reader(service, 1, "Prophecy", "04A10010").ok and reader(service, 1, "Gid", "04A10012").ok
    command(client, service, "call", seat=1)
    assert tray(service, "Wickedness: Greed").ok and tray(service, "Shared").ok
    assert reader(service, 3, "Sword#2", "04C30005").ok and reader(service, 3, "Amulek", "04C30012").ok
    assert not tray(service, "Javelin").ok                         # not Ben's turn: refused, still secret
    command(client, service, "prophecy", seat=1, targets=[2])
    command(client, service, "challenge", target=2)
    assert face_up(service, 1, "Sword").ok and face_up(service, 2, "Lib").ok


SECRET = {1: ["Faith: Steadfast", "Prophecy", "Abinadi", "Lehi", "Arrow", "Helaman", "Gid"],
          2: ["Wickedness: Greed", "Zerahemnah", "Javelin", "Shield", "Amlici", "Morianton", "Shared"]}
UIDS = [f"04A1{i:04d}" for i in range(13)]


def secrets(seats=(1, 2)) -> list[str]:
    return [key_of(n) for s in seats for n in SECRET[s]]


def public_routes(app) -> list[str]:
    """Every GET route that needs no PIN and no argument (the event stream is read apart)."""
    skip = {"/api/stream", "/api/export.jsonl", "/static/<path:filename>"}
    return sorted(r.rule for r in app.url_map.iter_rules() if "GET" in r.methods and not r.arguments
                  and r.rule not in skip)


def test_a_crawl_of_the_public_surface_finds_no_face_down_card(table):
    service, client, watcher = table
    a_battle_under_way(service, client)
    pages = {}
    for route in public_routes(client.application):
        reply = client.get(route)
        if reply.status_code == 200:
            pages[route] = reply.get_data(as_text=True)
    assert {"/", "/api/state", "/api/history", "/history"} <= set(pages), sorted(pages)
    stream = client.get("/api/stream")
    pages["/api/stream (first message)"] = next(stream.response).decode()
    stream.close()
    messages = []
    while not watcher.empty():
        messages.append(watcher.get_nowait())
    pages["published events"] = json.dumps(messages)
    assert len(messages) > 40
    for where, text in pages.items():
        for key in secrets():
            assert key not in text, f"{key} is in {where}"
        for uid in UIDS:
            assert uid not in text, f"the RFID tag {uid} is in {where}"
    # The verdicts are public, the cards not: the names of the secret cards are nowhere in the JSON.
    state, history = pages["/api/state"], pages["/api/history"]
    for name in ("Faith: Steadfast", "Wickedness: Greed", "Abinadi", "Morianton", "Helaman"):
        assert name not in state and name not in history and name not in pages["published events"], name
    assert "Ann's 2nd card is legal: laid face down." in history
    assert "Ann's card cannot be laid with Ann's cards in play" in history
    # What was turned face up is public.
    assert key_of("Sword") in state and key_of("Lib") in state


def test_each_seat_sees_its_own_cards_and_prophecy_only(table):
    service, client, _ = table
    a_battle_under_way(service, client)
    links = {link["seat"]: link["token"] for link in
             client.get("/api/seat-links", headers={"X-Table-PIN": service.pin}).get_json()["links"]}
    ann = json.dumps(client.get(f"/api/seat/{links[1]}").get_json())
    ben = json.dumps(client.get(f"/api/seat/{links[2]}").get_json())
    for key in secrets([1]):
        assert key in ann and key not in ben, key
    # Ann looked at Ben's facedown cards with Prophecy: she sees them, and so does Ben, nobody else.
    assert key_of("Wickedness: Greed") in ann
    for key in [key_of(n) for n in ("Zerahemnah", "Javelin", "Shield", "Amlici", "Morianton", "Shared")]:
        assert key in ben and key not in ann, key


def test_the_public_view_is_the_same_whatever_the_face_down_cards_are(tmp_path):
    """Two games that differ only in which legal card Ann laid face down: the public sees the same bytes."""
    def run(name, card):
        service = Service(tmp_path / name)
        service.start_game("warriors", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
        client = create_app(service).test_client()
        hand = ["Moroni", "Abinadi", "Lehi", card, "Arrow", "Plates"]
        for i, n in enumerate(hand):
            reader(service, 1, n, f"04A1{i:04d}")
        for n in BEN_HAND:
            tray(service, n)
        face_up(service, 1, "Moroni"), reader(service, 1, "Helaman", "04A1000A")
        face_up(service, 2, "Laman"), tray(service, "Amlici")
        reader(service, 1, card, "04A10003"), reader(service, 1, "Gid", "04A1000B")
        history = [{k: v for k, v in e.items() if k != "ts"} for e in client.get("/api/history").get_json()["entries"]]
        view = {k: v for k, v in client.get("/api/state").get_json()["view"].items() if k not in ("game_id", "started")}
        return json.dumps([history, view], sort_keys=True)

    assert run("a", "Sword") == run("b", "Liahona")


def test_the_raw_log_needs_the_pin(table):
    service, client, _ = table
    a_battle_under_way(service, client)
    reply = client.get("/api/export.jsonl")
    assert reply.status_code == 403 or key_of("Faith: Steadfast") not in reply.get_data(as_text=True)


def test_a_refused_command_does_not_tell_which_cards_lie_face_down():
    """Naming a face-down card of the opponent, or a card that is nowhere, gets the same answer."""
    table = prepare_battle({1: ["Helaman", "Escape", "Plates"], 2: ["Ammon", "Liahona", "Prayer"]})
    challenge(table, 2)
    table.show(1, "Escape"), table.show(2, "Liahona")
    asked = [table.refused("use", seat=1, card=key_of("Escape"), target=key_of(name))
             for name in ("Prayer", "Secret Combination")]   # face down in Ben's row / nowhere
    assert asked[0] == asked[1] and "revealed secondary cards" in asked[0]
