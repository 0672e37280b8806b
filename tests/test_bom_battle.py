"""A battle at the table: the deal, what the camera sees, refusals that change nothing, the
winner taking the battlefield, refilled BATTALIONs, spoils of war, elimination and the end."""
import pytest

from companion.rules import SetupError
from tests.test_bom_support import RULES, Table


# -- setup ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats, dealt", [(2, [36, 36]), (3, [24, 24, 24]), (4, [18] * 4),
                                          (5, [15, 15, 14, 14, 14]), (6, [12] * 6)])
def test_the_whole_deck_is_dealt_and_each_draws_a_battalion_of_five(seats, dealt):
    """"Shuffle the cards and deal out the entire deck facedown. ... All players draw five cards from
    the top of their ARMY. This becomes the BATTALION.\""""
    t = Table(seats)
    assert [t.counts(n) for n in range(1, seats + 1)] == [(d - 5, 5, 0) for d in dealt]
    assert t.total() == 72


def test_the_first_seat_dealt_gets_the_odd_cards():
    t = Table(5, first_seat=3)
    assert [sum(t.counts(n)) for n in range(1, 6)] == [14, 14, 15, 15, 14]


@pytest.mark.parametrize("seats", [1, 7])
def test_two_to_six_players(seats):
    from companion.rules import Seat
    with pytest.raises(SetupError, match="2 to 6 players"):
        RULES.setup([Seat(i + 1, f"P{i}") for i in range(seats)], RULES.resolve_options({}))


# -- the battle -----------------------------------------------------------------------------------------
def test_the_winner_takes_the_battlefield_and_everyone_refills_to_five():
    """"The player with the card(s) having the highest value wins and takes all the cards from the
    battlefield. The winner places these cards faceup in a personal discard pile. Each player then
    draws enough cards from the top of his ARMY to replenish the number in his BATTALION to five.\""""
    t = Table(3)
    outcome = t.battle({1: ["GD500", "FAITH"], 2: ["BD800"], 3: ["GO100", "GD200", "TITLE"]})
    assert outcome.data["winner"] == 3 and outcome.data["cards_taken"] == 6
    assert outcome.say == "Seat 3 (Cy) wins with Title of Liberty: Sariah 100 + Enos 200 + 5000 = 5300."
    assert [t.counts(n) for n in (1, 2, 3)] == [(17, 5, 0), (18, 5, 0), (16, 5, 6)]
    assert t.total() == 72
    assert t.state.battle == 2


def test_every_outcome_explains_each_seats_value():
    t = Table(2)
    outcome = t.battle({1: ["GD100", "BO700", "BD2000", "BATTLE"], 2: ["GO4000"]})
    assert [(term.label, term.value) for term in outcome.terms[:2]] == [("Seat 1 (Ann)", 4800), ("Seat 2 (Bo)", 4000)]
    assert outcome.terms[0].detail == "Battle: Sam 100 + Riplakish 700 + Zerahemnah 2000 + 2000 = 4800"
    assert outcome.data["cards"] == ["GD100#1", "BO700#1", "BD2000#1", "BATTLE#1", "GO4000#1"]


def test_when_the_army_runs_out_the_discard_pile_becomes_the_army():
    """"Note: When a player's ARMY runs out, he shuffles his discard pile and places it facedown. It
    now becomes his ARMY.\""""
    t = Table(2)
    t.set_counts(1, 1, 5, 30)   # one card left in the ARMY, 30 in the discard pile
    t.set_counts(2, 31, 5, 0)
    t.battle({1: ["GD100", "GO100", "BATTLE"], 2: ["GD5000"]})
    assert t.counts(1) == (28, 5, 0), "drew 1, then the discard pile (30) became the ARMY, and drew 2 more"
    assert t.counts(2) == (30, 5, 4)


def test_too_many_power_cards_two_to_the_discard_two_drawn():
    """"If a player has 4 or more POWER cards in his hand, he must choose 2 and place them in his
    discard pile, then draw 2 more cards from the top of his ARMY.\""""
    t = Table(3)
    t.show_powers(2, "FAITH", "WICKED", "BATTLE", "FAMINE")
    assert "4 or more POWER cards shown" in t.view()["seats"][1]["problem"]
    outcome = t.do("too_many_powers", seat=2).outcomes[0]
    assert t.counts(2) == (17, 5, 2)
    assert outcome.say.startswith("Seat 2 (Bo) has too many POWER cards")
    assert outcome.data["cards"] == ["FAITH#1", "WICKED#1", "BATTLE#1", "FAMINE#1"]
    assert t.view()["seats"][1]["play"] == [], "the shown cards go back to the hand and the discard pile"
    for key in ("FAITH#1", "WICKED#1", "BATTLE#1", "FAMINE#1"):
        t.do("card_gone", zone="seat:2", card=key)
    t.play({1: ["GD500"], 2: ["BD800"], 3: ["GO100"]})
    assert t.resolve().data["winner"] == 2


