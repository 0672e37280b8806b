"""The Warriors of the Promised Land deck: the appendix's 84 Armory cards, Warriors enough for six
players, the rulebook's worked examples as data, and what the check refuses."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from card_tags.catalog import CatalogError, load_game, reference_deck_path
from card_tags.games import warriors
from companion import rules

APPENDIX_COUNTS = {  # "Armory Cards Appendix", card by card
    "Ambush": 3, "Armor": 3, "Arrow": 3, "Assassination": 3, "Conversion": 3, "Deception": 3, "Dissenter": 3,
    "Escape": 3, "Faith": 5, "Faithful Women": 3, "Fortress": 4, "Javelin": 3, "Liahona": 3, "Murmuring": 3,
    "Plates": 3, "Prayer": 4, "Prophecy": 2, "Reinforcements": 3, "Secret Combination": 3, "Shield": 3,
    "Sleep": 3, "Sling & Stone": 3, "Stoning": 3, "Sword of Laban": 3, "Sword": 4, "Wickedness": 5,
}


@pytest.fixture(scope="module")
def deck():
    return load_game("warriors")


def by_name(deck, name):
    return next(c for c in deck.cards.values() if c.name == name)


def reference() -> dict:
    return json.loads(reference_deck_path("warriors").read_text(encoding="utf-8"))


def problems_of(tmp_path, data: dict) -> tuple[str, list[str]]:
    path = tmp_path / "my-warriors.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_game("warriors", str(path))
    assert str(caught.value).startswith(f"{path}: "), "the message names the file"
    return str(caught.value), caught.value.problems


def can_play(played, card) -> bool:
    """The rulebook's combination rules, just enough to check the deck's icons against its examples:
    "Secondary cards need to have at least one icon that matches the icon of a Warrior card already
    played" and "A Chain can only be made between Warrior cards"."""
    icons = {i for c in played if c.kind == "warrior" for i in c["icons"]}
    return bool(icons & set(card["icons"]))


# -- the reference deck --------------------------------------------------------------------------
def test_armory_follows_the_appendix_card_by_card(deck):
    counts = Counter()
    for card in deck.cards.values():
        if card.kind == "armory":
            counts[card.name.split(":")[0]] += card.copies
    assert counts == APPENDIX_COUNTS
    assert sum(counts.values()) == 84


def test_five_expressions_of_faith_and_of_wickedness(deck):
    """"There are 5 expressions of Faith: Love, Vision, Repentance, Revelation, and Steadfast."
    "There are 5 expressions of Wickedness: Greed, Pride, Hatred, Anger, Seek for Power.\""""
    for kind, expressions in (("faith", {"Love", "Vision", "Repentance", "Revelation", "Steadfast"}),
                              ("wickedness", {"Greed", "Pride", "Hatred", "Anger", "Seek for Power"})):
        cards = [c for c in deck.cards.values() if c.kind == "armory" and c["armory"] == kind]
        assert sorted(c["expression"] for c in cards) == sorted(expressions)
        assert all(c.copies == 1 for c in cards)
    assert by_name(deck, "Faith: Vision")["dot"] == "righteous"
    assert by_name(deck, "Wickedness: Pride")["dot"] == "wicked"


def test_nephi_and_faith_vision_make_six_points(deck):
    """"Nephi and the Faith: Vision card would give a player 1 point for Nephi, 3 points for
    Faith: Vision, and 2 bonus points for a total of 6 points\""""
    nephi, vision = by_name(deck, "Nephi"), by_name(deck, "Faith: Vision")
    bonus = dict(warriors.bonus_parts(b) for b in nephi["bonus"])[vision.id]
    assert (nephi["points"], vision["points"], bonus) == (1, 3, 2)
    assert nephi["points"] + vision["points"] + bonus == 6
    assert nephi["side"] == "righteous"


def test_king_noah_and_wickedness_pride_make_six_points(deck):
    """"King Noah and the Wickedness: Pride card would give a player 1 point for King Noah, 3 points
    for the Wickedness: Pride card, and 2 bonus points for a total of 6 points\""""
    noah, pride = by_name(deck, "King Noah"), by_name(deck, "Wickedness: Pride")
    bonus = dict(warriors.bonus_parts(b) for b in noah["bonus"])[pride.id]
    assert noah["points"] + pride["points"] + bonus == 6
    assert noah["side"] == "wicked"


