"""The deck as a game's rules read it, given once by the contract: a physical card's key ("F7#2") to
its catalog card, and the keys of every physical copy of a kind of card.

Keys reach the rules already checked by the contract (``ID#copy`` of the game's catalog), so a lookup
cannot fail on a key from an input or from the state. A game whose rules ask more of its cards (a
BATTLECARDS unit's Attack Values, a Gather Together action) extends ``Deck`` in its ``cards.py`` with
those questions, each a line over ``card``; what a game does with its piles (dealing, drawing,
reshuffling a discard pile into a new draw pile) changes its state, so it is a rule of the game.
"""
from __future__ import annotations

from typing import Callable

from card_tags.catalog import Card, Catalog


class Deck:
    """Lookups into a game's catalog by physical card key."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def card(self, key: str) -> Card:
        return self.catalog.cards[key.partition("#")[0]]

    def name(self, key: str) -> str:
        return self.card(key).name

    def is_a(self, key: object, kind: str) -> bool:
        """Whether ``key`` names a card of this kind; any value may be asked (an input not yet checked,
        whose refusal must not tell a secret kind of card), the answer for anything else is False."""
        card = self.catalog.cards.get(key.partition("#")[0]) if isinstance(key, str) else None
        return card is not None and card.kind == kind

    def keys(self, *kinds: str, where: Callable[[Card], bool] | None = None) -> list[str]:
        """Every physical copy's key, in catalog order: of these kinds (all cards if none is named),
        and of the cards ``where`` accepts."""
        return [f"{card.id}#{n}" for card in self.catalog.cards.values()
                if (not kinds or card.kind in kinds) and (where is None or where(card))
                for n in range(1, card.copies + 1)]
