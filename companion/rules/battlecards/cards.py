"""The deck as the rules read it: a physical card's key ("UFLETCH#2") to its catalog card, and a
unit's Attack Values, Defense Scores, firing phases and support."""
from __future__ import annotations

from card_tags.catalog import Catalog

from .. import deck

CONFLICT_KINDS = ("battle", "keep", "draw", "intel")
SIDE_NAMES = {"japan": "Japan", "us": "the US", "germany": "Germany", "britain": "Britain"}
THEATRE_OF = {"japan": "pacific", "us": "pacific", "germany": "western", "britain": "western"}


def _number(value: object) -> int | None:
    """A value of the card's table: a number, or None where the card says N/A."""
    return value if isinstance(value, int) else None


class Deck(deck.Deck):
    """The contract's deck, with BATTLECARDS' questions: a unit's values, a CONFLICT card's theatre."""

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self._action_counts: dict[int, int] | None = None

    def is_conflict(self, key: str) -> bool:
        return self.card(key).kind in CONFLICT_KINDS

    def is_unit(self, key: str) -> bool:
        return self.is_a(key, "unit")

    def action(self, key: str) -> int:
        return int(self.card(key)["action"])

    def unit_type(self, key: str) -> str:
        return str(self.card(key)["unit_type"])

    def side(self, key: str) -> str:
        return str(self.card(key)["side"])

    def theatre(self, key: str) -> str:
        """A CONFLICT card's theatre: a Western custom deck marks its cards with ``theatre``."""
        return str(self.card(key).get("theatre", "pacific"))

    def attack(self, key: str, target_type: str) -> int | None:
        return _number(self.card(key).get(f"attack_{target_type}"))

    def defense(self, key: str, attacker_type: str) -> int | None:
        return _number(self.card(key).get(f"defense_{attacker_type}"))

    def phases(self, key: str) -> list[int]:
        return list(self.card(key)["phases"])

    def supports(self, supporter: str, key: str) -> bool:
        return self.unit_type(key) in self.card(supporter).get("supports", [])

    def support_attack(self, key: str) -> int:
        return self.card(key).get("support_attack", 0) or 0

    def support_defense(self, key: str) -> int:
        return self.card(key).get("support_defense", 0) or 0

    def copies(self, kinds: tuple[str, ...], theatre: str | None = None, side: str | None = None) -> list[str]:
        """Every physical copy of the cards of these kinds (of a theatre's CONFLICT deck, or a side's ARSENAL)."""
        return self.keys(*kinds, where=lambda card: (theatre is None or card.get("theatre", "pacific") == theatre)
                         and (side is None or card.get("side") == side))

    def action_counts(self) -> dict[int, int]:
        """How many CONFLICT cards of the whole deck carry each Action Number (counted once: the deck never
        changes)."""
        if self._action_counts is None:
            counts: dict[int, int] = {}
            for card in self.catalog.cards.values():
                if card.kind in CONFLICT_KINDS:
                    counts[int(card["action"])] = counts.get(int(card["action"]), 0) + card.copies
            self._action_counts = counts
        return self._action_counts

    def action_numbers(self) -> list[int]:
        """Every Action Number a CONFLICT card of the deck carries ("whatever action number is pulled")."""
        return sorted({c["action"] for c in self.catalog.cards.values() if c.kind in CONFLICT_KINDS})