def test_too_many_power_cards_needs_four_power_cards_shown():
    """The rule is about "4 or more POWER cards": the companion sees them before it swaps two (it
    cannot see a hand; the player shows them in his area or on his reader)."""
    t = Table(3)
    t.see(2, "GD500", "FAITH")
    assert "Alma² is a CHARACTER card" in t.refused("too_many_powers", seat=2)
    t.gone(2, "GD500")
    t.see(2, "WICKED", "BATTLE")
    assert "Seat 2 (Bo) shows 3" in t.refused("too_many_powers", seat=2)
    t.see(2, "FAMINE")
    assert t.do("too_many_powers", seat=2).outcomes[0].data["cards"] == ["FAITH#1", "WICKED#1", "BATTLE#1", "FAMINE#1"]


def test_too_many_power_cards_are_cards_of_the_hand():
    t = Table(3)
    t.set_counts(2, 20, 3, 1)
    t.show_powers(2, "FAITH", "WICKED", "BATTLE", "FAMINE")
    assert "BATTALION holds 3 card(s), but 4 are shown" in t.refused("too_many_powers", seat=2)


def test_a_seat_with_no_character_card_withdraws_and_the_others_battle():
    t = Table(3)
    t.play({1: ["GD900"], 2: ["BD900"]})
    assert not RULES.ready_to_resolve(t.state)
    assert "Seat 3 (Cy) has not played yet" in t.refused("resolve")
    t.do("withdraw", seat=3)
    assert RULES.ready_to_resolve(t.state)
    outcome = t.resolve()
    assert outcome.data["winner"] == 1
    assert t.counts(3) == (19, 5, 0), "a seat that sat out keeps its BATTALION"
    assert not t.seat(3).withdrawn, "withdrawing lasts one battle"


def test_withdrawing_with_cards_on_the_battlefield_is_refused():
    t = Table(3)
    t.see(3, "GD900")
    assert "take them back" in t.refused("withdraw", seat=3)


def test_a_card_seen_from_a_withdrawn_seat_puts_it_back_in_the_battle():
    t = Table(3)
    t.do("withdraw", seat=3)
    t.see(3, "GO700")
    assert not t.seat(3).withdrawn


def test_resolve_with_nobody_playing_is_refused():
    t = Table(2)
    for seat in (1, 2):
        t.do("withdraw", seat=seat)
    assert t.refused("resolve") == "Nobody has played: every seat has withdrawn from this battle."


# -- illegal plays and bad input: refused, state unchanged -----------------------------------------------
def test_faith_with_a_black_card_is_refused_with_the_rulebooks_reason():
    t = Table(2)
    t.play({1: ["BD800", "FAITH"], 2: ["GO100"]})
    assert t.view()["seats"][0]["problem"] == ("Faith only multiplies a gold CHARACTER card under 1000 (100-900); "
                                               "Korihor is black.")
    reason = t.refused("resolve")
    assert reason == "Seat 1 (Ann): Faith only multiplies a gold CHARACTER card under 1000 (100-900); Korihor is black."


def test_title_of_liberty_with_a_2000_is_refused_with_the_rulebooks_reason():
    t = Table(2)
    t.play({1: ["GD500", "GO2000", "TITLE"], 2: ["GO100"]})
    assert t.refused("resolve") == ("Seat 1 (Ann): Title of Liberty combines two gold CHARACTER cards under 1000 "
                                    "(100-900); the 2000 is not under 1000.")
    t.gone(1, "GO2000")
    t.see(1, "GO200")
    assert t.resolve().data["values"]["1"] == 5700


def test_more_cards_than_the_battalion_holds_is_refused():
    t = Table(2)
    t.set_counts(1, 34, 3, 0)
    t.set_counts(2, 35, 5, 0)
    t.play({1: ["GD100", "GD200", "GD300", "GD400", "BATTLE"], 2: ["GO100"]})
    assert "Its BATTALION holds 3 card(s), but 5 are on the battlefield" in t.refused("resolve")


@pytest.mark.parametrize("data, reason", [
    ({"zone": "seat:1", "card": "GD600#2"}, "the deck has 1 copy of Amulek (GD600#1)"),
    ({"zone": "seat:1", "card": "XX100#1"}, "'XX100' is not a card of this Book of Mormon"),
    ({"zone": "seat:1", "card": "GD600-1"}, "'GD600-1' is not a card of Book of Mormon"),
    ({"zone": "seat:1", "card": "GD600"}, "a card is named by its tag"),
    ({"zone": "seat:1", "card": 7}, "7 is not a card of Book of Mormon"),
    ({"zone": "seat:9", "card": "GD600#1"}, "There is no seat 9 at this table (seats 1-3)."),
    ({"zone": "center", "card": "GD600#1"}, "not in 'center'"),
])
def test_bad_card_events_are_refused_and_change_nothing(data, reason):
    t = Table(3)
    assert reason in t.refused("card_seen", **data)


