"""Rulings the referee got wrong before the contract (issue 12), each with the rulebook's sentence:
one physical card is one card however often the camera reports it, a card is named by its tag
(``F12#1``, never ``F12``), and the deck holds the cards the table's size plays with."""
from __future__ import annotations

from tests.test_gt_battle_support import Table


def battle(players: int = 6) -> Table:
    """Ben (seat 2), left of the dealer, draws the BATTLE card on the first turn."""
    table = Table(players, teams="HVHVHVHVHV")
    table.start_battle(2)
    return table


# -- one physical card is one card --------------------------------------------------------------------
def test_one_card_reported_twice_on_the_pile_is_not_a_pair():
    """"A pair beats any single ... For example, a pair of 1s beats a single 12." A pair is two
    cards: the camera reporting F1#1 twice (no card_gone between) is still a single 1."""
    table = battle()
    table.play("F12#1")
    table.seen("F1#1")
    table.seen("F1#1")
    assert table.state.pending.cards == ["F1#1"]
    assert table.refused("resolve").startswith("A single 1 does not beat a single 12 played by Ben (seat 2).")
    table.seen("F1#2")  # a second physical 1 makes the pair
    table.ok("resolve")
    assert table.top == {"seat": 3, "count": 2, "rank": 1}


def test_a_card_seen_elsewhere_and_back_on_the_pile_is_still_one_card():
    """The same tag seen in front of a player meanwhile (a duplicated tag, flagged) does not make
    the card on the pile count twice."""
    table = battle()
    table.play("F12#1")
    table.seen("F1#1")
    table.ok("card_seen", zone="seat:3", card="F1#1")
    assert table.kinds() == ["conflict"]
    table.ok("card_gone", zone="seat:3", card="F1#1")
    table.seen("F1#1")
    assert table.state.pending.cards == ["F1#1"]
    assert table.refused("resolve").startswith("A single 1 does not beat a single 12")


def test_a_card_taken_back_and_put_down_again_is_one_card():
    table = battle()
    table.play("F12#1")
    table.seen("F1#1")
    table.ok("card_gone", zone="center", card="F1#1")
    table.seen("F1#1")
    assert table.state.pending.cards == ["F1#1"]


def test_a_held_discard_seen_again_is_discarded_once():
    """A discard held for the hand count, reported again before the count is confirmed, is one
    discard: "After drawing a card, the player has the option to discard one card"."""
    table = Table(6)
    table.draw(2)
    table.ok("confirm_count", seat=2, cards=0)
    table.discard("F5#1")
    table.seen("F5#1")
    table.ok("confirm_count", seat=2, cards=10)
    assert table.state.pile == ["F3#1", "F5#1"] and table.hand(2) == 10 and table.turn == 3


def test_a_discard_taken_into_a_hand_and_discarded_again_is_a_new_discard():
    """"The player can choose to pick up the top discard": once taken, the card is in a hand, and
    it landing on the pile again is that player's discard, whether or not the camera saw it go."""
    table = Table(6)
    table.building_turn(2, "F5#1")
    table.draw(3, "discard")  # Cy takes the 5; the camera never reported it leaving
    table.discard("F5#1")     # and discards it again
    assert table.state.pile == ["F3#1", "F5#1"] and table.turn == 4 and table.hand(3) == 11


def test_a_save_the_tablet_recorded_is_one_card_when_the_camera_reports_it_twice():
    table = battle()
    table.play("F5#1")
    table.play("ELIM#1")
    table.ok("eliminate", target=4)
    table.ok("save", by=4)
    table.seen("SAVE#2")
    table.seen("SAVE#2")
    assert table.state.pile.count("SAVE#2") == 1 and table.state.expect_save_card == 0


# -- a card is named by its tag -------------------------------------------------------------------------
def test_a_card_without_its_copy_number_is_refused_and_makes_no_pair():
    """"Fight cards of similar rank are played together": two physical 12s. "F12" names no
    physical card, so F12 and F12#1 are not a pair of 12s."""
    table = battle()
    table.play("F11#1", "F11#2")
    table.seen("F12#1")
    reason = table.refused("card_seen", zone="center", card="F12")
    assert "'F12' is not a card of Battle (Gather Together Games)" in reason and "'F7#2'" in reason
    assert table.state.pending.cards == ["F12#1"]
    assert table.refused("resolve").startswith("A single 12 does not beat a pair of 11s")


