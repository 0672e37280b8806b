"""BATTLECARDS combined with a Western European set (COMBINING SETS), four players. The Western set's cards
are not in our seeds: an owner describes theirs as a custom deck (docs/decks/README.md); here a small one."""
from __future__ import annotations

import json

import pytest

from card_tags.catalog import DECKS
from companion.rules import Seat, SetupError, make
from companion.rules.battlecards.state import Stage
from tests.rules_harness import RulesTable

GERMANY, BRITAIN, JAPAN, US = 1, 2, 3, 4
UNIT = {"kind": "unit", "copies": 2, "rank": "unit", "attack_ground": 5, "attack_air": 5, "attack_sea": 5,
        "defense_ground": 3, "defense_air": 3, "defense_sea": 3, "phases": [1]}
WESTERN = [
    {"id": "WBRIT", "name": "Battle of Britain", "kind": "battle", "copies": 1, "action": 4, "aggressor": "germany",
     "units": ["air"], "prerequisites": [], "vp": 6, "description": "The Luftwaffe against Fighter Command.",
     "theatre": "western"},
    {"id": "WREINF", "name": "Reinforcements", "kind": "draw", "copies": 1, "action": 3, "draw": 2, "theatre": "western"},
    {"id": "WSPY", "name": "Espionage", "kind": "intel", "copies": 1, "action": 5, "look": "reserve", "theatre": "western"},
    {**UNIT, "id": "GBF109", "name": "Bf 109", "side": "germany", "unit_type": "air", "copies": 6},
    {**UNIT, "id": "GPANZER", "name": "Panzer IV", "side": "germany", "unit_type": "ground", "copies": 3},
    {**UNIT, "id": "GROMMEL", "name": "Gen. Erwin Rommel", "side": "germany", "unit_type": "ground", "rank": "general",
     "copies": 1, "attack_ground": None, "attack_air": None, "attack_sea": None, "phases": [], "support_attack": 2,
     "supports": ["ground"]},
    {**UNIT, "id": "BSPIT", "name": "Spitfire", "side": "britain", "unit_type": "air", "copies": 6},
    {**UNIT, "id": "BTOMMY", "name": "8th Army", "side": "britain", "unit_type": "ground", "copies": 4},
]


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    deck = json.loads((DECKS / "battlecards-pacific.json").read_text())
    deck["cards"] += WESTERN
    path = tmp_path_factory.mktemp("deck") / "combined.json"
    path.write_text(json.dumps(deck))
    return make("battlecards-pacific", deck=str(path))


def table(rules, hands: dict[int, list[str]], deploy: int = 3) -> RulesTable:
    t = RulesTable(rules, [Seat(1, "Gerd"), Seat(2, "Bea"), Seat(3, "Aiko"), Seat(4, "Bill")], {})
    for seat, keys in hands.items():
        for key in keys:
            t.ok("card_seen", zone=f"reader:{seat}", card=key)
        for key in keys[:deploy]:
            t.ok("card_seen", zone=f"seat:{seat}", card=key, face_down=True)
    return t


HANDS = {GERMANY: ["GBF109#1", "GPANZER#1", "GROMMEL#1", "GBF109#2", "GBF109#3", "GPANZER#2"],
         BRITAIN: ["BSPIT#1", "BTOMMY#1", "BSPIT#2", "BSPIT#3", "BSPIT#4", "BTOMMY#2"],
         JAPAN: ["JZERO#1", "JGUARDS#1", "JAKAGI#1", "JVAL#1", "JKATE#1", "JDIV2#1"],
         US: ["UWILDCAT#1", "UMAR1#1", "UENTERP#1", "UDAUNTL#1", "UAVENGER#1", "UMAR2#1"]}


def test_the_reference_deck_alone_cannot_start_a_four_player_game():
    with pytest.raises(SetupError, match="Western European set as a custom deck"):
        make("battlecards-pacific").setup([Seat(n, f"P{n}") for n in range(1, 5)], {"japan_seat": 1})


