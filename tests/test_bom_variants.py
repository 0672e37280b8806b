"""The rulebook's six variants as options: which combine, and each one's rules.
"SPECIAL RULES AND GAMES (These rules can be combined.)\""""
import json

import pytest

from companion.rules import Seat, SetupError
from companion.gamelog.session import LogError, Session
from companion.gamelog.store import Store
from tests.test_bom_support import RULES, Table


def setup(seats=3, **options):
    return RULES.setup([Seat(i + 1, f"P{i + 1}") for i in range(seats)], RULES.resolve_options(options))


# -- combinations ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("a, b, reason", [
    ("spys_trivia", "power_play", "Spy's Trivia uses just the CHARACTER cards and has no BATTALION"),
    ("spys_trivia", "mounting_battles", "Spy's Trivia has no battles to mount"),
    ("spys_trivia", "secret_weapon", "Spy's Trivia has no battles and no POWER cards"),
    ("spys_trivia", "young_players", "two different games"),
    ("young_players", "power_play", "remove the POWER cards and have no BATTALION"),
    ("young_players", "secret_weapon", "Secret Weapon changes nothing"),
])
def test_a_combination_that_makes_no_sense_is_refused_at_setup(a, b, reason, tmp_path):
    with pytest.raises(SetupError, match=reason):
        setup(**{a: True, b: True})
    store = Store(tmp_path / "companion.db")
    with pytest.raises(LogError, match=reason):
        Session.start(store, "bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], {a: True, b: True})
    assert store.latest_game() is None, "nothing is written for a refused setup"


@pytest.mark.parametrize("options", [
    {"young_players": True, "shorter_game_minutes": 15},
    {"mounting_battles": True, "secret_weapon": True},
    {"mounting_battles": True, "young_players": True},
    {"secret_weapon": True, "power_play": True, "mounting_battles": True, "shorter_game_minutes": 30},
    {"spys_trivia": True, "shorter_game_minutes": 10},
])
def test_combinations_the_text_allows_start(options):
    state = setup(**options)
    assert state.options == RULES.resolve_options(options)


def test_bad_option_values_are_refused():
    with pytest.raises(SetupError, match="first_seat must be a seat of this table"):
        setup(first_seat=4)
    with pytest.raises(SetupError, match="shorter_game_minutes must be 0"):
        setup(shorter_game_minutes=-5)
    with pytest.raises(SetupError, match="must be a bool"):
        setup(mounting_battles=1)


# -- Rules for Young Players ---------------------------------------------------------------------------------
def test_young_players_play_the_character_cards_only_with_no_battalion():
    """"Remove all the POWER cards from the deck, then shuffle and deal out the CHARACTER cards. Each
    player draws the top card from his ARMY and lays it down faceup.\""""
    t = Table(3, young_players=True)
    assert [t.counts(n) for n in (1, 2, 3)] == [(19, 0, 0), (19, 0, 0), (18, 0, 0)]
    assert t.view()["deck_size"] == 56
    assert "Remove all the POWER cards" in t.refused("card_seen", zone="seat:1", card="FAITH#1")
    assert "not part of the Rules for Young Players" in t.refused("too_many_powers", seat=1)
    assert "not part of the Rules for Young Players" in t.refused("withdraw", seat=1)


def test_young_players_the_highest_card_takes_the_others():
    """"The player with the highest card wins and takes the other players' cards and puts them in his
    discard pile.\""""
    t = Table(3, young_players=True)
    outcome = t.battle({1: ["GD500"], 2: ["BD100"], 3: ["GO500"]})
    assert outcome.data["winner"] == 1, "at 500 each: diamond over oval"
    assert [t.counts(n) for n in (1, 2, 3)] == [(18, 0, 3), (18, 0, 0), (17, 0, 0)]
    t.play({1: ["GD100"], 2: ["BD200"]})
    assert "Seat 3 (Cy) has not played yet." in t.refused("resolve")
    t.see(1, "GD300")
    assert "one CHARACTER card" in t.view()["seats"][0]["problem"]


def test_young_players_reshuffle_the_discard_pile_when_the_army_runs_out():
    """"When a player's ARMY runs out, he shuffles the cards in his discard pile, places them facedown,
    and they become his ARMY.\""""
    t = Table(2, young_players=True)
    t.set_counts(1, 1, 0, 10)
    t.set_counts(2, 45, 0, 0)
    t.battle({1: ["GD5000"], 2: ["BD100"]})
    assert t.counts(1) == (12, 0, 0), "its last ARMY card played; the discard pile (10 + 2 won) is its ARMY"


def test_young_players_the_most_cards_wins_when_play_stops():
    """"The winner is the one with the most cards when you stop playing.\""""
    t = Table(3, young_players=True)
    t.battle({1: ["GD500"], 2: ["BD100"], 3: ["GO400"]})
    outcome = t.do("stop").outcomes[0]
    assert outcome.say == "Play stops: Seat 1 (Ann) wins with 21 cards."
    assert t.view()["winner"] == 1 and t.view()["over"]


def test_young_players_equal_counts_share_the_win_when_play_stops():
    t = Table(2, young_players=True)
    outcome = t.do("stop").outcomes[0]
    assert outcome.data["winners"] == [1, 2] and t.view()["winner"] is None
    assert "share the win with 28 cards each" in outcome.say


def test_stop_is_only_for_young_players():
    assert "Only the Rules for Young Players end when you stop playing" in Table(2).refused("stop")


# -- Power Play -----------------------------------------------------------------------------------------------
def test_power_play_a_new_battalion_of_five_before_each_battle():
    """"Before each battle, the remaining cards in each BATTALION are placed facedown in the player's
    discard pile. Each time a player takes a turn, five new cards are drawn to form a new BATTALION.\""""
    t = Table(3, power_play=True)
    t.battle({1: ["GD500", "FAITH"], 2: ["BD800"], 3: ["GO100"]})
    # Before battle 1 (see the next test): (14, 5, 5) each. Ann played 2 and won the 4 played cards.
    assert [t.counts(n) for n in (1, 2, 3)] == [(9, 5, 5 + 4 + 3), (9, 5, 5 + 4), (9, 5, 5 + 4)]
    assert t.total() == 72


def test_power_play_draws_a_new_battalion_before_the_first_battle_too():
    """"Before each battle, the remaining cards in each BATTALION are placed facedown in the player's
    discard pile": the first battle is one of them, so the BATTALION drawn at the deal goes to the
    discard pile and five new cards are drawn before it."""
    t = Table(3, power_play=True)
    assert [t.counts(n) for n in (1, 2, 3)] == [(14, 5, 5)] * 3
    assert [Table(3).counts(n) for n in (1, 2, 3)] == [(19, 5, 0)] * 3, "without Power Play, no redraw"


# -- Rules for a Shorter Game -------------------------------------------------------------------------------
def test_the_view_gives_the_timers_length_and_time_up_needs_a_timer():
    t = Table(2, shorter_game_minutes=15)
    assert t.view()["timer"] == {"minutes": 15, "seconds": 900, "time_up": False}
    assert Table(2).view()["timer"] is None
    assert "without the Rules for a Shorter Game" in Table(2).refused("time_up")


def test_when_the_timer_goes_off_the_most_cards_wins():
    """"Set a timer for 15 minutes (or the desired time of play). The player with the most cards when the
    timer goes off wins.\""""
    t = Table(3, shorter_game_minutes=15)
    t.battle({1: ["GD500"], 2: ["BD100"], 3: ["GO400"]})
    t.see(2, "BD900")  # a battle under way is abandoned: its cards go back to their owners
    outcome = t.do("time_up").outcomes[0]
    assert outcome.kind == "game_over" and outcome.data["winner"] == 1
    assert outcome.say == "Time is up: Seat 1 (Ann) wins with 26 cards."
    assert t.view()["last_outcome"]["say"] == outcome.say, "the tablet shows the end, not the last battle"
    assert t.refused("time_up") == "The game is over."


def test_a_tie_when_the_timer_goes_off_is_settled_by_a_last_battle():
    """"In case of a tie, tied players shuffle their CHARACTER cards and draw one card randomly for
    battle.\""""
    t = Table(3, shorter_game_minutes=15)
    t.battle({1: ["GD500"], 2: ["BD100"], 3: ["GO400"]})
    t.battle({1: ["GD100"], 2: ["BD900"], 3: ["GO200"]})
    outcome = t.do("time_up").outcomes[0]
    assert outcome.data["tied"] == [1, 2] and t.view()["phase"] == "tiebreak"
    assert "Only the tied players" in t.refused("card_seen", zone="seat:3", card="GO300#1")
    assert "CHARACTER cards only" in t.refused("card_seen", zone="seat:1", card="FAITH#1")
    t.play({1: ["GO300"], 2: ["BO300"]})
    battle, over = t.do("resolve").outcomes
    assert battle.say == "Seat 1 (Ann) wins the last battle with Lachoneus, gold oval 300: at 300 each, gold beats black."
    assert over.say == "Seat 1 (Ann) wins the game." and t.view()["winner"] == 1


def test_young_players_with_a_shorter_game():
    t = Table(2, young_players=True, shorter_game_minutes=5)
    t.battle({1: ["GD500"], 2: ["BD100"]})
    assert t.do("time_up").outcomes[0].data["winner"] == 1


# -- Mounting Battles -----------------------------------------------------------------------------------------
def test_mounting_battles_compare_point_value_only_and_a_tie_mounts():
    """"In this version, battles are determined strictly by point value, not by color or shape. In case of
    a tie, tied players place the top three cards from their ARMY—without looking at them—facedown on the
    battlefield, then choose a new CHARACTER card from their BATTALION and place it down for battle.\""""
    t = Table(3, mounting_battles=True)
    t.play({1: ["GO5000"], 2: ["BO5000"], 3: ["GD100"]})
    mount = t.resolve()
    assert mount.kind == "mount" and mount.data["tied"] == [1, 2]
    assert mount.data["face_down"] == {"1": 3, "2": 3} and mount.data["pot"] == 3 + 6
    assert [t.counts(n) for n in (1, 2, 3)] == [(16, 4, 0), (16, 4, 0), (19, 4, 0)]
    assert t.total() + t.state.pot == 72
    shown = t.view()["mount"]
    assert shown["pot"] == 9 and [c["key"] for c in shown["cards"]] == ["GO5000#1", "BO5000#1", "GD100#1"]
    assert "only Seat 1 (Ann) and Seat 2 (Bo) play now" in t.refused("card_seen", zone="seat:3", card="GD200#1")
    t.see(1, "GO700", "FAITH")
    assert "one new CHARACTER card from his BATTALION" in t.view()["seats"][0]["problem"]
    t.gone(1, "FAITH")
    t.see(2, "BD600")
    outcome = t.resolve()
    assert outcome.kind == "battle" and outcome.data["winner"] == 1
    assert outcome.data["cards_taken"] == 3 + 6 + 2 and outcome.data["rounds"] == 2
    assert t.counts(1) == (14, 5, 11) and t.total() == 72


def test_under_mounting_battles_equal_values_never_go_to_colour():
    t = Table(2, mounting_battles=True)
    t.play({1: ["GD500", "GO200", "TITLE"], 2: ["BD500", "BO200", "SECRET"]})
    assert t.resolve().kind == "mount"


def test_a_tied_player_with_no_character_card_swaps_two_power_cards():
    """"If a player has no CHARACTER cards in his BATTALION, he must put two POWER cards in his discard
    pile and draw two new cards from his ARMY.\""""
    t = Table(2, mounting_battles=True)
    assert "only while a tie mounts" in t.refused("no_character", seat=1)
    t.play({1: ["GO500"], 2: ["BO500"]})
    t.resolve()
    t.do("no_character", seat=2)
    assert t.counts(2) == (26, 4, 2)


def test_a_tied_player_without_enough_cards_surrenders_everything():
    """"If he doesn't have enough cards to play a tie, he surrenders all his remaining cards to the other
    player.\""""
    t = Table(2, mounting_battles=True)
    t.set_counts(1, 60, 5, 0)
    t.set_counts(2, 2, 5, 0)  # only two cards for the three face-down ones
    t.play({1: ["GO500"], 2: ["BO500"]})
    battle, over = t.do("resolve").outcomes
    assert battle.data["winner"] == 1 and battle.data["surrendered"] == {"2": 6}
    assert battle.data["eliminated"] == [2]
    assert "Seat 2 (Bo) has not enough cards for the tie and surrenders all 6 remaining cards." in battle.say
    assert over.kind == "game_over" and t.counts(1) == (59, 5, 8) and t.total() == 72


def test_a_tied_player_may_surrender_by_command():
    t = Table(3, mounting_battles=True)
    t.play({1: ["GO500"], 2: ["BO500"], 3: ["GD100"]})
    t.resolve()
    outcome = t.do("surrender", seat=2).outcomes[0]
    assert outcome.data["winner"] == 1 and outcome.data["rule"] == "surrender"
    assert outcome.data["eliminated"] == [2] and outcome.data["cards_taken"] == 3 + 6 + 20, "played, face down, all of Bo's"
    assert t.seat(2).out and t.total() == 72


def test_mounting_battles_for_young_players_take_the_new_card_from_the_army():
    t = Table(2, mounting_battles=True, young_players=True)
    t.play({1: ["GO500"], 2: ["BO500"]})
    assert t.resolve().kind == "mount"
    assert [t.counts(n) for n in (1, 2)] == [(24, 0, 0), (24, 0, 0)]
    t.play({1: ["GD900"], 2: ["BD100"]})
    assert t.resolve().data["cards_taken"] == 10 and t.counts(1) == (23, 0, 10)


def test_time_up_during_a_mounting_battle_waits_for_it_to_end():
    t = Table(2, mounting_battles=True, shorter_game_minutes=10)
    t.play({1: ["GO500"], 2: ["BO500"]})
    t.resolve()
    assert t.do("time_up").outcomes[0].say.startswith("Time is up! Finish this mounting battle")
    t.play({1: ["GO900"], 2: ["BO100"]})
    battle, over = t.do("resolve").outcomes
    assert over.kind == "game_over" and over.data["winner"] == 1


# -- Secret Weapon -----------------------------------------------------------------------------------------
def test_secret_weapon_play_goes_clockwise_from_the_dealers_left():
    """"the player to the dealer's left begins the battle by laying down his chosen card(s). ... Players
    continue clockwise until the last player enters the battle.\""""
    t = Table(3, secret_weapon=True, first_seat=2)
    assert t.view()["secret_weapon"] == {"phase": "play", "seat": 2, "order": [2, 3, 1], "leader": 2}
    t.see(2, "GD500")
    assert t.view()["secret_weapon"]["seat"] == 3
    t.see(3, "BD100")
    t.see(1, "GO100")
    assert t.view()["secret_weapon"]["phase"] == "resolve" and t.state.flags == []


def test_a_seat_that_plays_out_of_turn_is_flagged_not_refused():
    t = Table(3, secret_weapon=True)
    t.see(3, "GO5000")
    assert t.view()["flags"] == [{"seat": 3, "card": "GO5000#1",
                                  "why": "Seat 3 (Cy) played out of turn: it is Seat 1 (Ann)'s turn."}]
    t.see(1, "GD100")
    t.see(2, "BD100")
    t.see(1, "GD200")
    assert t.view()["flags"][-1]["why"] == "Seat 1 (Ann) added a card after Seat 2 (Bo) had played."
    t.gone(1, "GD200")
    assert len(t.view()["flags"]) == 1, "a flag goes with its card"
    outcome = t.resolve()
    assert outcome.data["flags"][0]["seat"] == 3
    assert any(term.label == "out of turn" for term in outcome.terms)


def test_power_cards_are_laid_face_down_and_revealed_in_turn_before_the_battle_resolves():
    """"The CHARACTER card(s) must be laid faceup but the POWER card will be laid facedown. ... When the
    final player has laid down his cards, each player in turn reveals his POWER card (if any) by turning
    it faceup.\""""
    t = Table(3, secret_weapon=True)
    t.see(1, "GD500")
    t.do("face_down", seat=1)
    t.see(2, "BD800")
    t.see(3, "GO100", "GD200")
    t.do("face_down", seat=3)
    assert t.view()["secret_weapon"]["phase"] == "reveal" and t.view()["secret_weapon"]["seat"] == 1
    assert not RULES.ready_to_resolve(t.state)
    assert t.refused("resolve") == ("Seat 1 (Ann) has not revealed its face-down POWER card yet. "
                                    "Seat 3 (Cy) has not revealed its face-down POWER card yet.")
    t.see(1, "FAITH")
    assert t.view()["secret_weapon"]["seat"] == 3
    t.see(3, "TITLE")
    assert RULES.ready_to_resolve(t.state) and t.state.flags == []
    assert t.resolve().data["values"] == {"1": 5000, "2": 800, "3": 5300}


def test_the_next_battle_starts_with_the_next_seat():
    """"In each subsequent battle, the next player in the circle goes first.\""""
    t = Table(3, secret_weapon=True)
    t.battle({1: ["GD500"], 2: ["BD100"], 3: ["GO100"]})
    assert t.view()["secret_weapon"]["seat"] == 2 and t.view()["secret_weapon"]["order"] == [2, 3, 1]


def test_a_reveal_out_of_turn_is_flagged():
    t = Table(2, secret_weapon=True)
    t.see(1, "GD500")
    t.do("face_down", seat=1)
    t.see(2, "BO500")
    t.do("face_down", seat=2)
    t.see(2, "WICKED")
    assert t.view()["flags"][0]["why"] == "Seat 2 (Bo) revealed out of turn: Seat 1 (Ann) reveals first."


def test_a_power_card_read_face_down_stays_secret_until_revealed():
    t = Table(2, secret_weapon=True)
    t.see(1, "GD500")
    t.do("card_seen", zone="reader:1", card="FAITH#2", face_down=True)
    assert "FAITH" not in json.dumps(t.view())
    assert RULES.seat_view(t.state, 1)["my_face_down"]["name"] == "Faith"
    assert RULES.seat_view(t.state, 2)["my_face_down"] is None
    assert RULES.redact("card_seen", {"zone": "reader:1", "card": "FAITH#2", "face_down": True}) == \
        {"zone": "reader:1", "face_down": True}
    t.see(2, "BD100")
    t.see(1, "FAITH#2")
    assert t.resolve().data["winner"] == 1


def test_face_down_cards_belong_to_secret_weapon_only():
    t = Table(2)
    assert t.refused("face_down", seat=1) == "Only Secret Weapon lays a POWER card face down."
    assert "only under Secret Weapon" in t.refused("card_seen", zone="seat:1", card="FAITH#1", face_down=True)
    sw = Table(2, secret_weapon=True)
    assert "laid faceup" in sw.refused("card_seen", zone="seat:1", card="GD100#1", face_down=True)


def test_secret_weapon_and_mounting_battles_together():
    t = Table(3, secret_weapon=True, mounting_battles=True)
    t.play({1: ["GO500"], 2: ["BO500"], 3: ["GD100"]})
    assert t.resolve().kind == "mount"
    assert t.view()["secret_weapon"] == {"phase": "play", "seat": 1, "order": [1, 2], "leader": 1}
    t.see(2, "BD800")
    assert t.view()["flags"][0]["why"] == "Seat 2 (Bo) played out of turn: it is Seat 1 (Ann)'s turn."
    t.see(1, "GO900")
    assert t.resolve().data["winner"] == 1


# -- "Helpful notes" -----------------------------------------------------------------------------------------
def test_the_view_gives_the_sentence_to_read_aloud():
    """"announce the names of your CHARACTER cards in each battle. For example, "I attack with Zeezrom!"
    or "I combine Pachus and Seantum in a secret combination!"\""""
    t = Table(3)
    t.play({1: ["BD500"], 2: ["BD200", "BD300", "SECRET"], 3: ["BD5000"]})
    seats = t.view()["seats"]
    assert seats[0]["announce"]["text"] == "I attack with Zeezrom!"
    assert seats[0]["announce"]["names"] == [{"name": "Zeezrom", "pronunciation": "zee-EZ-rum"}]
    assert seats[1]["announce"]["text"] == "I combine Pachus and Seantum in a secret combination!"


def test_superscripts_are_kept_for_the_screen_and_left_out_of_speech():
    """"Some character names have superscript numbers (e.g., Coriantumr³).\""""
    t = Table(2)
    t.play({1: ["BD5000"], 2: ["GO900"]})
    seat = t.view()["seats"][0]
    assert seat["announce"]["text"] == "I attack with Coriantumr³!"
    assert seat["announce"]["speak"] == "I attack with Coriantumr!"
    card = seat["play"][0]
    assert (card["name"], card["name_base"], card["name_index"], card["pronunciation"]) == \
        ("Coriantumr³", "Coriantumr", "3", "kor-ee-AN-tum-er")


def test_under_mounting_battles_stripling_warriors_and_famine_ties_mount_too():
    t = Table(2, mounting_battles=True)
    t.play({1: ["GD100", "STRIPLNG"], 2: ["GO100"]})
    assert t.resolve().kind == "mount", "two gold 100s: the lowest gold card is tied"
    t = Table(2, mounting_battles=True)
    t.play({1: ["GD5000", "FAMINE"], 2: ["BO5000"]})
    assert t.resolve().kind == "mount", "two 5000s: the highest single card is tied"


def test_a_card_played_again_in_a_later_battle_is_checked_for_its_turn_again():
    t = Table(2, secret_weapon=True)
    t.battle({1: ["GD500"], 2: ["BD100"]})
    t.see(1, "GD500")  # back from a reshuffle, but battle 2 is Bo's to lead
    assert t.view()["flags"] == [{"seat": 1, "card": "GD500#1",
                                  "why": "Seat 1 (Ann) played out of turn: it is Seat 2 (Bo)'s turn."}]


def test_secret_weapon_orders_the_last_battle_after_the_timer_too():
    t = Table(3, secret_weapon=True, shorter_game_minutes=5)
    t.battle({1: ["GD500"], 2: ["BD100"], 3: ["GO100"]})
    t.battle({2: ["BD900"], 3: ["GO200"], 1: ["GD100"]})
    t.see(3, "GO300")  # battle 3 under way when the timer goes off
    t.do("time_up")
    assert t.state.tiebreak == [1, 2] and t.view()["secret_weapon"]["order"] == [1, 2]
    t.see(2, "BO300")
    t.see(1, "GD300")
    assert [f.seat for f in t.state.flags] == [2]
    assert t.do("resolve").outcomes[0].data["winner"] == 1


def test_the_view_says_what_happens_next():
    t = Table(3)
    assert t.view()["prompt"] == ("Battle 1: Seat 1 (Ann), Seat 2 (Bo) and Seat 3 (Cy), lay your play in your area "
                                  "of the battlefield (or on your reader).")
    t.play({1: ["GD500"], 2: ["BD100"], 3: ["GO100", "GO200"]})
    assert t.view()["prompt"] == "Battle 1: Seat 3 (Cy), fix your play (see under your name) before the battle is resolved."
    t.gone(3, "GO200")
    assert t.view()["prompt"] == "Battle 1: everyone has played; the result shows once the cards lie still."
    sw = Table(2, secret_weapon=True)
    assert sw.view()["prompt"] == "Seat 1 (Ann)'s turn to play."
    trivia = Table(2, spys_trivia=True)
    assert trivia.view()["prompt"] == "Seat 1 (Ann) reads: put the top card of your pile in the scan tray."
    trivia.do("card_seen", zone="tray", card="BD500#1")
    assert trivia.view()["prompt"] == "Clue 1 of 5: He was a lawyer of Ammonihah."
    young = Table(2, young_players=True)
    young.do("stop")
    assert young.view()["prompt"] == "Play stops: Seat 1 (Ann) and Seat 2 (Bo) share the win with 28 cards each."


def test_the_header_names_the_battle_once_and_the_mount_beside_it():
    """The tablet's header line (the contract's ``progress``): "Battle 1" while it is fought, not "Battle 1 ·
    Battle"; when a tie mounts ("In case of a tie, tied players place the top three cards from their ARMY ...
    then choose a new CHARACTER card"), the mount beside it."""
    t = Table(2, mounting_battles=True)
    assert t.view()["progress"] == ["Battle 1"]
    t.play({1: ["GO500"], 2: ["BO500"]})
    t.resolve()
    assert t.view()["progress"] == ["Battle 1", "Mounting"]
