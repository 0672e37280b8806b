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
    ending.check_victory(rules.deck, t.state, [])
    assert not t.state.over
    t.state.armies[JAPAN].vp = 78
    ending.check_victory(rules.deck, t.state, [])
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
