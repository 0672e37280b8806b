"""Custom decks: an owner whose printing differs from the reference deck describes the deck they hold.

Two ways, both checked exactly as the reference decks are (schema, then the rulebook's counts), with
every problem reported at once:

- edit a copy of a catalog: ``copy_reference(game, path)``, then ``check_file(path)``;
- fill in a spreadsheet: ``export_csv`` writes a deck as CSV (one row per card, one column per
  attribute), ``import_csv`` reads it back into a catalog file.

CSV cells: lists are written ``a|b|c``; an Attack or Defense of "N/A" (or ``null``) is null;
booleans are ``true``/``false`` (``yes``/``no`` too); an empty cell leaves an optional attribute
out and makes a required list empty (a Warrior without icons). A game is started with a custom deck
by passing its path as the session's ``deck`` (``companion.rules.load_catalog(game, path)``).
"""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .catalog import COMMON_FIELDS, Catalog, CatalogError, game_module, load_game, reference_deck_path

COMMON_COLUMNS = ["id", "name", "kind", "copies"]
NULL_WORDS = {"n/a", "na", "null", "none", "-"}
TRUE_WORDS, FALSE_WORDS = {"true", "yes", "y", "1"}, {"false", "no", "n", "0"}
LIST_SEPARATOR = "|"


def copy_reference(game: str, dest: str | Path, force: bool = False) -> Path:
    """Write the game's reference deck to dest for the owner to edit."""
    source = reference_deck_path(game)
    game_module(game)  # an unknown game is refused with the list of games
    if not source.exists():
        raise CatalogError(str(source), [f"this version of the companion has no reference deck for {game}"])
    dest = Path(dest)
    if dest.exists() and not force:
        raise FileExistsError(f"{dest} already exists; choose another name or pass --force to overwrite it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return dest


def game_of(path: str | Path) -> str:
    """The game a deck file says it is for."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(str(path), ["file not found"]) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogError(str(path), [f"not valid JSON ({exc})"]) from None
    game = data.get("game") if isinstance(data, dict) else None
    if not isinstance(game, str):
        raise CatalogError(str(path), ["field 'game' is missing: say which game this deck is for"])
    return game


def check_file(path: str | Path, game: str | None = None) -> Catalog:
    """Load a custom deck and check it like a reference deck; CatalogError lists every problem."""
    return load_game(game or game_of(path), Path(path))


# -- CSV --------------------------------------------------------------------------------------------
def _columns(schema: dict[str, dict[str, Any]]) -> list[str]:
    columns = list(COMMON_COLUMNS)
    for specs in schema.values():
        for name in specs:
            attr = name.rstrip("?")
            if attr not in columns:
                columns.append(attr)
    return columns


def _cell(value: Any) -> str:
    if value is None:
        return "N/A"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return LIST_SEPARATOR.join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def export_csv(catalog: Catalog, path: str | Path) -> Path:
    """Write a deck as CSV: one row per card, one column per attribute any kind of card has."""
    schema = game_module(catalog.game).SCHEMA
    columns = _columns(schema)
    path = Path(path)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for card in catalog.cards.values():
            row = card.as_dict()
            writer.writerow([_cell(row[c]) if c in row else "" for c in columns])
    return path


def _convert(spec: Any, text: str) -> Any:
    """A cell's text as the spec's type; the text itself when it does not convert (the catalog's
    validation then names the card and field with what is wrong)."""
    if isinstance(spec, list):
        return text
    base = spec.removesuffix("|null")
    if spec.endswith("|null") and text.lower() in NULL_WORDS:
        return None
    try:
        if base == "int":
            return int(text)
        if base == "bool":
            low = text.lower()
            return True if low in TRUE_WORDS else False if low in FALSE_WORDS else text
        if base == "list[str]":
            return [part.strip() for part in text.split(LIST_SEPARATOR) if part.strip()]
        if base == "list[int]":
            return [int(part) for part in text.split(LIST_SEPARATOR) if part.strip()]
        if base == "dict":
            return json.loads(text)
    except (ValueError, json.JSONDecodeError):
        return text
    return text


def _row_to_card(row: dict[str, str], schema: dict[str, dict[str, Any]]) -> dict[str, Any]:
    card: dict[str, Any] = {}
    specs = schema.get(row.get("kind", "").strip(), {})
    by_attr = {name.rstrip("?"): (name, spec) for name, spec in specs.items()}
    for column, raw in row.items():
        text = (raw or "").strip()
        if column in COMMON_FIELDS:
            if text:
                card[column] = _convert("int", text) if column == "copies" else text
            continue
        name, spec = by_attr.get(column, (column + "?", "str"))
        if text:
            card[column] = _convert(spec, text)
        elif not name.endswith("?") and isinstance(spec, str) and spec.startswith("list["):
            card[column] = []  # an empty required list: a Warrior without icons
    return card


def read_csv(game: str, path: str | Path) -> dict[str, Any]:
    """CSV rows as catalog data (not yet validated). Unknown columns are reported at once."""
    module = game_module(game)
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            columns = reader.fieldnames or []
            rows = list(reader)
    except FileNotFoundError:
        raise CatalogError(str(path), ["file not found"]) from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise CatalogError(str(path), [f"not a readable CSV file ({exc})"]) from None
    known = set(_columns(module.SCHEMA))
    problems = [f"column {c!r} is not an attribute of any {game} card; columns are {', '.join(_columns(module.SCHEMA))}"
                for c in columns if c not in known]
    problems += [f"the header lacks column {c!r}" for c in COMMON_COLUMNS if c not in columns]
    for number, row in enumerate(rows, start=2):
        if None in row:
            problems.append(f"row {number}: more cells than the header has columns")
    if problems:
        raise CatalogError(str(path), problems)
    return {"game": game, "version": 1, "title": game,
            "cards": [_row_to_card(row, module.SCHEMA) for row in rows if any((v or "").strip() for v in row.values())]}


def import_csv(game: str, csv_path: str | Path, out_path: str | Path, title: str | None = None,
               version: int = 1) -> Catalog:
    """Read a CSV deck, check it like any deck, and write it as a catalog file only if it is sound."""
    data = read_csv(game, csv_path)
    data["title"] = title or f"{game} (custom deck from {Path(csv_path).name})"
    data["version"] = version
    catalog = load_game(game, data, source=str(csv_path))
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(format_deck(catalog.to_json()), encoding="utf-8")
    return catalog


def format_deck(data: dict[str, Any]) -> str:
    """Catalog JSON the way the reference decks are written: one card per line, easy to diff and edit."""
    head = {k: v for k, v in data.items() if k != "cards"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    cards = ",\n".join("    " + json.dumps(card, ensure_ascii=False) for card in data["cards"])
    return "{\n" + "\n".join(lines) + '\n  "cards": [\n' + cards + "\n  ]\n}\n"

