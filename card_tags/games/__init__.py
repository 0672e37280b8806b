"""Every game the companion knows, one line each: the registry every other list is derived from.

A line names the game's id, the two-character code its tags carry (printed on every card, so a
code is never reused), and the package of its referee under ``companion/rules/`` (a name, never
imported here: card_tags imports nothing from the companion). The rest is found by the id:

- ``card_tags/games/<id with _>.py``: the card schema (``SCHEMA``) and the rulebook's counts
  (``check(catalog)``);
- ``card_tags/decks/<id>.json``: the reference deck;
- ``companion/rules/<referee>/``: the referee (its ``GAME``, and ``DEMO`` if it brings players).

``card_tags.payload.GAME_CODES`` and ``companion.rules.GAMES`` are derived from ``GAMES`` below,
so adding a game is one line here (docs/referee/contract.md, "Adding a game").
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Registered:
    """One game in the registry: its id, its tag code, its referee's package under companion/rules/."""

    game: str
    code: str
    referee: str

    @property
    def cards_module(self) -> str:
        """The module of its card schema and counts, by convention from the id."""
        return f"card_tags.games.{self.game.replace('-', '_')}"


# In the order the setup page lists them.
GAMES: tuple[Registered, ...] = (
    Registered("bom-battle", "BM", referee="bom"),
    Registered("stratego", "ST", referee="stratego"),
    Registered("gt-battle", "GT", referee="gt"),
    Registered("warriors", "WP", referee="warriors"),
    Registered("battlecards-pacific", "BP", referee="battlecards"),
)
BY_ID = {g.game: g for g in GAMES}
