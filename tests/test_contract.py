"""The referee contract, through a toy game added in one module (tests/toy_game.py) and one
registry line, played through the real session and its SQLite log."""
from __future__ import annotations

import pytest

from companion import rules
from companion.rules.base import Outcome
from companion.rules.contract import Field, Input
from companion.gamelog.fold import fold
from companion.gamelog.session import Session, open_store

# The toy game is in the registry for every test here (its one line: conftest.py, toy_game).
pytestmark = pytest.mark.usefixtures("toy_game")


@pytest.fixture
def table(tmp_path):
    store = open_store(tmp_path)
    session = Session.start(store, "toy-war", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    return session


def play(session, seat, key):
    return session.submit("card_seen", {"zone": f"seat:{seat}", "card": key}, "camera")


def test_the_toy_game_is_found_through_the_registry():
    assert "toy-war" in rules.available()
    assert rules.zones("toy-war") == ("seat",)
    from companion.scan.zones import ZoneMap
    assert set(ZoneMap.for_game("toy-war", 2).by_name) == {"seat:1", "seat:2"}


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
    ("N7", "is not a card of War"),            # no copy number
    ("N7#3", "the deck has 2 copies of Number 7"),    # a copy the deck does not have
    ("N7#1#1", "is not a card of War"),
    ("Q1#1", "is not a card of this War deck"),
    (7, "is not a card of War"),
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
    session = Session.start(open_store(tmp_path), "toy-war", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}],
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
    from tests.toy_game import War

    game = rules.make("toy-war")
    state = game.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {})
    game._track(state, "card_seen", {"card": "N1#1", "zone": "seat:1", "face_down": True})
    assert state.lying == {"N1#1": ["seat:1"]}
    try:
        War.face_down_lies = False   # as Book of Mormon declares for Secret Weapon's face-down POWER card
        state.lying.clear()
        game._track(state, "card_seen", {"card": "N1#1", "zone": "seat:1", "face_down": True})
        assert state.lying == {}
    finally:
        War.face_down_lies = True


def test_a_tie_is_a_war_and_only_the_tied_players_lay_again(table):
    """War: "Equal highest cards make a war: the tied players each lay another card on top." """
    play(table, 1, "N7#1")
    play(table, 2, "N7#2")
    war = table.submit("resolve")
    assert war.entry.outcomes[0]["say"] == "War! Ann and Ben tie with a 7: each lays another card."
    assert table.public_view()["prompt"] == "Ann, Ben: lay a card in your area."
    play(table, 1, "N2#1")
    play(table, 2, "N5#1")
    assert table.submit("resolve").entry.outcomes[0]["say"] == "Ben wins battle 1 with a 5."


def test_a_refusal_is_a_reason_code_and_data_worded_by_the_view(table):
    play(table, 1, "N7#1")
    again = play(table, 1, "N8#1")
    assert not again.ok
    assert again.entry.reason == "Ann has already laid a card this battle."
    result = table.ruleset.apply(table.state, rules.Action("card_seen", {"zone": "seat:1", "card": "N8#1"}))
    assert isinstance(result, rules.Refusal)
    assert (result.code, result.data) == ("already_laid", {"seat": 1})


def test_the_shared_part_of_the_public_view_is_typed_and_the_same_for_every_game(table):
    play(table, 1, "N9#1")
    play(table, 2, "N1#1")
    table.submit("resolve")
    view = table.public_view()
    assert view["standings"] == [
        {"seat": 1, "name": "Ann", "say": "1 point", "counts": {"points": 1}, "score": 1, "eliminated": False},
        {"seat": 2, "name": "Ben", "say": "0 points", "counts": {"points": 0}, "score": 0, "eliminated": False}]
    assert (view["phase"], view["over"], view["winners"], view["winner"]) == ("battle", False, [], None)
    assert view["battle"] == 2 and view["points"] == {"1": 1, "2": 0}   # War's own part


