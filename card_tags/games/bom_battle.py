"""Book of Mormon "Battle": what its cards carry, and the deck counts the rulebook gives.

"56 Character Cards: 14 Gold Diamond cards, 14 Gold Oval cards, 14 Black Diamond cards,
14 Black Oval cards. 16 Power Cards: 3 Faith, 3 Wickedness, 2 Battle, 2 Conversion, 2 Title of
Liberty, 2 Secret Combination, 1 Stripling Warriors, 1 Famine." (bom-battle.txt, CONTENTS)
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from card_tags.catalog import Catalog

POWERS = ("faith", "wickedness", "battle", "conversion", "title_of_liberty", "secret_combination",
          "stripling_warriors", "famine")
POWER_COUNTS = {"faith": 3, "wickedness": 3, "battle": 2, "conversion": 2, "title_of_liberty": 2,
                "secret_combination": 2, "stripling_warriors": 1, "famine": 1}

SCHEMA = {
    "character": {
        "value": "int",
        "color": ["gold", "black"],
        "shape": ["diamond", "oval"],
        "pronunciation?": "str",   # from the Book of Mormon pronunciation guide (Helpful notes)
        "description?": "list[str]",  # the clues Spy's Trivia reads aloud, one at a time
        "reference?": "str",       # book and chapter where the character is found
    },
    "power": {
        "power": list(POWERS),
        "text?": "str",
    },
}


def check(catalog: Catalog) -> list[str]:
    """The rulebook's counts; every problem, each naming the file and what is off."""
    problems = []
    suits: Counter[tuple[str, str]] = Counter()
    powers: Counter[str] = Counter()
    for card in catalog.cards.values():
        if card.kind == "character":
            suits[(card["color"], card["shape"])] += card.copies
            if card["value"] <= 0 or card["value"] % 100:
                problems.append(f"card {card.id!r}: field 'value' {card['value']} is not a positive multiple of 100")
        else:
            powers[card["power"]] += card.copies
    for color in ("gold", "black"):
        for shape in ("diamond", "oval"):
            if suits[(color, shape)] != 14:
                problems.append(f"the rulebook has 14 {color} {shape} CHARACTER cards; this deck has {suits[(color, shape)]}")
    for power, count in POWER_COUNTS.items():
        if powers[power] != count:
            problems.append(f"the rulebook has {count} {power.replace('_', ' ').title()} POWER card(s); this deck has {powers[power]}")
    return problems