def test_the_icon_examples_hold(deck):
    """"If your primary card is "Abinadi," you cannot play a "Sword" card (no matching icons)."
    "If you first play "Moroni" with the primary card of "Abinadi" (matching icons), then you can
    play the "Sword" card (matching icon with Moroni)."
    "If you played "Lehi" and the "Reinforcements" card (matching icons), you could not then play
    "King Lamoni" (matching icon with "Reinforcements" but not with "Lehi").\""""
    abinadi, moroni, sword = by_name(deck, "Abinadi"), by_name(deck, "Moroni"), by_name(deck, "Sword")
    assert not can_play([abinadi], sword)
    assert can_play([abinadi], moroni)
    assert can_play([abinadi, moroni], sword)
    lehi, reinforcements, lamoni = by_name(deck, "Lehi"), by_name(deck, "Reinforcements"), by_name(deck, "King Lamoni")
    assert can_play([lehi], reinforcements)
    assert set(lamoni["icons"]) & set(reinforcements["icons"]), "Lamoni matches Reinforcements..."
    assert not can_play([lehi, reinforcements], lamoni), "...but Armory cards make no chain"


def test_coriantumr_and_shiz_name_each_other(deck):
    coriantumr, shiz = by_name(deck, "Coriantumr"), by_name(deck, "Shiz")
    assert coriantumr["duel"] == shiz.id and shiz["duel"] == coriantumr.id


def test_stoning_knows_who_is_a_prophet(deck):
    """Stoning: "add 3 points to your total if you play this card against a prophet"."""
    prophets = {c.name for c in deck.cards.values() if c.kind == "warrior" and c["prophet"]}
    assert {"Nephi", "Abinadi", "Samuel the Lamanite", "Alma the Younger", "Ether"} <= prophets
    assert "King Noah" not in prophets and "Moroni" not in prophets
    stoning = by_name(deck, "Stoning")
    assert (stoning["points"], stoning["points_vs_prophet"]) == (2, 3)


def test_six_players_can_each_hold_a_warrior_deck(deck):
    """Each player draws 3 Warriors and "must keep at least one Warrior in his/her hand at all times"."""
    warriors_ = [c for c in deck.cards.values() if c.kind == "warrior"]
    total = sum(c.copies for c in warriors_)
    for players in range(2, 7):
        assert total // players >= 4
    assert {c["side"] for c in warriors_} == {"righteous", "wicked"}


def test_a_warrior_without_icons_can_still_be_played(deck):
    """"the chosen Warrior must have icons" to be a primary card; ours without icons join a named Warrior."""
    iconless = [c for c in deck.cards.values() if c.kind == "warrior" and not c["icons"]]
    assert iconless, "the rulebook implies some Warriors have no icons"
    for card in iconless:
        assert card.get("joins"), f"{card.name} could never be played"


def test_weapon_cards_are_the_four_the_rulebook_names(deck):
    """"weapon card (Arrows, Javelin, Sword, and/or Sling and Stone)"; the Sword of Laban "is not
    grouped with the other weapon cards\""""
    weapons = {c.name for c in deck.cards.values() if c.kind == "armory" and c["weapon"]}
    assert weapons == {"Arrow", "Javelin", "Sword", "Sling & Stone"}


def test_every_armory_card_can_be_played_by_some_warrior(deck):
    """"Any Armory card with a yellow or red dot in place of an icon may be played with any
    corresponding (Righteous or Wicked) Warrior card.\""""
    warrior_icons = {i for c in deck.cards.values() if c.kind == "warrior" for i in c["icons"]}
    for card in deck.cards.values():
        if card.kind == "armory":
            assert (card.get("dot") is not None) != bool(card["icons"]), card.name
            assert card.get("dot") or set(card["icons"]) & warrior_icons, card.name


# -- bad decks -------------------------------------------------------------------------------------
def test_an_armory_of_83_names_file_and_what_is_short(tmp_path):
    data = reference()
    next(c for c in data["cards"] if c["id"] == "SWORD")["copies"] = 3
    _, problems = problems_of(tmp_path, data)
    assert problems == ["the appendix has 4 Sword card(s); this deck has 3",
                        "the appendix adds up to 84 Armory cards; this deck has 83"]


