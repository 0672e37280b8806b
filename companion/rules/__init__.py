"""The games the companion referees: one package per game, one line each in the registry of games
(``card_tags.games.GAMES``: id, tag code, referee's package), from which ``GAMES`` is derived.

A game's package (``companion/rules/<game>/``) exposes ``GAME``, its ``Game`` subclass (see
contract.py), and may expose ``DEMO``, the simulated players of ``companion demo --game <id>``.
Everything else that differs between games (the camera zones, the tablet's buttons and prompt,
the catalog, the setup form's options) is found from ``GAME`` through this registry.
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from card_tags import catalog as catalogs
from card_tags.catalog import Catalog
from card_tags.games import GAMES as REGISTERED

from .base import Action, Applied, Option, Outcome, Refusal, Ruleset, Seat, SetupError, State, Term
from .contract import Game

# game id -> its package (or "module:Class", a test's toy game), derived from the one registry of
# games (card_tags/games/__init__.py: id, tag code, referee). Imported lazily, so one game's
# module cannot break another's.
GAMES: dict[str, str] = {g.game: f"companion.rules.{g.referee}" for g in REGISTERED}
RULESETS = GAMES  # the name this table had before the contract


def register(game: str, target: str) -> None:
    """Add a game (its package, or "module:Class") to the referees for this process: a test's toy
    game, whose cards are its own (a real game's one line is in card_tags.games.GAMES). The game's declarations are checked now (see
    ``Game.check_declarations``): a misspelt handler is a SetupError here, not a refusal in play."""
    GAMES[game] = target
    _checked.discard(game)
    try:
        ruleset_class(game)
    except SetupError:
        del GAMES[game]
        raise


def unregister(game: str) -> None:
    """Take a game out of the registry (a test's toy game, once the test is done)."""
    GAMES.pop(game, None)
    _checked.discard(game)


_checked: set[str] = set()


def _module_name(game: str) -> str:
    return GAMES[game].partition(":")[0]


def available() -> list[str]:
    """Game ids whose referee is present."""
    found = []
    for game in GAMES:
        try:
            if importlib.util.find_spec(_module_name(game)) is not None:
                found.append(game)
        except ModuleNotFoundError:  # a parent package that is not there
            continue
    return found


def _module(game: str) -> ModuleType:
    if game not in GAMES:
        raise SetupError(f"unknown game {game!r}; games are {sorted(GAMES)}")
    try:
        return importlib.import_module(_module_name(game))
    except ModuleNotFoundError:
        raise SetupError(f"the {game} referee is not part of this version of the companion") from None


def ruleset_class(game: str) -> type[Ruleset[Any]]:
    module = _module(game)
    _, _, name = GAMES[game].partition(":")
    cls = getattr(module, name or "GAME", None)
    if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
        raise SetupError(f"the {game} referee is not part of this version of the companion")
    if game not in _checked:
        problems = cls.check_declarations() if issubclass(cls, Game) else []
        if problems:
            raise SetupError(f"the {game} referee declares what it does not have: " + "; ".join(problems))
        _checked.add(game)
    return cls


game_class = ruleset_class


def demo_players(game: str) -> Any:
    """The game's simulated players (its package's ``DEMO``), or None if it brings none."""
    return getattr(_module(game), "DEMO", None)


def load_catalog(game: str, deck: Any = None) -> Catalog:
    """The game's catalog (reference deck, custom deck path, or recorded data), checked."""
    if game in available():
        return ruleset_class(game).load_catalog(deck)
    try:
        return catalogs.load_game(game, deck)
    except catalogs.CatalogError as exc:
        raise SetupError(str(exc)) from None


def make(game: str, deck: Any = None) -> Ruleset[Any]:
    """A ready ruleset for a game, with its catalog loaded and checked against the rules."""
    cls = ruleset_class(game)
    return cls(cls.load_catalog(deck))


def zones(game: str) -> tuple[str, ...]:
    """The camera zone kinds a game reads (``seat`` always; ``tray``, ``center``...)."""
    try:
        return tuple(ruleset_class(game).zones)
    except SetupError:
        return ("seat",)


__all__ = ["Action", "Applied", "GAMES", "Option", "Outcome", "Refusal", "Ruleset", "Seat", "SetupError", "State",
           "Term", "available", "demo_players", "game_class", "load_catalog", "make", "register", "ruleset_class", "unregister",
           "zones"]
