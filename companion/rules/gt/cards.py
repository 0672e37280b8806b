"""Battle's deck as its rules read it: the contract's ``Deck`` (a physical card's key, e.g. "F7#2", to
its catalog card), and the questions this game asks of its cards: an identity card, an action.

Keys reach the rules already checked by the contract (``ID#copy`` of this deck), so a lookup here
cannot fail on a key from an input or from the state.
"""
from __future__ import annotations

from .. import deck


class Deck(deck.Deck):
    """The contract's deck, with Battle's questions."""

    def is_identity(self, key: object) -> bool:
        """Asked of unchecked keys too: a refusal never names an identity card's team."""
        return self.is_a(key, "identity")

    def action(self, key: str) -> str | None:
        action = self.card(key).get("action")
        return None if action is None else str(action)