def test_turn_order_goes_german_british_japanese_us(rules):
    """"1) Turn order goes German, British, Japanese, and US.\""""
    t = table(rules, HANDS)
    assert [t.state.armies[s].side for s in t.state.order] == ["germany", "britain", "japan", "us"]
    assert t.state.stage == Stage.DRAW and t.state.turn == GERMANY
    t.ok("card_seen", zone="center", card="WSPY#1")
    assert t.state.turn == BRITAIN


def test_each_player_draws_from_his_own_theatres_conflict_deck(rules):
    """"Conflict decks will not be combined from different sets, and each player will draw from their own
    theatre's conflict deck at all times.\""""
    t = table(rules, HANDS)
    assert "own theatre's conflict deck" in t.refused("card_seen", zone="center", card="SPY1#1")
    t.ok("card_seen", zone="center", card="WSPY#1")        # Germany: the Western deck
    t.ok("card_seen", zone="center", card="WREINF#1")      # Britain
    t.ok("card_seen", zone="reader:2", card="BSPIT#5")
    t.ok("card_seen", zone="reader:2", card="BSPIT#6")
    assert t.state.turn == JAPAN
    assert "own theatre's conflict deck" in t.refused("card_seen", zone="center", card="WBRIT#1")
    t.ok("card_seen", zone="center", card="SPY1#1")
    assert t.state.conflict_left == {"pacific": 53, "western": 1}


def test_allies_fight_as_one_army_and_commanders_stay_in_their_theatre(rules):
    """"3) When called into battle along with an ally, treat all forces on one side as if they were part of 1
    big army. ... NOTE: Generals and Admirals cannot take part in battles from theatres they are not deployed to.\""""
    t = table(rules, HANDS)
    t.ok("card_seen", zone="center", card="WSPY#1")
    t.ok("card_seen", zone="center", card="WREINF#1")
    t.ok("card_seen", zone="reader:2", card="BSPIT#5")
    t.ok("card_seen", zone="reader:2", card="BSPIT#6")
    t.ok("card_seen", zone="center", card="GUAM#1")         # Japan: Ground and Sea
    t.ok("decide", seat=JAPAN, fight=True)
    battle = t.state.battle
    assert battle.aggressors == [GERMANY, JAPAN] and battle.defenders == [BRITAIN, US]
    assert "GPANZER#1" in battle.units and "BTOMMY#1" in battle.units      # allies called in
    assert "GROMMEL#1" not in battle.units                                # Rommel is deployed to the West
    assert battle.owner["GPANZER#1"] == GERMANY and battle.side_of(GERMANY) == "aggressor"


def test_seventy_eight_victory_points_win_the_combined_game(rules):
    """"5) To win the combined game by points, you must attain 78 VPs.\""""
    from companion.rules.battlecards import ending

    t = table(rules, HANDS)
    t.state.armies[JAPAN].vp = 74                      # 40 would win a two-player game
    ending.check_victory(rules.deck, t.state)
    assert not t.state.over
    t.state.armies[JAPAN].vp = 78
    ending.check_victory(rules.deck, t.state)
    assert t.state.over and t.state.winner == JAPAN and t.state.victory == "standard"


