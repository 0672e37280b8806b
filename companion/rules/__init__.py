"""One module per game; this registry maps a game id to its ruleset class."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from card_tags import catalog as catalogs

from .base import Action, Applied, Option, Outcome, Refusal, Ruleset, Seat, SetupError, State, Term

# game id -> "module:Class". Imported lazily so one game's module cannot break another's.
RULESETS = {
    "bom-battle": "companion.rules.bom_battle:BomBattle",
    "stratego": "companion.rules.stratego:Stratego",
    "gt-battle": "companion.rules.gt_battle:GatherTogetherBattle",
    "warriors": "companion.rules.warriors:Warriors",
    "battlecards-pacific": "companion.rules.battlecards:BattlecardsPacific",
}


def available() -> list[str]:
    """Game ids whose ruleset module is present."""
    found = []
    for game, target in RULESETS.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            found.append(game)
    return found


def ruleset_class(game: str) -> type[Ruleset]:
    target = RULESETS.get(game)
    if target is None:
        raise SetupError(f"unknown game {game!r}; games are {sorted(RULESETS)}")
    module, _, name = target.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError:
        raise SetupError(f"the {game} referee is not part of this version of the companion") from None


def load_catalog(game: str, deck: Any = None):
    """The game's catalog (reference deck, custom deck path, or recorded data), checked."""
    try:
        return catalogs.load_game(game, deck)
    except catalogs.CatalogError as exc:
        raise SetupError(str(exc)) from None


def make(game: str, deck: Any = None) -> Ruleset:
    """A ready ruleset for a game, with its catalog loaded and checked against the rules."""
    return ruleset_class(game)(load_catalog(game, deck))


__all__ = ["Action", "Applied", "Option", "Outcome", "Refusal", "Ruleset", "Seat", "SetupError", "State",
           "Term", "available", "load_catalog", "make", "ruleset_class"]
