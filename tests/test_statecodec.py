"""The state codec: a game state written as JSON data for a snapshot comes back equal, with every
int key, tuple, enum and nested dataclass as it was; a database naming a class outside the
project's rules is refused."""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.gamelog.statecodec import TAG, CodecError, decode_state, encode_state, loads


class Phase(enum.Enum):
    BUILDING = "building"
    BATTLE = "battle"
    OVER = "over"


@dataclass(kw_only=True, frozen=True)
class Card:
    key: str
    face_down: bool = False


@dataclass(kw_only=True)
class SeatState:
    number: int
    name: str
    hand: list[Card]
    score: float
    last_played: Card | None = None


@dataclass(kw_only=True)
class TableState:
    phase: Phase
    seats: dict[int, SeatState]
    order: tuple[int, ...]
    pair: tuple[str, int]
    piles: dict[str, list[str]]
    winner: int | None
    battles_by_phase: dict[Phase, int]
    history: list[tuple[int, Phase]]
    notes: Any = None            # plain JSON data
    revealed: frozenset[str] = frozenset()
    turn: int = field(init=False, default=0)


def roundtrip(state):
    """What a snapshot does: encode, write as JSON text, read it back, decode."""
    return decode_state(json.loads(json.dumps(encode_state(state))))


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_data = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)
# what an outcome's data may hold besides JSON: tuples, int keys (and a key that looks like the tag)
plain_data = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.text() | st.integers() | st.just(TAG) | st.tuples(st.integers(), st.text()), inner,
                      max_size=4), max_leaves=20)
floats = st.floats(allow_nan=False, allow_infinity=False)
cards = st.builds(Card, key=st.text(min_size=1), face_down=st.booleans())
seat_states = st.builds(SeatState, number=st.integers(1, 6), name=st.text(), hand=st.lists(cards, max_size=5),
                        score=floats, last_played=st.none() | cards)


# Every part's strategy is built once here, not inside table_states: hypothesis validates each new
# strategy object when it is first drawn from, which made building them afresh per example cost
# most of this module's time (the examples drawn are the same either way).
table_parts = dict(
    phase=st.sampled_from(Phase),
    seats=st.dictionaries(st.integers(-3, 10**12), seat_states, max_size=4),
    order=st.tuples() | st.lists(st.integers(), max_size=6).map(tuple),
    pair=st.tuples(st.text(), st.integers()),
    piles=st.dictionaries(st.text().filter(lambda k: k != TAG), st.lists(st.text(), max_size=4), max_size=3),
    winner=st.none() | st.integers(),
    battles_by_phase=st.dictionaries(st.sampled_from(Phase), st.integers(), max_size=3),
    history=st.lists(st.tuples(st.integers(), st.sampled_from(Phase)), max_size=5),
    notes=json_data,
    revealed=st.frozensets(st.text(), max_size=4),
)
turns = st.integers()


@st.composite
def table_states(draw):
    state = TableState(**{name: draw(part) for name, part in table_parts.items()})
    state.turn = draw(turns)
    return state


@settings(max_examples=150, deadline=None)
@given(table_states())
def test_a_typed_state_comes_back_equal(state):
    back = roundtrip(state)
    assert back == state and back.turn == state.turn
    assert all(type(k) is int for k in back.seats), "int seat keys stay ints"
    assert type(back.order) is tuple and type(back.revealed) is frozenset
    assert all(type(k) is Phase for k in back.battles_by_phase)
    assert all(type(c) is Card for s in back.seats.values() for c in s.hand)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(), plain_data, max_size=6))
def test_a_plain_dict_state_comes_back_equal_with_its_tuples_and_int_keys(state):
    assert roundtrip(state) == state
    assert loads(json.dumps(encode_state(state)))["value"] == state


def test_int_keys_and_tuples_of_plain_data_come_back_as_they_were():
    data = {"points": {1: 30, 2: 12}, "pair": (3, "F7#1"), "plain": {"a": [1, 2]}}
    back = roundtrip(data)
    assert back == data and type(back["pair"]) is tuple and list(back["points"]) == [1, 2]


def test_the_root_class_is_recorded_by_module_and_name():
    state = TableState(phase=Phase.OVER, seats={}, order=(), pair=("a", 1), piles={}, winner=2,
                       battles_by_phase={}, history=[])
    assert encode_state(state)["type"] == "tests.test_statecodec:TableState"
    assert encode_state(state)["value"]["phase"] == "over"


@pytest.mark.parametrize("name", ["os:system", "companion.gamelog.session:Session", "subprocess:Popen",
                                  "companion.rulesx.evil:State", "tests:anything", "builtins:dict"])
def test_a_class_outside_the_rules_and_tests_is_never_imported(name):
    with pytest.raises(CodecError, match="refusing to load"):
        decode_state({"type": name, "value": {}})


def test_a_name_that_is_not_a_dataclass_is_refused():
    with pytest.raises(CodecError, match="not a dataclass"):
        decode_state({"type": "tests.test_statecodec:roundtrip", "value": {}})


@pytest.mark.parametrize("state, why", [
    ({"x": {1, 2}}, "set"),
    ({"x": float("nan")}, "not JSON"),
    ({"x": Phase.BATTLE}, "Phase"),
])
def test_a_plain_state_that_would_come_back_different_is_refused(state, why):
    with pytest.raises(CodecError, match=why):
        encode_state(state)


@pytest.mark.parametrize("text, said", [
    ('{"x": NaN}', "NaN is not a number a state holds"),
    ('{"x": -Infinity}', "-Infinity is not a number a state holds"),
    ('{"x": [1.5, 1e999]}', "1e999 is not a number a state holds"),
])
def test_a_saved_state_with_a_number_that_is_not_finite_is_refused_as_the_encoder_would(text, said):
    """The encoder never writes one (above); a row edited by hand or damaged is refused, not read as inf."""
    with pytest.raises(CodecError, match=said):
        loads(text)


def test_a_typed_dict_keyed_by_the_codecs_own_tag_is_refused_so_no_snapshot_is_taken():
    """Read back, such an object would be taken for a tagged value; refused, the game is folded from its log
    instead (Hypothesis finds the key among the module's constants)."""
    state = TableState(phase=Phase.BUILDING, seats={}, order=(), pair=("", 0), piles={TAG: []}, winner=None,
                       battles_by_phase={}, history=[])
    with pytest.raises(CodecError, match="TableState.piles: a dict key is .* the codec's own tag"):
        encode_state(state)


def test_a_field_holding_the_wrong_type_is_refused_with_its_name():
    card = Card(key=7)  # type: ignore[arg-type]
    with pytest.raises(CodecError, match="Card.key"):
        encode_state(card)


def test_data_that_does_not_fit_the_class_is_refused():
    good = encode_state(Card(key="F1#1"))
    with pytest.raises(CodecError):
        decode_state({**good, "value": {"key": "F1#1"}})  # a field missing
    with pytest.raises(CodecError):
        decode_state({**good, "value": {"key": "F1#1", "face_down": "yes"}})