def test_aid_to_an_ally(rules):
    """"2) On your turn, you may aid your ally by either sacrificing your draw to transfer up to 3 deployed
    cards to your ally's stacks, trade 1 reserve card for 1 reserve card of your ally (without sacrificing
    your draw), or sending the top card of your arsenal deck to the bottom of your ally's arsenal deck
    (again, without sacrificing your draw).\""""
    t = table(rules, HANDS)
    # Germany trades a Bf 109 for Japan's Val, and still draws.
    t.ok("trade", seat=GERMANY, give="GBF109#2", take="JVAL#1")
    assert "JVAL#1" in t.state.armies[GERMANY].hand and "GBF109#2" in t.state.armies[JAPAN].hand
    assert "once, on one's own turn" in t.refused("send", seat=GERMANY)      # one aid a turn
    t.ok("card_seen", zone="center", card="WSPY#1")
    # Britain sends the top of its ARSENAL deck to the bottom of the US's: the US may draw a British card.
    left = t.state.armies[US].arsenal_left
    t.ok("send", seat=BRITAIN)
    assert t.state.armies[US].arsenal_left == left + 1 and t.state.turn == BRITAIN
    t.ok("card_seen", zone="center", card="WREINF#1")
    t.ok("card_seen", zone="reader:2", card="BSPIT#5")
    t.ok("card_seen", zone="reader:2", card="BSPIT#6")
    # Japan sacrifices its draw to transfer deployed cards to Germany.
    t.ok("transfer", seat=JAPAN, unit="JZERO#1")
    assert "JZERO#1" in t.state.armies[GERMANY].stacks["air"] and t.state.stage == Stage.AID
    assert "own theatre" not in t.refused("card_seen", zone="center", card="SPY1#1")   # no draw after a transfer
    t.ok("transfer", seat=JAPAN, unit="JGUARDS#1")
    t.ok("done", seat=JAPAN)
    assert t.state.turn == US
    t.ok("card_seen", zone="center", card="REINF1#1")
    t.ok("card_seen", zone="reader:4", card="BTOMMY#3")     # the card Britain sent
    assert "BTOMMY#3" in t.state.armies[US].hand
    history = [rules.redact(e, d) for e, d in (("trade", {"seat": 1, "give": "GBF109#2", "take": "JVAL#1"}),
                                               ("transfer", {"seat": 3, "unit": "JZERO#1"}))]
    assert "JVAL#1" not in str(history) and "JZERO#1" not in str(history)


def _to_pacific_turn(t: RulesTable, seat: int) -> None:
    """Germany and Britain play their turns from the Western deck (and Japan from the Pacific one) until ``seat`` draws."""
    t.ok("card_seen", zone="center", card="WSPY#1")         # Germany
    t.ok("card_seen", zone="center", card="WREINF#1")       # Britain draws 2
    t.ok("card_seen", zone="reader:2", card="BSPIT#5")
    t.ok("card_seen", zone="reader:2", card="BSPIT#6")
    if seat == US:
        t.ok("card_seen", zone="center", card="SPY1#1")     # Japan
    assert t.state.turn == seat


def _stacks(t: RulesTable, rules, seat: int, keys: list[str]) -> None:
    """Deployed forces as a test needs them (as if deployed in earlier turns)."""
    army = t.state.armies[seat]
    army.stacks = {k: [] for k in army.stacks}
    for key in keys:
        army.hand = [h for h in army.hand if h != key]
        army.stacks[rules.deck.unit_type(key)].append(key)


def _invade(t: RulesTable, rules, card: str, aggressor: int, defender: int) -> None:
    """The invasion fought with no defending Ground unit: "the elimination of all enemy Ground units" is met at once."""
    t.ok("card_seen", zone="center", card=card)
    t.ok("decide", seat=aggressor, fight=True)
    assert t.state.stage == Stage.HOMELAND
    t.ok("hold", seat=defender)
    if t.state.stage == Stage.REGROUP:                     # allies fought side by side (rule 3): nothing moves
        for seat in sorted(t.state.regroup.ally):
            t.ok("done", seat=seat)


