"""Snapshots are only a cache: a game resumed or undone from a snapshot is exactly the game that
folding its whole log gives (``fold`` is the reference), and a snapshot that does not fit the
running code or does not decode is ignored, never an error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import companion.rules
import companion.gamelog.snapshots
from companion.service import Service
from companion.gamelog.fold import fold
from companion.gamelog.session import Session, from_jsonl
from companion.gamelog.store import Store
from tests.tally_game import Tally

LOGS = sorted((Path(__file__).parent / "logs").rglob("*.jsonl"))
TABLE = {"card_seen", "card_gone"}


def same_game(session: Session) -> None:
    """The session's game is the one folding its whole log from the start gives."""
    reference = fold(session.events())
    assert session.derived.state == reference.state
    assert session.derived.entries == reference.entries


def open_log(store: Store, events) -> Session:
    store.db.execute("PRAGMA synchronous=OFF")  # this test needs no power-cut safety, only speed
    game_id = store.new_game(events[0].data["game"])
    store.append(game_id, "start", events[0].data, events[0].source, events[0].ts)
    return Session(store, game_id)


def with_undos(events, every: int):
    """The log with an undo (None) after every ``every``-th event, now and then two in a row."""
    out = []
    for n, event in enumerate(events, 1):
        out.append(event)
        if n % every == 0:
            out += [None] * (1 + (n // every) % 3 // 2)
    return out


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_undos_anywhere_in_a_real_game_give_what_folding_from_the_start_gives(path, tmp_path, monkeypatch):
    monkeypatch.setattr(companion.gamelog.snapshots, "EVERY", 7)
    events = from_jsonl(path.read_text(encoding="utf-8"), str(path))
    session = open_log(Store(tmp_path / "companion.db"), events)
    undos = 0
    for event in with_undos(events[1:], every=max(2, len(events) // 16)):
        if event is None:
            session.submit("undo")
            undos += 1
            if undos in (1, 2, 5, 9):  # the reference is slow: fold re-folds the log at every undo
                same_game(session)
        else:
            session.submit(event.kind, event.data, event.source)
    assert undos >= 6
    refused = [e.reason for e in session.derived.entries if e.event.kind == "undo" and e.status == "refused"]
    assert len(refused) < undos or all("hidden information" in r for r in refused)
    same_game(session)


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_restart_after_snapshots_resumes_the_same_game(path, tmp_path, monkeypatch):
    monkeypatch.setattr(companion.gamelog.snapshots, "EVERY", 3)
    events = from_jsonl(path.read_text(encoding="utf-8"), str(path))
    store = Store(tmp_path / "companion.db")
    session = open_log(store, events)
    from_snapshots = 0
    for n, event in enumerate(with_undos(events[1:], every=max(4, len(events) // 12)), 1):
        if event is None:
            session.submit("undo")
        else:
            session.submit(event.kind, event.data, event.source)
        if n % max(3, len(events) // 8) == 0:
            session.snapshots.flush()
            resumed = Session(Store(tmp_path / "companion.db"), session.game_id)
            from_snapshots += resumed.snapshots.resumed_from > 0
            assert resumed.derived.state == session.derived.state
            assert resumed.derived.entries == session.derived.entries
    assert from_snapshots >= 3, "restarts started from snapshots"
    same_game(session)


# -- the rules of the cache, with a tiny counting game ----------------------------------------------
@pytest.fixture
def tally(tmp_path, monkeypatch):
    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    monkeypatch.setattr(companion.gamelog.snapshots, "EVERY", 4)
    store = Store(tmp_path / "companion.db")
    return Session.start(store, "tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])


def score(session: Session, times: int) -> None:
    for n in range(times):
        session.submit("score", {"seat": 1 + n % 2})


def reopen(session: Session) -> Session:
    session.snapshots.flush()
    return Session(Store(session.store.path), session.game_id)


def test_a_restart_folds_only_the_events_after_the_latest_snapshot(tally):
    score(tally, 10)  # 11 events: snapshots at 4 and 8
    resumed = reopen(tally)
    assert resumed.store.snapshot_seqs(tally.game_id) == [8, 4]
    assert resumed.snapshots.resumed_from == 8
    assert resumed.state == tally.state == {"points": {"1": 5, "2": 5}, "peeked": 0, "seen": []}


def test_an_undo_before_a_snapshot_drops_it_in_memory_and_in_the_table(tally):
    score(tally, 6)   # events 2..7, a snapshot at 4
    tally.submit("card_seen", {"zone": "seat:1", "card": "X#1"}, "camera")   # 8: a snapshot at 8
    tally.snapshots.flush()
    assert tally.store.snapshot_seqs(tally.game_id) == [8, 4]
    tally.submit("undo")            # 9: takes back #7, the latest command
    assert [s.seq for s in tally.snapshots.kept] == [4]
    assert tally.store.snapshot_seqs(tally.game_id) == [4]
    assert tally.state == {"points": {"1": 3, "2": 2}, "peeked": 0, "seen": ["X#1"]}
    same_game(tally)


def test_a_snapshot_an_undo_did_not_drop_is_never_the_start_of_a_later_undo(tally):
    """A crash between an undo and the dropping of the snapshots after the undone event leaves a
    snapshot folded with that event applied. It is still true of its part of the log (a restart may
    start from it and fold the undo again), but a later undo must not start from it."""
    score(tally, 6)                                                          # 2..7
    tally.submit("card_seen", {"zone": "seat:1", "card": "X#1"}, "camera")   # 8: a snapshot at 8
    tally.snapshots.flush()
    stale = tally.store.load_snapshot(tally.game_id, 8)
    tally.submit("undo")                                                     # 9: undoes #7
    assert tally.store.snapshot_seqs(tally.game_id) == [4]
    tally.store.save_snapshot(tally.game_id, 8, *stale)              # as if never dropped
    resumed = reopen(tally)
    assert resumed.snapshots.resumed_from == 8
    same_game(resumed)
    resumed.store.save_snapshot(tally.game_id, 8, *stale)
    score(resumed, 1)                                                        # 10, a snapshot at 10
    resumed.submit("undo")                                                   # 11: undoes #10
    assert resumed.state == {"points": {"1": 3, "2": 2}, "peeked": 0, "seen": ["X#1"]}, \
        "the stale snapshot at 8 still counts #7"
    same_game(resumed)


def test_a_snapshot_folded_by_other_code_is_ignored_and_deleted(tally):
    score(tally, 9)
    tally.snapshots.flush()
    tally.store.db.execute("UPDATE snapshots SET fingerprint = 'older code' WHERE seq = 8")
    resumed = reopen(tally)
    assert resumed.snapshots.resumed_from == 4
    resumed.snapshots.flush()
    assert resumed.store.load_snapshot(tally.game_id, 8)[0] != "older code", "deleted, then taken again"
    same_game(resumed)


@pytest.mark.parametrize("column, value", [
    ("state", "not json"),
    ("state", json.dumps({"type": "os:system", "value": {}})),
    ("state", json.dumps({"type": "companion.gamelog.session:Session", "value": {}})),
    ("entries", "[1, 2, 3]"),
    ("entries", json.dumps(["applied"] * 3)),   # not as many entries as events
])
def test_a_snapshot_that_does_not_decode_is_ignored_and_deleted(tally, column, value):
    score(tally, 9)
    tally.snapshots.flush()
    tally.store.db.execute(f"UPDATE snapshots SET {column} = ? WHERE seq = 8", (value,))
    resumed = reopen(tally)
    assert resumed.snapshots.resumed_from == 4
    resumed.snapshots.flush()
    assert value not in resumed.store.load_snapshot(tally.game_id, 8), "deleted, then taken again"
    same_game(resumed)


def test_a_snapshot_stores_only_the_entries_since_the_one_before(tally):
    """So that taking one costs the same late in a long game as early, and a game's snapshots
    hold each entry once."""
    score(tally, 30)
    tally.snapshots.flush()
    seqs = tally.store.snapshot_seqs(tally.game_id)
    assert seqs == [28, 24, 20, 16, 12, 8, 4]
    stored = [json.loads(tally.store.load_snapshot(tally.game_id, seq)[2]) for seq in seqs]
    assert [s["after"] for s in stored] == [24, 20, 16, 12, 8, 4, 0]
    assert all(len(s["entries"]) == 4 for s in stored)
    resumed = reopen(tally)
    assert resumed.snapshots.resumed_from == 28
    same_game(resumed)


def test_a_snapshot_whose_earlier_entries_are_gone_is_ignored(tally):
    score(tally, 9)
    tally.snapshots.flush()
    tally.store.drop_snapshots(tally.game_id, 4, 4)
    resumed = reopen(tally)
    assert resumed.snapshots.resumed_from == 0
    same_game(resumed)


def test_the_service_keeps_a_snapshot_at_shutdown(tmp_path, monkeypatch):
    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    service = Service(tmp_path)
    session = service.start_game("tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    score(session, 3)
    service.stop()
    assert service.store.snapshot_seqs(session.game_id) == [4]
    again = Service(tmp_path)
    assert again.session.snapshots.resumed_from == 4 and again.session.state == session.state


def test_a_game_with_a_typed_state_resumes_from_its_snapshots(tmp_path, monkeypatch):
    """Warriors keeps a dataclass state (int seat keys, enums, nested dataclasses): a restart
    decodes it from the snapshot to exactly the game its log folds to."""
    from companion import rules
    from companion.rules.demo import play_direct

    monkeypatch.setattr(companion.gamelog.snapshots, "EVERY", 25)
    demo = rules.demo_players("warriors")(2, 1)
    players, options = demo.start()
    session = Session.start(Store(tmp_path / "companion.db"), "warriors", players, options)
    session.store.db.execute("PRAGMA synchronous=OFF")  # speed only
    play_direct(demo, session)
    resumed = reopen(session)
    stored = json.loads(resumed.store.load_snapshot(session.game_id, resumed.snapshots.resumed_from)[1])
    assert stored["type"] == "companion.rules.warriors.state:WarriorsState"
    assert resumed.snapshots.resumed_from > len(session.derived.entries) - 25
    assert resumed.derived.state == session.derived.state
    same_game(resumed)


def damaged_bom_game(tmp_path, damage) -> Path:
    """The 630-event Book of Mormon game, served and stopped (a snapshot at its end), then ``damage``
    applied to the stored snapshots' text (game_id, seq, state, entries) -> new (state, entries)."""
    from companion.cli import main

    data = tmp_path / "data"
    assert main(["import", str(Path(__file__).parent / "logs/bom/basic-3-seats.jsonl"), "--data", str(data)]) == 0
    service = Service(data)
    service.stop()
    db = service.store.db
    for game_id, seq, state, entries in db.execute("SELECT game_id, seq, state, entries FROM snapshots").fetchall():
        changed = damage(seq, state, entries)
        if changed != (state, entries):
            json.loads(changed[0]), json.loads(changed[1])  # still JSON: only the digest can tell
            db.execute("UPDATE snapshots SET state = ?, entries = ? WHERE game_id = ? AND seq = ?",
                       (*changed, game_id, seq))
    service.store.close()
    return data


def test_a_snapshot_damaged_so_that_it_still_parses_is_ignored_and_reported(tmp_path, caplog):
    """Six flags flipped inside the latest snapshot (two seats back in the game, their armies
    refilled): it still parses and decodes to a game, but not to the game the log gives."""
    def flip(seq, state, entries):
        if seq != 630:
            return state, entries
        flipped = state.replace('"out":true', '"out":false').replace('"army":0,', '"army":9,')
        assert flipped.count("false") - state.count("false") == 2
        return flipped.replace('"over":true', '"over":false'), entries
    data = damaged_bom_game(tmp_path, flip)
    resumed = Service(data)
    reference = fold(resumed.store.events(1))
    assert resumed.session.public_view()["standings"] == reference.ruleset.public_view(reference.state)["standings"]
    assert resumed.session.snapshots.resumed_from == 600, "the damaged one is skipped for the one before"
    assert resumed.session.ruleset.is_over(resumed.session.state)
    assert "snapshot of game 1 at #630 ignored: damaged" in caplog.text
    same_game(resumed.session)
    resumed.stop()


def test_a_damaged_entry_in_an_earlier_snapshot_is_never_trusted(tmp_path, caplog):
    """The latest snapshot gathers its entries along the chain of the earlier ones: a refusal
    turned into an applied input in the one at #200 must not reach the game's history."""
    def flip(seq, state, entries):
        return (state, entries.replace('"refused"', '"applied"', 1)) if seq == 200 else (state, entries)
    data = damaged_bom_game(tmp_path, flip)
    resumed = Service(data)
    assert resumed.session.snapshots.resumed_from < 200
    assert "damaged" in caplog.text
    same_game(resumed.session)
    resumed.stop()
