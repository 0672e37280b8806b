"""What Book of Mormon "Battle" keeps secret, and what it keeps out of its state.

"the CHARACTER card(s) must be laid faceup but the POWER card will be laid facedown" (Secret Weapon,
bom-battle.txt): the companion never names a POWER card read face down in anything the table reads,
not even in the words of a refusal; only the seat that laid it reads them in full on its page.
Spy's Trivia's card in the scan tray is the card being read: the same holds for it.
"""
from __future__ import annotations

import json

from companion.gamelog.statecodec import encode_state
from tests.test_bom_support import RULES, Table


def test_an_out_seats_face_down_card_is_refused_without_naming_it_to_the_table():
    t = Table(3, secret_weapon=True)
    t.set_counts(1, 24 + 12, 5, 0)
    t.set_counts(3, 0, 0, 0)
    t.seat(3).out = True
    result = t.send("card_seen", zone="seat:3", card="FAITH#1", face_down=True)
    assert "out of the game" in result.reason
    assert "Faith" not in result.reason and "FAITH" not in result.reason
    assert result.seat == 3
    assert "take Faith off its area" in result.private


def test_a_face_down_card_read_after_the_game_is_over_is_not_named_to_the_table():
    t = Table(2, secret_weapon=True)
    t.set_counts(1, 66, 5, 0)
    t.set_counts(2, 0, 1, 0)
    t.battle({1: ["GD500"], 2: ["BD100"]})
    assert t.state.over
    face_down = t.send("card_seen", zone="seat:2", card="FAITH#1", face_down=True)
    assert face_down.reason == "The game is over; the card read face down starts no new battle."
    assert "Faith" in face_down.private
    face_up = t.send("card_seen", zone="seat:2", card="GD100#1")  # a card the whole table sees: named
    assert face_up.reason == "The game is over; Sam starts no new battle."


def test_the_state_keeps_what_the_table_was_told_as_data_and_the_view_words_it():
    """No sentence in the state, so no sentence in a snapshot (issue 31): the result box and the
    recent list are worded by the view from the outcome's data, the same words the table heard."""
    t = Table(3)
    outcome = t.battle({1: ["GD500"], 2: ["BD800"], 3: ["GO5000"]})
    snapshot = json.dumps(encode_state(t.state))
    assert outcome.say and outcome.say not in snapshot
    for term in outcome.terms:
        assert not term.detail or term.detail not in snapshot
    view = RULES.public_view(t.state)
    assert view["last_outcome"]["say"] == outcome.say
    assert view["recent"][-1]["say"] == outcome.say
    assert view["recent"][-1]["terms"] == [term.as_dict() for term in outcome.terms]