def test_an_eliminated_player_is_captured_discarded_and_loses_his_turns(rules):
    """"4) When you win a battle that eliminates an opponent from the theatre, he no longer gets a turn, and you
    instantly capture all his remaining deployed forces. All of the eliminated player's reserve cards are
    discarded, and all battles won by the eliminated player in his theatre are placed in discard stack.\""""
    from companion.rules.battlecards import table as table_rules

    t = table(rules, HANDS)
    _to_pacific_turn(t, US)
    t.state.armies[US].won, t.state.armies[US].vp = ["IWOJIMA#1", "OKINAWA#1"], 9
    t.state.armies[JAPAN].won, t.state.armies[JAPAN].vp = ["CORAL#1"], 4
    _stacks(t, rules, JAPAN, ["JZERO#1", "JAKAGI#1"])
    _stacks(t, rules, GERMANY, ["GROMMEL#1"])            # a general: he cannot defend Japan
    _stacks(t, rules, BRITAIN, [])
    reserve = list(t.state.armies[JAPAN].hand)
    _invade(t, rules, "JAPAN#1", US, JAPAN)
    japan, us = t.state.armies[JAPAN], t.state.armies[US]
    assert japan.eliminated and not t.state.over          # the Allies must invade Germany too
    assert {"JZERO#1", "JAKAGI#1"} <= set(us.deployed()) and japan.deployed() == []
    assert japan.hand == [] and set(reserve) <= set(japan.arsenal_discard)
    assert japan.won == [] and japan.vp == 0 and "CORAL#1" in t.state.conflict_discard["pacific"]
    assert t.state.turn == GERMANY
    t.state.turn = BRITAIN
    table_rules.end_turn(t.state)
    assert t.state.turn == US                              # Japan no longer gets a turn


def test_the_us_keeps_his_turns_and_fights_in_the_west_after_the_invasion_of_australia(rules):
    """"EXCEPTION: This applies somewhat differently in the Invasion of Australia. The US player still takes his
    turns and may continue to participate in Western European Theatre battles.\""""
    t = table(rules, HANDS)
    _to_pacific_turn(t, JAPAN)
    t.state.armies[JAPAN].won = ["MORESBY#1", "JAVASEA#1"]
    _stacks(t, rules, US, ["UENTERP#1"])                  # no Ground unit defends Australia
    _stacks(t, rules, BRITAIN, ["BSPIT#1"])
    _invade(t, rules, "AUSTRAL#1", JAPAN, US)
    assert t.state.armies[US].eliminated and "UENTERP#1" in t.state.armies[JAPAN].deployed()
    assert t.state.turn == US                              # he still takes his turns
    _stacks(t, rules, US, ["UWILDCAT#1"])                  # an air unit deployed since
    t.ok("card_seen", zone="center", card="REINF1#1")
    t.ok("card_seen", zone="reader:4", card="USHERMAN#1")
    t.ok("card_seen", zone="reader:4", card="USHERMAN#2")
    assert t.state.turn == GERMANY
    t.ok("card_seen", zone="center", card="WBRIT#1")      # Germany against Britain: Air
    t.ok("decide", seat=GERMANY, fight=True)
    assert US in t.state.battle.defenders and "UWILDCAT#1" in t.state.battle.units


@pytest.mark.parametrize("fallen, card, aggressor, defender, held, winners", [
    (GERMANY, "JAPAN#1", US, JAPAN, ["IWOJIMA#1", "OKINAWA#1"], [BRITAIN, US]),
    (BRITAIN, "AUSTRAL#1", JAPAN, US, ["MORESBY#1", "JAVASEA#1"], [GERMANY, JAPAN]),
])
def test_total_victory_needs_both_enemy_homelands_invaded(rules, fallen, card, aggressor, defender, held, winners):
    """"5) ... To win a TOTAL VICTORY, the Allies must invade Germany and Japan, and the Axis must invade Britain
    and Australia.\""""
    t = table(rules, HANDS)
    _to_pacific_turn(t, aggressor)
    t.state.armies[fallen].eliminated = True               # invaded earlier, in the West
    _stacks(t, rules, fallen, [])
    t.state.armies[aggressor].won = list(held)
    _stacks(t, rules, defender, ["JZERO#1"] if defender == JAPAN else ["UENTERP#1"])
    _invade(t, rules, card, aggressor, defender)
    assert t.state.over and t.state.victory == "total" and sorted(t.state.winners) == winners


