"""Setup and Deal: identity cards shown privately, the first discard, and every "What happens if"
case for the first card flipped (gather-together-battle.txt)."""
from __future__ import annotations

from companion.rules import Applied
from tests.test_gt_battle_support import Table


def test_six_players_are_dealt_three_superheroes_and_three_villains():
    """"For example, with 6 players in the game, shuffle and deal 3 SUPERHERO cards and 3 VILLAIN
    cards. Each player should have 1 Identity card." A fourth card of one team cannot be in play."""
    table = Table(6, teams=None, flip=None)
    for seat, key in ((1, "HERO#1"), (2, "HERO#2"), (3, "HERO#3"), (4, "VILLAIN#1")):
        table.ok("card_seen", zone=f"reader:{seat}", card=key, hidden=True)
    reason = table.refused("card_seen", zone="reader:5", card="HERO#4", hidden=True)
    # Public words never say a team is full: that would tell everyone seats 1-3 share a team.
    assert reason == "That identity card cannot be taken for Eve (seat 5); Eve (seat 5), see your page for why."
    assert "this card would make one team too large" in table.last.private and table.last.seat == 5
    table.ok("card_seen", zone="reader:5", card="VILLAIN#2", hidden=True)
    table.ok("card_seen", zone="reader:6", card="VILLAIN#3", hidden=True)
    assert [table.state.identity[s].team for s in range(1, 7)] == ["superhero"] * 3 + ["villain"] * 3


def test_odd_tables_accept_either_team_one_larger():
    """The rulebook does not say which team is larger at 5, 7 or 9 players: up to 3 of 5 either way."""
    Table(5, teams="HHHVV")
    Table(5, teams="VVVHH")
    table = Table(5, teams=None, flip=None)
    table.deal_identities("VVV")
    table.refused("card_seen", zone="reader:4", card="VILLAIN#4", hidden=True)
    assert "too large" in table.last.private


def test_the_tray_serves_players_in_turn_from_the_left_of_the_dealer():
    """Shown to the covered tray, an identity card belongs to the next player still to show theirs,
    starting left of the dealer (seat 3 when seat 2 deals), unless the tablet names the seat."""
    table = Table(4, teams=None, flip=None, first_dealer=2)
    assert table.rules.public_view(table.state)["identities_missing"] == [3, 4, 1, 2]
    table.ok("card_seen", zone="tray", card="VILLAIN#1", hidden=True)
    assert table.state.identity[3].card == "VILLAIN#1"
    table.ok("card_seen", zone="tray", card="HERO#1", hidden=True, seat=1)
    assert table.state.identity[1].card == "HERO#1"
    assert table.rules.public_view(table.state)["identities_missing"] == [4, 2]


def test_one_identity_card_cannot_belong_to_two_players():
    table = Table(4, teams=None, flip=None)
    table.ok("card_seen", zone="reader:1", card="HERO#1", hidden=True)
    reason = table.refused("card_seen", zone="reader:2", card="HERO#1", hidden=True)
    assert reason.startswith("That identity card was already shown for Ann (seat 1) this round")


def test_fight_cards_are_not_shown_to_a_reader():
    table = Table(4, teams=None, flip=None)
    assert "only identity cards are shown to a reader" in table.refused("card_seen", zone="reader:1", card="F4#1")


def test_play_begins_once_every_identity_is_shown_and_the_first_discard_flipped():
    """Step 6 may come before everyone has shown their identity card: the first turn waits for both."""
    table = Table(4, teams=None, flip="F9#1")
    assert table.phase == "deal" and table.turn is None
    assert "the deal is not finished" in table.refused("draw", seat=2, **{"from": "deck"})
    table.deal_identities("HVHV")
    assert table.phase == "building"
    assert table.turn == 2  # "The player left of the dealer is first to play."
    assert table.state.step.top == "F9#1"


def test_only_one_card_is_flipped_and_identities_are_not_in_the_deck():
    table = Table(4, teams=None, flip=None)
    assert "not part of the deck" in table.refused("card_seen", zone="center", card="HERO#2")
    table.ok("first_discard", card="F1#1")  # the tablet's entry when the camera missed the flip
    assert "already flipped" in table.refused("card_seen", zone="center", card="F2#1")


def test_battle_card_flipped_first():
    """"The BATTLE card is the first card flipped over from the deck? The player left of the dealer
    begins the battle by playing a fight card(s).\""""
    table = Table(6, flip="BATTLE#1")
    assert table.phase == "battle"
    assert table.turn == 2
    assert table.state.top is None
    table.play("F6#1")
    assert table.top == {"seat": 2, "count": 1, "rank": 6}


def test_expose_flipped_first():
    """"An EXPOSE card is the first card flipped over from the deck? The dealer chooses a player to
    expose his/her Identity card.\""""
    table = Table(6, flip="EXPOSE#1")
    assert table.state.awaiting.what == "expose" and table.state.awaiting.by == 1
    assert "Ann (seat 1) chooses a player to expose" in table.refused("draw", seat=2, **{"from": "deck"})
    result = table.ok("expose", target=4)
    assert isinstance(result, Applied) and result.reveals
    assert table.rules.public_view(table.state)["standings"][3]["identity"] == "VILLAIN"
    table.building_turn(2)  # then the player left of the dealer plays as usual


def test_skip_flipped_first():
    """"A SKIP card is the first card flipped over from the deck? The player left of the dealer is
    skipped, and play begins with the next player.\""""
    table = Table(6, flip="SKIP#1", first_dealer=6)
    assert table.turn == 2  # dealer 6, left of the dealer is 1, skipped
    assert "It is Ben (seat 2)'s turn, not Ann (seat 1)'s" in table.refused("draw", seat=1, **{"from": "deck"})


def test_reverse_flipped_first():
    """"A REVERSE card is the first card flipped over from the deck? The dealer is the first to
    play, and play moves to the right.\""""
    table = Table(6, flip="REVERSE#1", first_dealer=3)
    assert table.turn == 3
    table.building_turn(3, "F8#1")
    assert table.turn == 2
    table.building_turn(2, "F8#2")
    assert table.turn == 1


def test_new_battle_eliminate_or_save_flipped_first_may_be_drawn_by_the_player_left_of_the_dealer():
    """"A NEW BATTLE card ... An ELIMINATE card ... A SAVE card is the first card flipped over from
    the deck? The player left of the dealer has the option to draw the card." This is the one time
    an action card comes off the discard pile."""
    for flipped in ("NEWBTL#1", "ELIM#2", "SAVE#3"):
        table = Table(6, flip=flipped)
        table.draw(2, "discard")
        assert table.hand(2) == 12
        assert table.state.pile == []


def test_the_first_card_option_lapses_after_the_first_turn():
    table = Table(6, flip="ELIM#1")
    table.building_turn(2, source="deck")  # Ben draws from the deck and keeps his cards
    reason = table.refused("draw", seat=3, **{"from": "discard"})
    assert "\"Action cards cannot be picked up from the discard pile.\"" in reason
