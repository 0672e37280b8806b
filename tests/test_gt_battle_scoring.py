"""Winning and scoring (gather-together-battle.txt): team points, new rounds with new identities,
the agreed target, and the tie-break with one SAVE and one ELIMINATE card."""
from __future__ import annotations

from companion.rules.gt.state import Tiebreak
from tests.test_gt_battle_support import Table, play_round


def test_all_the_villains_score_when_a_villain_goes_out():
    """"If a Villain achieves world domination, all the Villains score a point." An eliminated
    Villain is one of "all the Villains" (referee note)."""
    table = Table(6, teams="VHHVVH")
    table.start_battle(2)
    table.play("ELIM#1")
    table.ok("eliminate", target=5)
    table.ok("no_save")
    while table.turn != 4:
        table.pass_(table.turn)
    table.ok("confirm_count", seat=4, cards=0)
    result = table.seen("VILLAIN#2")
    assert "the Villains achieve world domination" in table.says(result)
    assert table.points() == [1, 0, 0, 1, 1, 0]
    view = table.rules.public_view(table.state)
    assert [s["identity"] for s in view["standings"]] == ["VILLAIN", "SUPERHERO", "SUPERHERO", "VILLAIN", "VILLAIN",
                                                          "SUPERHERO"]
    assert view["rounds"][0]["went_out"] == 4 and view["winner"] is None and not view["over"]


def test_a_new_round_deals_new_identities_and_the_deal_passes_left():
    """"Setup a new round with players getting a new Identity card.\""""
    table = Table(6, teams="HVHVHV")
    play_round(table, "HVHVHV", winner=1)
    assert "round starts once a round is won" in Table(6).refused("new_round")
    table.ok("new_round")
    assert table.state.round == 2 and table.state.dealer == 2 and table.phase == "deal"
    assert table.state.identity == {} and table.state.hands == {n: 11 for n in range(1, 7)}
    view = table.rules.public_view(table.state)
    assert [s["identity"] for s in view["standings"]] == [None] * 6  # last round's teams are history now
    assert view["rounds"][0]["teams"] == ["SUPERHERO", "VILLAIN"] * 3
    table.deal_identities("VVVHHH")
    table.seen("F3#1")
    assert table.turn == 3  # left of the new dealer


def test_the_first_player_to_the_agreed_target_wins():
    """"The first player to an agreed amount of points, such as 5, wins the game!\""""
    table = Table(6, teams=None, flip=None, target=2)
    play_round(table, "HVHVHV", winner=1)
    assert table.points() == [1, 0, 1, 0, 1, 0]
    play_round(table, "HHVHVV", winner=2)  # the Superheroes again: Ann, Ben and Dee
    assert table.points() == [2, 1, 1, 1, 1, 0]
    view = table.rules.public_view(table.state)
    assert view["over"] and view["winner"] == 1
    assert "Ann (seat 1) wins the game with 2 points!" in table.says()
    assert table.refused("new_round") == "The game is over: Ann (seat 1) won."


def test_the_default_target_is_five_points():
    table = Table(6, teams=None, flip=None)
    for _ in range(4):
        play_round(table, "HVHVHV", winner=1)
    assert table.points() == [4, 0, 4, 0, 4, 0] and table.phase == "round_over"
    play_round(table, "HVHVHV", winner=1)
    assert table.phase == "tiebreak"  # Ann, Cy and Eve reach 5 together


def test_the_tie_break():
    """"There is a tie for game winner? Randomly place one SAVE card and one ELIMINATE card face
    down. A tying player will draw one of the two cards. This is repeated with each tying player.
    If an ELIMINATE card is drawn, the player is out. If all tying players draw the ELIMINATE card
    in the same round, start the process over.\""""
    table = Table(6, teams=None, flip=None, target=1)
    play_round(table, "HVHVHV", winner=3)
    assert table.phase == "tiebreak" and table.state.tiebreak.players == [1, 3, 5]
    assert "Only the tying players draw" in table.refused("tiebreak_draw", seat=2, card="save")
    assert "\"save\" or \"eliminate\"" in table.refused("tiebreak_draw", seat=1, card="skip")
    table.ok("tiebreak_draw", seat=1, card="eliminate")
    assert "already drawn" in table.refused("tiebreak_draw", seat=1, card="save")
    table.ok("tiebreak_draw", seat=3, card="eliminate")
    table.ok("tiebreak_draw", seat=5, card="ELIMINATE")
    assert "start the process over" in table.says()
    assert table.state.tiebreak == Tiebreak(players=[1, 3, 5], drawn=[], attempt=2)
    # Two draw SAVE: they are still tied, so they draw again (referee note).
    table.ok("tiebreak_draw", seat=5, card="eliminate")
    table.ok("tiebreak_draw", seat=1, card="save")
    table.ok("tiebreak_draw", seat=3, card="save")
    assert table.state.tiebreak.players == [1, 3] and table.phase == "tiebreak"
    table.ok("tiebreak_draw", seat=1, card="eliminate")
    table.ok("tiebreak_draw", seat=3, card="save")
    assert table.state.over and table.state.winner == 3