def test_the_tablet_shows_both_theatres_conflict_piles(rules):
    """"Conflict decks will not be combined from different sets": each theatre's discard pile lies face up on the
    table, so the tablet shows the other theatre's pile too, not only the drawing player's."""
    t = table(rules, HANDS)
    t.ok("card_seen", zone="center", card="WSPY#1")         # Germany, from the Western deck
    t.ok("card_seen", zone="center", card="WREINF#1")       # Britain
    t.ok("card_seen", zone="reader:2", card="BSPIT#5")
    t.ok("card_seen", zone="reader:2", card="BSPIT#6")
    t.ok("card_seen", zone="center", card="SPY1#1")         # Japan, from the Pacific deck
    view = rules.public_view(t.state)
    assert t.state.turn == US and view["conflict"]["theatre"] == "pacific"
    assert view["conflict"]["pile"] == ["SPY1#1"] and view["conflict"]["theatre_name"] == "Pacific"
    [western] = view["other_piles"]
    assert western["theatre_name"] == "Western European" and western["pile"] == ["WSPY#1", "WREINF#1"]
    assert western["top"]["name"] == "Reinforcements" and western["left"] == 1


def _fight_to_the_end(t: RulesTable, rules) -> None:
    """Every aggressor shot hits, every defender shot misses (cards of the right Action Number turned from the deck)."""
    from companion.rules.battlecards import combat

    for _ in range(40):
        battle = t.state.battle
        if t.state.stage != Stage.COMBAT:
            return
        shooter = battle.queue[0]
        target = battle.aim or combat.legal_targets(rules.deck, battle, shooter)[0]
        if not battle.aim:
            t.ok("aim", seat=battle.owner[shooter], target=target)
        attack, defense, _, _ = combat.values(rules.deck, t.state.battle, shooter, target, t.state.battle.support)
        hit = battle.firing == "aggressor"
        key = next(k for k in t.state.conflict_pool["pacific"] if rules.deck.card(k).kind in ("draw", "intel")
                   and combat.hits(rules.deck.card(k)["action"], attack, defense) is hit)
        t.ok("card_seen", zone="center", card=key)


def test_allies_send_the_involved_forces_to_either_ones_stacks_after_the_battle(rules):
    """"3) ... At the end of the battle, all involved forces may be sent to either of the participant's deployed
    stacks.\""""
    t = table(rules, HANDS)
    _to_pacific_turn(t, JAPAN)
    _stacks(t, rules, GERMANY, ["GPANZER#1", "GBF109#1"])
    _stacks(t, rules, JAPAN, ["JGUARDS#1", "JAKAGI#1", "JZERO#1"])
    _stacks(t, rules, BRITAIN, ["BSPIT#1"])
    _stacks(t, rules, US, ["UMAR1#1", "UWILDCAT#1"])
    t.ok("card_seen", zone="center", card="GUAM#1")        # Ground and Sea
    t.ok("decide", seat=JAPAN, fight=True)
    _fight_to_the_end(t, rules)
    assert t.state.stage == Stage.REGROUP and t.state.turn == JAPAN
    assert sorted(t.state.regroup.units) == ["GPANZER#1", "JAKAGI#1", "JGUARDS#1"]
    assert "did not take part" in t.refused("regroup", seat=BRITAIN, unit="BSPIT#1")
    assert "forces involved in the battle" in t.refused("regroup", seat=JAPAN, unit="JZERO#1")   # not involved
    assert "forces involved in the battle" in t.refused("regroup", seat=JAPAN, unit="GPANZER#1")  # Germany's
    t.ok("regroup", seat=JAPAN, unit="JAKAGI#1")
    t.ok("regroup", seat=GERMANY, unit="GPANZER#1")
    assert "JAKAGI#1" in t.state.armies[GERMANY].stacks["sea"] and "GPANZER#1" in t.state.armies[JAPAN].stacks["ground"]
    buttons = [a for a in rules.actions(t.state) if a["kind"] == "regroup"]
    assert {(b["data"]["seat"], b["data"].get("unit")) for b in buttons} >= {(GERMANY, "JAKAGI#1"), (JAPAN, "GPANZER#1")}
    view = rules.public_view(t.state)["regroup"]
    assert view["seats"] == [GERMANY, JAPAN] and {u["key"]: u["seat"] for u in view["units"]}["JAKAGI#1"] == GERMANY
    t.ok("done", seat=JAPAN)
    assert t.state.stage == Stage.REGROUP          # Germany has not said Done
    t.ok("done", seat=GERMANY)
    assert t.state.stage == Stage.DRAW and t.state.turn == US and t.state.regroup is None


