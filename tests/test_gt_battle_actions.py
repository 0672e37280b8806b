"""The tablet's buttons (``actions``): what the table is offered at each moment, and that every
button, with every choice it offers, is accepted as the browser sends it (a picker sends strings)."""
from __future__ import annotations

import copy

from companion.rules import Action, Applied
from tests.test_gt_battle_support import Table, play_round


def offered(table: Table) -> list[tuple[str, str, dict]]:
    """(label, kind, data) for every button and every choice of every picker, as the browser sends them."""
    sends = []
    for button in table.rules.actions(table.state):
        choose = button.get("choose")
        if not choose:
            sends.append((button["label"], button["kind"], button["data"]))
            continue
        for option in choose["options"]:
            data = {**button["data"], choose["field"]: str(option["value"])}
            sends.append((f"{button['label']} {option['label']}", button["kind"], data))
    return sends


def assert_every_button_works(table: Table) -> list[str]:
    labels = []
    for label, kind, data in offered(table):
        result = table.rules.apply(copy.deepcopy(table.state), Action(kind, data, "dashboard"))
        assert isinstance(result, Applied), f"{label}: {result.reason}"
        labels.append(label)
    return labels


def test_building_buttons_follow_the_turn():
    table = Table(6)
    assert assert_every_button_works(table) == ["Ben drew from the deck", "Ben took the top discard (Fight 3)"]
    table.draw(2)
    assert assert_every_button_works(table) == ["Ben keeps all cards (no discard)"]
    table.discard("SKIP#1")
    # An action card on top: no button to take it ("Action cards cannot be picked up from the discard pile."),
    # and the deck is the only place to draw from, so keeping every card needs no draw tap first
    assert assert_every_button_works(table) == ["Dee drew from the deck", "Dee keeps all cards (no discard)"]


def test_choices_offer_only_the_players_the_rules_allow():
    table = Table(6)
    table.draw(2)
    table.discard("EXPOSE#1")
    labels = assert_every_button_works(table)
    assert labels == [f"Ben exposes {name}" for name in ("Ann", "Cy", "Dee", "Eve", "Fay")]
    table.ok("expose", target="4")  # as the browser's picker sends it
    table.start_battle(3)
    table.play("ELIM#1")
    assert assert_every_button_works(table) == [f"Cy eliminates {name}" for name in ("Ann", "Ben", "Dee", "Eve", "Fay")]
    table.ok("eliminate", target=5)
    labels = assert_every_button_works(table)
    assert labels == [f"SAVE played by {name}" for name in ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")] + ["No save"]


def test_the_count_question_is_a_number_picker():
    table = Table(6)
    table.start_battle(2)
    table.ok("confirm_count", seat=2, cards=0)
    table.seen("F4#1")
    table.ok("resolve")
    labels = assert_every_button_works(table)
    assert labels[0] == "Ben holds this many cards now 0" and len(labels) == 31
    table.ok("confirm_count", seat=2, cards="5")
    assert table.hand(2) == 5 and table.top == {"seat": 2, "count": 1, "rank": 4}


def test_battle_round_over_and_tie_break_buttons():
    table = Table(6, teams=None, flip=None, target=1)
    table.deal_identities("HVHVHV")
    table.seen("F3#1")
    table.start_battle()
    assert assert_every_button_works(table) == ["Ben passes"]
    table.seen("F9#1")
    assert assert_every_button_works(table) == []  # a play is waiting: the page's Resolve button
    table2 = Table(6, teams=None, flip=None, target=2)
    play_round(table2, "HVHVHV", winner=1)
    assert assert_every_button_works(table2) == ["New round (cards shuffled and dealt)"]
    table3 = Table(6, teams=None, flip=None, target=1)
    play_round(table3, "HVHVHV", winner=5)
    assert assert_every_button_works(table3) == [f"{name} drew {card}" for name in ("Ann", "Cy", "Eve")
                                                 for card in ("SAVE", "ELIMINATE")]
    table3.ok("tiebreak_draw", seat="1", card="save")
    assert [label for label, _, _ in offered(table3)][0] == "Cy drew SAVE"