def test_the_header_line_and_the_result_box_heading_are_the_contracts_in_the_games_words(table):
    """The tablet's header line is the shared ``progress`` (War's one line of words: its battle; the
    phase in words is the contract's), the result box's heading the result's ``label``: by default its
    battle, "(previous)" and greyed when the game says the next battle is on the table, "Game over" at
    the end whatever the game says."""
    import dataclasses

    from companion.rules.base import Result

    assert table.public_view()["progress"] == ["Battle 1", "Battle"]
    play(table, 1, "N9#1")
    play(table, 2, "N1#1")
    table.submit("resolve")
    assert table.public_view()["progress"] == ["Battle 2", "Battle"]
    assert table.seat_view(1)["progress"] == ["Battle 2", "Battle"]
    view, state = table.ruleset.view, table.state
    told = view.headed(state, Result("Ann wins battle 1 with a 9.", battle=1))
    assert (told.label, told.previous) == ("Battle 1", False)
    assert view.headed(state, Result("after the timer", battle="after the timer")).label == ""

    class Moved(type(view)):
        def result_previous(self, state, result):
            return True
    moved = Moved(table.ruleset)
    assert (moved.headed(state, told).label, moved.headed(state, told).previous) == ("Battle 1 (previous)", True)
    over = moved.headed(dataclasses.replace(state, over=True), told)
    assert (over.label, over.previous) == ("Game over", False)
    table.submit("concede", {"seat": 2}, "table")
    assert table.public_view()["last_outcome"]["label"] == "Game over"


def test_a_card_key_with_copy_zero_is_not_a_card(table):
    """A card is ``ID#copy`` with copies numbered from 1: ``N7#0`` names no copy of the deck."""
    refused = play(table, 1, "N7#0")
    assert not refused.ok and "the deck has 2 copies of Number 7 (N7#1 to N7#2)" in refused.entry.reason


def test_a_zone_name_longer_than_forty_characters_is_refused(table):
    """The length guard: a zone is a short name like ``seat:2``; a long one never reaches a rule."""
    refused = table.submit("card_seen", {"zone": "seat:" + "1" * 36, "card": "N7#1"}, "camera")
    assert not refused.ok and "is a zone name like 'seat:2'" in refused.entry.reason
    assert table.submit("card_seen", {"zone": "seat:" + "0" * 34 + "1", "card": "N7#1"}, "camera").ok


def test_a_misspelt_handler_or_candidates_method_is_refused_when_the_game_is_registered():
    from tests import toy_game

    class Misspelt(toy_game.War):
        inputs = (*toy_game.War.inputs, Input("resign", "on_resing"), Input("pick", "on_concede", choices="pickers"))

    problems = Misspelt.check_declarations()
    assert "input 'resign': its handler 'on_resing' is no method of Misspelt" in problems
    assert "input 'pick': its choices 'pickers' is no method of Misspelt" in problems
    toy_game.Misspelt = Misspelt
    try:
        with pytest.raises(rules.SetupError, match="on_resing"):
            rules.register("toy-misspelt", "tests.toy_game:Misspelt")
        assert "toy-misspelt" not in rules.GAMES
    finally:
        del toy_game.Misspelt


def test_an_outcome_kind_without_its_sentence_is_refused_when_the_game_is_registered():
    from tests import toy_game

    class Silent(toy_game.War):
        outcome_kinds = toy_game.War.outcome_kinds | {"truce"}
        reasons = toy_game.War.reasons | {"no_truce"}

    assert Silent.check_declarations() == ["outcome 'truce' has no sentence in WarView (@says)",
                                           "refusal 'no_truce' has no words in WarView.refusals"]


def test_a_game_that_declares_no_outcome_kinds_or_reasons_is_refused_when_registered():
    """Every game declares what its rules decide and refuse (there is no second, undeclared way to
    word a result any more): one that declares neither is named, and a refusal it raises with an
    undeclared code is a bug the contract names rather than a raw code shown on the tablet."""
    from companion.rules import Seat
    from companion.rules.contract import Refused
    from tests import toy_game

    class Undeclared(toy_game.War):
        outcome_kinds = frozenset()
        reasons = frozenset()

    assert Undeclared.check_declarations()[:2] == ["Undeclared declares no outcome kinds (Game.outcome_kinds)",
                                                   "Undeclared declares no reason codes (Game.reasons)"]
    game = rules.make("toy-war")
    state = game.setup([Seat(1, "Ann"), Seat(2, "Bo")], {})
    with pytest.raises(ValueError, match="does not declare"):
        game.refusal(Refused("You cannot play that now"), state)


