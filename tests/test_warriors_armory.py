"""Every card of the "Armory Cards Appendix", as written: what it adds, disables or doubles, term by
term. Ann (seat 1) against Ben (seat 2); each row is a side's cards in play, the primary first."""
from __future__ import annotations

from companion.rules.warriors.points import score
from companion.rules.warriors.words import side_terms
from tests.test_warriors_support import CATALOG, played


def points(mine, theirs):
    return score(CATALOG, played(1, *mine), played(2, *theirs))


def total(mine, theirs):
    return points(mine, theirs).total


def terms(side):
    """The side's terms as the table reads them (points.py gives data, the view words it)."""
    return side_terms(side.as_dict())


def term(side, label, detail=None):
    """The side's term for a card (the one with this detail, if given; else the last)."""
    return [t for t in terms(side) if t.label == label and detail in (None, t.detail)][-1]


def test_ambush_3_with_a_righteous_warrior_2_with_a_wicked_one_and_disables_one_reinforcements():
    """"When played with a Righteous Warrior this card is worth 3 points, and when played with a Wicked
    Warrior it is worth 2 points. One Ambush card will disable one Reinforcements card.\""""
    assert total(["Teomner", "Ambush"], ["Laman"]) == 1 + 3 + 2    # Teomner 1, Ambush 3, Teomner + Ambush bonus 2
    assert total(["Zerahemnah", "Ambush"], ["Nephi"]) == 3 + 2
    ben = points(["Pahoran", "Reinforcements#1", "Reinforcements#2"], ["Teancum", "Ambush"])
    assert ben.total == 2 + 2
    assert term(ben, "Reinforcements").detail == "disabled by Ambush"


def test_armor_subtracts_one_per_weapon_card_the_opponent_plays():
    """"This shields all your cards by subtracting one of your opponent's points for each weapon card
    (Arrows, Javelin, Sword, and/or Sling and Stone) your opponent plays.\""""
    ben = points(["Zerahemnah", "Sword", "Javelin"], ["Moroni", "Armor"])
    assert ben.total == 3 + 2 + 2 - 2
    assert term(ben, "their Armor").value == -2


def test_arrow_adds_2():
    """"Add 2 points to your total.\""""
    assert total(["Teancum", "Arrow"], ["Laman"]) == 3 + 2


def test_assassination_adds_3():
    """"Add 3 points to your total.\""""
    assert total(["Gadianton", "Assassination"], ["Nephi"]) == 2 + 3


def test_faith_adds_3_to_a_righteous_primary_and_the_vision_bonus_with_nephi_makes_6():
    """"Add 3 points to any Righteous primary card." "(example: Nephi and the Faith: Vision card would
    give a player 1 point for Nephi, 3 points for Faith: Vision, and 2 bonus points for a total of 6 points)\""""
    ann = points(["Nephi", "Faith: Vision"], ["Laman"])
    assert ann.total == 6
    assert [(t.label, t.value) for t in terms(ann)] == [("Nephi", 1), ("Faith: Vision", 3), ("Nephi + Faith: Vision", 2)]
    assert total(["Moroni", "Faith: Love"], ["Laman"]) == 3 + 3


def test_wickedness_adds_3_to_a_wicked_primary_and_king_noah_with_pride_makes_6():
    """"(example: King Noah and the Wickedness: Pride card would give a player 1 point for King Noah, 3
    points for the Wickedness: Pride card, and 2 bonus points for a total of 6 points)\""""
    assert total(["King Noah", "Wickedness: Pride"], ["Nephi"]) == 6
    assert total(["Laman", "Wickedness: Greed"], ["Nephi"]) == 2 + 3


def test_faithful_women_doubles_the_holders_total():
    """"This card doubles the total points of the holder's cards in play.\""""
    ann = points(["Moroni", "Sword", "Faithful Women"], ["Laman"])
    assert ann.total == (3 + 2) * 2
    assert (term(ann, "Faithful Women").value, term(ann, "Faithful Women").detail) == \
        (0, "no points itself: it doubles the total")
    doubled = term(ann, "doubled by Faithful Women")   # issue 33: "Faithful Women: 0 (doubles the total (below))"
    assert (doubled.value, doubled.detail) == (5, "5 doubled to 10")
    assert sum(t.value for t in terms(ann)) == ann.total, "the terms add up to the total"


def test_fortress_disables_the_opponents_weapon_cards():
    """"This card disables an opponent's weapon cards (Arrows, Javelin, Sword, and/or Sling & Stone).\""""
    ben = points(["Zerahemnah", "Sword", "Arrow", "Assassination"], ["Lachoneus", "Fortress"])
    assert ben.total == 3 + 3
    assert term(ben, "Sword").detail == "disabled by Fortress"


def test_javelin_adds_2():
    assert total(["Zerahemnah", "Javelin"], ["Nephi"]) == 3 + 2


def test_liahona_adds_2():
    assert total(["Nephi", "Liahona"], ["Laman"]) == 1 + 2


def test_murmuring_adds_2_to_a_wicked_primary_and_disables_one_faithful_women():
    """"Add 2 points to any Wicked primary card. One Murmuring card disables one Faithful Women card in play.\""""
    assert total(["Laman", "Murmuring"], ["Nephi"]) == 2 + 2 + 0
    ann = points(["Moroni", "Faithful Women#1", "Faithful Women#2"], ["Laman", "Murmuring"])
    assert ann.total == 3 * 2, "one of the two Faithful Women is disabled"
    assert [t.detail for t in terms(ann) if t.label == "Faithful Women"].count("disabled by Murmuring") == 1


