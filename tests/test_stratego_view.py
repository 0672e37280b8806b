"""What the tablet shows for Stratego beyond the combats: the prompt in every phase (who does what
next, where the pieces go, the colours and the rules in play) and the buttons, derived from the
declared input table and labelled by the view."""
from __future__ import annotations

from tests.test_stratego_support import Table, army


def prompt(table: Table) -> str:
    return table.public()["prompt"]


def buttons(table: Table) -> list[tuple[str, str, dict]]:
    return [(b["kind"], b["label"], b["data"]) for b in table.rules.actions(table.state)]


def test_the_input_table_is_declared_per_phase():
    declared = {row["kind"]: row for row in Table(armies=False).rules.declared()}
    assert declared["move"]["phases"] == ["play"] and declared["move"]["actor"] == "seat"
    assert declared["rescue"]["phases"] == ["play"]
    assert [f["name"] for f in declared["rescue"]["fields"]] == ["seat", "card"]
    assert declared["resign"]["phases"] == ["setup", "play"]
    assert declared["card_seen"]["actor"] == "camera"


def test_setup_prompt_says_who_scans_where_the_colours_and_the_rules():
    table = Table(armies=False, ties="attacker_wins")
    for card in army("red")[:5]:
        table.scan("seat:1", card)
    text = prompt(table)
    assert "Ann (Red): scan your 40 pieces in your area or on your reader, 5 of 40 so far" in text
    assert "Ben (Blue): scan your 40 pieces" in text
    assert "Ann plays Red, Ben plays Blue." in text
    assert "a tie: the attacker wins" in text and "both ranks are shown in every combat" in text
    assert [kind for kind, _, _ in buttons(table)] == ["resign", "resign"]


def test_play_prompt_names_the_side_to_play_and_where_an_attack_is_scanned():
    """"red may move his piece first": Red's player is asked first, and where the pieces go."""
    table = Table(red_seat=2, reveal="defeated_or_scout")
    text = prompt(table)
    assert text.startswith("Ben (Red) to play, turn 1: move a piece")
    assert "scan your piece in the scan tray or on your reader, then the Blue piece it attacks" in text
    assert "Ann plays Blue, Ben plays Red." in text
    assert "the defender shows its rank only if defeated or attacked by a Scout" in text
    assert buttons(table)[0] == ("move", "Ben moved (no combat)", {"seat": 2})


def test_during_an_attack_the_prompt_asks_for_the_defender_and_the_button_calls_it_off():
    table = Table()
    table.scan("tray", "R10#1")
    assert prompt(table).startswith("Red's attacker is scanned: scan the Blue defender in the scan tray or on "
                                    "Blue's reader, or call the attack off.")
    assert buttons(table)[0] == ("cancel", "Call off Ann's attack", {"seat": 1})
    assert "move" not in [kind for kind, _, _ in buttons(table)]


def test_rescue_button_chooses_among_the_sides_own_defeated_pieces():
    table = Table(rescue=True)
    table.attack("R4#1", "B9#1")          # Red loses a Sergeant
    table.attack("B3#1", "R3#1")          # a tie: Blue's and Red's Miners are removed
    table.move("red")
    rescue = next(b for b in table.rules.actions(table.state) if b["kind"] == "rescue")
    assert rescue["label"] == "Ann rescues a piece" and rescue["data"] == {"seat": 1}
    assert rescue["choose"] == {"field": "card", "options": [{"value": "R3#1", "label": "Miner"},
                                                             {"value": "R4#1", "label": "Sergeant"}]}
    assert "Ann may rescue a defeated piece" in prompt(table)


def test_resign_asks_first_in_words():
    table = Table()
    resign = [b for b in table.rules.actions(table.state) if b["kind"] == "resign"]
    assert [(b["label"], b["confirm"]) for b in resign] == [("Ann resigns", "Does Ann really resign?"),
                                                            ("Ben resigns", "Does Ben really resign?")]


def test_prompt_at_the_end_says_who_won():
    table = Table()
    table.attack("R2#1", "BF#1")
    assert prompt(table).startswith("Red captured the Blue Flag and wins. The game is over.")
    assert buttons(table) == []
