"""Book of Mormon's deck as its rules read it: the contract's ``Deck`` (a physical card's key, e.g.
"GD500#2", to its catalog card), and the questions this game asks of its cards: POWER or CHARACTER,
and how many cards the deal uses."""
from __future__ import annotations

from .. import deck

POWER, CHARACTER = "power", "character"


class Deck(deck.Deck):
    """The contract's deck, with Book of Mormon's questions."""

    def is_power(self, key: str) -> bool:
        return self.is_a(key, POWER)

    def size(self, with_powers: bool = True) -> int:
        """The cards dealt out: the whole deck, or its CHARACTER cards when the POWER cards are left out."""
        return len(self.keys() if with_powers else self.keys(CHARACTER))
