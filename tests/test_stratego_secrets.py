"""Secrets, tested on what the browser receives: every message the session publishes and the public
history, searched as JSON text for ranks that were never revealed."""
from __future__ import annotations

import json
import re

import pytest

from companion.gamelog.session import Session, open_store
from tests.test_stratego_support import army

# A tag key names a rank: R10#1 is Red's Marshal, BB#3 a Blue Bomb.
TAG_KEY = re.compile(r"\b[RB](10|[2-9]|S|B|F)#\d+")


@pytest.fixture
def game(tmp_path):
    """A game under the variant "the defender only reveals their piece if it's defeated, or If it
    is attacked by a Scout", with a watcher subscribed before the first scan."""
    store = open_store(tmp_path)
    session = Session.start(store, "stratego", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}],
                            {"reveal": "defeated_or_scout"})
    watcher = session.subscribe()
    for seat, colour in ((1, "red"), (2, "blue")):
        for card in army(colour):
            assert session.submit("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera").ok
    yield session, watcher
    store.close()


def published(session: Session, watcher) -> str:
    """All the browser got: every streamed message, then the history and the view it would load."""
    messages = []
    while not watcher.empty():
        messages.append(watcher.get_nowait())
    return json.dumps([messages, session.history(), session.public_view()])


def test_hidden_ranks_never_reach_the_browser(game):
    session, watcher = game
    # Combat 1: Red's Lieutenant attacks a Blue Bomb and loses; the Bomb is not defeated and not
    # attacked by a Scout, so it stays hidden.
    assert session.submit("card_seen", {"zone": "tray", "card": "R5#1"}, "camera").ok
    assert session.submit("card_seen", {"zone": "tray", "card": "BB#1"}, "camera").ok
    # Combat 2, on the readers: Blue's General attacks Red's Marshal and loses; the Marshal stays hidden.
    assert session.submit("card_seen", {"zone": "reader:2", "card": "B9#1", "uid": "04A1B2C3", "hidden": True}, "rfid").ok
    assert session.submit("card_seen", {"zone": "reader:1", "card": "R10#1", "uid": "04D4E5F6", "hidden": True}, "rfid").ok
    # Red scans a Miner as an attacker, then calls the attack off: nothing is revealed.
    assert session.submit("card_seen", {"zone": "tray", "card": "R3#1"}, "camera").ok
    assert session.submit("cancel", {"seat": 1}).ok
    # Bad input, refused: a Red Bomb as an attacker, a Blue piece on Red's turn.
    assert not session.submit("card_seen", {"zone": "tray", "card": "RB#2"}, "camera").ok
    assert not session.submit("card_seen", {"zone": "tray", "card": "B2#4"}, "camera").ok

    text = published(session, watcher)
    assert TAG_KEY.search(text) is None, TAG_KEY.search(text)
    assert "04A1B2C3" not in text and "04D4E5F6" not in text
    for secret in ("Bomb", "Marshal", "Miner", '"rank": "B"', '"rank": "10"', '"rank": "3"'):
        assert secret not in text, secret
    # The search does find what was revealed, so it would find a leak too.
    for shown in ("Red's Lieutenant (5) attacked a Blue piece and lost", "Blue's General (9)", '"rank": "5"'):
        assert shown in text, shown


def test_seat_views_hold_what_the_public_may_not_see(game):
    session, watcher = game
    session.submit("card_seen", {"zone": "tray", "card": "R5#1"}, "camera")
    session.submit("card_seen", {"zone": "tray", "card": "BB#1"}, "camera")
    blue, red = json.dumps(session.seat_view(2)), json.dumps(session.seat_view(1))
    assert "Blue's Bomb (B)" in blue       # Blue knows what stopped the Lieutenant
    assert "Bomb (B)" not in red and "Blue's Bomb" not in red
    assert '"enemy_known": {"lost": {}, "lost_unknown": 0, "in_play": {}}' in red