def test_the_contract_gives_every_game_its_seat_zones_and_turn_order():
    """Seats are numbered clockwise, so the seat on a player's left is the next number, and the last
    seat's left is the first; "seat:N" and "reader:N" are seat N's places (Book of Mormon, Gather
    Together and Warriors ask the contract, none parses zones or counts seats round the table itself)."""
    from companion.rules import Seat
    from companion.rules.contract import GameState, zone_seat

    state = GameState(seats=[Seat(n, name) for n, name in enumerate(["Ann", "Bo", "Cy", "Di"], 1)], options={})
    assert [state.left_of(n) for n in (1, 2, 3, 4)] == [2, 3, 4, 1]
    assert [state.right_of(n) for n in (1, 2, 3, 4)] == [4, 1, 2, 3]
    assert state.clockwise(3) == [3, 4, 1, 2]
    assert state.in_turn_order([1, 2, 4], first=3) == [4, 1, 2]
    assert [zone_seat(z) for z in ("seat:2", "reader:10", "center", "tray", "seat:x", "seat:²", None)] == \
        [2, 10, None, None, None, None, None]
    assert zone_seat("seat:2", ("reader",)) is None




def test_every_game_gives_the_standings_winners_and_result_box_once_through_the_shared_part():
    """The tablet reads ``standings``, ``winners``/``winner``, ``over`` and ``last_outcome`` from the
    contract's ``TableView`` for every game: no game's own part (public, or a seat's) has a field of
    the same name that would take its place."""
    import dataclasses
    import typing

    from companion.rules.contract import TableJSON

    shared = set(TableJSON.__annotations__)
    assert {"standings", "winners", "winner", "over", "last_outcome"} <= shared
    for game in rules.available():
        view_type = rules.ruleset_class(game).view_type
        # a seat's view has no prompt in the shared part (it is the table's): a game may give its own there
        for method, keys in ((view_type.public, shared), (view_type.seat, shared - {"prompt"})):
            own = typing.get_type_hints(method)["return"]
            if not dataclasses.is_dataclass(own):
                continue  # View.seat not overridden: the public part again
            repeated = {f.name for f in dataclasses.fields(own)} & keys
            assert not repeated, f"{game}'s {own.__name__} gives {sorted(repeated)} again"


def test_the_scoreboard_puts_the_most_points_first_and_equal_scores_in_seat_order(table):
    """The standings of a game won by a count (``contract.scoreboard``), the same for every such game:
    the leader first; level players in seat order."""
    play(table, 1, "N2#1")
    play(table, 2, "N8#1")
    table.submit("resolve")
    assert [(s["name"], s["score"]) for s in table.public_view()["standings"]] == [("Ben", 1), ("Ann", 0)]
    table.submit("card_gone", {"zone": "seat:1", "card": "N2#1"}, "camera")
    table.submit("card_gone", {"zone": "seat:2", "card": "N8#1"}, "camera")
    play(table, 1, "N9#1")
    play(table, 2, "N3#1")
    table.submit("resolve")
    assert [(s["name"], s["score"]) for s in table.public_view()["standings"]] == [("Ann", 1), ("Ben", 1)]


TABLET_SCRIPTS = ("table.js", "app.js", "history.js", "setup.js")   # the tablet's scripts for every game


def test_the_tablet_reads_only_the_fields_the_contract_documents_and_types():
    """The tablet's own scripts read a view only through fields docs/referee/contract.md names; a seat
    box only through keys of the contract's ``SeatBox`` (so mypy checks every game's rows), the result
    box only through ``Result``'s (``ResultJSON``)."""
    import re
    from pathlib import Path

    from companion.rules.base import ResultJSON, SeatBox

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs/referee/contract.md").read_text(encoding="utf-8")
    js = {name: (root / "web/static" / name).read_text(encoding="utf-8") for name in TABLET_SCRIPTS}
    read = {key for text in js.values() for key in re.findall(r"\bview\.([a-z_]+)", text)}
    assert {"standings", "winners", "last_outcome", "seats"} <= read
    assert sorted(k for k in read if f"`{k}`" not in doc) == []
    boxed = set(re.findall(r"\bseat\.([a-z_]+)", js["app.js"]))
    box = js["app.js"][js["app.js"].index("function countsOf"):js["app.js"].index("function waitingFor")]
    figures = set(re.findall(r'\["([a-z_]+)", "[a-z ]+"\]', box))  # countsOf's figures, seatTotal's numbers
    assert {"eliminated", "play", "army", "total"} <= boxed | figures
    assert sorted((boxed | figures) - set(SeatBox.__annotations__)) == []
    told = set(re.findall(r"\boutcome\.([a-z_]+)", js["table.js"]))
    assert {"say", "label", "previous"} <= told and sorted(told - set(ResultJSON.__annotations__)) == []


