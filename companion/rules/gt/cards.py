"""The deck as the referee sees it: a physical card's key ("F7#2") to its catalog card.

Keys reach the rules already checked by the contract (``ID#copy`` of this deck), so a lookup here
cannot fail on a key from an input or from the state.
"""
from __future__ import annotations

from card_tags.catalog import Card, Catalog

from .state import BattleState


class Deck:
    """Lookups into the game's catalog by physical card key."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def card(self, key: str) -> Card:
        return self.catalog.cards[key.partition("#")[0]]

    def is_identity(self, key: object) -> bool:
        card = self.catalog.cards.get(key.partition("#")[0]) if isinstance(key, str) else None
        return card is not None and card.kind == "identity"

    def name(self, key: str) -> str:
        return self.card(key).name

    def action(self, key: str) -> str | None:
        action = self.card(key).get("action")
        return None if action is None else str(action)


def lifted(state: BattleState, key: str, zone: str) -> None:
    """The card no longer lies in ``zone``: the rules know it left (taken into a hand, a tap on a
    reader ended), whether or not the table reported it going."""
    state.lift(key, zone)
