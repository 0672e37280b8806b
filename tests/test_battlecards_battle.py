"""BATTLECARDS WWII Pacific: a BATTLECARD drawn and its battle, one test per rulebook sentence."""
from __future__ import annotations

import pytest

from companion.rules.battlecards.state import Stage
from tests.battlecards_support import JAPAN, RULES, US, Table, armies, fight, turn


def test_unmet_prerequisites_discard_the_battlecard_and_lose_the_turn():
    """"If there are prerequisites that have not been met ... the Drawing Player discards the BATTLECARD and
    loses his turn.\""""
    t = Table()
    t.set_up()
    t.pile("MORESBY#1")                        # Port Moresby needs Coral Sea won first
    assert t.state.conflict_discard["pacific"] == ["MORESBY#1"] and t.state.turn == US
    assert "needs Coral Sea won by Aiko first" in t.outcomes[-2].say


def test_an_aggressor_who_does_not_wish_to_fight_discards_it():
    """"... or the aggressor listed on the card does not wish to conduct the battle at this time, the Drawing
    Player discards the BATTLECARD and loses his turn.\""""
    t = Table()
    t.set_up()
    t.pile("DOOLITTL#1")                       # drawn by Japan; the aggressor is the US
    assert "The aggressor of Doolittle Raid is Bill" in t.refused("decide", seat=JAPAN, fight=True)
    t.ok("decide", seat=US, fight=False)
    assert t.state.conflict_discard["pacific"] == ["DOOLITTL#1"] and t.state.turn == US and t.state.battle is None


def test_a_player_with_none_of_the_forces_loses_the_battle():
    """"If one player has none of the deployed forces indicated on the BATTLECARD, the other player wins that battle.\""""
    t = fight("DOOLITTL#1", ["JGUARDS#1", "JAKAGI#1"], ["UWILDCAT#1"])
    assert t.state.armies[US].won == ["DOOLITTL#1"] and t.state.armies[US].vp == 1
    assert t.outcomes[-2].say == "Bill wins Doolittle Raid and 1 VP without a fight."


def test_neither_side_with_forces_ignores_the_battle():
    """"If neither side has any deployed units indicated on the card, the battle is ignored and the drawing
    player loses his turn.\""""
    t = fight("DOOLITTL#1", ["JGUARDS#1"], ["UMAR1#1"])
    assert t.state.armies[US].won == [] and t.state.conflict_discard["pacific"] == ["DOOLITTL#1"]
    assert t.state.turn == US


def test_both_sides_flip_only_the_indicated_stacks():
    """"Otherwise, both sides flip over their indicated stacks of deployed forces.\""""
    t = fight("PEARL#1", ["JGUARDS#1", "JZERO#1", "JAKAGI#1"], ["UMAR1#1", "UWILDCAT#1", "UENTERP#1"])
    assert t.state.battle.units == ["JZERO#1", "JAKAGI#1", "UWILDCAT#1", "UENTERP#1"]
    public = str(RULES.public_view(t.state))
    assert "JZERO#1" in public and "JGUARDS#1" not in public and "UMAR1#1" not in public


@pytest.mark.parametrize("action, hit", [(3, False), (4, True), (7, True), (8, False)])
def test_the_hit_rule(action, hit):
    """"If the Action Number is equal to or less than the attacker's Attack Score AND is greater than the
    target unit's Defense Score against the unit that is attacking it, then the target is destroyed.\""""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])      # Zero: Attack 7 against Air; Wildcat: Defense 3 against Air
    t.turn_action(action)
    shot = t.state.battle.shots[0] if t.state.battle else None
    said = next(o for o in t.outcomes if o.kind == "shot")
    assert said.data["attack"] == 7 and said.data["defense"] == 3 and said.data["hit"] is hit
    assert said.data["why"] == {3: "not_above_defense", 4: "in_range", 7: "in_range", 8: "above_attack"}[action]
    assert ("HIT" in said.say) is hit and str(action) in said.say
    assert (shot is None) is hit               # a hit destroys the only defender: the battle is over


def test_an_na_or_too_low_attack_may_not_target():
    """"If the Attack Value is N/A, or lower than the selected target's defense, then the target may not be attacked.\""""
    t = fight("CORAL#1", ["JZERO#1", "JKATE#1"], ["UWILDCAT#1", "UENTERP#1"])
    # The Zero's Attack against Sea (2) is lower than the Enterprise's Defense against Air (4).
    reason = t.refused("aim", seat=JAPAN, target="UENTERP#1")
    assert "may not be attacked" in reason
    t.ok("aim", seat=JAPAN, target="UWILDCAT#1")


