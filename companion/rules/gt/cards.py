"""The deck as the referee sees it: a physical card's key ("F7#2") to its catalog card.

A key that names no card of this deck is refused with a reason the players can read. An identity
card's reason never names its team: refusals are public, identities are not.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card, Catalog
from card_tags.payload import CardRef

from .report import Refuse


class Deck:
    """Lookups into the game's catalog by physical card key."""

    def __init__(self, catalog: Catalog, game: str):
        self.catalog = catalog
        self.game = game

    def card(self, key: Any) -> Card:
        """The catalog card of a physical copy; ``Refuse`` if the key names none."""
        if not isinstance(key, str) or not key:
            raise Refuse(f"A card input needs \"card\": a tag key such as \"F7#2\", not {key!r}.")
        try:
            return self.catalog.lookup(CardRef.from_key(self.game, key))
        except ValueError:
            raise Refuse(f"{key!r} is not a card key (it should look like \"F7#2\").") from None
        except KeyError as exc:
            if self.is_identity(key):  # the reason is public: never name a team
                raise Refuse("That identity card tag is not one of this deck's copies; check the tag.") from None
            raise Refuse(str(exc.args[0])) from None

    def is_identity(self, key: str) -> bool:
        card = self.catalog.cards.get(key.partition("#")[0])
        return card is not None and card.kind == "identity"

    def name(self, key: str) -> str:
        return self.card(key).name
