"""Every POWER card exactly as written, the ranking, and the tie rule: each worked example of
bom-battle.txt is quoted and played through the referee."""
from companion.rules.bom.plays import Play
from companion.rules.bom.words import detail
from tests.test_bom_support import Table, worth


def battle(plays: dict[int, list[str]], seats: int = 3, **options):
    t = Table(seats, **options)
    outcome = t.battle(plays)
    return outcome, t


# -- ranking ------------------------------------------------------------------------------------------
def test_gold_oval_5000_beats_black_oval_5000_but_loses_to_gold_diamond_5000():
    """"CHARACTER cards are rated by point value first, then color (gold over black), and then shape
    (diamond over oval). For example: A gold oval 5000 beats a black oval 5000 but will be beaten by a
    gold diamond 5000.\""""
    outcome, _ = battle({1: ["GO5000"], 2: ["BO5000"]}, seats=2)
    assert outcome.data["winner"] == 1 and "gold beats black" in outcome.say
    outcome, _ = battle({1: ["GO5000"], 2: ["GD5000"]}, seats=2)
    assert outcome.data["winner"] == 2 and "diamond beats oval" in outcome.say
    outcome, _ = battle({1: ["BO5000"], 2: ["GD5000"], 3: ["GO5000"]})
    assert outcome.data["winner"] == 2


def test_point_value_comes_before_colour_and_shape():
    outcome, _ = battle({1: ["GD900"], 2: ["BO1000"]}, seats=2)
    assert outcome.data["winner"] == 2
    assert outcome.say == "Seat 2 (Bo) wins with Laman, black oval 1000."


# -- POWER cards ----------------------------------------------------------------------------------------
def test_faith_multiplies_a_gold_card_under_1000_by_ten():
    """Faith: "Multiply the original point value of any gold CHARACTER card under 1000 (100–900) by
    10. For example, a 500 becomes a 5000.\""""
    play = worth("GD500", "FAITH")
    assert isinstance(play, Play) and play.points == 5000
    outcome, _ = battle({1: ["GD500", "FAITH#2"], 2: ["BD3000"]}, seats=2)
    assert outcome.say == "Seat 1 (Ann) wins with Alma², gold diamond 500 x10 by Faith = 5000."
    assert outcome.data["values"] == {"1": 5000, "2": 3000}


def test_faith_reaches_100_and_900_but_not_1000():
    assert worth("GO100", "FAITH").points == 1000
    assert worth("GO900", "FAITH").points == 9000
    assert worth("GO1000", "FAITH") == ("Faith only multiplies a gold CHARACTER card under 1000 (100-900); "
                                        "the 1000 is not under 1000.")


def test_faith_with_a_black_card_is_not_a_play():
    assert worth("BD800", "FAITH") == ("Faith only multiplies a gold CHARACTER card under 1000 (100-900); "
                                       "Korihor is black.")


def test_wickedness_multiplies_a_black_card_under_1000_by_ten():
    """Wickedness: "Multiply the original point value of any black CHARACTER card under 1000 (100–900)
    by 10. For example, a 500 becomes a 5000.\""""
    assert worth("BD500", "WICKED").points == 5000
    assert "Alma² is gold" in worth("GD500", "WICKED")


def test_battle_combines_any_cards_regardless_of_colour_and_adds_2000():
    """Battle: "Combine any CHARACTER cards in your BATTALION, regardless of color, and add 2000 to
    their combined point value. For example, a 100, a 700, and a 2000 combined with a Battle card have
    a point value of 4800.\""""
    play = worth("GD100", "BO700", "BD2000", "BATTLE")
    assert play.points == 4800
    assert detail(play) == "Battle: Sam 100 + Riplakish 700 + Zerahemnah 2000 + 2000 = 4800"
    assert worth("GO3000", "BATTLE").points == 5000, "one card is a combination of one"


def test_conversion_turns_a_black_card_gold_and_adds_1000():
    """Conversion: "Play this with any black CHARACTER card under 1000 (100–900) to change it to a gold
    CHARACTER card and add an extra 1000 to the card value. For example, a black diamond 300 becomes a
    gold diamond 1300.\""""
    play = worth("BD300", "CONVERT")
    assert play.points == 1300
    fighter = play.fighters[0]
    assert (fighter.color, fighter.shape, fighter.value) == ("gold", "diamond", 1300)
    assert worth("GD300", "CONVERT") == ("Conversion only changes a black CHARACTER card under 1000 (100-900); "
                                         "Abish is gold.")


def test_title_of_liberty_combines_two_gold_cards_under_1000_and_adds_5000():
    """Title of Liberty: "Combine two gold CHARACTER cards under 1000 (100–900) and add 5000 to their
    combined value. For example, a gold 500 and a gold 200 combine with this card for a total of 5700.\""""
    assert worth("GD500", "GO200", "TITLE").points == 5700


def test_title_of_liberty_refuses_a_2000_a_black_card_and_a_third_card():
    assert worth("GD500", "GO2000", "TITLE") == ("Title of Liberty combines two gold CHARACTER cards under 1000 "
                                                 "(100-900); the 2000 is not under 1000.")
    assert worth("GD500", "BO200", "TITLE").endswith("Ethem is black.")
    assert worth("GD500", "GO200", "GO300", "TITLE").endswith("this play has 3 CHARACTER cards.")
    assert worth("GD500", "TITLE").endswith("this play has 1 CHARACTER card.")


