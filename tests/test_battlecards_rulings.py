"""BATTLECARDS rulings where the rulebook must be read closely (docs/referee/battlecards-pacific.md, "What the
companion decides where the rulebook is silent"): each test quotes the sentence it applies."""
from __future__ import annotations

from companion.rules.battlecards.state import Stage
from tests.battlecards_support import JAPAN, RULES, US, Table, armies, turn

def invasion_of_australia(us_hand: list[str]) -> Table:
    """Japan holds both prerequisites and fights the Invasion of Australia; the US has nothing deployed."""
    t = Table()
    t.set_up()
    armies(t, ["JICHIKI#1", "JZERO#2"], [])
    t.state.armies[US].hand = list(us_hand)
    t.state.armies[JAPAN].won = ["MORESBY#1", "JAVASEA#1"]
    t.pile("AUSTRAL#1")
    t.ok("decide", seat=JAPAN, fight=True)
    return t


def test_an_invaded_homeland_with_nothing_deployed_may_still_deploy_its_reserve_hand():
    """"You may emergency deploy your reserve hand ... when your homeland is invaded." The US has no deployed
    forces but holds its Reserve Hand: it is offered the emergency deployment before "If one player has none
    of the deployed forces indicated on the BATTLECARD, the other player wins that battle" can end the war."""
    t = invasion_of_australia(["UMAR1#1", "UFLETCH#1", "UWILDCAT#2"])
    assert t.state.stage == Stage.HOMELAND and not t.state.over
    assert not any(o.kind == "no_forces" for o in t.outcomes)
    t.ok("emergency_deploy", seat=US)
    assert not t.state.over and t.state.stage == Stage.COMBAT
    assert {"UMAR1#1", "UFLETCH#1", "UWILDCAT#2"} <= set(t.state.battle.units)


def test_an_invaded_homeland_that_keeps_its_hand_and_has_nothing_deployed_loses_the_battle():
    """"If one player has none of the deployed forces indicated on the BATTLECARD, the other player wins that
    battle": holding the hand back, the US has nothing to fight with, and the Invasion of Australia is lost."""
    t = invasion_of_australia(["UMAR1#1"])
    t.ok("hold", seat=US)
    assert [o.kind for o in t.last.outcomes][:2] == ["no_forces", "battle_won"]
    assert t.state.over and t.state.victory == "total" and t.state.winner == JAPAN


def test_an_invaded_homeland_without_a_hand_and_nothing_deployed_loses_at_once():
    """"Doing so will leave you without a hand": with no Reserve Hand there is nothing to offer."""
    t = invasion_of_australia([])
    assert t.state.over and t.state.victory == "total" and t.state.winner == JAPAN


def _war_near_its_end(japan_won: list[str], us_won: list[str]) -> Table:
    """The US defends Pearl Harbor (5 VP) with a Wildcat against a Zero, every other BATTLECARD as given."""
    t = Table()
    t.set_up()
    armies(t, ["JZERO#1"], ["UWILDCAT#1"])
    for seat, won in ((JAPAN, japan_won), (US, us_won)):
        t.state.armies[seat].won = [f"{k}#1" for k in won]
        t.state.armies[seat].vp = sum(RULES.deck.card(f"{k}#1")["vp"] for k in won)
    t.pile("PEARL#1")
    t.ok("decide", seat=JAPAN, fight=True)
    turn(t, hit=False)      # the Zero misses
    turn(t, hit=True)       # the Wildcat destroys it: the US wins Pearl Harbor
    assert t.state.armies[US].won[-1] == "PEARL#1"
    return t


def test_the_war_goes_on_while_a_total_victory_is_still_possible():
    """"There are 2 ways to win the game: Total Victory ... Standard Victory." The US has 23 VP, Japan 19, and
    only 16 VP are left to win: no one can reach 40. But Japan holds both prerequisites of the Invasion of
    Australia ("the US Player is eliminated when the enemy wins the 'Invasion of Australia' BATTLECARD"), so a
    Total Victory is still open and the war is not over."""
    t = _war_near_its_end(["MORESBY", "JAVASEA", "PHILSEA", "SAIPAN", "CORAL", "WAKE"],
                          ["GUAM", "PHILIPP", "MIDWAY", "ALEUT", "DOOLITTL", "BISMARCK"])
    assert (t.state.armies[US].vp, t.state.armies[JAPAN].vp) == (23, 19)
    assert not t.state.over and t.state.stage == Stage.DRAW


def test_the_war_ends_on_points_when_neither_way_to_win_is_open():
    """"The objective is to be the player at the end of the game with the most victory points." With the Java
    Sea held by the US the Invasion of Australia can no longer be fought by Japan, the Invasion of Japan waits on
    battles Japan holds, and no one can reach 40: the war ends and the US, with the most VP, wins."""
    t = _war_near_its_end(["MORESBY", "PHILSEA", "SAIPAN", "CORAL", "WAKE"],
                          ["GUAM", "PHILIPP", "MIDWAY", "ALEUT", "DOOLITTL", "BISMARCK", "JAVASEA"])
    assert t.state.over and t.state.victory == "points" and t.state.winners == [US]
    assert t.outcomes[-1].data["how"] == "points"


def _handless_japan() -> Table:
    t = Table()
    t.set_up()
    t.ok("emergency_deploy", seat=JAPAN)
    t.pile("SPY1#1")                        # the US draws; Japan's turn again
    return t


def test_reinforcements_do_not_replenish_a_hand_emergency_deployed():
    """"Doing so will leave you without a hand until you draw a card that instructs you to replenish it."
    Reinforcements ("Draw 2 cards from your ARSENAL deck into your Reserve Hand") build up a
    hand; they do not instruct to replenish it, so they give nothing."""
    t = _handless_japan()
    t.pile("REINF1#1")
    assert t.state.armies[JAPAN].hand == [] and t.state.turn == US
    assert t.outcomes[-2].data["draw"] == 0 and t.outcomes[-2].data["handless"]


def test_mobilization_does_not_replenish_a_hand_emergency_deployed():
    """"Doing so will leave you without a hand until you draw a card that instructs you to replenish it."
    Mobilization ("Draw 1 card ..., then deploy up to 2 cards from your Reserve Hand") gives
    nothing to draw and nothing to deploy."""
    t = _handless_japan()
    t.pile("MOBIL1#1")
    assert t.state.armies[JAPAN].hand == [] and t.state.turn == US and t.state.task is None


def test_a_supply_convoy_does_not_replenish_a_hand_emergency_deployed():
    """"Doing so will leave you without a hand until you draw a card that instructs you to replenish it."
    A Supply Convoy ("draw 2 cards from your ARSENAL deck") played at the start of the turn
    gives nothing; the turn goes on to its draw."""
    t = _handless_japan()
    t.state.armies[JAPAN].kept = ["CONVOY1#1"]
    t.ok("card_seen", zone="center", card="CONVOY1#1")
    assert t.last.outcomes[0].data["draw"] == 0 and t.state.stage == Stage.DRAW and t.state.turn == JAPAN


def test_resupply_replenishes_a_hand_emergency_deployed():
    """"Doing so will leave you without a hand until you draw a card that instructs you to replenish it."
    Resupply: "Replenish your Reserve Hand: draw from your ARSENAL deck until you hold 3 cards"."""
    t = _handless_japan()
    t.pile("RESUP1#1")
    t.draw(JAPAN, "JZERO#2", "JZERO#3", "JZERO#4")
    assert not t.state.armies[JAPAN].handless and len(t.state.armies[JAPAN].hand) == 3
