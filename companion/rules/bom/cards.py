"""The deck as the referee sees it: a physical card's key ("GD500#2", already checked by the
contract as ``ID#copy`` of the catalog) to its catalog card."""
from __future__ import annotations

from card_tags.catalog import Card, Catalog

POWER, CHARACTER = "power", "character"


class Deck:
    """Lookups into the game's catalog by physical card key."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def lookup(self, key: str) -> Card:
        return self.catalog.cards[key.partition("#")[0]]

    def is_power(self, key: str) -> bool:
        return self.lookup(key).kind == POWER

    def keys(self, kind: str | None = None) -> list[str]:
        """Every physical copy's key, CHARACTER and POWER cards or just one kind."""
        return [ref.key for ref in self.catalog.refs() if kind is None or self.catalog[ref.card].kind == kind]

    def size(self, with_powers: bool = True) -> int:
        return len(self.keys(None if with_powers else CHARACTER))
