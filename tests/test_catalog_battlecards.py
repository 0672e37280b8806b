"""The BATTLECARDS Pacific deck: 54 CONFLICT cards, 50 + 50 ARSENAL units, BATTLECARDs worth 80 VP
with the two total-victory invasions, and what the check refuses."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from card_tags.catalog import CatalogError, load_game, reference_deck_path
from card_tags.games import battlecards_pacific as bp
from card_tags.payload import decode, encode
from companion import rules


@pytest.fixture(scope="module")
def deck():
    return load_game("battlecards-pacific")


def conflict(deck):
    return [c for c in deck.cards.values() if c.kind in bp.CONFLICT_KINDS]


def reference() -> dict:
    return json.loads(reference_deck_path("battlecards-pacific").read_text(encoding="utf-8"))


def card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


def problems_of(tmp_path, data: dict) -> list[str]:
    path = tmp_path / "my-pacific.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_game("battlecards-pacific", str(path))
    assert str(caught.value).startswith(f"{path}: "), "the message names the file"
    return caught.value.problems


# -- the reference deck --------------------------------------------------------------------------
def test_the_game_concept_counts(deck):
    """"a CONFLICT deck of 54 cards, 50 ARSENAL cards for the US forces, and 50 ARSENAL cards for
    the Japanese forces\""""
    assert sum(c.copies for c in conflict(deck)) == 54
    sides = Counter()
    for c in deck.cards.values():
        if c.kind == "unit":
            sides[c["side"]] += c.copies
    assert sides == {"us": 50, "japan": 50}


def test_every_conflict_card_has_an_action_number(deck):
    """"Each CONFLICT Card has an Action Number in the upper left and lower right hand corners.\""""
    numbers = Counter(c["action"] for c in conflict(deck))
    assert sum(numbers.values()) == 54 and set(numbers) == set(range(1, 10))
    assert set(numbers.values()) == {6}, "each Action Number 1-9 is on six cards"


def test_battlecards_add_up_to_80_vp_so_40_wins(deck):
    """"at least half of the available victory points in the deck. For this set, the number would be 40\""""
    battles = [c for c in deck.cards.values() if c.kind == "battle"]
    assert sum(c["vp"] for c in battles) == 80
    assert {c["aggressor"] for c in battles} == {"us", "japan"}
    assert all(c.copies == 1 for c in battles)
    assert {"Pearl Harbor", "Midway", "Guadalcanal", "Iwo Jima", "Okinawa"} <= {c.name for c in battles}


def test_the_two_invasions_decide_a_total_victory(deck):
    """"the US Player is eliminated when the enemy wins the "Invasion of Australia" BATTLECARD. The
    Japanese player is eliminated when the enemy wins the "Invasion of Japan" BATTLECARD.\""""
    australia = next(c for c in deck.cards.values() if c.name == "Invasion of Australia")
    japan = next(c for c in deck.cards.values() if c.name == "Invasion of Japan")
    assert (australia["aggressor"], australia["eliminates"]) == ("japan", "us")
    assert (japan["aggressor"], japan["eliminates"]) == ("us", "japan")
    assert japan["prerequisites"] and australia["prerequisites"], "neither can be drawn and fought at once"


def test_prerequisites_name_battlecards(deck):
    """"Prerequisites will be listed below the Battle Description and above the Victory Points.\""""
    for c in deck.cards.values():
        if c.kind == "battle":
            assert all(deck[p].kind == "battle" for p in c["prerequisites"])
            assert set(c["units"]) <= {"ground", "air", "sea"} and c["units"]


def test_keep_this_card_and_draw_from_the_arsenal(deck):
    """"Unless the card says, "Keep this card" or it is a "BATTLECARD" the drawing player discards the
    card"; "Some cards in the CONFLICT deck instruct the drawing player to build up his hand by drawing
    more cards from the ARSENAL deck.\""""
    keep = [c for c in deck.cards.values() if c.kind == "keep"]
    draw = [c for c in deck.cards.values() if c.kind == "draw"]
    assert keep and all(c["text"].startswith("Keep this card.") for c in keep)
    assert draw and all("ARSENAL" in c["text"] for c in draw)


