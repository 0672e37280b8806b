"""A hub no table can break: a message of a shape the hub cannot read (a view that is a list,
seats that are numbers, a winner that is a number, a number JSON cannot hold...) is logged and
dropped before it is stored, so `/api/tables`, `/api/standings` and `/api/pairings` answer for
every other table, also after a restart; the next round's pairings come back at once however the
players have met."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hub import standings
from companion.hub.broker import Broker
from companion.hub.server import Hub, create_hub_app

END = 2**31 - 1
GOOD_END = {"table": "t1", "game_id": 1, "seq": END, "prev": 0, "kind": "game_end", "game": "stratego",
            "players": ["Ann", "Ben"], "at": 9, "winner": ["Ann"], "standings": []}
GOOD_VIEW = {"table": "t1", "view": {"game": "stratego", "title": "Stratego", "over": False,
                                     "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]}}


def hub_at(folder) -> Hub:
    return Hub(Broker.parse("mqtt://127.0.0.1:1"), folder)  # never started: messages are handed to it


def send(hub: Hub, table: str, leaf: str, payload) -> None:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    hub._on_message(None, None, SimpleNamespace(topic=f"companion/tables/{table}/{leaf}", payload=raw))


def pages_answer(hub: Hub) -> dict:
    client = create_hub_app(hub).test_client()
    answers = {}
    for route in ("/api/tables", "/api/standings", "/api/pairings"):
        reply = client.get(route)
        assert reply.status_code == 200, (route, reply.get_data(as_text=True)[-300:])
        answers[route] = reply.get_json()
    return answers


BAD = [
    ("view", {"table": "bad", "view": [1, 2]}),
    ("view", [1]),
    ("view", {"table": "bad", "view": {"game": "stratego", "seats": [1, 2]}}),
    ("view", {"table": "bad", "view": {"title": {"text": "x"}, "standings": "Ann"}}),
    ("view", b'{"table": "bad", "view": {"game": "stratego", "over": 1e999}}'),
    ("health", {"health": "all fine"}),
    ("health", "5"),
    ("result", {**GOOD_END, "winner": 7}),
    ("result", {**GOOD_END, "players": [1, 2], "winner": [1]}),
    ("result", {**GOOD_END, "game_id": "1"}),
    ("result", {**GOOD_END, "game_id": 2**70}),
    ("result", {**GOOD_END, "game": 5}),
    ("result", {**GOOD_END, "seq": 4, "kind": "result", "outcomes": "Ann won"}),
    ("result", {**GOOD_END, "seq": 4, "kind": "result", "outcomes": [{"say": ["Ann", "won"]}]}),
    ("result", {**GOOD_END, "seq": 5, "kind": "retract", "from": 2, "say": "Undid #4.", "results": [5]}),
    ("result", b'{"game_id": 1, "seq": 3, "prev": 0, "kind": "result", "game": "stratego", "sent": 1e999, '
               b'"outcomes": []}'),
    ("result", b"\xff\xfe not text"),
]


@pytest.mark.parametrize("leaf, payload", BAD, ids=[f"{leaf}-{n}" for n, (leaf, _) in enumerate(BAD)])
def test_a_message_the_hub_cannot_read_is_logged_and_dropped_and_never_comes_back(tmp_path, caplog, leaf, payload):
    hub = hub_at(tmp_path)
    send(hub, "t1", "view", GOOD_VIEW)
    send(hub, "t1", "result", GOOD_END)
    before = pages_answer(hub)
    send(hub, "bad", leaf, payload)
    assert "table bad sent a" in caplog.text
    assert pages_answer(hub) == before, "nothing of it was stored"
    hub.store.close()
    again = hub_at(tmp_path)
    assert pages_answer(again) == before, "nor is anything of it there after a restart"
    again.store.close()


def test_what_an_older_hub_stored_unchecked_is_dropped_at_the_start(tmp_path, caplog):
    hub = hub_at(tmp_path)
    send(hub, "t1", "view", GOOD_VIEW)
    send(hub, "t1", "result", GOOD_END)
    before = pages_answer(hub)
    db = hub.store.db
    db.execute("INSERT INTO tables (name, online, view) VALUES ('t2', 1, '[1, 2]')")
    db.execute("INSERT INTO tables (name, online, view, health) VALUES ('t3', 1, ?, 'Infinity')",
               (json.dumps({"game": "stratego", "seats": [1, 2]}),))
    body = {**GOOD_END, "winner": 7, "table": "t2"}
    db.execute("INSERT INTO results VALUES ('t2', 1, ?, 0, 'game_end', 'stratego', 0, 0, ?, 9, NULL)",
               (END, json.dumps(body)))
    hub.store.close()
    again = hub_at(tmp_path)
    answers = pages_answer(again)
    assert answers["/api/standings"] == before["/api/standings"]
    assert {t["name"]: t["game"] for t in answers["/api/tables"]["tables"]} == {"t1": "stratego", "t2": None,
                                                                                "t3": None}
    assert "hub.db: table t2's link" in caplog.text and "hub.db: table t2's view dropped" in caplog.text
    again.store.close()


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=20)
FIELDS = st.fixed_dictionaries({}, optional={
    "game_id": st.integers(-2, 3) | JSON, "seq": st.sampled_from([1, 2, 5, END]) | JSON, "prev": st.integers(-1, 3) | JSON,
    "kind": st.sampled_from(["result", "retract", "game_end", "other"]), "game": st.sampled_from(["stratego", ""]) | JSON,
    "players": st.lists(st.sampled_from(["Ann", "Ben", "Cal"]), max_size=3) | JSON, "winner": JSON,
    "outcomes": st.lists(st.fixed_dictionaries({"say": st.text(max_size=5) | JSON}), max_size=2) | JSON,
    "from": st.integers(0, 5) | JSON, "results": st.lists(JSON, max_size=2) | JSON, "at": JSON, "sent": JSON,
    "view": JSON, "health": JSON, "standings": JSON})


# 100 sequences (hypothesis's default), each on a hub database of its own: every shape that once broke
# a page is pinned above in BAD, each also after a restart; 300 sequences cost 18 s of CPU for no shape more.
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(messages=st.lists(st.tuples(st.sampled_from(["view", "health", "result"]), FIELDS), min_size=1, max_size=6))
def test_no_sequence_of_messages_makes_a_hub_page_fail(tmp_path_factory, messages):
    hub = hub_at(tmp_path_factory.mktemp("hub"))
    try:
        for leaf, body in messages:
            send(hub, "t1", leaf, body)
        pages_answer(hub)
    finally:
        hub.store.close()


# -- pairings -------------------------------------------------------------------------------------------
@pytest.fixture
def counted_search(monkeypatch):
    """The pairing search's tries, counted; past a million it stops the test (main took hours)."""
    tries = [0]
    search = standings._pair

    def counted(*args):
        tries[0] += 1
        if tries[0] > 1_000_000:
            raise AssertionError("the pairing search is still trying after a million tries")
        return search(*args)
    monkeypatch.setattr(standings, "_pair", counted)
    return tries


