"""The reference deck (card_tags/decks/bom-battle.json) follows every number the rulebook gives."""
import re
from collections import Counter

import pytest

from card_tags.catalog import CatalogError, load_game, parse
from card_tags.games import bom_battle
from card_tags.payload import CardRef, decode, encode

DECK = load_game("bom-battle")
CHARACTERS = [c for c in DECK.cards.values() if c.kind == "character"]
POWERS = [c for c in DECK.cards.values() if c.kind == "power"]


def test_56_character_cards_14_of_each_colour_and_shape():
    """"56 Character Cards: 14 Gold Diamond cards, 14 Gold Oval cards, 14 Black Diamond cards,
    14 Black Oval cards\""""
    suits = Counter((c["color"], c["shape"]) for c in CHARACTERS for _ in range(c.copies))
    assert suits == {("gold", "diamond"): 14, ("gold", "oval"): 14, ("black", "diamond"): 14, ("black", "oval"): 14}


def test_every_suit_has_the_values_100_to_900_and_1000_to_5000():
    values = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 2000, 3000, 4000, 5000]
    for color, shape in [("gold", "diamond"), ("gold", "oval"), ("black", "diamond"), ("black", "oval")]:
        assert sorted(c["value"] for c in CHARACTERS if (c["color"], c["shape"]) == (color, shape)) == values


def test_16_power_cards_in_the_stated_counts():
    """"16 Power Cards - 3 Faith cards - 3 Wickedness cards - 2 Battle cards - 2 Conversion cards -
    2 Title of Liberty cards - 2 Secret Combination cards - 1 Stripling Warriors card - 1 Famine card\""""
    counts = {c.name: c.copies for c in POWERS}
    assert counts == {"Faith": 3, "Wickedness": 3, "Battle": 2, "Conversion": 2, "Title of Liberty": 2,
                      "Secret Combination": 2, "Stripling Warriors": 1, "Famine": 1}
    assert {c.id for c in POWERS} == {"FAITH", "WICKED", "BATTLE", "CONVERT", "TITLE", "SECRET", "STRIPLNG", "FAMINE"}
    assert DECK.total_copies() == 72


def test_card_ids_name_the_suit_and_value_and_every_copy_has_its_own_tag():
    for card in CHARACTERS:
        assert card.id == f"{card['color'][0].upper()}{card['shape'][0].upper()}{card['value']}"
    tags = [encode(ref) for ref in DECK.refs()]
    assert len(set(tags)) == 72
    assert decode(encode(CardRef("bom-battle", "FAITH", 3))) == CardRef("bom-battle", "FAITH", 3)


def test_names_are_unique_with_gold_righteous_and_black_wicked_examples():
    names = [c.name for c in CHARACTERS]
    assert len(set(names)) == 56
    by_name = {c.name: c for c in CHARACTERS}
    # The rulebook's Helpful notes name these: Zeezrom, Pachus and Seantum (a secret combination, so
    # both black and under 1000), Coriantumr³ (a superscript kept in the name).
    assert by_name["Zeezrom"]["color"] == "black"
    for name in ("Pachus", "Seantum"):
        assert by_name[name]["color"] == "black" and by_name[name]["value"] < 1000
    assert "Coriantumr³" in by_name and "Nephi²" in by_name
    assert by_name["Moroni¹"]["color"] == "gold" and by_name["Korihor"]["color"] == "black"


def test_every_character_has_a_pronunciation_clues_and_a_reference():
    for card in CHARACTERS:
        assert re.fullmatch(r"[A-Za-z -]+", card["pronunciation"]), card.name
        assert any(part.isupper() for part in card["pronunciation"].split("-")) or card["pronunciation"].isupper()
        assert 3 <= len(card["description"]) <= 5, card.name
        assert re.fullmatch(r"(1 Nephi|2 Nephi|3 Nephi|4 Nephi|Jacob|Enos|Jarom|Omni|Words of Mormon|Mosiah|Alma|"
                            r"Helaman|Mormon|Ether|Moroni) \d+", card["reference"]), card.name


def test_the_clues_never_give_the_name_away():
    """Spy's Trivia reads the clues aloud; a clue that says the name would end the round."""
    for card in CHARACTERS:
        base = card.name.rstrip("¹²³⁴⁵⁶⁷⁸⁹").replace(" the Lamanite", "")
        for clue in card["description"]:
            assert base.lower() not in clue.lower(), (card.name, clue)
            assert clue.endswith("."), clue


def test_power_cards_carry_the_rulebook_wording():
    text = {c.id: c["text"] for c in POWERS}
    assert text["FAITH"] == ("Multiply the original point value of any gold CHARACTER card under 1000 (100–900) "
                             "by 10. For example, a 500 becomes a 5000.")
    assert text["TITLE"].endswith("For example, a gold 500 and a gold 200 combine with this card for a total of 5700.")
    assert text["FAMINE"].startswith("This card eliminates the effect of any other power cards played.")


def test_a_deck_that_breaks_the_rulebooks_counts_is_refused():
    data = DECK.to_json()
    data["cards"] = [c for c in data["cards"] if c["id"] != "GD100"]
    assert bom_battle.check(parse(data, bom_battle.SCHEMA)) == [
        "the rulebook has 14 gold diamond CHARACTER cards; this deck has 13"]
    with pytest.raises(CatalogError, match="14 gold diamond"):
        load_game("bom-battle", data)
