"""The Stratego deck: two armies of 40 in the rulebook's counts, and what the check refuses."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from card_tags.catalog import CatalogError, load_game, reference_deck_path
from card_tags.payload import decode, encode

COUNTS = {"Flag": 1, "Bomb": 6, "Spy": 1, "Scout": 8, "Miner": 5, "Sergeant": 4, "Lieutenant": 4,
          "Captain": 4, "Major": 3, "Colonel": 2, "General": 1, "Marshal": 1}


def reference() -> dict:
    return json.loads(reference_deck_path("stratego").read_text(encoding="utf-8"))


def problems_of(tmp_path, data: dict) -> tuple[str, list[str]]:
    path = tmp_path / "my-stratego.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_game("stratego", str(path))
    return str(caught.value), caught.value.problems


def test_reference_deck_has_two_armies_of_forty():
    """"the stickers for the 80 plastic pieces"; "all 40 pieces"; "seven non-moving pieces"."""
    catalog = load_game("stratego")
    assert catalog.total_copies() == 80
    for colour in ("red", "blue"):
        counts = Counter()
        for card in catalog.cards.values():
            if card["colour"] == colour:
                counts[card.name] += card.copies
        assert counts == COUNTS
        assert counts["Bomb"] + counts["Flag"] == 7


def test_ids_follow_colour_and_rank_and_every_piece_has_a_tag():
    catalog = load_game("stratego")
    assert {"R10", "B3", "RF", "RB", "RS", "BB", "B2"} <= set(catalog.cards)
    refs = list(catalog.refs())
    assert len({r.key for r in refs}) == 80
    assert decode(encode(refs[0])).key == "R10#1"


def test_an_army_of_39_names_file_card_and_field(tmp_path):
    data = reference()
    sergeant = next(c for c in data["cards"] if c["id"] == "R4")
    sergeant["copies"] = 3
    message, problems = problems_of(tmp_path, data)
    assert message.startswith(str(tmp_path / "my-stratego.json") + ": ")
    assert problems == ["card 'R4': field 'copies' is 3, but an army has 4 Sergeants",
                        "the red army has 39 pieces, not the rulebook's 40"]


def test_a_missing_rank_a_repeated_rank_and_a_misnamed_id(tmp_path):
    data = reference()
    data["cards"] = [c for c in data["cards"] if c["id"] != "BS"]
    next(c for c in data["cards"] if c["id"] == "R6")["id"] = "RX6"
    data["cards"].append({"id": "B9X", "name": "General", "kind": "piece", "copies": 1, "colour": "blue", "rank": "9"})
    _, problems = problems_of(tmp_path, data)
    assert "no blue Spy card (id 'BS'): an army has 1 Spy" in problems
    assert any(p.startswith("card 'RX6': field 'id' should be 'R6'") for p in problems)
    assert "cards 'B9', 'B9X': field 'rank' '9' appears on 2 blue cards; give each colour and rank one card with copies" in problems


def test_schema_refuses_an_unknown_colour_or_rank(tmp_path):
    data = reference()
    data["cards"][0]["colour"] = "green"
    data["cards"][1]["rank"] = "11"
    _, problems = problems_of(tmp_path, data)
    assert "card 'R10': field 'colour' must be one of ['red', 'blue'], not 'green'" in problems
    assert any(p.startswith("card 'R9': field 'rank' must be one of") for p in problems)
