"""The deck as the referee sees it: a physical card's key ("GD500#2") to its catalog card,
and how a card is shown on the dashboard."""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card, Catalog
from card_tags.payload import CardRef

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
POWER_NAMES = {"faith": "Faith", "wickedness": "Wickedness", "battle": "Battle", "conversion": "Conversion",
               "title_of_liberty": "Title of Liberty", "secret_combination": "Secret Combination",
               "stripling_warriors": "Stripling Warriors", "famine": "Famine"}


def name_parts(name: str) -> tuple[str, str]:
    """("Coriantumr", "3") for "Coriantumr³": the index tells apart people of the same name
    (rulebook, Helpful notes). The dashboard shows it as a superscript; speech leaves it out."""
    base = name.rstrip(SUPERSCRIPTS)
    index = "".join(str(SUPERSCRIPTS.index(c)) for c in name[len(base):])
    return base, index


def spoken(name: str) -> str:
    return name_parts(name)[0]


def suit_text(color: str, shape: str, value: int) -> str:
    return f"{color} {shape} {value}"


class Deck:
    """Lookups into the game's catalog by physical card key."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def lookup(self, key: Any) -> Card:
        """The catalog card of a physical copy, or KeyError with a reason a player can read."""
        if not isinstance(key, str) or not key:
            raise KeyError(f"a card event needs a card key like 'GD500#1', not {key!r}")
        try:
            ref = CardRef.from_key(self.catalog.game, key)
        except ValueError:
            raise KeyError(f"{key!r} is not a card key like 'GD500#1'") from None
        return self.catalog.lookup(ref)

    def keys(self, kind: str | None = None) -> list[str]:
        """Every physical copy's key, CHARACTER and POWER cards or just one kind."""
        return [ref.key for ref in self.catalog.refs() if kind is None or self.catalog[ref.card].kind == kind]

    def size(self, with_powers: bool = True) -> int:
        return len(self.keys(None if with_powers else "character"))

    def view(self, key: str) -> dict[str, Any]:
        """A card as the table view shows it (everything printed on its face)."""
        card = self.lookup(key)
        base, index = name_parts(card.name)
        shown: dict[str, Any] = {"key": key, "id": card.id, "name": card.name, "name_base": base,
                                 "name_index": index, "kind": card.kind}
        if card.kind == "character":
            shown.update(value=card["value"], color=card["color"], shape=card["shape"],
                         pronunciation=card.get("pronunciation", ""), reference=card.get("reference", ""),
                         text=f"{card.name}, {suit_text(card['color'], card['shape'], card['value'])}")
        else:
            shown.update(power=card["power"], text=card.get("text", ""))
        return shown