def test_the_aggressor_fires_first_and_casualties_are_removed_before_the_defender_fires():
    """"In each firing phase, the aggressor fires his units that have the current phase listed on their card.
    Casualties are removed. Then, the defender fires each defending unit that has the current phase listed.\""""
    t = fight("CORAL#1", ["JZERO#1", "JKATE#1"], ["UWILDCAT#1", "UENTERP#1"])
    battle = t.state.battle
    assert battle.phase == 1 and battle.firing == "aggressor" and battle.queue == ["JZERO#1"]
    t.ok("aim", seat=JAPAN, target="UWILDCAT#1")
    t.turn_action(5)                          # a hit: the Wildcat (phase 1) never fires
    kinds = [o.kind for o in t.last.outcomes]
    assert kinds[:2] == ["shot", "casualties"] and t.state.battle.phase == 2
    assert t.state.battle.queue == ["JKATE#1"] and t.state.armies[US].arsenal_discard == ["UWILDCAT#1"]


def test_bonuses_are_added_before_the_attack_is_judged():
    """"Some deployed units have the ability to support other units and add bonus points to other units in
    combat. Additionally, some CONFLICT Cards can be kept and played in combat to give bonuses to friendly
    forces. Add any such bonuses before determining whether a unit's attack was effective or not.\""""
    t = fight("PEARL#1", ["JZERO#1", "JNAGUMO#1"], ["UWILDCAT#1"])
    t.state.armies[JAPAN].kept = ["AIRSUP1#1"]
    t.ok("card_seen", zone="center", card="AIRSUP1#1")       # Air Superiority: +1 attack to Air units
    t.turn_action(9)                          # 7 + 2 (Nagumo) + 1 (Air Superiority) = 10: a 9 hits
    shot = next(o for o in t.outcomes if o.kind == "shot").data
    assert (shot["attack"], shot["attack_bonus"], shot["support"], shot["hit"]) == (10, 3, "JNAGUMO#1", True)


def test_withdrawal_after_phase_four_aggressor_first():
    """"After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw any or
    all of their deployed forces.\""""
    t = fight("PEARL#1", ["JAKAGI#1", "JZERO#1"], ["UENTERP#1"])
    t.turn_action(3)                          # Akagi (phase 2) misses the Enterprise
    t.ok("aim", seat=US, target="JAKAGI#1")
    t.turn_action(3)                          # the Enterprise misses
    assert t.state.stage == Stage.WITHDRAWAL
    assert "the aggressor and then the defender" in t.refused("fight_on", seat=US)
    t.ok("withdraw", seat=JAPAN, unit="JZERO#1")  # some forces may withdraw, others stay
    t.ok("fight_on", seat=JAPAN)
    t.ok("fight_on", seat=US)
    assert t.state.battle.round == 2 and t.state.stage == Stage.COMBAT
    assert t.state.battle.fighting("aggressor") == ["JAKAGI#1"]


def test_the_engagement_repeats_from_phase_one():
    """"If neither side withdraws all of their forces, the engagement is repeated starting at phase 1.\""""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    t.turn_action(1)
    t.turn_action(1)
    t.ok("fight_on", seat=JAPAN)
    t.ok("fight_on", seat=US)
    assert (t.state.battle.round, t.state.battle.phase, t.state.battle.queue) == (2, 1, ["JZERO#1"])


def test_withdrawing_everything_ends_the_battle():
    """"A battle ends when all of the involved forces on one side have been destroyed or withdrawn. The winner
    of the battle keeps the BATTLECARD face up on his side of the table, and receives the number of Victory
    Points indicated on the BATTLECARD.\""""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    t.turn_action(1)
    t.turn_action(1)
    t.ok("withdraw", seat=JAPAN)
    assert t.state.armies[US].won == ["PEARL#1"] and t.state.armies[US].vp == 5
    assert t.state.armies[JAPAN].stacks["air"] == ["JZERO#1"]   # withdrawn, not destroyed


