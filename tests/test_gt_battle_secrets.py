"""Secrets, tested on what the browser receives: every message the session publishes and the public
history, searched as JSON text for identities that were never exposed; and the seat views."""
from __future__ import annotations

import json
import re

import pytest

from companion.gamelog.session import Session, open_store
from tests.test_gt_battle_support import NAMES, identity_keys

IDENTITY_KEY = re.compile(r"\b(HERO|VILLAIN)#\d+")


def start(tmp_path, name: str) -> tuple[Session, object]:
    store = open_store(tmp_path / name)
    seats = [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 7)]
    session = Session.start(store, "gt-battle", seats, clock=lambda: 1000.0)
    return session, session.subscribe()


def published(session: Session, watcher) -> str:
    """All the browser got: every streamed message, then the history and the view it would load."""
    messages = []
    while not watcher.empty():
        messages.append(watcher.get_nowait())
    return json.dumps([messages, session.history(), session.public_view()])


def a_round_so_far(session: Session, teams: str) -> None:
    """Identities shown three ways, building turns, an EXPOSE of seat 5, a battle under way."""
    keys = identity_keys(teams)
    submit = session.submit
    for seat in (1, 2, 3):
        assert submit("card_seen", {"zone": f"reader:{seat}", "card": keys[seat - 1], "uid": f"04AA{seat:04d}"},
                      "rfid").ok
    for seat in (4, 5, 6):  # the covered scan tray, in turn
        assert submit("card_seen", {"zone": "tray", "card": keys[seat - 1], "hidden": True}, "camera").ok
    assert submit("card_seen", {"zone": "center", "card": "F3#1"}, "camera").ok
    assert submit("draw", {"seat": 2, "from": "deck"}).ok
    assert submit("card_seen", {"zone": "center", "card": "EXPOSE#1"}, "camera").ok
    assert submit("expose", {"target": 5}).ok
    # bad input on the way, refused: it must not leak either
    assert not submit("card_seen", {"zone": "reader:2", "card": keys[0]}, "rfid").ok
    assert not submit("card_seen", {"zone": "center", "card": keys[2]}, "camera").ok
    assert submit("draw", {"seat": 3, "from": "deck"}).ok
    assert submit("card_seen", {"zone": "center", "card": "BATTLE#1"}, "camera").ok
    assert submit("card_seen", {"zone": "center", "card": "F8#1"}, "camera").ok
    assert submit("resolve", {}, "auto").ok
    assert not submit("card_seen", {"zone": "center", "card": keys[0]}, "camera").ok  # Ann's card, on Dee's turn
    assert submit("pass", {"seat": 4}).ok


def test_no_unexposed_identity_reaches_the_browser(tmp_path):
    session, watcher = start(tmp_path, "a")
    a_round_so_far(session, "HVHVHV")
    text = published(session, watcher)
    assert IDENTITY_KEY.search(text) is None, IDENTITY_KEY.search(text)
    assert "04AA0001" not in text  # nor the RFID tag's UID, which a watcher could match to the card
    view = session.public_view()
    assert [s["identity"] for s in view["standings"]] == [None, None, None, None, "SUPERHERO", None]
    # No outcome about an unexposed player carries a team; the exposed one does (the control).
    outcomes = [o for entry in session.history() for o in entry["outcomes"]]
    for outcome in outcomes:
        about = outcome["data"].get("seat")
        if about in (1, 2, 3, 4, 6):
            assert not re.search("SUPERHERO|VILLAIN|superhero|villain", json.dumps(outcome)), outcome
    assert any(o["kind"] == "expose" and o["data"] == {"seat": 5, "team": "superhero", "by": 2} for o in outcomes)


def test_the_public_stream_does_not_depend_on_unexposed_identities(tmp_path):
    """Swap Ann's and Ben's cards (neither is exposed): the browser must get exactly the same bytes."""
    one, watch_one = start(tmp_path, "one")
    two, watch_two = start(tmp_path, "two")
    a_round_so_far(one, "HVHVHV")
    a_round_so_far(two, "VHHVHV")
    assert one.state.identity[1] != two.state.identity[1]
    assert published(one, watch_one) == published(two, watch_two)


def test_each_phone_sees_its_own_identity_and_hand_only(tmp_path):
    session, _ = start(tmp_path, "a")
    a_round_so_far(session, "HVHVHV")
    ann = session.seat_view(1)
    assert ann["you"] == {"seat": 1, "name": "Ann", "identity": "SUPERHERO", "identity_card": "HERO#1", "hand": 11,
                          "your_turn": False}
    assert session.seat_view(4)["you"]["identity"] == "VILLAIN" and not session.seat_view(4)["you"]["your_turn"]
    assert session.seat_view(5)["you"]["your_turn"]
    assert session.seat_view(3)["you"]["hand"] == 10  # drew the BATTLE card, placed it, played a single 8
    others = json.dumps({k: v for k, v in ann.items() if k != "you"})
    assert IDENTITY_KEY.search(others) is None and "VILLAIN" not in others


def test_identity_keys_are_redacted_in_every_zone(tmp_path):
    session, _ = start(tmp_path, "a")
    ruleset = session.ruleset
    for zone in ("reader:1", "tray", "center", "seat:2"):
        assert ruleset.redact("card_seen", {"zone": zone, "card": "VILLAIN#3", "uid": "04FF"}) == {"zone": zone}
    assert ruleset.redact("card_seen", {"zone": "center", "card": "F7#1"}) == {"zone": "center", "card": "F7#1"}


def test_undo_takes_back_a_pass_and_the_expose_is_marked_as_revealing(tmp_path):
    session, _ = start(tmp_path, "a")
    a_round_so_far(session, "HVHVHV")
    assert session.submit("undo", {}).ok  # Dee's pass can be taken back
    assert session.state.turn == 4
    entries = [e for e in session.history() if e["kind"] == "expose"]
    assert entries[0]["reveals"]


def test_an_exposed_identity_cannot_be_undone(tmp_path):
    session, _ = start(tmp_path, "a")
    keys = identity_keys("HVHVHV")
    for seat in range(1, 7):
        session.submit("card_seen", {"zone": f"reader:{seat}", "card": keys[seat - 1]}, "rfid")
    session.submit("card_seen", {"zone": "center", "card": "EXPOSE#1"}, "camera")  # dealer Ann chooses
    assert session.submit("expose", {"target": 2}).ok
    undo = session.submit("undo", {})
    assert not undo.ok and "showed hidden information" in undo.entry.reason
    assert session.public_view()["standings"][1]["identity"] == "VILLAIN"


@pytest.mark.parametrize("zone", ["reader:1", "tray"])
def test_the_registration_outcome_names_no_team(tmp_path, zone):
    """The tray serves Ben first (left of the dealer); reader 1 is Ann's."""
    session, watcher = start(tmp_path, "a")
    assert session.submit("card_seen", {"zone": zone, "card": "VILLAIN#1", "hidden": True}, "rfid").ok
    text = json.dumps(watcher.get_nowait())
    who = "Ann (seat 1)" if zone == "reader:1" else "Ben (seat 2)"
    assert "VILLAIN" not in text and f"{who} has shown their identity card privately (1 of 6" in text