def game_end(a: str, b: str, winner: str) -> dict:
    return {"kind": "game_end", "game": "stratego", "players": [a, b], "winner": [winner], "table": "t1"}


def test_41_made_up_game_ends_give_the_next_round_at_once(counted_search):
    """Zed has met all 21 others, so every pairing has a rematch; the search used to try them all."""
    players = [f"P{n:02}" for n in range(21)]
    results = [game_end("Zed", p, p) for p in players]
    results += [game_end(players[n], players[n + 1], players[n]) for n in range(0, 20)]
    assert len(results) == 41
    round2 = standings.pairings(results)["stratego"]
    paired = [p for pair in round2["pairs"] for p in pair]
    assert sorted(paired) == sorted(players + ["Zed"]) and round2["bye"] is None
    assert sum(frozenset(pair) in standings.met(results, "stratego") for pair in round2["pairs"]) == 1
    assert counted_search[0] <= standings.SEARCH_STEPS + 1


def test_64_players_are_paired_with_the_one_rematch_there_must_be(counted_search):
    players = [f"P{n:02}" for n in range(64)]
    met = {frozenset((players[-1], p)) for p in players[:-1]}  # the last has met everyone
    round2 = standings.swiss_pairings(players, met)
    assert sorted(p for pair in round2["pairs"] for p in pair) == players and round2["bye"] is None
    assert sum(frozenset(pair) in met for pair in round2["pairs"]) == 1
    assert counted_search[0] <= standings.SEARCH_STEPS + 1