def test_a_copy_the_deck_does_not_have_is_refused():
    table = battle()
    assert "the deck has 6 copies of Fight 12 (F12#1 to F12#6)" in table.refused("card_seen", zone="center",
                                                                                  card="F12#7")


def test_a_bad_identity_tag_is_refused_without_naming_a_team():
    table = Table(4, teams=None, flip=None)
    for key in ("HERO#9", "VILLAIN", "HERO#1#1"):
        reason = table.refused("card_seen", zone="reader:1", card=key, hidden=True)
        assert "SUPERHERO" not in reason and "VILLAIN" not in reason and "HERO" not in reason, reason


# -- the deck for the table's size ------------------------------------------------------------------------
def discard_on_each_turn(table: Table, cards: list[str]) -> None:
    """Building turns, each discarding the next card; EXPOSE and ELIMINATE choices answered."""
    for card in cards:
        seat = table.turn
        table.draw(seat)
        table.discard(card)
        asked = table.state.awaiting
        if asked and asked.what == "expose":
            table.ok("expose", target=next(s for s in table.state.seat_numbers()
                                           if s != seat and not table.state.exposed[s]))
        elif asked and asked.what == "eliminate":
            table.ok("eliminate", target=next(s for s in table.state.seat_numbers()
                                              if s != seat and not table.state.eliminated[s]))
            table.ok("no_save")


def test_four_players_play_without_one_eliminate_card():
    """"*remove 1 SAVE card and 1 ELIMINATE card when playing with 4 or 5 players": the deck has
    three ELIMINATE cards, so a table of 4 plays with two. A third one seen is not in the deck."""
    table = Table(4)
    discard_on_each_turn(table, ["ELIM#1", "ELIM#2"])
    table.draw(table.turn)
    reason = table.refused("card_seen", zone="center", card="ELIM#3")
    assert reason.startswith("\"*remove 1 SAVE card and 1 ELIMINATE card when playing with 4 or 5 players\" "
                             "With 4 players the deck holds 2 ELIMINATE cards, and ELIM#1, ELIM#2 are already in "
                             "play this round: ELIM#3 is not in this round's deck.")


def test_five_players_play_without_one_save_card_and_the_first_card_flipped_counts():
    table = Table(5, flip="SAVE#3")
    discard_on_each_turn(table, ["SAVE#1"])
    table.draw(table.turn)
    assert "With 5 players the deck holds 2 SAVE cards" in table.refused("card_seen", zone="center", card="SAVE#2")
    table.discard("SAVE#3")  # seen again: a copy already in play is not a new one


def test_six_players_keep_every_eliminate_card():
    """The removal is for 4 or 5 players only."""
    table = Table(6)
    discard_on_each_turn(table, ["ELIM#1", "ELIM#2", "ELIM#3"])
    assert sum(table.state.eliminated.values()) == 3


def test_six_players_use_six_expose_cards():
    """"Step 3: Locate the (10) EXPOSE cards. The number of players playing should equal the number
    of EXPOSE cards being used.\""""
    table = Table(6)
    discard_on_each_turn(table, [f"EXPOSE#{n}" for n in range(1, 7)])
    table.draw(table.turn)
    reason = table.refused("card_seen", zone="center", card="EXPOSE#7")
    assert reason.startswith("\"The number of players playing should equal the number of EXPOSE cards being "
                             "used.\" With 6 players the deck holds 6 EXPOSE cards")
    assert "EXPOSE#7 is not in this round's deck" in reason


def test_the_count_starts_again_with_each_round():
    """"Setup a new round": the cards are gathered and shuffled, and the deck is made again."""
    table = Table(4, flip="ELIM#3", target=3)
    discard_on_each_turn(table, ["ELIM#1"])
    table.start_battle()
    table.ok("confirm_count", seat=table.turn, cards=0)
    table.seen("HERO#2")  # Cy goes out
    table.ok("new_round")
    table.deal_identities("HVHV")
    table.seen("ELIM#2")
    discard_on_each_turn(table, ["ELIM#3"])
    assert table.state.in_play["eliminate"] == ["ELIM#2", "ELIM#3"]