def test_units_have_attack_and_defense_per_type_phases_and_support(deck):
    """"it will give you its Attack Value against the three different types of units (Ground, Air,
    Sea). If the Attack Value is N/A ... then the target may not be attacked.\""""
    units = [c for c in deck.cards.values() if c.kind == "unit"]
    assert {c["unit_type"] for c in units} == {"ground", "air", "sea"}
    sub = deck["UGATO"]
    assert bp.attack(sub, "sea") == 6 and bp.attack(sub, "ground") is None and bp.defense(sub, "ground") is None
    for c in units:
        assert set(c["phases"]) <= {1, 2, 3, 4}
        assert bool(c["phases"]) == any(bp.attack(c, t) is not None for t in bp.UNIT_TYPES)
    supporters = [c for c in units if c.get("supports")]
    assert any(c["rank"] == "admiral" for c in supporters) and any(c["rank"] == "general" for c in supporters)


def test_one_representation_of_each_leader_general_and_admiral(deck):
    """"Make sure only one representation of each LEADER or GENERAL is in the respective arsenal decks\""""
    named = [c for c in deck.cards.values() if c.kind == "unit" and c["rank"] != "unit"]
    assert all(c.copies == 1 for c in named)
    assert len({(c["side"], c.name) for c in named}) == len(named)
    assert {"Gen. Douglas MacArthur", "Adm. Chester W. Nimitz", "Adm. Isoroku Yamamoto"} <= {c.name for c in named}


def test_every_copy_has_a_tag(deck):
    refs = list(deck.refs())
    assert len(refs) == 154 and len({r for r in refs}) == 154
    assert all(decode(encode(r)) == r for r in refs)


# -- bad decks -------------------------------------------------------------------------------------
def test_53_conflict_cards_and_79_vp(tmp_path):
    data = reference()
    data["cards"] = [c for c in data["cards"] if c["id"] != "DOOLITTL"]
    problems = problems_of(tmp_path, data)
    assert "the CONFLICT deck has 54 cards; this deck has 53" in problems
    assert ("the BATTLECARDs must add up to 80 VP (a STANDARD VICTORY is 40, half of them); this deck's add up "
            "to 79") in problems


def test_a_missing_field_an_unknown_attribute_and_a_duplicate_id(tmp_path):
    data = reference()
    del card(data, "MIDWAY")["vp"]
    card(data, "UB29")["range"] = 5000
    data["cards"].append(dict(card(data, "RECON1")))
    problems = problems_of(tmp_path, data)
    assert "card 'MIDWAY': missing field 'vp' (every battle card needs it)" in problems
    assert "card 'UB29': unknown attribute 'range' for a unit card" in problems
    assert any(p.startswith("card 'RECON1': duplicate id") for p in problems)


def test_a_second_yamamoto_a_wrong_invasion_and_a_looping_prerequisite(tmp_path):
    data = reference()
    data["cards"].append(dict(card(data, "JYAMAMOT"), id="JYAMA2"))
    card(data, "JAPAN")["aggressor"] = "japan"
    card(data, "LEYTE")["prerequisites"] = ["OKINAWA"]
    problems = problems_of(tmp_path, data)
    assert ("card 'JYAMA2': Adm. Isoroku Yamamoto is already in the deck as 'JYAMAMOT'; \"only one representation "
            "of each LEADER or GENERAL\"") in problems
    assert "the Japanese ARSENAL has 50 cards; this deck has 51" in problems
    assert "card 'JAPAN': field 'eliminates' cannot be the aggressor itself" in problems
    assert any(p.endswith("field 'prerequisites' leads back to itself, so the battle could never be fought")
               for p in problems)


def test_bad_phases_types_and_support(tmp_path):
    data = reference()
    card(data, "UHELLCAT")["phases"] = [0, 5]
    card(data, "UMACARTH")["phases"] = [1]
    card(data, "PEARL")["units"] = ["space"]
    card(data, "UNIMITZ").pop("supports")
    problems = problems_of(tmp_path, data)
    assert "card 'UHELLCAT': field 'phases' must list distinct firing phases from 1-4, not [0, 5]" in problems
    assert "card 'UMACARTH': field 'phases' lists [1], but every Attack Value is N/A" in problems
    assert "card 'PEARL': field 'units' has 'space'; unit types are ['ground', 'air', 'sea']" in problems
    assert "card 'UNIMITZ': field 'supports' must say which unit types the support bonus applies to" in problems


def test_the_game_cannot_start_with_a_bad_deck(tmp_path):
    data = reference()
    card(data, "AUSTRAL")["vp"] = 7
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(rules.SetupError, match=r"short\.json: the BATTLECARDs must add up to 80 VP"):
        rules.load_catalog("battlecards-pacific", str(path))