def test_secret_combination_combines_two_black_cards_under_1000_and_adds_5000():
    """Secret Combination: "Combine two black CHARACTER cards under 1000 (100–900) and add 5000 to their
    combined value. For example, a black 500 and a black 200 would combine with this card for a total of
    5700.\""""
    assert worth("BD500", "BO200", "SECRET").points == 5700
    assert worth("BD500", "GO200", "SECRET").endswith("Jared is gold.")


def test_power_cards_cannot_be_played_individually():
    """POWER cards: "They cannot be played individually.\""""
    assert worth("FAITH").startswith("POWER cards strengthen CHARACTER cards; they cannot be played individually.")


def test_one_power_card_per_play_and_one_character_card_without_one():
    assert worth("GD500", "FAITH", "BATTLE").startswith("A play uses one POWER card at most")
    assert worth("GD500", "GO200").startswith("Play one CHARACTER card, or combine CHARACTER cards with a POWER card")


def test_stripling_warriors_the_lowest_gold_card_in_the_battle_wins():
    """Stripling Warriors: "This card turns the tides of a battle. Instead of the highest point value
    winning, the lowest gold card in the battle wins.\""""
    outcome, _ = battle({1: ["GD100", "STRIPLNG"], 2: ["GO5000"], 3: ["BD5000"]})
    assert outcome.data["winner"] == 1
    assert outcome.say.startswith("Seat 1 (Ann) wins with Sam, gold diamond 100: Stripling Warriors")


def test_stripling_warriors_can_win_the_battle_for_another_seat():
    """The lowest gold card wins, whoever holds it: a gold oval 100 ranks below a gold diamond 100."""
    outcome, _ = battle({1: ["GD100", "STRIPLNG"], 2: ["GO100"], 3: ["BD100"]})
    assert outcome.data["winner"] == 2


def test_stripling_warriors_counts_a_converted_card_as_gold():
    outcome, _ = battle({1: ["GD3000", "STRIPLNG"], 2: ["BD300", "CONVERT"], 3: ["BO100"]})
    assert outcome.data["winner"] == 2, "the black 300 turned gold 1300 is the lowest gold card"


def test_stripling_warriors_with_no_gold_card_lets_the_highest_value_win():
    outcome, _ = battle({1: ["BD100", "STRIPLNG"], 2: ["BO900"], 3: ["BD400"]})
    assert outcome.data["winner"] == 2
    assert any(t.label == "Stripling Warriors" for t in outcome.terms)


def test_famine_cancels_every_other_power_card_and_the_highest_single_card_wins():
    """Famine: "This card eliminates the effect of any other power cards played. The highest single
    CHARACTER card in the battle wins and takes all cards from the battle.\""""
    outcome, t = battle({1: ["GD500", "FAITH"], 2: ["BO1000", "FAMINE"], 3: ["BD2000"]})
    assert outcome.data["winner"] == 3, "Faith's 5000 is cancelled; the black diamond 2000 is the highest card"
    assert outcome.data["cards_taken"] == 5
    assert "Famine cancels every other POWER card" in outcome.say


def test_famine_cancels_stripling_warriors_and_conversion():
    outcome, _ = battle({1: ["GD100", "STRIPLNG"], 2: ["BD900", "CONVERT"], 3: ["GO200", "FAMINE"]})
    assert outcome.data["winner"] == 2, "the 900 is back to black, but it is still the highest card"
    outcome, _ = battle({1: ["GD100", "STRIPLNG"], 2: ["BD900", "FAMINE"], 3: ["GO900"]})
    assert outcome.data["winner"] == 3, "at 900 each, gold beats black"


# -- ties -----------------------------------------------------------------------------------------------
def test_a_tie_goes_to_the_highest_single_character_card_of_the_tied_players():
    """TIE BATTLES: "In the event of a tie, the highest single CHARACTER card of the tied players wins
    the battle.\""""
    outcome, _ = battle({1: ["GO300", "GD400", "TITLE"], 2: ["BD500", "BO200", "SECRET"], 3: ["GD1000"]})
    assert outcome.data["values"] == {"1": 5700, "2": 5700, "3": 1000}
    assert outcome.data["winner"] == 2, "Zeezrom's 500 is higher than the gold 400"
    assert "tie at 5700" in outcome.say and "Zeezrom (black diamond 500)" in outcome.say


def test_a_tie_between_equal_highest_values_falls_to_colour():
    outcome, _ = battle({1: ["GD500", "GO200", "TITLE"], 2: ["BD500", "BO200", "SECRET"]}, seats=2)
    assert outcome.data["winner"] == 1, "gold 500 over black 500"


def test_faith_500_against_a_printed_5000_of_the_same_suit():
    """A Faith 500 "becomes a 5000": against the gold oval 5000 the diamond shape decides; against
    a gold diamond 5000 the printed 5000 is the higher card."""
    outcome, _ = battle({1: ["GD500", "FAITH"], 2: ["GO5000"]}, seats=2)
    assert outcome.data["winner"] == 1
    outcome, _ = battle({1: ["GD500", "FAITH"], 2: ["GD5000"]}, seats=2)
    assert outcome.data["winner"] == 2


def test_an_illegal_play_stops_the_battle_and_changes_nothing():
    t = Table(2)
    t.play({1: ["BO100", "BD200", "BATTLE"], 2: ["BD2000", "GO300"]})
    reason = t.refused("resolve")
    assert reason.startswith("Seat 2 (Bo): Play one CHARACTER card, or combine CHARACTER cards with a POWER card")