def test_one_card_is_never_in_two_seats_under_two_names():
    """A card is its tag, ``ID#copy``: "GD5000" is no name for the card "GD5000#1" already in seat 1."""
    t = Table(2)
    t.see(1, "GD5000#1")
    assert "a card is named by its tag" in t.refused("card_seen", zone="seat:2", card="GD5000")
    t.see(2, "BD100")
    assert t.view()["conflicts"] == [] and t.resolve().data["cards_taken"] == 2


def test_unknown_commands_and_bad_seats_are_refused():
    t = Table(3)
    assert "takes no input 'shuffle'" in t.refused("shuffle")
    assert "not 4" in t.refused("withdraw", seat=4)
    assert "not True" in t.refused("too_many_powers", seat=True)


def test_a_card_gone_that_was_never_seen_is_refused():
    t = Table(3)
    assert t.refused("card_gone", zone="seat:1", card="GD600#1") == \
        "Amulek (GD600#1) was not seen in 'seat:1'; nothing to take away."


# -- what the camera sees ---------------------------------------------------------------------------------
def test_a_flickering_card_is_one_play_not_two():
    t = Table(2)
    t.see(1, "GD900")
    t.gone(1, "GD900")
    t.see(1, "GD900")
    t.see(2, "BD100")
    outcome = t.resolve()
    assert outcome.data["cards_taken"] == 2 and t.counts(1) == (30, 5, 2)


def test_a_card_taken_back_is_no_longer_played():
    t = Table(2)
    t.see(1, "GD900", "GD100")
    assert t.view()["seats"][0]["status"] == "problem"
    t.gone(1, "GD100")
    assert t.view()["seats"][0]["status"] == "ready"


def test_the_same_card_in_two_seats_is_a_conflict_until_one_is_removed():
    t = Table(2)
    t.see(1, "GD900")
    t.see(2, "BD100")
    t.see(2, "GD900")
    view = t.view()
    assert view["conflicts"] == [{"card": "GD900#1", "zones": ["seat:1", "seat:2"], "seats": [1, 2], "name": "Abinadi",
                                  "say": "Abinadi (GD900#1) is seen at Seat 1 (Ann) and Seat 2 (Bo) at once: take the "
                                         "duplicate away."}]
    assert not RULES.ready_to_resolve(t.state)
    assert "Abinadi (GD900#1) is seen at Seat 1 (Ann) and Seat 2 (Bo) at once" in t.refused("resolve")
    t.gone(1, "GD900")  # the duplicate tag was at seat 1
    assert t.view()["conflicts"] == []
    assert sorted(c["key"] for c in t.view()["seats"][1]["play"]) == ["BD100#1", "GD900#1"], \
        "the card left at seat 2 is seat 2's"


def test_a_seat_reader_counts_as_the_seats_area():
    t = Table(2)
    t.see(1, "GD900", zone="reader")
    t.see(1, "GD900")  # the camera sees the same card in seat 1's area: no conflict
    t.see(2, "BD100")
    assert t.resolve().data["winner"] == 1


def test_cards_being_collected_start_no_new_play_until_they_have_gone():
    """After a resolve the winner gathers the battlefield; the camera may see those cards again in
    the winner's area. Once a card has gone, it can be played again (after a reshuffle)."""
    t = Table(2)
    t.play({1: ["GD900"], 2: ["BD100"]})
    t.resolve()
    t.see(1, "BD100")  # the winner drags it across
    assert t.view()["seats"][0]["play"] == []
    t.collect()
    assert t.state.collecting == {}
    t.see(2, "GD900")
    assert [c["key"] for c in t.view()["seats"][1]["play"]] == ["GD900#1"]


# -- the end ----------------------------------------------------------------------------------------------
def test_a_seat_with_only_a_battalion_that_loses_gives_up_the_spoils_of_war():
    """"If a player only has a BATTALION (5 cards or fewer) left, he must play the card(s) for his
    attack and then lay the remaining cards facedown. If he loses the attack, the remaining cards are
    taken by the winner as the "spoils of war," and that player is done.\""""
    t = Table(3)
    t.set_counts(1, 30, 5, 0)
    t.set_counts(2, 27, 5, 0)
    t.set_counts(3, 0, 5, 0)
    outcome = t.battle({1: ["GD5000"], 2: ["BD100"], 3: ["GO300"]})
    assert outcome.data["spoils"] == {"3": 4} and outcome.data["eliminated"] == [3]
    assert t.seat(3).out and t.counts(3) == (0, 0, 0)
    assert t.counts(1) == (29, 5, 7), "3 from the battlefield + 4 spoils"
    assert "Seat 3 (Cy) is done: the winner takes the 4 card(s) left as the spoils of war." in outcome.say
    assert t.total() == 72
    assert "Seat 3 (Cy) is out of the game" in t.refused("card_seen", zone="seat:3", card="GO300#1")
    t.battle({1: ["GD100"], 2: ["BD900"]})  # the game goes on with two seats