def test_plates_adds_2():
    assert total(["Moroni", "Plates"], ["Laman"]) == 3 + 2


def test_prayer_adds_3():
    assert total(["Moroni", "Prayer"], ["Laman"]) == 3 + 3


def test_prophecy_adds_2():
    """"Add 2 points to your total." (Its private look is tested with the Challenge.)"""
    assert total(["Nephi", "Prophecy"], ["Laman"]) == 1 + 2


def test_reinforcements_adds_2():
    assert total(["Pahoran", "Reinforcements"], ["Laman"]) == 2 + 2


def test_secret_combination_adds_5():
    assert total(["Laman", "Secret Combination"], ["Nephi"]) == 2 + 5


def test_shield_subtracts_one_per_weapon_card_the_opponent_plays():
    """"This shields all your cards by subtracting one of your opponent's points for each weapon card
    (Arrows, Javelin, Sword, and/or Sling & Stone) your opponent plays.\""""
    assert total(["Zerahemnah", "Sword", "Arrow", "Sling & Stone"], ["Moroni", "Shield"]) == 3 + 6 - 3
    assert total(["Zerahemnah", "Sword"], ["Moroni", "Shield", "Armor"]) == 3 + 2 - 2


def test_sleep_disables_fortress_shield_and_armor():
    """"This card disables all Fortress, Shield, and Armor cards an opponent plays.\""""
    ann = points(["Zerahemnah", "Sword", "Sleep"], ["Lachoneus", "Fortress", "Shield"])
    assert ann.total == 3 + 2
    ben = points(["Lachoneus", "Fortress", "Shield"], ["Zerahemnah", "Sword", "Sleep"])
    assert {term(ben, "Fortress").detail, term(ben, "Shield").detail} == {"disabled by Sleep"}


def test_sling_and_stone_adds_2():
    assert total(["Ammon", "Sling & Stone"], ["Laman"]) == 3 + 2


def test_stoning_adds_2_or_3_against_a_prophet():
    """"Add 2 points to your total, or add 3 points to your total if you play this card against a prophet.\""""
    assert total(["Laman", "Stoning"], ["Moroni"]) == 2 + 2
    assert total(["Laman", "Stoning"], ["Abinadi"]) == 2 + 3


def test_sword_of_laban_adds_2_doubles_weapons_and_shields_and_is_no_weapon():
    """"Add 2 points to your total. In addition, this card doubles points of all your weapon cards ...
    as well as Shield and Armor cards (example: Arrows cards would now be worth 4 points and a Shield
    would block 2 points instead of 1). This is not grouped with the other weapon cards and is therefore
    not affected by Shield, Armor, or Fortress cards.\""""
    ann = points(["Teancum", "Arrow", "Sword of Laban"], ["Laman"])
    assert term(ann, "Arrow").value == 4 and ann.total == 3 + 4 + 2
    ben = points(["Zerahemnah", "Sword"], ["Moroni", "Shield", "Sword of Laban"])
    assert term(ben, "their Shield").value == -2
    fortress = points(["King Benjamin", "Sword of Laban"], ["Lachoneus", "Fortress", "Shield"])
    assert fortress.total == 2 + 2 + 2, "King Benjamin 2, Sword of Laban 2, his bonus 2: no Fortress, no Shield"


def test_sword_adds_2():
    assert total(["Moroni", "Sword"], ["Laman"]) == 3 + 2


def test_samuel_the_lamanite_takes_no_points_from_arrows_and_stones():
    """The reference deck's `immune` (docs/decks/warriors.md): "Arrow and Sling & Stone cards played
    against him add no points."; they still count for Shield and Armor."""
    ben = points(["Zerahemnah", "Arrow", "Sword"], ["Samuel the Lamanite", "Shield"])
    assert term(ben, "Arrow").value == 0 and ben.total == 3 + 0 + 2 - 2


def test_only_face_up_cards_count_and_a_disabled_card_counts_nothing():
    """Points run "after every reveal": a card still face down adds nothing yet."""
    hidden = score(CATALOG, played(1, "Moroni", "Sword", face_down=True), played(2, "Laman"))
    assert hidden.total == 3
    row = played(1, "Moroni", "Sword")
    row[1].disabled = True
    assert score(CATALOG, row, played(2, "Laman")).total == 3


def test_shields_and_armor_never_take_a_total_below_zero():
    """Shield and Armor: "subtracting one of your opponent's points for each weapon card ... your
    opponent plays" (doubled by the Sword of Laban). A total has nothing left to subtract from at
    zero: the companion never shows a negative total (docs/referee/warriors.md)."""
    side = score(CATALOG, played(1, "Moroni", "Arrow#1", "Arrow#2", "Arrow#3"),
                 played(2, "Laman", "Shield#1", "Shield#2", "Armor#1", "Sword of Laban"))
    blocked = [t.value for t in terms(side) if t.label.startswith("their ")]
    assert blocked == [-6, -6, -6]           # three weapons, each block doubled by the Sword of Laban
    assert sum(t.value for t in terms(side) if not t.label.startswith("their ")) < 18
    assert side.total == 0
