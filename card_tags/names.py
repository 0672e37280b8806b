"""What a printed sticker says: a card's name and copy, or, for a piece that hides its rank from the
opponent (Stratego), only its colour and number in its army, with a key from numbers to pieces."""
from __future__ import annotations

from collections import Counter

from .catalog import Catalog
from .payload import CardRef

# Games whose pieces stand with their rank turned away from the opponent: the sticker shows no rank.
HIDDEN_RANKS = {"stratego"}


def card_names(catalog: Catalog) -> dict[CardRef, tuple[str, int]]:
    """Each copy's label name and copy count: the card's name (with its id when another card has
    the same name: cards of two sets that share one)."""
    names = Counter(card.name for card in catalog.cards.values())
    return {ref: (catalog[ref.card].name if names[catalog[ref.card].name] == 1
                  else f"{catalog[ref.card].name} ({ref.card})", catalog[ref.card].copies) for ref in catalog.refs()}


def army_numbers(catalog: Catalog) -> dict[CardRef, tuple[str, int]]:
    """Each piece's colour and its number in its army (1..40), in catalog order."""
    counted: Counter[str] = Counter()
    numbers = {}
    for ref in catalog.refs():
        colour = str(catalog[ref.card].attrs.get("colour", "")).capitalize()
        counted[colour] += 1
        numbers[ref] = (colour, counted[colour])
    return numbers


def hidden_names(catalog: Catalog) -> dict[CardRef, tuple[str, int]]:
    """A hidden piece's sticker names only its colour and number ("Red 17"), never its rank."""
    numbers = army_numbers(catalog)
    armies = Counter(colour for colour, _ in numbers.values())
    return {ref: (f"{colour} {n}", armies[colour]) for ref, (colour, n) in numbers.items()}


def hidden_key(catalog: Catalog) -> str:
    """Which numbers go on which pieces, the same for every colour: "1 Marshal, 3-4 Colonel..."."""
    numbers = army_numbers(catalog)
    first = next(iter(numbers.values()))[0]
    spans: dict[str, list[int]] = {}
    for ref, (colour, n) in numbers.items():
        if colour == first:
            spans.setdefault(catalog[ref.card].name, []).append(n)
    return ", ".join(f"{ns[0]}{'-' + str(ns[-1]) if len(ns) > 1 else ''} {name}" for name, ns in spans.items())
