"""Card catalogs: every card of a game as data, validated on load.

A catalog is a JSON file (see docs/payload-format.md and card_tags/decks/)::

    {"game": "bom-battle", "version": 1, "title": "...",
     "cards": [{"id": "GD500", "name": "Alma", "kind": "character", "copies": 1,
                "value": 500, "color": "gold", "shape": "diamond"}, ...]}

What attributes each kind of card must carry is not up to the file: ``card_tags/games/<game>.py``
owns a schema (``kind -> {attribute: spec}``) and the loader checks the file against it, reporting
every problem at once, each naming the file, the card and the field.

Attribute specs: ``"int"``, ``"str"``, ``"bool"``, ``"list[str]"``, ``"int|null"``, or a list of
allowed values. A name ending in ``?`` is optional.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

from .games import BY_ID
from .payload import GAME_CODES, CardRef, CARD_ID

DECKS = Path(__file__).parent / "decks"
COMMON_FIELDS = {"id", "name", "kind", "copies"}

Schema = dict[str, dict[str, Any]]


class CatalogError(ValueError):
    """A catalog that cannot be used. ``problems`` lists every problem found."""

    def __init__(self, source: str, problems: list[str], partial: "Catalog | None" = None,
                 unread: tuple[str, ...] = ()):
        self.source = source
        self.problems = problems
        # The cards that did pass the schema, so the rulebook's counts can be reported in the same
        # breath (load_game); ``unread`` names (ids and names) the cards that were left out of it.
        self.partial = partial
        self.unread = unread
        super().__init__(f"{source}: " + "; ".join(problems))


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    kind: str
    copies: int
    attrs: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.attrs[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "copies": self.copies, **self.attrs}


@dataclass(frozen=True)
class Catalog:
    game: str
    version: int
    title: str
    cards: dict[str, Card]
    source: str = "<memory>"

    def __contains__(self, card_id: str) -> bool:
        return card_id in self.cards

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def refs(self) -> Iterator[CardRef]:
        """Every physical copy in the deck, in catalog order."""
        for card in self.cards.values():
            for copy in range(1, card.copies + 1):
                yield CardRef(self.game, card.id, copy)

    def total_copies(self) -> int:
        return sum(card.copies for card in self.cards.values())

    def lookup(self, ref: CardRef) -> Card:
        """The card a physical copy names, or KeyError with a reason a player can read."""
        if ref.game != self.game:
            raise KeyError(f"that tag belongs to another game ({ref.game}), not {self.game}")
        card = self.cards.get(ref.card)
        if card is None:
            raise KeyError(f"this {self.title} deck (catalog version {self.version}) has no card {ref.card}")
        if not 1 <= ref.copy <= card.copies:
            copies = f"{card.copies} cop{'y' if card.copies == 1 else 'ies'}"
            raise KeyError(f"{card.name} ({card.id}) has {copies} in this deck, not a copy {ref.copy}")
        return card

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "version": self.version, "title": self.title,
                "cards": [c.as_dict() for c in self.cards.values()]}


def _check_value(spec: Any, value: Any) -> str | None:
    """None if value fits spec, else what is wrong with it."""
    if isinstance(spec, list):
        return None if value in spec else f"must be one of {spec}, not {value!r}"
    nullable = spec.endswith("|null")
    base = spec.removesuffix("|null")
    if value is None:
        return None if nullable else "must not be null"
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "str": isinstance(value, str) and value != "",
        "bool": isinstance(value, bool),
        "list[str]": isinstance(value, list) and all(isinstance(v, str) for v in value),
        "list[int]": isinstance(value, list) and all(isinstance(v, int) for v in value),
        "dict": isinstance(value, dict),
    }.get(base)
    if ok is None:
        return f"has an unknown spec {spec!r} in the schema"
    return None if ok else f"must be {base.replace('str', 'a non-empty string').replace('int', 'an integer')}, not {value!r}"


def _validate_card(raw: Any, index: int, schema: Schema) -> tuple[Card | None, list[str]]:
    if not isinstance(raw, dict):
        return None, [f"card #{index + 1}: must be an object"]
    cid: Any = raw.get("id")
    where = f"card {cid!r}" if isinstance(cid, str) else f"card #{index + 1}"
    problems = []
    for name in sorted(COMMON_FIELDS - raw.keys()):
        problems.append(f"{where}: missing field {name!r}")
    if isinstance(cid, str) and not CARD_ID.match(cid):
        problems.append(f"{where}: field 'id' must be 1-8 characters A-Z, 0-9")
    if "name" in raw and (not isinstance(raw["name"], str) or not raw["name"]):
        problems.append(f"{where}: field 'name' must be a non-empty string")
    copies: Any = raw.get("copies")
    if "copies" in raw and (not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= 99):
        problems.append(f"{where}: field 'copies' must be an integer 1-99, not {copies!r}")
    kind: Any = raw.get("kind")
    if "kind" in raw and kind not in schema:
        problems.append(f"{where}: field 'kind' must be one of {sorted(schema)}, not {kind!r}")
        return None, problems
    attrs: dict[str, Any] = {}
    if kind in schema:
        specs = schema[kind]
        known = {name.rstrip("?") for name in specs}
        for name in sorted(raw.keys() - COMMON_FIELDS - known):
            problems.append(f"{where}: unknown attribute {name!r} for a {kind} card")
        for name, spec in specs.items():
            attr = name.rstrip("?")
            if attr not in raw:
                if not name.endswith("?"):
                    problems.append(f"{where}: missing field {attr!r} (every {kind} card needs it)")
                continue
            wrong = _check_value(spec, raw[attr])
            if wrong:
                problems.append(f"{where}: field {attr!r} {wrong}")
            else:
                attrs[attr] = raw[attr]
    if problems:
        return None, problems
    return Card(cid, raw["name"], kind, copies, attrs), []


def parse(data: Any, schema: Schema, source: str = "<memory>") -> Catalog:
    """Validate catalog data against a ruleset's schema; raise CatalogError listing every problem."""
    if not isinstance(data, dict):
        raise CatalogError(source, ["the catalog must be a JSON object"])
    problems = []
    game: Any = data.get("game")
    if game not in GAME_CODES:
        problems.append(f"field 'game' must be one of {sorted(GAME_CODES)}, not {game!r}")
    version: Any = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problems.append(f"field 'version' must be a positive integer, not {version!r}")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        problems.append("field 'cards' must be a non-empty list")
        raw_cards = []
    cards: dict[str, Card] = {}
    unread: list[str] = []
    for index, raw in enumerate(raw_cards):
        card, card_problems = _validate_card(raw, index, schema)
        problems += card_problems
        if card is None and isinstance(raw, dict):
            unread += [str(raw[k]) for k in ("id", "name") if isinstance(raw.get(k), str) and raw[k]]
        if card is not None:
            if card.id in cards:
                problems.append(f"card {card.id!r}: duplicate id (card #{index + 1})")
            cards[card.id] = card
    if problems:
        partial = None
        if game in GAME_CODES and cards:
            partial = Catalog(game, version if isinstance(version, int) else 0, str(data.get("title") or game),
                              cards, source)
        raise CatalogError(source, problems, partial, tuple(unread))
    return Catalog(game, version, str(data.get("title") or game), cards, source)


