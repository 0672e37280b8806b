"""BATTLECARDS WWII Pacific: setup and the turn, one test per rulebook sentence (battlecards-wwii-pacific.txt)."""
from __future__ import annotations

from companion.rules.battlecards.state import Stage
from tests.battlecards_support import JAPAN, US, Table

JAPAN_SIX = ("JZERO#1", "JAKAGI#1", "JGUARDS#1", "JVAL#1", "JKATE#1", "JDIV2#1")


def test_each_player_draws_six_and_deploys_three():
    """"Each player deals himself 6 cards from the ARSENAL Deck into their Reserve Hand. Secretly look at
    your hands, and 'Deploy' 3 of your 6 cards. This will leave you 3 cards in your Reserve Hand.\""""
    t = Table()
    t.draw(JAPAN, *JAPAN_SIX[:5])
    assert "has drawn 5 of 6" in t.refused("card_seen", zone="seat:1", card="JZERO#1", face_down=True)
    t.draw(JAPAN, JAPAN_SIX[5])
    assert "drawn 6 already" in t.refused("card_seen", zone="reader:1", card="JZERO#2")
    t.deploy(JAPAN, *JAPAN_SIX[:3])
    assert "deployed 3 already" in t.refused("card_seen", zone="seat:1", card="JVAL#1", face_down=True)
    army = t.state.armies[JAPAN]
    assert len(army.hand) == 3 and army.deployed() == ["JGUARDS#1", "JZERO#1", "JAKAGI#1"]
    assert army.stacks == {"ground": ["JGUARDS#1"], "air": ["JZERO#1"], "sea": ["JAKAGI#1"]}


def test_units_may_only_be_deployed_in_their_proper_stacks():
    """"However, units may only be deployed in their proper stacks.\""""
    t = Table()
    t.draw(JAPAN, *JAPAN_SIX)
    reason = t.refused("card_seen", zone="seat:1", card="JZERO#1", face_down=True, stack="sea")
    assert "units may only be deployed in their proper stacks" in reason
    assert "Zero" not in reason   # the refusal is public; the card is secret
    t.ok("card_seen", zone="seat:1", card="JZERO#1", face_down=True, stack="air")
    assert t.state.armies[JAPAN].stacks["air"] == ["JZERO#1"]


def test_a_card_of_the_other_side_is_not_drawn_into_a_hand():
    t = Table()
    assert "other side's ARSENAL" in t.refused("card_seen", zone="reader:1", card="UWILDCAT#1")


def test_the_japanese_player_starts_and_turns_alternate():
    """"Starting with the Japanese Player, alternate between players.\""""
    t = Table(japan_seat=2)
    for seat, keys in ((1, ("UWILDCAT#1", "UENTERP#1", "UMAR1#1", "UDAUNTL#1", "UAVENGER#1", "UMAR2#1")), (2, JAPAN_SIX)):
        t.draw(seat, *keys)
        t.deploy(seat, *keys[:3])
    assert t.state.turn == 2 and t.state.stage == Stage.DRAW
    t.pile("RECON1#1")
    t.ok("look", seat=2, stack="air")
    assert t.state.turn == 1
    t.pile("SPY1#1")
    assert t.state.turn == 2


def test_a_drawn_card_is_discarded_unless_kept_or_a_battlecard():
    """"Unless the card says, 'Keep this card' or it is a 'BATTLECARD' the drawing player discards the card
    onto a discard pile next to the CONFLICT Deck.\""""
    t = Table()
    t.set_up()
    t.pile("SPY1#1")
    assert t.state.conflict_discard["pacific"] == ["SPY1#1"]
    assert t.state.armies[JAPAN].seen == t.state.armies[US].hand   # Espionage: the opponent's Reserve Hand
    t.pile("CODES1#1")
    assert t.state.conflict_discard["pacific"] == ["SPY1#1", "CODES1#1"]


