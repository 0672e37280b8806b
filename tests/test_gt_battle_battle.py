"""Game Play - Battle (gather-together-battle.txt): plays of one rank, count first then rank,
NEW BATTLE, action cards in the battle, the reset when no one can beat a play, ELIMINATE and SAVE,
EXPOSE, going out with the identity card, and the hand-count question."""
from __future__ import annotations

from companion.rules.gt.state import Fight
from tests.test_gt_battle_support import Table


def battle(players: int = 6, teams: str = "HVHVHVHVHV") -> Table:
    """Ben (seat 2), left of the dealer, draws the BATTLE card on the first turn."""
    table = Table(players, teams=teams)
    table.start_battle(2)
    assert table.phase == "battle" and table.turn == 2
    return table


def test_a_pair_of_1s_beats_a_single_12():
    """"A pair beats any single, a three-of-a-kind beats any pair, and so on. For example, a pair of
    1s beats a single 12.\""""
    table = battle()
    table.play("F12#1")
    table.play("F1#1", "F1#2")
    assert table.top == {"seat": 3, "count": 2, "rank": 1}
    assert "Cy (seat 3) plays a pair of 1s, beating a single 12." in table.says()


def test_three_of_a_kind_beats_any_pair_and_a_single_never_beats_a_pair():
    """"a three-of-a-kind beats any pair\""""
    table = battle()
    table.play("F12#1", "F12#2")
    table.seen("F12#3")
    reason = table.refused("resolve")
    assert reason.startswith("A single 12 does not beat a pair of 12s played by Ben (seat 2).")
    assert "A pair beats any single, a three-of-a-kind beats any pair" in reason
    assert "The player can play an Action card, or pass on playing." in reason
    table.ok("card_gone", zone="center", card="F12#3")
    table.play("F2#1", "F2#2", "F2#3")
    assert table.top == {"seat": 3, "count": 3, "rank": 2}


def test_a_play_that_does_not_beat_is_refused_and_waits_to_be_taken_back():
    """"Play moves to the next player who has to match or beat the rank of fight cards previously played.\""""
    table = battle()
    table.play("F9#1", "F9#2")
    table.seen("F8#1")
    table.seen("F8#2")
    assert not table.rules.ready_to_resolve(table.state)  # the session will not resolve it on its own
    reason = table.refused("resolve")
    assert reason.startswith("A pair of 8s does not beat a pair of 9s played by Ben (seat 2).")
    view = table.rules.public_view(table.state)
    assert view["fight"]["pending"]["problem"] == reason and view["prompt"] == reason
    table.ok("card_gone", zone="center", card="F8#1")
    table.ok("card_gone", zone="center", card="F8#2")
    table.play("F10#1", "F10#2")
    assert table.state.top.rank == 10


def test_matching_the_rank_is_allowed():
    """"has to match or beat the rank": a single 7 on a single 7 stands."""
    table = battle()
    table.play("F7#1")
    table.play("F7#2")
    assert table.top == {"seat": 3, "count": 1, "rank": 7}


def test_fight_cards_of_mixed_ranks_are_refused():
    """"Fight cards of similar rank are played together.\""""
    table = battle()
    table.seen("F5#1")
    reason = table.refused("card_seen", zone="center", card="F6#1")
    assert reason == "\"Fight cards of similar rank are played together.\" A 6 cannot join the 5s being played: take it back."
    table.seen("F5#2")
    table.ok("resolve")
    assert table.top == {"seat": 2, "count": 2, "rank": 5}


def test_an_action_card_is_played_on_its_own():
    table = battle()
    table.seen("F5#1")
    assert "SKIP is an action card and is played on its own" in table.refused("card_seen", zone="center", card="SKIP#1")


def test_a_play_out_of_turn_is_refused():
    table = battle()
    table.play("F4#1")
    assert table.refused("pass", seat=5).startswith("It is Cy (seat 3)'s turn, not Eve (seat 5)'s")
    assert "Only SAVE is played out of turn" in table.refused("card_seen", zone="center", card="F9#1", seat=5)


def test_new_battle_resets_and_its_player_starts_with_any_fight_cards():
    """"If a player cannot beat the previous rank of fight cards, he/she can play a NEW BATTLE card if
    possible. When played, the player of the card will follow it by playing any fight card(s).\""""
    table = battle()
    table.play("F11#1", "F11#2", "F11#3")
    table.play("NEWBTL#1", "F2#1")
    assert table.top == {"seat": 3, "count": 1, "rank": 2}
    assert table.hand(3) == 9
    assert table.turn == 4
    # or NEW BATTLE resolved alone first: its player keeps the turn
    table.play("NEWBTL#2")
    assert table.turn == 4 and table.state.top is None
    table.play("F1#1")
    assert table.top == {"seat": 4, "count": 1, "rank": 1}


