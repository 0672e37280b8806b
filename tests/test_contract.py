"""The referee contract, through a toy game added in one module (tests/toy_game.py) and one
registry line, played through the real session and its SQLite log."""
from __future__ import annotations

import pytest

from companion import rules
from companion.rules.contract import Field, Input
from companion.gamelog.fold import fold
from companion.gamelog.session import Session, open_store

# The toy game is in the registry for every test here (its one line: conftest.py, toy_game).
pytestmark = pytest.mark.usefixtures("toy_game")


@pytest.fixture
def table(tmp_path):
    store = open_store(tmp_path)
    session = Session.start(store, "toy-high-card", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    return session


def play(session, seat, key):
    return session.submit("card_seen", {"zone": f"seat:{seat}", "card": key}, "camera")


def test_the_toy_game_is_found_through_the_registry():
    assert "toy-high-card" in rules.available()
    assert rules.zones("toy-high-card") == ("seat",)
    from companion.scan.zones import ZoneMap
    assert set(ZoneMap.for_game("toy-high-card", 2).by_name) == {"seat:1", "seat:2"}


def test_a_battle_is_played_and_told_by_the_view(table):
    play(table, 1, "N7#1")
    play(table, 2, "N3#2")
    assert table.ruleset.ready_to_resolve(table.state)
    result = table.submit("resolve")
    assert result.ok
    assert result.entry.outcomes[0]["say"] == "Ann wins battle 1 with a 7."
    assert table.public_view()["points"] == {"1": 1, "2": 0}


def test_a_card_seen_again_where_it_lies_is_the_same_card(table):
    play(table, 1, "N7#1")
    again = play(table, 1, "N7#1")
    assert again.ok and table.state.played == {1: "N7#1"}
    assert table.state.lying == {"N7#1": ["seat:1"]}


@pytest.mark.parametrize("key, words", [
    ("N7", "is not a card of High Card"),            # no copy number
    ("N7#3", "the deck has 2 copies of Number 7"),    # a copy the deck does not have
    ("N7#1#1", "is not a card of High Card"),
    ("Q1#1", "is not a card of this High Card deck"),
    (7, "is not a card of High Card"),
])
def test_a_card_key_must_be_id_and_copy_of_the_catalog(table, key, words):
    before = table.state
    result = play(table, 1, key)
    assert not result.ok and words in result.entry.reason
    assert table.state == before and table.state.played == {}


def test_declared_inputs_give_the_buttons_and_the_phase_check(table):
    # Nothing has been played: resolving would be refused, so no Resolve button.
    kinds = [(a["kind"], a["data"]) for a in table.public_view()["actions"]]
    assert kinds == [("concede", {"seat": 1}), ("concede", {"seat": 2})]
    assert table.public_view()["prompt"] == "Ann, Ben: lay a card in your area."
    play(table, 1, "N9#1")
    play(table, 2, "N1#1")
    labels = [a["label"] for a in table.public_view()["actions"]]
    assert labels == ["Resolve the battle", "Ann concedes", "Ben concedes"]
    table.submit("concede", {"seat": "2"})
    assert table.state.over and table.public_view()["phase"] == "over"
    refused = table.submit("resolve")
    assert not refused.ok and "over" in refused.entry.reason


@pytest.mark.parametrize("data, words", [
    ({}, "concede needs 'seat'"),
    ({"seat": 3}, "needs a seat of this table (1-2), not 3"),
    ({"seat": "١"}, "needs a seat of this table"),   # an Arabic-Indic digit is not a seat number
    ({"seat": True}, "needs a seat of this table"),
    ([1, 2], "carries its data as an object"),
])
def test_malformed_input_data_is_refused_with_what_is_wrong(table, data, words):
    result = table.submit("concede", data)
    assert not result.ok and words in result.entry.reason
    assert not table.state.over


def test_a_variant_is_a_unit_switched_on_by_its_option(tmp_path):
    session = Session.start(open_store(tmp_path), "toy-high-card", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}],
                            {"double": True})
    play(session, 1, "N10#1")
    play(session, 2, "N2#1")
    session.submit("resolve")
    assert session.state.points[1] == 2


def test_undo_and_restart_fold_the_same_typed_state(table):
    play(table, 1, "N7#1")
    play(table, 2, "N3#1")
    table.submit("resolve")
    table.submit("undo")
    assert table.state.points == {1: 0, 2: 0} and table.state.played == {1: "N7#1", 2: "N3#1"}
    resumed = Session.resume(table.store)
    assert resumed.state == table.state
    assert fold(table.events()).state == table.state


def test_an_input_table_row_is_checked_when_declared():
    with pytest.raises(ValueError, match="carries a 'seat' field"):
        Input("concede", "on_concede", (Field("who", "int"),), actor="seat")
    with pytest.raises(ValueError, match="kind 'colour'"):
        Field("x", "colour")


def test_a_card_the_rules_know_has_left_is_new_when_seen_there_again(table):
    play(table, 1, "N7#1")
    state = table.state
    state.lift("N7#1", "seat:1")          # as a rule does when the card goes back to a hand
    assert state.lying == {}


def test_a_face_down_card_lies_where_it_is_read_unless_the_game_says_not(tmp_path):
    from tests.toy_game import HighCard

    game = rules.make("toy-high-card")
    state = game.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {})
    game._track(state, "card_seen", {"card": "N1#1", "zone": "seat:1", "face_down": True})
    assert state.lying == {"N1#1": ["seat:1"]}
    try:
        HighCard.face_down_lies = False   # as Book of Mormon declares for Secret Weapon's face-down POWER card
        state.lying.clear()
        game._track(state, "card_seen", {"card": "N1#1", "zone": "seat:1", "face_down": True})
        assert state.lying == {}
    finally:
        HighCard.face_down_lies = True