def test_stalemate_the_aggressor_must_withdraw():
    """"If none of the units remaining on either side in a battle can hit the enemy regardless of what action
    number is pulled, it is considered a Stalemate. In Stalemate situations, the aggressor MUST withdraw his
    forces, allowing the defender to win the BATTLECARD and its victory points.\""""
    # Anti-aircraft guns: Attack 2 against Ground, Defense 2 against Ground. No number is above 2 and at most 2.
    t = fight("GUAM#1", ["JAA#1"], ["UAA90#1"])
    assert any(o.kind == "stalemate" for o in t.outcomes)
    assert t.state.armies[US].won == ["GUAM#1"] and t.state.battle is None


def test_no_stalemate_when_some_allocation_of_support_can_hit():
    """"... no matter how you allocate available support units" (FIRING A UNIT): Yamashita's +2 makes 4 against 2."""
    t = fight("GUAM#1", ["JAA#1", "JYAMASHI#1"], ["UAA90#1"])
    assert not any(o.kind == "stalemate" for o in t.outcomes) and t.state.stage == Stage.COMBAT


def test_special_victory_condition_all_enemy_ground_units():
    """"Some BATTLECARDS list special victory conditions like the elimination of all enemy Ground units. In
    these special cases, it will also say what to do with any remaining forces.\""""
    t = fight("PHILIPP#1", ["JICHIKI#1"], ["UMAR1#1", "UB17#1"])   # Ichiki (phase 1): Attack 7 against Ground
    t.turn_action(6)                          # the Marines (Defense 4 against Ground) are destroyed
    assert t.state.armies[JAPAN].won == ["PHILIPP#1"]
    assert "every defending Ground unit is destroyed" in next(o.say for o in t.outcomes if o.kind == "battle_won")
    assert t.state.armies[US].hand[-1] == "UB17#1"       # "surviving Air and Sea units ... return to its Reserve Hand"


def test_forty_victory_points_win_the_war():
    """"A player can win the game with a STANDARD VICTORY if he has collected at least half of the available
    victory points in the deck. For this set, the number would be 40 to win.\""""
    t = Table()
    t.set_up()
    armies(t, ["JZERO#1"], ["UWILDCAT#1"])
    t.state.armies[JAPAN].vp = 35
    t.pile("PEARL#1")
    t.ok("decide", seat=JAPAN, fight=True)
    t.turn_action(5)
    assert t.state.over and t.state.winner == JAPAN and t.state.victory == "standard"
    assert t.outcomes[-1].say == "Aiko wins the war: STANDARD VICTORY on points."


@pytest.mark.parametrize("card, aggressor, defender, held, attackers, defenders", [
    ("AUSTRAL#1", JAPAN, US, ["MORESBY#1", "JAVASEA#1"], ["JICHIKI#1", "JZERO#2"], ["UMAR1#1", "UFLETCH#1"]),
    ("JAPAN#1", US, JAPAN, ["IWOJIMA#1", "OKINAWA#1"], ["URAIDER#1", "UWILDCAT#2"], ["JGUARDS#1", "JKAGERO#1"]),
])
def test_an_invasion_won_is_total_victory(card, aggressor, defender, held, attackers, defenders):
    """"Total Victory. All enemy players are eliminated from the game. In this Starter Set, the US Player is
    eliminated when the enemy wins the 'Invasion of Australia' BATTLECARD. The Japanese player is eliminated
    when the enemy wins the 'Invasion of Japan' BATTLECARD.\""""
    t = Table()
    t.set_up()
    t.state.armies[aggressor].won = list(held)
    armies(t, attackers if aggressor == JAPAN else defenders, defenders if aggressor == JAPAN else attackers)
    t.pile(card)
    t.ok("decide", seat=aggressor, fight=True)
    assert t.state.stage == Stage.HOMELAND    # "or when your homeland is invaded"
    reserve = list(t.state.armies[defender].hand)
    t.ok("emergency_deploy", seat=defender)
    assert t.state.stage == Stage.COMBAT and set(reserve) & set(t.state.battle.units)
    for _ in range(60):
        if t.state.over:
            break
        if t.state.stage == Stage.WITHDRAWAL:
            t.ok("fight_on", seat=aggressor if t.state.battle.deciding == "aggressor" else defender)
            continue
        acts = [a for a in RULES.actions(t.state) if a["kind"] == "aim"]
        if acts and not t.state.battle.aim:
            t.ok("aim", **acts[0]["data"])
        turn(t, hit=t.state.battle.firing == "aggressor")
    assert t.state.over and t.state.victory == "total" and t.state.winner == aggressor
    assert t.state.armies[defender].eliminated and t.state.armies[defender].deployed() == []
    assert t.state.armies[aggressor].won[-1] == card


