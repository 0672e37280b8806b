"""The session: append-then-apply, refusals that change nothing, undo as an event that never
crosses a reveal, restarts and replays that give the same state. Uses a tiny counting game so
these rules of the log are tested apart from any real game's rules (tests/tally_game.py)."""
import pytest

import companion.rules
from companion.gamelog.fold import fold
from companion.gamelog.session import LogError, Session, from_jsonl, to_jsonl
from companion.gamelog.store import Store
from tests.tally_game import Tally


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    store = Store(tmp_path / "companion.db")
    return Session.start(store, "tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])


def test_a_refused_input_is_logged_with_its_reason_and_changes_nothing(session):
    before = session.state
    result = session.submit("cheat", {"seat": 1})
    assert not result.ok and result.entry.reason == "cheat is not allowed in Tally"
    assert session.state == before
    assert session.history()[-1]["status"] == "refused"


def test_undo_takes_back_the_latest_command_then_the_one_before(session):
    session.submit("score", {"seat": 1})
    session.submit("score", {"seat": 2})
    session.submit("card_seen", {"zone": "seat:1", "card": "X#1"}, "camera")
    assert session.submit("undo").ok
    assert session.state["points"] == {"1": 1, "2": 0}
    assert session.state["seen"] == ["X#1"], "the camera's input is not a command and stays"
    assert session.submit("undo").ok
    assert session.state["points"] == {"1": 0, "2": 0}
    nothing = session.submit("undo")
    assert not nothing.ok and "nothing to undo" in nothing.entry.reason


def test_undo_of_an_older_command_by_number_is_refused(session):
    first = session.submit("score", {"seat": 1})
    session.submit("score", {"seat": 2})
    result = session.submit("undo", {"seq": first.event.seq})
    assert not result.ok and "only the latest command" in result.entry.reason
    assert session.state["points"] == {"1": 1, "2": 1}


def test_undo_never_crosses_a_reveal(session):
    session.submit("score", {"seat": 1})
    session.submit("peek", {})
    result = session.submit("undo")
    assert not result.ok and "hidden information" in result.entry.reason
    assert session.state["points"] == {"1": 1, "2": 0} and session.state["peeked"] == 1


def test_a_restart_resumes_exactly_where_the_game_stood(session, tmp_path):
    session.submit("score", {"seat": 2})
    session.submit("cheat", {})
    session.submit("score", {"seat": 1})
    session.submit("undo")
    resumed = Session.resume(Store(tmp_path / "companion.db"))
    assert resumed.state == session.state
    assert resumed.history() == session.history()


def test_an_exported_log_replays_to_the_same_state(session):
    session.submit("score", {"seat": 2})
    session.submit("undo")
    session.submit("score", {"seat": 1})
    replayed = fold(from_jsonl(to_jsonl(session.events())))
    assert replayed.state == session.state
    assert [e.status for e in replayed.entries] == ["applied", "undone", "undo", "applied"]


def test_watchers_receive_every_change_with_the_new_view(session):
    q = session.subscribe()
    session.submit("score", {"seat": 1})
    message = q.get_nowait()
    assert message["entry"]["kind"] == "score"
    assert message["view"]["standings"][0] == {"seat": 1, "points": 1}


def test_inputs_that_arrive_together_are_each_logged_and_told_together_with_the_view_after_them(session, monkeypatch):
    """One camera frame confirming a battle's cards: every entry reaches the watchers, in order, and
    the public view is worked out once for them all (it is the costly part of telling them)."""
    q = session.subscribe()
    views = []
    real_view = session.public_view
    monkeypatch.setattr(session, "public_view", lambda: views.append(1) or real_view())
    session.submit_all([("score", {"seat": 1}, "camera"), ("score", {"seat": 2}, "camera"),
                        ("score", {"seat": 1}, "camera")])
    told = [q.get_nowait() for _ in range(3)]
    assert [m["entry"]["seq"] for m in told] == [2, 3, 4]
    assert all(m["view"]["standings"][0] == {"seat": 1, "points": 2} for m in told)
    assert len(views) == 1
    assert [e.kind for e in session.events()] == ["start", "score", "score", "score"]


def test_a_log_must_begin_with_its_start_event():
    events = from_jsonl('{"kind": "resolve", "data": {}}\n')
    with pytest.raises(LogError, match="must begin with a 'start' event"):
        fold(events)


def test_a_hand_written_line_that_is_not_an_event_is_named_by_its_line_number():
    with pytest.raises(LogError, match="line 2"):
        from_jsonl('{"kind": "start", "data": {}}\nnot json\n', "mine.jsonl")


def test_a_referee_bug_refuses_the_input_and_never_bricks_the_log(session, tmp_path):
    """Bad input never corrupts a game: even an input that trips a bug in a ruleset is refused,
    the state is unchanged, and the log still replays after a restart."""
    session.submit("score", {"seat": 1})
    before = session.state
    result = session.submit("boom", {})
    assert not result.ok and "could not take this input" in result.entry.reason
    assert session.state == before
    resumed = Session.resume(Store(tmp_path / "companion.db"))
    assert resumed.state == before and resumed.history()[-1]["status"] == "refused"


def test_a_seats_page_shows_its_own_three_latest_refusals_oldest_first(tmp_path, toy_game):
    session = Session.start(Store(tmp_path / "c.db"), toy_game, [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    session.submit("card_seen", {"card": "N9#1", "zone": "seat:1"}, "camera")
    for n in (2, 3, 4, 5):  # Ann lays again: refused, for her
        session.submit("card_seen", {"card": f"N{n}#1", "zone": "seat:1"}, "camera")
    session.submit("card_seen", {"card": "N6#1", "zone": "seat:2"}, "camera")  # Ben's card, taken
    mine = session.seat_view(1)["refused"]
    assert [r["seq"] for r in mine] == [4, 5, 6]
    assert mine[0] == {"seq": 4, "kind": "card_seen", "reason": "Ann has already laid a card this battle."}
    assert session.seat_view(2)["refused"] == []