def test_undo_stops_at_a_revealing_combat(game):
    """"Undo is allowed only until a hidden rank has been shown, never across it." """
    session, watcher = game
    assert session.submit("move", {"seat": 1}).ok
    assert session.submit("undo").ok                      # nothing shown yet: a move can be taken back
    assert session.public_view()["turn_colour"] == "red"
    session.submit("card_seen", {"zone": "tray", "card": "R5#1"}, "camera")
    combat = session.submit("card_seen", {"zone": "tray", "card": "B7#1"}, "camera")
    assert combat.entry.reveals
    assert session.submit("move", {"seat": 2}).ok
    assert session.submit("undo").ok                      # Blue's move after the combat: fine
    refusal = session.submit("undo")
    assert not refusal.ok and "cannot undo across" in refusal.entry.reason
    combats = session.public_view()["combats"]
    assert [(c["attacker"]["name"], c["defender"]["name"], c["winner"]) for c in combats] == [
        ("Lieutenant", None, "defender")]          # the combat stands, the winning Major still hidden


def test_history_entries_carry_no_card_or_uid(game):
    session, _ = game
    for entry in session.history():
        if entry["kind"] in ("card_seen", "card_gone"):
            assert "card" not in entry["data"] and "uid" not in entry["data"]
            assert entry["data"]["zone"].startswith(("seat:", "tray", "reader:"))


def test_seat_view_for_a_wrong_seat_is_an_error(game):
    session, _ = game
    with pytest.raises(ValueError, match="no seat 3"):
        session.seat_view(3)


def test_the_dashboard_endpoints_keep_the_secret(tmp_path):
    """Through the Flask app: the public endpoints never name the hidden Bomb; Blue's seat link does;
    Red's does not; a seat link of an earlier game opens nothing."""
    from companion.web.app import create_app
    from companion.service import Service

    service = Service(tmp_path / "data")
    seats = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]
    earlier = service.start_game("stratego", seats)
    old_token = service.seat_token(earlier.game_id, 2)
    session = service.start_game("stratego", seats, {"reveal": "defeated_or_scout"})
    for seat, colour in ((1, "red"), (2, "blue")):
        for card in army(colour):
            service.table_input("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera")
    service.table_input("card_seen", {"zone": "tray", "card": "R5#1"}, "camera")
    service.table_input("card_seen", {"zone": "tray", "card": "BB#1"}, "camera")
    client = create_app(service).test_client()

    public = client.get("/api/state").get_data(as_text=True) + client.get("/api/history").get_data(as_text=True)
    assert "Lieutenant" in public and "Bomb" not in public and TAG_KEY.search(public) is None
    blue = client.get(f"/api/seat/{service.seat_token(session.game_id, 2)}").get_json()
    red = client.get(f"/api/seat/{service.seat_token(session.game_id, 1)}").get_json()
    assert "Blue's Bomb (B)" in json.dumps(blue) and "Blue's Bomb" not in json.dumps(red)
    assert client.get(f"/api/seat/{old_token}").status_code == 403
    service.close()


def test_a_bomb_lifted_as_an_attacker_is_refused_without_telling_the_table_it_never_moves(game):
    """"There are also seven non-moving pieces": Red lifting a Bomb as an attacker is refused, but
    the words "never moves" would tell Blue the piece is a Bomb or the Flag. The table and Blue read
    only that no attack began; Red's own page says why."""
    session, watcher = game
    refused = session.submit("card_seen", {"zone": "tray", "card": "RB#2"}, "camera")
    assert not refused.ok
    assert refused.entry.reason == "Red's scan did not start an attack; Red, see your page for why"
    assert "never moves" not in published(session, watcher)
    assert "never moves" not in json.dumps(session.seat_view(2))
    assert session.seat_view(1)["refused"][-1]["reason"] == (
        "that piece never moves, so it cannot attack ('There are also seven non-moving pieces')")