def test_one_new_battle_card_starts_one_new_battle_and_a_second_in_the_same_play_is_refused():
    """"NEW BATTLE: the player of this card resets the battle, and gets to start a new battle with any
    fight card(s)." One card resets the battle once; a second NEW BATTLE is no fight card, so it
    cannot follow the first in the same play."""
    table = battle()
    table.play("F11#1", "F11#2", "F11#3")
    table.seen("NEWBTL#1")
    reason = table.refused("card_seen", zone="center", card="NEWBTL#2")
    assert reason == "One NEW BATTLE card resets the battle; take back the second one."
    assert table.state.pending.cards == ["NEWBTL#1"]


def test_after_an_action_card_the_next_player_must_beat_the_previous_fight_cards():
    """"An action card is played in the Battle phase? The next player in sequence must beat the
    previously played fight card(s).\""""
    table = battle()
    table.play("F7#1", "F7#2")
    table.play("EXPOSE#1")
    table.ok("expose", target=6)
    assert table.turn == 4
    table.seen("F12#1")
    assert table.refused("resolve").startswith("A single 12 does not beat a pair of 7s played by Ben (seat 2).")


def test_skip_and_reverse_in_the_battle():
    table = battle()
    table.play("F3#2")
    table.play("SKIP#1")  # Cy skips Dee
    assert table.turn == 5
    table.play("REVERSE#1")  # Eve reverses: play moves right, back to Dee
    assert table.turn == 4 and table.state.direction == -1
    table.play("F4#1")
    assert table.turn == 3


def test_when_no_one_can_beat_a_play_the_battle_resets_to_its_player():
    """"No player can beat the previously played fight card(s)? The Battle resets and the player of
    the unbeatable fight card(s) can play any fight card(s).\""""
    table = battle()
    table.play("F12#1", "F12#2")
    table.pass_(3)
    table.play("SKIP#1")  # Dee cannot beat it either: "The player can play an Action card, or pass"
    table.pass_(6)
    result = table.pass_(1)
    assert "reset" in table.kinds(result)
    assert table.turn == 2 and table.state.top is None
    table.play("F1#1")
    assert table.top == {"seat": 2, "count": 1, "rank": 1}


def test_the_reset_when_the_unbeaten_player_was_eliminated():
    """Referee note: if the unbeaten player is out, the battle resets when the turn reaches a player
    who has already had a go at it."""
    table = battle()
    table.play("F12#1", "F12#2")
    table.play("ELIM#1")
    table.ok("eliminate", target=2)
    table.ok("no_save")
    assert table.turn == 4
    for seat in (4, 5, 6, 1):
        table.pass_(seat)
    assert table.turn == 3 and table.state.top is None


def test_eliminate_then_save_played_out_of_turn():
    """"SAVE: this card allows an eliminated player to stay in the game. If the holder of the card
    wants to save an eliminated player, this card is played out of turn immediately after a player
    is chosen for elimination.\""""
    table = battle()
    table.play("F5#1")
    table.seen("ELIM#1")
    table.ok("eliminate", target=4)  # choosing the target also resolves the ELIMINATE card
    assert table.hand(3) == 10
    table.seen("SAVE#1")  # the camera cannot tell who played it
    assert table.state.awaiting.what == "save_by"
    assert "Who played the SAVE card" in table.rules.public_view(table.state)["prompt"]
    table.ok("save", by=6)
    assert "Fay (seat 6) plays SAVE: Dee (seat 4) stays in the game." in table.says()
    assert table.hand(6) == 10 and not table.eliminated(4)
    assert table.turn == 4  # and Dee must beat the single 5


def test_save_entered_on_the_tablet_before_the_camera_sees_it():
    table = battle()
    table.play("F5#1")
    table.play("ELIM#1")
    table.ok("eliminate", target=4)
    table.ok("save", by=4)  # a player may save themselves
    assert table.hand(4) == 10
    result = table.seen("SAVE#2")  # the card the tablet already recorded
    assert result.outcomes == () and table.hand(4) == 10 and table.turn == 4


def test_eliminated_players_are_out_for_the_round():
    table = battle()
    table.play("F5#1")
    table.play("ELIM#1")
    table.ok("eliminate", target=4)
    table.ok("no_save")
    assert table.turn == 5 and table.hand(4) == 0
    assert table.rules.public_view(table.state)["standings"][3]["eliminated"]
    table.play("ELIM#2")
    assert "Dee (seat 4) is already out for the round" in table.refused("eliminate", target=4)


def test_expose_shows_the_chosen_players_identity():
    """"The Identity card is left face up in front of its owner.\""""
    table = battle(teams="HVHVHV")
    table.play("EXPOSE#1")
    result = table.ok("expose", target=3)
    assert result.reveals
    standings = table.rules.public_view(table.state)["standings"]
    assert [s["identity"] for s in standings] == [None, None, "SUPERHERO", None, None, None]