def test_a_keep_this_card_card_is_kept_face_down():
    """"If the card says, 'Keep this card...' the Drawing Player keeps the card, face down beside his 3
    deployed stacks. Cards kept in this manner are referred to as a player's Kept Cards.\""""
    t = Table()
    t.set_up()
    assert "keeps the card, face down" in t.refused("card_seen", zone="center", card="RADAR1#1")
    t.ok("card_seen", zone="seat:1", card="RADAR1#1", face_down=True)
    assert t.state.armies[JAPAN].kept == ["RADAR1#1"] and t.state.conflict_discard["pacific"] == []
    assert t.state.turn == US
    public = t.rules.public_view(t.state)
    assert "RADAR1#1" not in str(public) and public["seats"][0]["counts"]["kept"] == 1


def test_cards_that_instruct_drawing_arsenal_cards():
    """"Some cards in the CONFLICT deck instruct the drawing player to build up his hand by drawing more
    cards from the ARSENAL deck.\""""
    t = Table()
    t.set_up()
    t.pile("REINF1#1")                        # draw 2
    assert t.state.stage == Stage.ARSENAL
    assert "told Aiko to draw" in t.refused("card_seen", zone="reader:2", card="UB17#1")
    t.draw(JAPAN, "JZERO#2", "JZERO#3")
    assert len(t.state.armies[JAPAN].hand) == 5 and t.state.turn == US
    t.pile("MOBIL1#1")                        # draw 1, then deploy up to 2
    t.draw(US, "UB17#1")
    t.deploy(US, "UB17#1")
    t.ok("done", seat=US)
    assert t.state.armies[US].stacks["air"] == ["UWILDCAT#1", "UB17#1"] and t.state.turn == JAPAN


def test_emergency_deployment_leaves_no_hand_until_replenished():
    """"You may emergency deploy your reserve hand instead of drawing a conflict card at the start of any
    turn ... Doing so will leave you without a hand until you draw a card that instructs you to replenish it.\""""
    t = Table()
    t.set_up()
    t.ok("emergency_deploy", seat=JAPAN)
    army = t.state.armies[JAPAN]
    assert army.hand == [] and army.handless and len(army.deployed()) == 6 and t.state.turn == US
    t.pile("SPY1#1")
    t.pile("REINF1#1")                        # Japan: "draw 2", but no hand
    assert army.hand == [] and t.state.turn == US
    t.pile("SPY2#1")
    t.pile("RESUP1#1")                        # "Replenish your Reserve Hand ... until you hold 3 cards"
    t.draw(JAPAN, "JZERO#2", "JZERO#3", "JZERO#4")
    assert not t.state.armies[JAPAN].handless and len(t.state.armies[JAPAN].hand) == 3


def test_emergency_deployment_only_at_the_start_of_ones_own_turn():
    t = Table()
    t.set_up()
    assert "not the start of Bill's turn" in t.refused("emergency_deploy", seat=US)


def test_an_exhausted_conflict_deck_is_reshuffled_from_its_discard_pile():
    """"When the CONFLICT deck or either Player's ARSENAL deck has been completely discarded, flip the
    corresponding discard stack over and reshuffle the cards to continue to play.\""""
    t = Table()
    t.set_up()
    t.state.conflict_left["pacific"] = 2
    t.pile("SPY1#1")
    t.pile("RECON1#1")
    assert any(o.kind == "reshuffle" for o in t.last.outcomes)
    t.ok("look", seat=US, stack="sea")
    assert t.state.conflict_left["pacific"] == 2 and t.state.conflict_discard["pacific"] == []
    assert sorted(t.state.conflict_pool["pacific"]) == ["RECON1#1", "SPY1#1"]
    t.pile("SPY1#1")                           # the same card, turned again from the new deck
    assert t.state.conflict_discard["pacific"] == ["SPY1#1"]


def test_an_exhausted_arsenal_deck_is_reshuffled_from_its_discard_pile():
    t = Table()
    t.set_up()
    army = t.state.armies[JAPAN]
    army.arsenal_left, army.arsenal_discard = 0, ["JZERO#4"]
    t.pile("REINF1#1")
    assert t.state.task.draw == 1             # only one card is left to give
    t.draw(JAPAN, "JZERO#4")
    assert t.state.armies[JAPAN].arsenal_discard == [] and "JZERO#4" in t.state.armies[JAPAN].hand