def test_no_regrouping_after_a_battle_fought_alone(rules):
    """Rule 3 is for forces "called into battle along with an ally": one seat alone on its side sends nothing."""
    t = table(rules, HANDS)
    _to_pacific_turn(t, JAPAN)
    _stacks(t, rules, GERMANY, ["GBF109#1"])           # no Ground or Sea unit: Germany brings nothing to Guam
    _stacks(t, rules, JAPAN, ["JGUARDS#1"])
    _stacks(t, rules, BRITAIN, ["BSPIT#1"])
    _stacks(t, rules, US, ["UMAR1#1"])
    t.ok("card_seen", zone="center", card="GUAM#1")
    t.ok("decide", seat=JAPAN, fight=True)
    _fight_to_the_end(t, rules)
    assert t.state.stage == Stage.DRAW and t.state.turn == US


def _australia_fallen(t: RulesTable, rules) -> None:
    """The US eliminated from the Pacific by the Invasion of Australia; then the US, Germany and Britain play
    turns until Japan draws again."""
    _to_pacific_turn(t, JAPAN)
    t.state.armies[JAPAN].won = ["MORESBY#1", "JAVASEA#1"]
    _stacks(t, rules, US, ["UENTERP#1"])
    _stacks(t, rules, BRITAIN, ["BSPIT#1"])
    _invade(t, rules, "AUSTRAL#1", JAPAN, US)
    t.ok("card_seen", zone="center", card="REINF1#1")      # the US still takes his turns
    t.ok("card_seen", zone="reader:4", card="USHERMAN#1")
    t.ok("card_seen", zone="reader:4", card="USHERMAN#2")
    t.ok("card_seen", zone="center", card="WBRIT#1")       # Germany (the Western deck's last card)
    t.ok("decide", seat=GERMANY, fight=False)
    t.ok("card_seen", zone="center", card="WSPY#1")        # Britain, from the reshuffled Western deck
    assert t.state.turn == JAPAN


def test_the_player_remaining_in_a_theatre_may_take_its_battle_without_a_fight(rules):
    """"6) If an enemy is eliminated from a theatre and a battle comes up from that theatre, the player remaining in
    that theatre may take the battle without a fight ...\""""
    t = table(rules, HANDS)
    _australia_fallen(t, rules)
    vp = t.state.armies[JAPAN].vp
    t.ok("card_seen", zone="center", card="GUAM#1")
    assert t.state.stage == Stage.DECISION
    assert "raid" in t.refused("decide", seat=JAPAN, fight=True)
    assert "remaining in that theatre" in t.refused("take", seat=GERMANY)
    assert {a["kind"] for a in rules.actions(t.state)} == {"take", "raid"}
    t.ok("take", seat=JAPAN)
    assert "GUAM#1" in t.state.armies[JAPAN].won and t.state.armies[JAPAN].vp == vp + rules.deck.card("GUAM#1")["vp"]
    assert t.state.turn == US


def test_or_discard_it_and_raid_the_other_theatres_enemy_for_no_victory_points(rules):
    """"... or discard the battle, and perform a raid against the enemy in the other theatre. He may make this
    attack as a Ground and Air attack or as an Air and Sea attack. No victory points are awarded in such a raid.\""""
    t = table(rules, HANDS)
    _australia_fallen(t, rules)
    _stacks(t, rules, JAPAN, ["JZERO#1", "JGUARDS#1", "JAKAGI#1"])
    _stacks(t, rules, GERMANY, ["GROMMEL#1"])
    _stacks(t, rules, BRITAIN, ["BSPIT#1", "BTOMMY#1"])
    _stacks(t, rules, US, [])
    vp = {s: a.vp for s, a in t.state.armies.items()}
    t.ok("card_seen", zone="center", card="GUAM#1")
    assert "Ground and Air attack or as an Air and Sea attack" in t.refused("raid", seat=JAPAN, forces="sea")
    t.ok("raid", seat=JAPAN, forces="air_sea")
    battle = t.state.battle
    assert battle.raid == ["air", "sea"] and battle.defenders == [BRITAIN, US]
    assert sorted(battle.units) == ["BSPIT#1", "JAKAGI#1", "JZERO#1"]   # no Ground unit: an Air and Sea attack
    _fight_to_the_end(t, rules)
    assert {s: a.vp for s, a in t.state.armies.items()} == vp
    assert "GUAM#1" in t.state.conflict_discard["pacific"] and not any("GUAM#1" in a.won for a in t.state.armies.values())
    assert "BSPIT#1" in t.state.armies[BRITAIN].arsenal_discard and t.state.turn == US