def test_a_missing_field_an_unknown_attribute_and_a_duplicate_id(tmp_path):
    data = reference()
    del next(c for c in data["cards"] if c["id"] == "MORONI")["points"]
    next(c for c in data["cards"] if c["id"] == "LEHI")["colour"] = "gold"
    data["cards"].append(dict(next(c for c in data["cards"] if c["id"] == "SAM")))
    _, problems = problems_of(tmp_path, data)
    assert "card 'MORONI': missing field 'points' (every warrior card needs it)" in problems
    assert "card 'LEHI': unknown attribute 'colour' for a warrior card" in problems
    assert any(p.startswith("card 'SAM': duplicate id") for p in problems)


def test_the_rulebooks_example_numbers_are_enforced(tmp_path):
    data = reference()
    next(c for c in data["cards"] if c["id"] == "NEPHI")["points"] = 2
    next(c for c in data["cards"] if c["id"] == "NOAH")["bonus"] = ["WPRIDE+1"]
    _, problems = problems_of(tmp_path, data)
    assert "card 'NEPHI': field 'points' is 2; the rulebook counts \"1 point for Nephi\"" in problems
    assert ("card 'NOAH': field 'bonus' must give 2 bonus points with Wickedness: Pride, as the rulebook's "
            "example says") in problems


def test_a_wrong_expression_a_missing_duel_and_a_bad_reference(tmp_path):
    data = reference()
    next(c for c in data["cards"] if c["id"] == "FLOVE")["expression"] = "Charity"
    next(c for c in data["cards"] if c["id"] == "SHIZ").pop("duel")
    next(c for c in data["cards"] if c["id"] == "SAM")["joins"] = ["LABAN"]
    next(c for c in data["cards"] if c["id"] == "ENOS")["bonus"] = ["PRAYER2"]
    _, problems = problems_of(tmp_path, data)
    assert any(p.startswith("card 'FLOVE': field 'expression' must be one of the five expressions of Faith")
               for p in problems)
    assert "Faith: Love must appear exactly once (one card per expression); this deck has 0" in problems
    assert "card 'CORIANT': field 'duel' names 'SHIZ', whose 'duel' does not name 'CORIANT' back" in problems
    assert ("card 'SAM': field 'joins' names 'LABAN', but Righteous and Wicked Warriors cannot be played "
            "together") in problems
    assert "card 'ENOS': field 'bonus' has 'PRAYER2'; write CARDID+POINTS, e.g. 'FVISION+2'" in problems


def test_an_armory_card_with_a_dot_and_icons_or_neither(tmp_path):
    data = reference()
    next(c for c in data["cards"] if c["id"] == "PRAYER")["icons"] = ["spirit"]
    next(c for c in data["cards"] if c["id"] == "SHIELD")["icons"] = []
    _, problems = problems_of(tmp_path, data)
    assert ("card 'PRAYER': field 'dot': a card with a dot has it \"in place of an icon\", so 'icons' must "
            "be empty") in problems
    assert "card 'SHIELD': field 'icons' is empty and there is no 'dot'; an Armory card needs one or the other" \
        in problems


def test_too_few_warriors_for_six_players(tmp_path):
    data = reference()
    keep = {"NEPHI", "NOAH", "CORIANT", "SHIZ"}
    data["cards"] = [c for c in data["cards"] if c["kind"] == "armory" or c["id"] in keep]
    _, problems = problems_of(tmp_path, data)
    assert ("6 players each need a Warrior deck of at least 4 (3 in hand and one always kept): at least 24 "
            "Warrior cards; this deck has 4") in problems


def test_the_game_cannot_start_with_a_bad_deck(tmp_path):
    """companion.rules.load_catalog is what every ruleset is built with (rules.make); the Warriors
    referee is another issue's, so Session.start is shown refusing a bad deck in test_catalog_custom."""
    data = reference()
    next(c for c in data["cards"] if c["id"] == "SWORD")["copies"] = 3
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(rules.SetupError, match=r"short\.json: the appendix has 4 Sword card"):
        rules.load_catalog("warriors", str(path))
    assert rules.load_catalog("warriors").total_copies() == 84 + 68
