"""What the tablet and the phones say, made by the view from data: the prompt of every phase says
who acts and where the cards go, the phone says where to show the identity card the way this table
does it, and what an input did is kept in the state as data, worded only when shown."""
from __future__ import annotations

import dataclasses
import json

from companion.rules.contract import Told
from tests.test_gt_battle_support import Table, play_round


def prompt(table: Table) -> str:
    return table.rules.public_view(table.state)["prompt"]


def secret(table: Table, seat: int) -> str:
    return table.rules.seat_view(table.state, seat)["secret"]


def test_the_phone_says_where_to_show_the_identity_card_as_this_table_does():
    """Identity cards are shown privately: on the seat's reader, or in the covered scan tray."""
    table = Table(4, teams=None, flip=None)
    assert "reader" in secret(table, 1) and "covered scan tray" in secret(table, 1)  # nothing used yet: both
    # the card's face, where its tag is, is shown to the camera under the cover (docs/referee/warriors.md)
    assert "face up in the covered scan tray" in secret(table, 1)
    table.ok("card_seen", zone="tray", card="HERO#1", hidden=True)  # Ben, left of the dealer
    assert "covered scan tray" in secret(table, 1) and "reader" not in secret(table, 1)
    assert "covered scan tray" in prompt(table) and "the scan tray takes Cy (seat 3)'s card next" in prompt(table)
    assert secret(table, 2) == "SUPERHERO"

    readers = Table(4, teams=None, flip=None)
    readers.ok("card_seen", zone="reader:3", card="VILLAIN#1", hidden=True)
    assert "reader" in secret(readers, 1) and "tray" not in secret(readers, 1)
    assert "tray" not in prompt(readers)


def test_the_prompt_of_every_phase_says_who_acts_and_where_the_cards_go():
    table = Table(6, teams=None, flip=None, target=1)
    assert "flip the first discard onto the centre pile" in prompt(table)
    table.deal_identities("HVHVHV")
    table.seen("F3#1")
    assert prompt(table) == "Ben (seat 2): draw from the deck or take the top discard, and tap which on the tablet."
    table.draw(2)
    assert prompt(table) == "Ben (seat 2): discard one card onto the centre pile, or pass."
    table.discard("F5#1")
    table.start_battle(3)
    assert prompt(table) == "Cy (seat 3): start a battle with any fight card(s) on the centre pile."
    table.play("F8#1")
    assert prompt(table).startswith("Dee (seat 4): beat a single 8 on the centre pile")
    table.play("EXPOSE#1")
    assert prompt(table) == "Dee (seat 4) chooses a player to expose: pick them on the tablet."
    table.ok("expose", target=1)
    table.ok("confirm_count", seat=5, cards=0)
    table.pass_(5)
    table.pass_(6)
    table.pass_(1)
    table.pass_(2)
    table.ok("confirm_count", seat=3, cards=0)
    table.seen("HERO#2")
    assert table.phase == "tiebreak" and prompt(table).startswith("Tie-break: one SAVE and one ELIMINATE card")
    table.ok("tiebreak_draw", seat=1, card="save")
    table.ok("tiebreak_draw", seat=3, card="eliminate")
    table.ok("tiebreak_draw", seat=5, card="eliminate")
    assert prompt(table) == "Ann (seat 1) wins the game!"

    two = Table(6, teams=None, flip=None, target=2)
    play_round(two, "HVHVHV", winner=1)
    assert prompt(two) == "Round over: gather and shuffle the cards, deal new identity cards and tap New round."


def test_what_an_input_did_is_kept_as_data_and_worded_by_the_view():
    table = Table(6)
    table.draw(2)
    table.discard("F5#1")
    assert table.state.last == [Told(kind="discard", data={"seat": 2, "card": "F5#1"}), Told(kind="turn", data={"seat": 3})]
    assert "discards" not in json.dumps(dataclasses.asdict(table.state))  # no sentence in the state
    view = table.rules.public_view(table.state)
    assert view["last_outcome"] == {"say": "Ben (seat 2) discards Fight 5. Cy (seat 3) to play.", "terms": [],
                                    "details": "", "kind": "", "battle": None, "label": "Round 1", "previous": False}
    assert table.says() == view["last_outcome"]["say"]


def test_a_rounds_end_is_one_line_per_seat_with_the_story_behind_a_tap():
    """Issue 33: a round's end is told as one line per seat (who scored what), not a paragraph;
    "all the Villains score a point" (rulebook), so each Villain's line reads +1."""
    table = Table(4, teams=None, flip=None)
    play_round(table, "VHHV", winner=1)
    shown = table.rules.public_view(table.state)["last_outcome"]
    assert shown["say"] == "Round 1: Ann (seat 1) goes out, a point to every VILLAIN."
    assert [(t["label"], t["value"], t["detail"]) for t in shown["terms"]] == [
        ("Ann (seat 1)", "+1", "VILLAIN, 1 point"), ("Ben (seat 2)", "+0", "SUPERHERO, 0 points"),
        ("Cy (seat 3)", "+0", "SUPERHERO, 0 points"), ("Dee (seat 4)", "+1", "VILLAIN, 1 point")]
    assert "the Villains achieve world domination" in shown["details"]
    assert "Round 1 is over" in shown["details"]
