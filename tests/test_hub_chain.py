"""The hub's chain of results under undo, without a broker: a table plays and undoes, its publisher's
messages reach the hub's store late, twice, out of order or not at all, and the hub ends up holding
exactly what the table shows, as if the undone inputs had never happened."""
from __future__ import annotations

import random

import pytest

from companion.hub import chain
from companion.hub.broker import Broker
from companion.hub.publisher import HubPublisher
from companion.hub.standings import standings
from companion.hub.store import HubStore
from companion.service import Service
from tests.test_stratego_support import army


class Wire:
    """A table's publisher and a hub's store joined by a wire that loses, repeats, delays and
    reorders messages (``rng``), and acknowledgements that come back only now and then."""

    def __init__(self, folder, rng: random.Random | None):
        self.service = Service(folder / "table")
        self.session = self.service.start_game("stratego", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
        for seat, colour in ((1, "red"), (2, "blue")):
            for card in army(colour):
                assert self.session.submit("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera").ok
        self.setup = self.session.derived.entries[-1].event.seq  # the armies checked: two results of their own
        self.publisher = HubPublisher(self.service, Broker.parse("mqtt://127.0.0.1:1"), "t1")  # never connected
        self.store = HubStore(folder / "hub" / "hub.db")
        self.rng = rng
        self.in_flight: list[dict] = []

    def send(self, kind: str, data: dict) -> None:
        self.session.submit(kind, data)
        self.in_flight += [m for _, m in self.publisher.pending()]
        if self.rng is None:
            self.deliver_all()
            return
        self.rng.shuffle(self.in_flight)
        keep = []
        for message in self.in_flight:
            roll = self.rng.random()
            if roll < 0.4:
                self.store.add_result("t1", message)
                if self.rng.random() < 0.3:
                    keep.append(message)  # delivered, and a copy still on its way
            elif roll < 0.55:
                pass  # lost: the table publishes it again until it is acknowledged
            else:
                keep.append(message)  # late
        self.in_flight = keep
        if self.rng.random() < 0.5:
            self.acknowledge()

    def acknowledge(self) -> None:
        self.publisher.outbox.ack(*self.store.acked("t1"))

    def deliver_all(self) -> None:
        """Every late copy arrives (in any order), then the table resends until the hub holds all."""
        for message in self.in_flight:
            self.store.add_result("t1", message)
        self.in_flight = []
        for _ in range(10):
            self.acknowledge()
            pending = [m for _, m in self.publisher.pending()]
            if not pending:
                return
            for message in pending:
                self.store.add_result("t1", message)
        raise AssertionError("the table still has links to publish after ten rounds")

    def table_results(self) -> list[tuple[int, list[str]]]:
        """(seq, sentences) of every result in the table's own history, as its players see it."""
        return [(e["seq"], [o["say"] for o in e["outcomes"]]) for e in self.session.history()
                if e["status"] == "applied" and e["outcomes"]]

    def hub_results(self) -> list[tuple[int, list[str]]]:
        return [(r["seq"], [o["say"] for o in r["outcomes"]]) for r in self.store.results("t1") if r["kind"] == "result"]

    def hub_play(self) -> list[tuple[int, list[str]]]:
        """The hub's results after the armies were checked: the play."""
        return [r for r in self.hub_results() if r[0] > self.setup]

    def table_play(self) -> list[tuple[int, list[str]]]:
        return [r for r in self.table_results() if r[0] > self.setup]

    def hub_end(self) -> list[list[str]]:
        return [r["winner"] for r in self.store.results("t1") if r["kind"] == "game_end"]

    def close(self) -> None:
        self.store.close()
        self.service.stop()


@pytest.fixture
def wire(tmp_path):
    made = []

    def make(rng=None):
        made.append(Wire(tmp_path / str(len(made)), rng))
        return made[-1]

    yield make
    for w in made:
        w.close()


def test_an_undone_move_leaves_the_hub(wire):
    w = wire()
    w.send("move", {"seat": 1})
    w.send("move", {"seat": 2})
    assert len(w.hub_play()) == 2
    w.send("undo", {})
    assert w.hub_play() == w.table_play() and [says for _, says in w.hub_play()] == [["Red moved. Blue to play."]]


def test_an_input_refused_before_an_undo_and_applied_after_it_reaches_the_hub(wire):
    """Red taps "move" twice: the second is refused (it is Blue's turn). The first is undone; the
    log re-derived without it, the second tap now applies: the retraction carries a result from
    inside its reach that the hub never had."""
    w = wire()
    w.send("move", {"seat": 1})
    first = w.hub_play()[0][0]
    w.send("move", {"seat": 1})   # refused: it is Blue's turn
    assert len(w.hub_play()) == 1
    w.send("undo", {})            # takes back the first; the second now applies
    assert w.hub_play() == w.table_play() == [(first + 1, ["Red moved. Blue to play."])]
    w.send("undo", {})            # takes back the one that applied on re-derivation: an undo inside the last one's reach
    assert w.hub_play() == w.table_play() == []


def test_an_undone_resignation_no_longer_counts_and_another_end_does(wire):
    w = wire()
    w.send("resign", {"seat": 2})
    assert w.hub_end() == [["Ann"]]
    w.send("undo", {})
    assert w.hub_end() == [] and standings(w.store.results()) == {}
    w.send("resign", {"seat": 1})
    assert w.hub_end() == [["Ben"]]
    rows = standings(w.store.results())["stratego"]
    assert [(r["player"], r["won"], r["played"]) for r in rows] == [("Ben", 1, 1), ("Ann", 0, 1)]


@pytest.mark.parametrize("seed", range(12))
def test_whatever_the_wire_does_the_hub_ends_with_what_the_table_shows(wire, seed):
    """Random play with undos (moves, taps out of turn, resignations taken back), every message
    lost, repeated, delayed or reordered at random, stale copies arriving after the undo that took
    them back: once the wire has delivered everything, the hub holds the table's results, each once."""
    rng = random.Random(seed)
    w = wire(rng)
    kept = chain.Chain()  # kept up to date input by input, as the publisher keeps it
    for _ in range(40):
        roll = rng.random()
        if roll < 0.5:
            w.send("move", {"seat": rng.choice((1, 2))})
        elif roll < 0.85:
            w.send("undo", {})
        else:
            w.send("resign", {"seat": rng.choice((1, 2))})
        entries, over = w.session.derived.entries, w.session.public_view()["over"]
        assert kept.update(entries, over).all() == chain.links(entries, over)  # the same as folded afresh
    w.deliver_all()
    assert w.hub_results() == w.table_results()
    view = w.session.public_view()
    assert len(w.hub_end()) == (1 if view["over"] else 0)
    acked, undone = w.store.acked("t1")
    links = chain.links(w.session.derived.entries, view["over"])
    assert acked[w.session.game_id] == links[-1].seq  # the hub holds the whole chain, unbroken


def test_a_stale_copy_arriving_after_the_retraction_is_refused(tmp_path):
    store = HubStore(tmp_path / "hub.db")
    link = lambda seq, prev, at, kind="result", **more: {"game_id": 1, "seq": seq, "prev": prev, "kind": kind,  # noqa: E731
                                                         "game": "stratego", "at": at, **more}
    store.add_result("t1", link(4, 0, 4))
    store.add_result("t1", link(9, 4, 9))
    store.add_result("t1", link(chain.END_SEQ, 9, 10, "game_end", winner=["Ann"], players=["Ann", "Ben"]))
    assert store.acked("t1") == ({1: chain.END_SEQ}, {})
    # #9 ended the game and #11 undid it: the hub drops #9 and the end, keeps #4.
    assert store.add_result("t1", link(11, 4, 11, "retract", **{"from": 9, "results": []}))
    assert [r["seq"] for r in store.results("t1")] == [4]
    assert store.acked("t1") == ({1: 11}, {1: 11})
    assert not store.add_result("t1", link(9, 4, 9))                     # a copy of #9 still on its way
    assert not store.add_result("t1", link(chain.END_SEQ, 9, 10, "game_end", winner=["Ann"]))
    assert not store.add_result("t1", link(11, 4, 11, "retract", **{"from": 9, "results": []}))  # twice
    assert store.add_result("t1", link(chain.END_SEQ, 11, 12, "game_end", winner=["Ben"], players=["Ann", "Ben"]))
    assert [r.get("winner") for r in store.results("t1")] == [None, ["Ben"]]
    store.close()


def test_a_hub_database_from_before_retractions_is_kept(tmp_path):
    """A hub.db written before links said where they were derived: opened, its results stay, and a
    retraction applies to them."""
    import json
    import sqlite3

    db = sqlite3.connect(tmp_path / "hub.db")
    db.executescript("""CREATE TABLE tables (name TEXT PRIMARY KEY, online INTEGER NOT NULL DEFAULT 0,
        last_seen REAL, view TEXT, health TEXT);
        CREATE TABLE results (tbl TEXT NOT NULL, game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
        prev INTEGER NOT NULL, kind TEXT NOT NULL, game TEXT NOT NULL, sent REAL, received REAL NOT NULL,
        body TEXT NOT NULL, PRIMARY KEY (tbl, game_id, seq));""")
    for seq, prev in ((4, 0), (9, 4)):
        body = {"game_id": 1, "seq": seq, "prev": prev, "kind": "result", "game": "stratego", "outcomes": []}
        db.execute("INSERT INTO results VALUES ('t1', 1, ?, ?, 'result', 'stratego', 0, 0, ?)", (seq, prev, json.dumps(body)))
    db.commit()
    db.close()
    store = HubStore(tmp_path / "hub.db")
    assert [r["seq"] for r in store.results("t1")] == [4, 9] and store.acked("t1") == ({1: 9}, {})
    store.add_result("t1", {"game_id": 1, "seq": 12, "prev": 4, "kind": "retract", "game": "stratego", "at": 12,
                            "from": 9, "results": []})
    assert [r["seq"] for r in store.results("t1")] == [4] and store.acked("t1") == ({1: 12}, {1: 12})
    store.close()
