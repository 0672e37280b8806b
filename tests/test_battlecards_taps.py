"""BATTLECARDS with as few taps as the table allows (issue 33): what the camera sees decides the steps of a
battle, and the prompt names who does what next. Each test quotes the rulebook sentence the table acts out
(docs/referee/battlecards-pacific.md, "Taps: only what the table cannot see")."""
from __future__ import annotations

from companion.rules.battlecards.state import Stage
from tests.battlecards_support import JAPAN, RULES, US, Table, armies, fight


def prompt(t: Table) -> str:
    return RULES.view.prompt(t.state, RULES.offers(t.state))


def test_the_aggressor_flipping_the_stacks_the_battlecard_calls_for_fights_it():
    """"If the card is a BATTLECARD, then a battle may begin. ... Otherwise, both sides flip over their indicated
    stacks of deployed forces." Pearl Harbor calls for Air and Sea: Aiko, its aggressor, turns her Zero face up,
    and the battle is fought without a tap. Her Ground unit, or Bill's stack, decides nothing."""
    t = Table()
    t.set_up()
    armies(t, ["JZERO#1", "JGUARDS#1"], ["UWILDCAT#1"])
    t.pile("PEARL#1")
    assert t.state.stage == Stage.DECISION
    assert prompt(t).startswith("Pearl Harbor: Aiko (Japan), flip your Air and Sea stacks face up to fight")
    t.ok("card_seen", zone="seat:2", card="UWILDCAT#1")        # the defender's stack: not his decision
    t.ok("card_seen", zone="seat:1", card="JGUARDS#1")         # a Ground unit: Pearl Harbor does not call it
    assert t.state.stage == Stage.DECISION and t.state.battle is None
    t.ok("card_seen", zone="seat:1", card="JZERO#1")
    assert t.last.outcomes[0].kind == "battle_begins"
    assert t.state.stage == Stage.COMBAT and t.state.battle.units == ["JZERO#1", "UWILDCAT#1"]


def test_not_fighting_is_a_tap():
    """"... or the aggressor listed on the card does not wish to conduct the battle at this time, the Drawing
    Player discards the BATTLECARD and loses his turn": nothing on the table says it, so it is the one tap."""
    t = Table()
    t.set_up()
    t.pile("PEARL#1")
    assert [b["label"] for b in RULES.actions(t.state) if b["kind"] == "decide"] == \
        ["Aiko: fight Pearl Harbor", "Aiko: do not fight"]
    t.ok("decide", seat=JAPAN, fight=False)
    assert t.state.turn == US and t.state.conflict_discard["pacific"] == ["PEARL#1"]


def test_a_card_turned_before_a_target_is_chosen_fires_at_the_likeliest_target():
    """"To fire a unit, select a target from the opponent's deployed forces. ... Otherwise, you may attack the
    target by turning a card from the CONFLICT deck face-up into the discard pile." The Akagi (Attack 5 against
    Air, 6 against Sea) may fire at the Wildcat (Defense 4 against Sea: 5 hits) or the Enterprise (Defense 4: 5
    and 6 hit): the prompt names the Enterprise, and a card turned fires at it."""
    t = fight("CORAL#1", ["JAKAGI#1"], ["UWILDCAT#1", "UENTERP#1"])
    battle = t.state.battle
    assert (battle.phase, battle.queue, battle.aim) == (2, ["JAKAGI#1"], None)
    assert "fires at USS Enterprise (CV-6) (the likeliest to be destroyed)" in prompt(t)
    assert "Aiko taps another target first" in prompt(t)
    t.turn_action(1)
    shot = next(o for o in t.last.outcomes if o.kind == "shot")
    assert shot.data["target"] == "UENTERP#1"


def test_a_target_tapped_first_is_the_one_fired_at():
    """"To fire a unit, select a target": the player's choice, tapped before the card is turned, is kept."""
    t = fight("CORAL#1", ["JAKAGI#1"], ["UWILDCAT#1", "UENTERP#1"])
    t.ok("aim", seat=JAPAN, target="UWILDCAT#1")
    t.turn_action(1)
    assert next(o for o in t.last.outcomes if o.kind == "shot").data["target"] == "UWILDCAT#1"