def test_the_contract_gives_every_game_that_deals_cards_one_deck():
    """Book of Mormon, Gather Together and BATTLECARDS read their cards through the contract's Deck:
    a checked key to its card, every physical copy of a kind, and a kind asked of any value without
    failing (Gather Together asks it of a key no check has passed, so that a refusal never names an
    identity card's team)."""
    from companion.rules.deck import Deck

    for game in ("bom-battle", "gt-battle", "battlecards-pacific"):
        deck = rules.make(game).deck
        assert isinstance(deck, Deck)
        every_copy = [ref.key for ref in deck.catalog.refs()]
        assert deck.keys() == every_copy
        assert all(deck.name(key) == deck.catalog[key.partition("#")[0]].name for key in every_copy)
        for kind in {deck.card(key).kind for key in every_copy}:
            assert deck.keys(kind) == [key for key in every_copy if deck.is_a(key, kind)]
        assert not any(deck.is_a(value, "identity") for value in (None, 7, "", "#1", "NOSUCH#1"))
    gt = rules.make("gt-battle").deck
    identities = gt.keys("identity")
    assert identities and all(gt.is_identity(key) and not gt.is_identity(key.partition("#")[0] + "X") for key in identities)
    pacific = rules.make("battlecards-pacific").deck
    japanese = pacific.copies(("unit",), side="japan")
    assert japanese and all(pacific.side(key) == "japan" and pacific.is_unit(key) for key in japanese)
    assert set(japanese) < set(pacific.keys("unit"))


def test_the_contract_keeps_what_the_table_was_told_as_data_where_the_game_asks():
    """A state extending ToldState gets, from the contract, the latest input's results (``last``: the
    result box) and the latest outcomes (``recent``), as frozen Told records: kind and data, no words."""
    from dataclasses import dataclass

    from companion.rules.contract import Told, ToldState
    from companion.rules.statecopy import copy_state
    from tests.toy_game import War, WarState

    @dataclass(kw_only=True)
    class ToldWarState(WarState, ToldState):
        pass

    class ToldWar(War):
        recent_kept = 2
        result_kinds = frozenset({"battle", "game_over"})

        def new_state(self, seats, options):
            return ToldWarState(seats=seats, options=options, points={s.number: 0 for s in seats})

    game = ToldWar(ToldWar.load_catalog())
    state = game.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {})

    def send(kind, **data):
        nonlocal state
        result = game.apply(copy_state(state), rules.Action(kind, data))
        assert isinstance(result, rules.Applied), result
        state = result.state

    send("card_seen", zone="seat:1", card="N7#1")
    send("card_seen", zone="seat:2", card="N7#2")
    assert (state.last, state.recent) == ([], [])           # nothing decided yet
    send("resolve")                                         # a war: told, but no result for the box
    war = Told(kind="war", data={"seats": [1, 2], "value": 7})
    assert (state.last, state.recent) == ([], [war])
    send("card_seen", zone="seat:1", card="N2#1")
    send("card_seen", zone="seat:2", card="N5#1")
    send("resolve")
    first = Told(kind="battle", data={"winner": 2, "battle": 1, "value": 5, "points": 1})
    assert (state.last, state.recent) == ([first], [war, first])
    send("card_seen", zone="seat:1", card="N9#1")
    send("card_seen", zone="seat:2", card="N1#1")
    send("resolve")
    second = Told(kind="battle", data={"winner": 1, "battle": 2, "value": 9, "points": 1})
    assert (state.last, state.recent) == ([second], [first, second])   # two kept: the war is gone
    assert copy_state(state).last[0] is state.last[0]                  # frozen: shared by every copy
    assert game.view.say(Outcome(second.kind, data=second.data), state) == "Ann wins battle 2 with a 9."

    plain = rules.make("toy-war")                            # a state that is no ToldState keeps nothing
    assert not hasattr(plain.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {}), "last")