def test_a_seat_with_only_a_battalion_left_must_play():
    """"If a player only has a BATTALION (5 cards or fewer) left, he must play the card(s) for his
    attack": it may not sit the battle out."""
    t = Table(3)
    t.set_counts(1, 30, 5, 0)
    t.set_counts(2, 27, 5, 0)
    t.set_counts(3, 0, 5, 0)
    assert "he must play the card(s) for his attack" in t.refused("withdraw", seat=3)
    sits_out = next(b for b in RULES.actions(t.state) if b["kind"] == "withdraw")
    assert [o["value"] for o in sits_out["choose"]["options"]] == [1, 2]
    t.do("withdraw", seat=2)  # a seat with an ARMY may still sit out


def test_a_seat_whose_last_cards_are_power_cards_lays_them_all_and_loses_them():
    """POWER cards "cannot be played individually", so a seat left with a BATTALION of POWER cards
    cannot attack: it lays its whole BATTALION down, and the winner takes it as the spoils of war."""
    t = Table(3)
    t.set_counts(1, 31, 5, 0)
    t.set_counts(2, 27, 5, 0)
    t.set_counts(3, 0, 4, 0)
    t.see(3, "FAITH", "WICKED", "BATTLE")
    assert t.view()["seats"][2]["status"] == "problem", "one card of its BATTALION is still in hand"
    t.see(3, "FAMINE")
    assert t.view()["seats"][2]["status"] == "ready"
    outcome = t.battle({1: ["GD5000"], 2: ["BD100"]})
    assert outcome.data["winner"] == 1 and outcome.data["cards_taken"] == 6
    assert outcome.data["eliminated"] == [3] and t.seat(3).out and t.total() == 72


def test_nobody_attacks_with_power_cards_alone():
    t = Table(2)
    t.set_counts(1, 0, 4, 0)
    t.set_counts(2, 0, 4, 0)
    t.see(1, "FAITH", "WICKED", "BATTLE", "FAMINE")
    t.see(2, "TITLE", "SECRET", "CONVERT", "STRIPLNG")
    assert t.refused("resolve") == "Nobody attacks: every seat in the battle laid only POWER cards."


def test_a_seat_with_only_a_battalion_that_wins_goes_on():
    t = Table(2)
    t.set_counts(1, 62, 5, 0)
    t.set_counts(2, 0, 5, 0)
    t.battle({1: ["GD100"], 2: ["BD900"]})
    assert not t.seat(2).out and t.counts(2) == (1, 5, 0), "won 2; the discard pile became the ARMY; drew 1"


def test_the_game_ends_when_one_player_holds_all_the_cards():
    """"The winner is the player who acquires all the other cards in battle.\""""
    t = Table(2)
    t.set_counts(1, 62, 5, 0)
    t.set_counts(2, 0, 5, 0)
    t.play({1: ["GD5000"], 2: ["BO100"]})
    applied = t.do("resolve")
    battle, over = applied.outcomes
    assert battle.data["spoils"] == {"2": 4}
    assert over.kind == "game_over" and over.say == "Seat 1 (Ann) holds all 72 cards and wins the game."
    view = t.view()
    assert view["over"] and view["winner"] == 1
    assert view["standings"][0] == {"seat": 1, "name": "Ann", "say": "", "score": 72, "eliminated": False,
                                    "counts": {"cards": 72, "army": 61, "battalion": 5, "discard": 6}}
    assert t.refused("resolve") == "The game is over."


def test_a_seat_that_plays_its_last_cards_and_loses_is_out():
    t = Table(3)
    t.set_counts(1, 30, 5, 0)
    t.set_counts(2, 32, 5, 0)
    t.set_counts(3, 0, 5, 0)
    outcome = t.battle({1: ["GD5000"], 2: ["BD900"], 3: ["GD100", "GO200", "BD300", "BO400", "BATTLE"]})
    assert outcome.data["spoils"] == {"3": 0} and outcome.data["eliminated"] == [3]
    assert [s.seat for s in t.state.piles if s.out] == [3]
    assert [s["status"] for s in t.view()["seats"]] == ["waiting", "waiting", "out"]
