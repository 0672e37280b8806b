"""Game Play - Building (gather-together-battle.txt): draw, discard one or none, turn order with
SKIP and REVERSE, action cards never taken from the discard, and the BATTLE card ending the phase."""
from __future__ import annotations

from tests.test_gt_battle_support import Table


def test_a_turn_is_a_draw_then_one_discard_or_none_and_play_moves_left():
    """"The player can choose to pick up the top discard, or the top card of the deck ... After
    drawing a card, the player has the option to discard one card, but it is not required ... Once a
    player discards, or passes on discarding, the play moves left to the next player.\""""
    table = Table(6)
    deck = table.state.deck
    table.draw(2)
    assert table.hand(2) == 12 and table.state.deck == deck - 1
    table.discard("F5#1")
    assert table.hand(2) == 11 and table.turn == 3
    table.draw(3, "discard")  # takes Ben's 5
    assert table.hand(3) == 12 and table.state.pile == ["F3#1"]
    table.keep(3)
    assert table.turn == 4
    assert table.rules.public_view(table.state)["discard_top"] == {"card": "F3#1", "name": "Fight 3"}


def test_an_action_card_is_never_taken_from_the_discard_pile():
    """"Action cards cannot be picked up from the discard pile.\""""
    table = Table(6)
    table.building_turn(2, "SKIP#1")
    table.building_turn(4)  # SKIP: Cy (seat 3) was skipped
    reason = table.refused("draw", seat=5, **{"from": "discard"})
    assert reason == ("The top discard is SKIP, an action card: \"Action cards cannot be picked up from the discard "
                      "pile.\" Draw from the deck instead.")


def test_a_draw_or_discard_out_of_turn_is_refused():
    table = Table(6)
    assert table.refused("draw", seat=4, **{"from": "deck"}).startswith(
        "It is Ben (seat 2)'s turn, not Dee (seat 4)'s (play moves to the left).")
    table.draw(2)
    # The tablet says seat 5 put that card on the pile: not their turn.
    assert "It is Ben (seat 2)'s turn, not Eve (seat 5)'s" in table.refused(
        "card_seen", zone="center", card="F9#1", seat=5)


def test_one_discard_at_most_and_the_draw_comes_first():
    table = Table(6)
    assert "draws first" in table.refused("pass", seat=2)
    table.draw(2)
    assert "already drawn" in table.refused("draw", seat=2, **{"from": "deck"})
    # The tablet's draw tap and the camera's discard can arrive in either order; two discards cannot.
    table2 = Table(6)
    table2.discard("F5#1")
    assert table2.turn == 2  # the turn waits for Ben's draw
    assert "has already discarded" in table2.refused("card_seen", zone="center", card="F6#1")
    table2.draw(2, "discard")  # he took the 3 that was on top before his discard
    assert table2.turn == 3 and table2.state.pile == ["F5#1"] and table2.hand(2) == 11


def test_skip_in_the_building_phase():
    """"SKIP: the next player's turn is skipped.\""""
    table = Table(6)
    table.building_turn(2, "SKIP#1")
    assert table.turn == 4


def test_reverse_in_the_building_phase():
    """"REVERSE: the game play is reversed. If play was moving to the left, it switches to the right
    (or vice versa).\""""
    table = Table(6)
    table.building_turn(2, "F1#1")
    table.building_turn(3, "REVERSE#1")
    assert table.turn == 2 and table.state.direction == -1
    table.building_turn(2, "REVERSE#2")
    assert table.turn == 3 and table.state.direction == 1


def test_expose_discarded_in_the_building_phase():
    """"EXPOSE: the player of this card will choose one player to expose his/her Identity card. The
    Identity card is left face up in front of its owner.\""""
    table = Table(6, teams="HVHVHV")
    table.draw(2)
    table.discard("EXPOSE#3")
    assert table.turn == 2  # the turn ends once Ben has chosen
    assert "Ben (seat 2) played the card, so they choose" in table.refused("expose", target=5, by=3)
    assert "not themselves" in table.refused("expose", target=2)
    result = table.ok("expose", target=5)
    assert result.reveals
    assert "Eve (seat 5): a SUPERHERO" in table.says()
    assert table.turn == 3
    assert table.rules.public_view(table.state)["standings"][4]["identity"] == "SUPERHERO"
    table.draw(3)
    table.discard("EXPOSE#4")
    assert "already face up" in table.refused("expose", target=5)


def test_eliminate_in_the_building_phase_and_no_save():
    """"ELIMINATE: ... The player chosen to be eliminated will place his/her hand down and is out for
    the round unless immediately saved.\""""
    table = Table(6)
    table.building_turn(2, "ELIM#1")
    table.ok("eliminate", target=3)
    assert table.state.awaiting.what == "save"
    table.ok("no_save")
    assert table.eliminated(3) and table.hand(3) == 0
    assert table.turn == 4  # Cy is out: his turn never comes
    for seat in (4, 5, 6, 1, 2):
        table.building_turn(seat)
    assert table.turn == 4


def test_the_save_window_closes_when_play_goes_on():
    """"unless immediately saved": the next player's draw ends the chance to play SAVE."""
    table = Table(6)
    table.building_turn(2, "ELIM#1")
    table.ok("eliminate", target=5)
    result = table.draw(3)
    assert table.kinds(result)[0] == "eliminated"
    assert table.eliminated(5)