def load(path: str | Path, schema: Schema) -> Catalog:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(str(path), ["file not found"]) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogError(str(path), [f"not valid JSON ({exc})"]) from None
    return parse(data, schema, str(path))


def reference_deck_path(game: str) -> Path:
    return DECKS / f"{game}.json"


def game_module(game: str) -> ModuleType:
    """card_tags.games.<game>: the game's SCHEMA and check(catalog) of the rulebook's counts."""
    import importlib

    if game not in GAME_CODES:
        raise CatalogError(game, [f"unknown game {game!r}; games are {sorted(GAME_CODES)}"])
    try:
        return importlib.import_module(BY_ID[game].cards_module)
    except ModuleNotFoundError:
        raise CatalogError(game, [f"no card schema for {game} in this version of the companion"]) from None


def _partial_counts(module: ModuleType, game: str, exc: CatalogError) -> list[str]:
    """The rulebook's counts over the cards that passed the schema, so that an owner fixing a deck
    sees every problem in one go rather than the counts only after the schema is right."""
    if exc.partial is None or exc.partial.game != game:
        return []
    # A problem that names a card left out (a reference to it, a count of its kind) would be a
    # false alarm: it is fixed with that card.
    left_out = [re.compile(rf"\b{re.escape(word)}\b") for word in exc.unread]
    counts = [p for p in module.check(exc.partial) if not any(w.search(p) for w in left_out)]
    if counts and exc.unread:
        counts.insert(0, "(the counts below leave out the cards above that could not be read)")
    return counts


# The reference decks, once read and checked: every game started, log replayed and deck page
# served asks for one (the catalog page names every game's), and reading and checking a deck
# took longer than folding a short game. Kept with the file's stamp, so a deck file changed on
# disk is read again. A Catalog and its Cards are frozen and nothing changes their dicts.
_REFERENCE: dict[str, tuple[tuple[str, int, int, int], Catalog]] = {}


def _stamp(path: Path) -> tuple[str, int, int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return str(path), found.st_mtime_ns, found.st_size, found.st_ino


def load_game(game: str, deck: Any = None, source: str | None = None) -> Catalog:
    """A game's catalog, checked against its schema and the rulebook's counts.

    ``deck`` is None for the reference deck, a path to an owner's custom deck, or catalog data
    (as recorded in a game log's start event; ``source`` then names where the data came from).
    """
    if deck is not None:
        return _load_game(game, deck, source)
    stamp = _stamp(reference_deck_path(game)) if game in GAME_CODES else None
    kept = _REFERENCE.get(game)
    if stamp is not None and kept is not None and kept[0] == stamp:
        return kept[1]
    catalog = _load_game(game, None, source)
    if stamp is not None:
        _REFERENCE[game] = (stamp, catalog)
    return catalog


def _load_game(game: str, deck: Any, source: str | None) -> Catalog:
    module = game_module(game)
    try:
        if deck is None:
            catalog = load(reference_deck_path(game), module.SCHEMA)
        elif isinstance(deck, dict):
            catalog = parse(deck, module.SCHEMA, source or deck.get("source") or "<deck recorded in the game log>")
        else:
            catalog = load(deck, module.SCHEMA)
    except CatalogError as exc:
        raise CatalogError(exc.source, exc.problems + _partial_counts(module, game, exc)) from None
    if catalog.game != game:
        raise CatalogError(catalog.source, [f"field 'game' is {catalog.game!r}, but this is a {game} deck"])
    problems = module.check(catalog)
    if problems:
        raise CatalogError(catalog.source, problems)
    return catalog