def test_the_next_card_turned_in_the_withdrawal_phase_fights_on():
    """"After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw any or all
    of their deployed forces. If neither side withdraws all of their forces, the engagement is repeated starting
    at phase 1." Neither taps: the next CONFLICT card turned is the first shot of round 2."""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    t.turn_action(1)
    t.turn_action(1)
    assert t.state.stage == Stage.WITHDRAWAL
    assert prompt(t) == ("Withdrawal phase: Aiko, then Bill, tap to withdraw any or all of your units; or turn the next "
                         "CONFLICT card onto the discard pile to fight on.")
    t.turn_action(1)
    kinds = [o.kind for o in t.last.outcomes]
    assert kinds[:4] == ["fight_on", "fight_on", "round", "shot"]
    assert [o.data["side"] for o in t.last.outcomes[:2]] == ["aggressor", "defender"]
    shot = t.last.outcomes[3].data
    assert (shot["round"], shot["phase"], shot["unit"]) == (2, 1, "JZERO#1")


def test_after_the_aggressor_fights_on_the_card_turned_is_the_defenders_fight_on():
    """"... the aggressor and then the defender": the aggressor tapped that he fights on; the card turned says the
    defender does too."""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    t.turn_action(1)
    t.turn_action(1)
    t.ok("fight_on", seat=JAPAN)
    assert prompt(t).startswith("Withdrawal phase: Bill, tap to withdraw")
    t.turn_action(1)
    assert [o.kind for o in t.last.outcomes][:3] == ["fight_on", "round", "shot"]


def test_the_prompt_names_who_does_what_next_at_each_step_of_a_battle():
    """Issue 33: "each game's prompt names who does what next, never something already done"."""
    t = Table()
    t.set_up()
    armies(t, ["JZERO#1"], ["UWILDCAT#1"])
    assert prompt(t).startswith("Aiko (Japan): draw a CONFLICT card")
    t.pile("PEARL#1")
    assert prompt(t).startswith("Pearl Harbor: Aiko (Japan), flip your Air and Sea stacks")
    t.ok("card_seen", zone="seat:1", card="JZERO#1")
    assert prompt(t) == ("Round 1, phase 1: Aiko fires. A6M Zero fires at F4F Wildcat (the only target): turn a CONFLICT "
                         "card onto the discard pile.")
    t.turn_action(1)                          # the Zero misses
    assert prompt(t).startswith("Round 1, phase 1: Bill fires. F4F Wildcat fires at A6M Zero")
    t.turn_action(1)                          # the Wildcat misses
    assert prompt(t).startswith("Withdrawal phase: Aiko, then Bill")
    t.ok("withdraw", seat=JAPAN)
    assert prompt(t).startswith("Bill (the US): draw a CONFLICT card")


def test_units_picked_up_in_the_withdrawal_phase_are_withdrawn():
    """"After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw any or all
    of their deployed forces. ... You may choose to withdraw some forces and allow others to stay in the fight."
    Aiko picks her Zero up from her area: it is withdrawn, and with nothing left in the fight she loses the
    battle. Picked up at another time, a unit is only picked up."""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    t.ok("card_gone", zone="seat:1", card="JZERO#1")            # in combat: a card picked up, nothing more
    assert t.state.stage == Stage.COMBAT and t.state.battle.withdrawn == []
    t.turn_action(1)
    t.turn_action(1)
    assert "the aggressor and then the defender" in t.refused("card_gone", zone="seat:2", card="UWILDCAT#1")
    t.ok("card_gone", zone="seat:1", card="JZERO#1")
    assert [o.kind for o in t.last.outcomes][:2] == ["withdraw", "battle_won"]
    assert t.state.armies[US].won == ["PEARL#1"] and t.state.armies[JAPAN].stacks["air"] == ["JZERO#1"]