def test_new_battle_and_save_discarded_in_the_building_phase_do_nothing():
    table = Table(6)
    table.building_turn(2, "NEWBTL#1")
    assert "no effect" in table.says()
    assert table.turn == 3


def test_drawing_the_battle_card_starts_the_battle():
    """"This continues until a player draws the BATTLE card." "The player to draw the BATTLE card
    will immediately place it on top of the discard pile and start the battle by playing a fight
    card(s) from his/her hand.\""""
    table = Table(6)
    table.building_turn(2, "F5#1")
    table.draw(3)
    table.seen("BATTLE#1")
    assert table.phase == "battle" and table.turn == 3
    assert table.hand(3) == 11  # drew one, placed the BATTLE card
    assert "draws the BATTLE card" in table.says()


def test_the_battle_card_seen_before_the_draw_tap_implies_the_deck_draw():
    table = Table(6)
    deck = table.state.deck
    table.seen("BATTLE#1")
    assert table.phase == "battle" and table.turn == 2
    assert table.hand(2) == 11 and table.state.deck == deck - 1


def test_the_battle_card_cannot_come_from_the_discard_pile():
    table = Table(6)
    table.draw(2, "discard")
    assert "The BATTLE card comes from the deck" in table.refused("card_seen", zone="center", card="BATTLE#1")


def test_identity_cards_are_not_discarded():
    table = Table(6)
    table.draw(2)
    reason = table.refused("card_seen", zone="center", card="VILLAIN#1")
    assert reason.startswith("Identity cards are played in the battle phase")


def test_a_card_seen_again_on_the_pile_is_not_a_new_discard():
    """When the top discard is taken, the camera sees the card beneath it again: no new play."""
    table = Table(6)
    table.building_turn(2, "F5#1")
    table.draw(3, "discard")
    table.ok("card_gone", zone="center", card="F5#1")
    result = table.seen("F3#1")  # the flipped card, visible again
    assert result.outcomes == () and table.turn == 3 and table.hand(3) == 12


def test_one_tag_in_two_zones_at_once_is_flagged_as_a_conflict():
    table = Table(6)
    table.building_turn(2, "F5#1")
    table.ok("card_seen", zone="seat:4", card="F5#1")
    assert table.kinds() == ["conflict"]
    assert "two cards carry the same tag" in table.says()
    assert table.rules.public_view(table.state)["conflicts"] == [
        {"card": "F5#1", "zones": ["center", "seat:4"], "say": "F5#1 is seen in center and seat:4 at once: a duplicated tag."}]
    table.ok("card_gone", zone="seat:4", card="F5#1")
    assert table.rules.public_view(table.state)["conflicts"] == []


def test_an_expose_seen_before_the_draw_tap_waits_for_both():
    """The camera saw Ben's EXPOSE before the tablet's draw tap: he may still record his draw, then choose."""
    table = Table(6)
    table.discard("EXPOSE#1")
    table.draw(2)
    assert table.turn == 2 and table.state.awaiting.what == "expose"
    assert "First: Ben (seat 2) chooses a player to expose" in table.refused("draw", seat=3, **{"from": "deck"})
    table.ok("expose", target=1)
    assert table.turn == 3


def test_a_discard_the_count_cannot_explain_is_held_until_confirmed():
    table = Table(6)
    table.draw(2)
    table.ok("confirm_count", seat=2, cards=0)  # a wrong correction: Ben still has cards
    result = table.discard("F5#1")
    assert table.kinds(result) == ["count_check"] and table.turn == 2 and table.state.pile == ["F3#1"]
    table.ok("confirm_count", seat=2, cards=10)
    assert table.state.pile == ["F3#1", "F5#1"] and table.hand(2) == 10 and table.turn == 3


def test_a_card_gone_without_its_card_or_zone_is_refused_not_a_crash():
    t = Table()
    assert t.refused("card_gone", zone="center").startswith("card_gone needs 'card': 'card', 'zone'")
    assert t.refused("card_gone", card="F3#1").startswith("card_gone needs 'zone': 'card', 'zone'")


def test_with_an_action_card_on_top_the_deck_draw_needs_no_tap():
    """"Action cards cannot be picked up from the discard pile": with one on top, the player's draw can
    only have come from the deck, so the camera seeing their discard (or their Pass) is enough."""
    table = Table(6)
    table.building_turn(2, "SKIP#1")  # Cy (seat 3) is skipped; Dee plays with SKIP on top
    deck = table.state.deck
    table.discard("F5#1")  # no draw tap
    assert table.turn == 5 and table.hand(4) == 11 and table.state.deck == deck - 1
    assert "Dee (seat 4) draws from the deck." in table.says()
    assert "draw from the deck, then discard" not in table.rules.public_view(table.state)["prompt"]
    table.building_turn(5, "REVERSE#1")  # Eve draws with Dee's 5 on top: that one still needs the tap
    assert table.turn == 4 and "draw from the deck, then discard" in table.rules.public_view(table.state)["prompt"]
    table.keep(4)  # Dee keeps every card: the pass implies the deck draw
    assert table.turn == 3 and table.hand(4) == 12 and table.state.deck == deck - 3


def test_with_a_fight_card_on_top_the_draw_is_not_guessed():
    table = Table(6)  # Fight 3 on top: Ben may have taken it
    table.discard("F5#1")
    assert table.turn == 2 and table.state.step.drew is None
    assert "tap which on the tablet" in table.rules.public_view(table.state)["prompt"]