def test_an_ally_liberates_the_us_by_refighting_the_invasion_of_australia(rules):
    """"7) You may liberate your ally if he is eliminated from a theatre by using a counterattack to re-fight the
    battle that eliminated him. ... Once liberated, a player begins taking turns again as normal, and is eligible
    for battles in his theatre again. ... EXCEPTION: US player never stopped taking turns, and so he does not get
    to draw and deploy when Australia is liberated. US forces are eligible to participate in the liberation of
    Australia.\""""
    t = table(rules, HANDS)
    _to_pacific_turn(t, JAPAN)
    t.state.armies[JAPAN].won = ["MORESBY#1", "JAVASEA#1"]
    _stacks(t, rules, US, ["UENTERP#1"])
    _stacks(t, rules, BRITAIN, ["BSPIT#1"])
    _invade(t, rules, "AUSTRAL#1", JAPAN, US)
    japan_vp = t.state.armies[JAPAN].vp
    t.ok("card_seen", zone="center", card="REINF1#1")      # the US
    t.ok("card_seen", zone="reader:4", card="USHERMAN#1")
    t.ok("card_seen", zone="reader:4", card="USHERMAN#2")
    t.ok("card_seen", zone="center", card="WBRIT#1")       # Germany
    t.ok("decide", seat=GERMANY, fight=False)
    assert t.state.turn == BRITAIN
    _stacks(t, rules, JAPAN, ["JZERO#1", "JKATE#1"])       # no Ground unit holds Australia
    _stacks(t, rules, GERMANY, ["GROMMEL#1"])              # a general, deployed to the West
    _stacks(t, rules, US, ["USHERMAN#1"])
    hand = list(t.state.armies[US].hand)
    t.ok("liberate", seat=BRITAIN)
    assert t.state.armies[US].eliminated is False
    assert "AUSTRAL#1" in t.state.armies[BRITAIN].won and t.state.armies[JAPAN].vp == japan_vp - 8
    assert t.state.armies[US].hand == hand and t.state.stage == Stage.DRAW and t.state.turn == JAPAN   # no draw


def test_japan_liberates_germany_only_after_invading_australia(rules):
    """"EXCEPTION: Japan can only liberate the Germans if they first successfully invade Australia ... He also
    immediately draws 6 and deploys 3 arsenal cards.\""""
    from companion.rules.battlecards import ending, table as table_rules

    t = table(rules, HANDS)
    _to_pacific_turn(t, JAPAN)
    t.state.armies[BRITAIN].won = ["WBRIT#1"]               # as if Britain's invasion of Germany
    ending.eliminate(rules.deck, t.state, BRITAIN, GERMANY)
    t.state.armies[GERMANY].eliminated_by = "WBRIT#1"
    _stacks(t, rules, BRITAIN, [])
    _stacks(t, rules, US, ["UMAR1#1"])                     # no Air unit: nothing defends the skies
    assert "first successfully invade Australia" in t.refused("liberate", seat=JAPAN)
    t.state.armies[JAPAN].won = ["AUSTRAL#1"]
    assert "It is Aiko's turn" in t.refused("liberate", seat=BRITAIN)
    t.ok("liberate", seat=JAPAN)
    germany = t.state.armies[GERMANY]
    assert not germany.eliminated and "WBRIT#1" in t.state.armies[JAPAN].won
    assert t.state.stage == Stage.ARSENAL and t.state.task.seat == GERMANY
    for key in ["GBF109#4", "GBF109#5", "GBF109#6", "GPANZER#3", "GBF109#2", "GBF109#3"]:
        t.ok("card_seen", zone="reader:1", card=key)
    t.ok("card_seen", zone="seat:1", card="GBF109#4", face_down=True)
    assert "deploys 3 arsenal cards" in t.refused("done", seat=GERMANY)
    t.ok("card_seen", zone="seat:1", card="GBF109#5", face_down=True)
    t.ok("card_seen", zone="seat:1", card="GPANZER#3", face_down=True)
    germany = t.state.armies[GERMANY]
    assert len(germany.deployed()) == 3 and len(germany.hand) == 3 and t.state.turn == US
    table_rules.end_turn(t.state)
    assert t.state.turn == GERMANY                         # "begins taking turns again as normal"