def test_a_player_out_of_fight_cards_plays_their_identity_card_next_turn_and_their_team_wins():
    """"Once players are able to get rid of their fight cards, they can play their identity card on
    their next turn. If a Superhero saves the world, all the Superheroes score a point.\""""
    table = battle(teams="HVHVHV")
    table.ok("confirm_count", seat=3, cards=2)  # Cy is down to his last pair
    table.play("F6#1")
    table.play("F9#1", "F9#2")
    assert table.hand(3) == 0 and "last_card" in table.kinds()
    for seat in (4, 5, 6, 1, 2):
        table.pass_(seat)
    assert table.turn == 3  # the battle resets to Cy: his next turn
    result = table.seen("HERO#2")
    assert result.reveals
    assert "Cy (seat 3) plays their SUPERHERO card: the Superheroes save the world!" in table.says()
    assert table.points() == [1, 0, 1, 0, 1, 0]
    assert table.phase == "round_over"


def test_the_identity_card_is_played_on_its_own_turn_and_must_be_the_players_own():
    table = battle(teams="HVHVHV")
    assert "not the identity card Ben (seat 2) showed" in table.refused("card_seen", zone="center", card="HERO#2")
    assert "It is Ben (seat 2)'s turn" in table.refused("card_seen", zone="center", card="HERO#2", seat=3)


def test_a_play_the_hand_count_cannot_explain_is_held_until_the_table_confirms_the_count():
    """The companion counted one card in Dee's hand; she plays a pair. It asks rather than accepts."""
    table = battle()
    table.play("F4#1")
    table.play("F5#1")
    table.ok("confirm_count", seat=4, cards=1)
    table.seen("F6#1")
    table.seen("F6#2")
    result = table.ok("resolve")
    assert table.kinds(result) == ["count_check"]
    assert "Dee (seat 4) plays 2 card(s), but the companion counted 1 in their hand" in table.says(result)
    assert table.state.top.rank == 5 and table.hand(4) == 1  # nothing taken yet
    assert not table.rules.ready_to_resolve(table.state)
    assert table.rules.public_view(table.state)["count_check"]["seat"] == 4
    assert table.refused("pass", seat=4).startswith("First confirm Dee (seat 4)'s hand on the tablet")
    table.ok("confirm_count", seat=4, cards=3)  # she holds 3 more: the count was off
    assert table.top == {"seat": 4, "count": 2, "rank": 6}
    assert table.hand(4) == 3 and table.state.count_check is None and table.turn == 5


def test_taking_the_cards_back_drops_the_count_question():
    table = battle()
    table.ok("confirm_count", seat=2, cards=1)
    table.seen("F6#1")
    table.seen("F6#2")
    table.ok("resolve")
    assert table.state.count_check
    table.ok("card_gone", zone="center", card="F6#1")
    table.ok("card_gone", zone="center", card="F6#2")
    assert table.state.count_check is None
    table.pass_(2)


def test_a_save_from_a_hand_counted_empty_asks_for_the_count():
    table = battle()
    table.play("ELIM#1")
    table.ok("eliminate", target=4)
    table.ok("confirm_count", seat=5, cards=0)
    result = table.ok("save", by=5)
    assert table.kinds(result) == ["count_check"] and table.state.awaiting.what == "save"
    table.ok("confirm_count", seat=5, cards=4)
    assert table.hand(5) == 4 and not table.eliminated(4) and table.state.awaiting is None


def test_the_session_resolves_a_legal_play_once_the_table_is_still_and_never_an_illegal_one(tmp_path):
    from companion.gamelog.session import Session, open_store
    from tests.test_gt_battle_support import NAMES, identity_keys

    now = [0.0]
    session = Session.start(open_store(tmp_path), "gt-battle", [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)],
                            clock=lambda: now[0])
    for seat, key in enumerate(identity_keys("HVHV"), 1):
        session.submit("card_seen", {"zone": f"reader:{seat}", "card": key}, "rfid")
    session.submit("card_seen", {"zone": "center", "card": "BATTLE#1"}, "camera")  # flipped first: Ben starts
    session.submit("card_seen", {"zone": "center", "card": "F8#1"}, "camera")
    session.submit("card_seen", {"zone": "center", "card": "F8#2"}, "camera")
    assert session.maybe_auto_resolve(settle_seconds=2.0) is None  # cards still moving
    now[0] = 3.0
    resolved = session.maybe_auto_resolve(settle_seconds=2.0)
    assert resolved.ok and resolved.event.source == "auto"
    assert session.state.top == Fight(seat=2, count=2, rank=8, cards=["F8#1", "F8#2"])
    session.submit("card_seen", {"zone": "center", "card": "F12#1"}, "camera")  # Cy: a single 12 on a pair
    now[0] = 10.0
    assert session.maybe_auto_resolve(settle_seconds=2.0) is None
    assert session.public_view()["prompt"].startswith("A single 12 does not beat a pair of 8s")