def test_a_defense_bonus_played_may_take_the_aimed_target_out_of_reach():
    """"Add any such bonuses before determining whether a unit's attack was effective or not." The Zero's Attack
    against Sea (2) reaches the PT boats' Defense against Air (2); Radar (+1 Defense to Air and Sea) puts it out
    of reach, and the Zero must choose again."""
    t = fight("PEARL#1", ["JZERO#1"], ["UPTBOAT#1", "UWILDCAT#1"])
    t.ok("aim", seat=JAPAN, target="UPTBOAT#1")
    t.state.armies[US].kept = ["RADAR1#1"]
    t.ok("card_seen", zone="center", card="RADAR1#1")
    assert [o.kind for o in t.last.outcomes] == ["kept_played", "aim_lost"] and t.state.battle.aim is None
    assert "may not be attacked" in t.refused("aim", seat=JAPAN, target="UPTBOAT#1")
    shot = next(o for o in [*t.send("card_seen", zone="center", card="SPY1#1").outcomes] if o.kind == "shot")
    assert shot.data["target"] == "UWILDCAT#1" and shot.data["defense"] == 4 and shot.data["defense_bonus"] == 1


def test_a_supply_convoy_is_played_at_the_start_of_a_turn():
    """Supply Convoy: "Keep this card. Play it at the start of any of your turns: draw 2 cards from your ARSENAL deck."
    (the deck's card; the rulebook: "some CONFLICT Cards can be kept")."""
    t = Table()
    t.set_up()
    t.state.armies[JAPAN].kept = ["CONVOY1#1"]
    t.ok("card_seen", zone="center", card="CONVOY1#1")
    assert t.state.stage == Stage.ARSENAL and t.state.task.draw == 2
    t.draw(JAPAN, "JZERO#2", "JZERO#3")
    assert t.state.stage == Stage.DRAW and t.state.turn == JAPAN      # the turn goes on: now the draw
    t.pile("SPY1#1")
    assert t.state.turn == US and len(t.state.armies[JAPAN].hand) == 5


def test_the_fourth_firing_phase_fires():
    """"Each round is divided into 5 phases. The phases include 4 firing phases followed by a withdrawal phase. ...
    After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw." The Imperial
    Guards and the 1st Marine Division fire in phases 2 and 4: both miss in phase 2, and phase 4 is fought before
    the withdrawal phase."""
    t = fight("GUAM#1", ["JGUARDS#1"], ["UMAR1#1"])
    turn(t, hit=False)                        # phase 2: the Guards miss
    turn(t, hit=False)                        # the Marines miss
    battle = t.state.battle
    assert (t.state.stage, battle.phase, battle.firing, battle.queue) == (Stage.COMBAT, 4, "aggressor", ["JGUARDS#1"])
    assert "phase 4" in RULES.view.prompt(t.state, RULES.offers(t.state))
    turn(t, hit=True)                         # phase 4: the Guards destroy the Marines
    shot = next(o for o in t.last.outcomes if o.kind == "shot")
    assert shot.data["phase"] == 4 and shot.data["hit"]
    assert t.state.armies[JAPAN].won == ["GUAM#1"]


def test_a_kept_cards_bonus_counts_only_for_its_unit_type():
    """"some CONFLICT Cards can be kept and played in combat to give bonuses to friendly forces" (FIRING A UNIT);
    Naval Gunfire Support: "Play it in a battle: your Ground units get +1 attack for the rest of that combat
    round." The Imperial Guards (Ground) fire with 6 + 1; the Zero (Air) keeps its 7."""
    t = fight("WAKE#1", ["JZERO#1", "JGUARDS#1"], ["UWILDCAT#1", "UMAR1#1"])
    t.state.armies[JAPAN].kept = ["NAVGUN1#1"]
    t.ok("card_seen", zone="center", card="NAVGUN1#1")
    turn(t, hit=False)                        # phase 1: the Zero fires at the Wildcat
    turn(t, hit=False)                        # the Wildcat fires back
    turn(t, hit=False)                        # phase 2: the Guards fire at the Marines
    shots = [o.data for o in t.outcomes if o.kind == "shot"]
    zero, guards = shots[0], shots[2]
    assert (zero["unit"], zero["attack"], zero["attack_bonus"]) == ("JZERO#1", 7, 0)
    assert (guards["unit"], guards["attack"], guards["attack_bonus"]) == ("JGUARDS#1", 7, 1)
