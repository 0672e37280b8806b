"""The tablet's buttons: offered when they make sense, and each one, pressed with the value its
chooser sends (text), is a command the referee accepts."""
import pytest

from companion.rules import Applied
from tests.test_bom_support import RULES, Table


def press(t: Table, label: str, value: str | None = None):
    button = next(b for b in RULES.actions(t.state) if b["label"].startswith(label))
    data = dict(button["data"])
    if "choose" in button:
        data[button["choose"]["field"]] = value if value is not None else button["choose"]["options"][0]["value"]
    return t.send(button["kind"], **data)


def labels(t: Table) -> list[str]:
    return [b["label"] for b in RULES.actions(t.state)]


def test_the_basic_game_offers_sitting_out_and_too_many_power_cards():
    t = Table(3)
    assert labels(t) == ["Sits out: no CHARACTER card"], "no seat has shown 4 POWER cards"
    assert isinstance(press(t, "Sits out", "2"), Applied) and t.seat(2).withdrawn
    t.show_powers(3, "FAITH", "WICKED", "BATTLE", "FAMINE")
    assert labels(t) == ["Sits out: no CHARACTER card", "Too many POWER cards (2 to the discard, draw 2)"]
    chooser = next(b for b in RULES.actions(t.state) if b["kind"] == "too_many_powers")["choose"]
    assert chooser == {"field": "seat", "options": [{"value": 3, "label": "Cy"}]}
    assert isinstance(press(t, "Too many POWER cards", "3"), Applied) and t.counts(3) == (17, 5, 2)


def test_variant_buttons_appear_with_their_variant():
    assert "Time is up" in labels(Table(2, shorter_game_minutes=15))
    assert "Stop playing" in labels(Table(2, young_players=True))
    sw = Table(2, secret_weapon=True)
    assert isinstance(press(sw, "Laid a POWER card face down", "1"), Applied)
    assert sw.view()["seats"][0]["face_down"]
    t = Table(2, mounting_battles=True)
    t.play({1: ["GO500"], 2: ["BO500"]})
    t.resolve()
    assert labels(t)[:2] == ["No CHARACTER card for the tie (swap two POWER cards)",
                             "Surrenders (not enough cards for the tie)"]
    assert isinstance(press(t, "Surrenders", "2"), Applied) and t.view()["winner"] == 1


def test_spys_trivia_buttons_follow_the_card_being_read():
    t = Table(3, spys_trivia=True)
    assert labels(t) == []
    t.do("card_seen", zone="tray", card="GD100#1")
    assert labels(t) == ["Next clue", "Guessed it first", "Tie: ask for the book and chapter",
                         "Ask for the book and chapter", "Nobody knew (the reader keeps it)"]
    assert isinstance(press(t, "Tie", "2,3"), Applied)
    award = next(b for b in RULES.actions(t.state) if b["kind"] == "trivia_award")
    assert [o["value"] for o in award["choose"]["options"]] == [2, 3]
    assert isinstance(press(t, "Guessed it first", "3"), Applied) and t.view()["standings"][0]["seat"] == 3


def test_no_buttons_once_the_game_is_over():
    t = Table(2, young_players=True)
    t.do("stop")
    assert labels(t) == []


def _in_phase(phase: str) -> Table:
    if phase == "battle":
        return Table(3, secret_weapon=True, shorter_game_minutes=5)
    if phase == "mounting":
        t = Table(2, mounting_battles=True)
        t.play({1: ["GO500"], 2: ["BO500"]})
        t.resolve()
        return t
    if phase == "tiebreak":
        t = Table(2, shorter_game_minutes=5)
        t.do("time_up")
        return t
    if phase == "trivia":
        t = Table(3, spys_trivia=True)
        t.do("card_seen", zone="tray", card="GD100#1")
        return t
    t = Table(2, young_players=True)
    t.do("stop")
    return t


@pytest.mark.parametrize("phase", ["battle", "mounting", "tiebreak", "trivia", "over"])
def test_every_declared_input_in_every_phase_is_taken_or_refused_with_a_reason(phase):
    """Bad input never crashes the referee and never changes a game it refuses (RulesTable checks both)."""
    t = _in_phase(phase)
    assert t.rules.phase(t.state) == phase
    data = {"seat": 1, "seats": [2, 3], "card": "GD200#1", "zone": "seat:1"}
    for spec in RULES.inputs:
        result = t.send(spec.kind, **{f.name: data[f.name] for f in spec.fields if f.name in data})
        assert isinstance(result, Applied) or result.reason, spec.kind