def _japan_invaded(rules) -> RulesTable:
    """Four players; the US has just won the Invasion of Japan, eliminating Japan; Germany draws next."""
    t = table(rules, HANDS)
    _to_pacific_turn(t, US)
    t.state.armies[US].won, t.state.armies[US].vp = ["IWOJIMA#1", "OKINAWA#1"], 9
    _stacks(t, rules, JAPAN, ["JZERO#1"])
    _stacks(t, rules, GERMANY, ["GROMMEL#1"])
    _stacks(t, rules, BRITAIN, [])
    _invade(t, rules, "JAPAN#1", US, JAPAN)
    return t


def test_germany_liberates_japan_only_after_winning_the_invasion_of_britain(rules):
    """"... and the Germans can only liberate the Japanese if they win the Invasion of Britain.\""""
    t = _japan_invaded(rules)
    assert t.state.turn == GERMANY and t.state.armies[JAPAN].eliminated_by == "JAPAN#1"
    assert "win the Invasion of Britain" in t.refused("liberate", seat=GERMANY)


@pytest.fixture(scope="module")
def rules_with_britains_invasion(tmp_path_factory):
    """The small Western deck with its Invasion of Britain (the card whose win lets Germany liberate Japan)."""
    deck = json.loads((DECKS / "battlecards-pacific.json").read_text())
    deck["cards"] += WESTERN + [
        {"id": "WINVBRIT", "name": "Invasion of Britain", "kind": "battle", "copies": 1, "action": 2,
         "aggressor": "germany", "units": ["ground", "air", "sea"], "prerequisites": [], "vp": 8,
         "description": "Operation Sea Lion.", "theatre": "western", "eliminates": "britain"}]
    path = tmp_path_factory.mktemp("deck") / "combined-invasion.json"
    path.write_text(json.dumps(deck))
    return make("battlecards-pacific", deck=str(path))


def test_germany_having_won_the_invasion_of_britain_liberates_japan(rules_with_britains_invasion):
    """"... and the Germans can only liberate the Japanese if they win the Invasion of Britain." With it won,
    the Germans re-fight the Invasion of Japan; the US holds no force of its kinds, so the liberators win, Japan
    is back in the game and the BATTLECARD (with its VP) leaves the US for Germany."""
    rules = rules_with_britains_invasion
    t = _japan_invaded(rules)
    assert t.state.turn == GERMANY and t.state.armies[JAPAN].eliminated
    us_vp = t.state.armies[US].vp
    t.state.armies[GERMANY].won = ["WINVBRIT#1"]           # as if Germany had won the Invasion of Britain
    _stacks(t, rules, GERMANY, ["GPANZER#1"])              # a Panzer to send (Rommel stays in the West)
    _stacks(t, rules, US, [])                              # nothing left to hold Japan
    t.ok("liberate", seat=GERMANY)
    assert not t.state.armies[JAPAN].eliminated
    assert "JAPAN#1" not in t.state.armies[US].won and t.state.armies[US].vp < us_vp
