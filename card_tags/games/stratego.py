"""Stratego: what each piece carries, and the army the rulebook gives each side.

Two armies, red and blue, of 40 pieces each: "the stickers for the 80 plastic pieces",
"until all 40 pieces are placed", "There are also seven non-moving pieces" (6 Bombs and the Flag).
The counts per rank are the classic set's; the rulebook's text names the ranks and their numbering
("3 = Miners", "2 = Scouts", "S = Spies", "B = Bombs", "F = Flags"; stratego.txt).

A catalog has one card per colour and rank, with ``copies`` = how many of that piece an army holds,
and the id is the colour's initial and the rank: R10 (red Marshal), B3 (blue Miner), RS, RB, RF...
Each physical piece is a copy, so its tag key is e.g. ``R3#5``, the fifth red Miner.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from card_tags.catalog import Card, Catalog

COLOURS = ("red", "blue")
COLOUR_INITIAL = {"red": "R", "blue": "B"}

# rank code -> (name, pieces per army), strongest first, in the rulebook's numbering.
ARMY: dict[str, tuple[str, int]] = {
    "10": ("Marshal", 1),
    "9": ("General", 1),
    "8": ("Colonel", 2),
    "7": ("Major", 3),
    "6": ("Captain", 4),
    "5": ("Lieutenant", 4),
    "4": ("Sergeant", 4),
    "3": ("Miner", 5),
    "2": ("Scout", 8),
    "S": ("Spy", 1),
    "B": ("Bomb", 6),
    "F": ("Flag", 1),
}
ARMY_SIZE = sum(count for _, count in ARMY.values())  # 40

SCHEMA = {
    "piece": {
        "colour": list(COLOURS),
        "rank": list(ARMY),
    },
}


def expected_id(colour: str, rank: str) -> str:
    return COLOUR_INITIAL[colour] + rank


def _plural(name: str, count: int) -> str:
    return name if count == 1 else name + "s"


def check(catalog: Catalog) -> list[str]:
    """The rulebook's army, per colour; every problem names the card and the field."""
    problems = []
    by_colour_rank: dict[tuple[str, str], list[Card]] = defaultdict(list)
    for card in catalog.cards.values():
        by_colour_rank[(card["colour"], card["rank"])].append(card)
        wanted = expected_id(card["colour"], card["rank"])
        if card.id != wanted:
            problems.append(f"card {card.id!r}: field 'id' should be {wanted!r} for a {card['colour']} "
                            f"{ARMY[card['rank']][0]} (colour initial + rank), so every set's tags read alike")
    for colour in COLOURS:
        total = 0
        for rank, (name, count) in ARMY.items():
            cards = by_colour_rank.get((colour, rank), [])
            total += sum(card.copies for card in cards)
            if not cards:
                problems.append(f"no {colour} {name} card (id {expected_id(colour, rank)!r}): "
                                f"an army has {count} {_plural(name, count)}")
            elif len(cards) > 1:
                ids = ", ".join(repr(c.id) for c in cards)
                problems.append(f"cards {ids}: field 'rank' {rank!r} appears on {len(cards)} {colour} cards; "
                                f"give each colour and rank one card with copies")
            elif cards[0].copies != count:
                problems.append(f"card {cards[0].id!r}: field 'copies' is {cards[0].copies}, but an army has "
                                f"{count} {_plural(name, count)}")
        if total != ARMY_SIZE:
            problems.append(f"the {colour} army has {total} pieces, not the rulebook's {ARMY_SIZE}")
    return problems
