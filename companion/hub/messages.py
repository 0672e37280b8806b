"""What a table may send the hub, checked for shape before anything is stored.

Any account the broker lets in can publish under its table's name, and an older or a broken
companion may send what the hub cannot read: a view that is a list, seats that are numbers, a
winner that is a number, a number JSON cannot hold (``1e999``). Such a message is refused here with
a sentence saying what is wrong (the hub logs it and drops it), so it never reaches ``hub.db``:
no table can break the hub's pages for the others, and nothing bad comes back after a restart.
The checks cover what the hub reads (server.py, standings.py); other fields pass as they are.
"""
from __future__ import annotations

from typing import Any

from companion.gamelog.logcheck import LogError, loads
from companion.hub.chain import END_SEQ

MAX_BYTES = 512 * 1024  # a public view is about 9 KB; a retraction carrying a long game's results less than this
MAX_ID = 2**62          # game ids and seqs are SQLite integers
KINDS = ("result", "retract", "game_end")


class BadMessage(ValueError):
    """A message the hub will not store; the text says what is wrong with it."""


def _what(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), "something else")


def parse(payload: bytes) -> Any:
    """A message's JSON, refused if it is too long, not UTF-8, not JSON or holds a non-finite number."""
    if len(payload) > MAX_BYTES:
        raise BadMessage(f"{len(payload)} bytes, more than the {MAX_BYTES} a message may have")
    try:
        return loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadMessage("not UTF-8 text") from None
    except LogError as exc:
        raise BadMessage(str(exc)) from None


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadMessage(f"{where} must be an object, not {_what(value)}")
    return value


def _text(value: Any, where: str, optional: bool = True) -> str | None:
    if (value is None and optional) or isinstance(value, str):
        return value
    raise BadMessage(f"{where} must be text, not {_what(value)}")


def _whole(value: Any, where: str, low: int, high: int = MAX_ID) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadMessage(f"{where} must be a whole number from {low} to {high}, not {str(value)[:24]}")
    return value


def _number(value: Any, where: str) -> None:
    if value is not None and (type(value) not in (int, float)):
        raise BadMessage(f"{where} must be a number, not {_what(value)}")


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadMessage(f"{where} must be a list, not {_what(value)}")
    return value


def _names(value: Any, where: str) -> list[str]:
    for index, name in enumerate(_list(value, where)):
        _text(name, f"{where}[{index}]", optional=False)
    return value


# -- a table's public view and health ---------------------------------------------------------------
def view(message: Any) -> dict[str, Any] | None:
    """The view a ``view`` message carries (None: the table has no game), checked."""
    shown = _object(message, "a view message").get("view")
    if shown is None:
        return None
    _object(shown, "'view'")
    for name in ("game", "title", "phase", "prompt"):
        _text(shown.get(name), f"the view's {name!r}")
    if shown.get("over") not in (None, True, False):
        raise BadMessage(f"the view's 'over' must be true or false, not {_what(shown['over'])}")
    for rows in ("seats", "standings"):
        if shown.get(rows) is None:
            continue
        for index, row in enumerate(_list(shown[rows], f"the view's {rows!r}")):
            _object(row, f"the view's {rows}[{index}]")
            _text(row.get("name"), f"the view's {rows}[{index}].name")
    return shown


def health(message: Any) -> dict[str, Any]:
    body = _object(message, "a health message")
    for index, check in enumerate(_list(body.get("health", []), "'health'")):
        _object(check, f"health[{index}]")
    return body


# -- results: links of a game's chain (chain.py) ------------------------------------------------------
def result(message: Any, stored: bool = False) -> dict[str, Any]:
    """A result, a retraction or a game's end, checked (``stored``: as hub.db keeps it, a
    retraction's carried results being rows of their own)."""
    link = _object(message, "a result")
    kind = link.get("kind")
    if kind not in KINDS:
        raise BadMessage(f"'kind' must be one of {', '.join(KINDS)}, not {str(kind)[:24]!r}")
    _whole(link.get("game_id"), "'game_id'", 1)
    seq = _whole(link.get("seq"), "'seq'", 1, END_SEQ)
    _whole(link.get("prev"), "'prev'", 0, seq - 1)
    _whole(link.get("at", seq), "'at'", 0, END_SEQ)
    if not _text(link.get("game"), "'game'", optional=False):
        raise BadMessage("'game' must name the game")
    _names(link.get("players", []), "'players'")
    _number(link.get("sent"), "'sent'")
    _number(link.get("ts"), "'ts'")
    if kind == "result":
        _outcomes(link)
    elif kind == "retract":
        _whole(link.get("from"), "'from'", 1, seq)
        _text(link.get("say"), "'say'")
        if not stored or "results" in link:
            for index, carried in enumerate(_list(link.get("results"), "'results'")):
                _carried(carried, f"results[{index}]", link)
    else:
        _names(link.get("winner", []), "'winner'")
        _list(link.get("standings", []), "'standings'")
    return link


def _outcomes(link: dict[str, Any], where: str = "") -> None:
    for index, outcome in enumerate(_list(link.get("outcomes"), f"{where}'outcomes'")):
        _object(outcome, f"{where}outcomes[{index}]")
        _text(outcome.get("say"), f"{where}outcomes[{index}].say", optional=False)
        _text(outcome.get("kind"), f"{where}outcomes[{index}].kind")


def _carried(carried: Any, where: str, retraction: dict[str, Any]) -> None:
    """A result a retraction carries: stored as a result of the same game."""
    _object(carried, where)
    if carried.get("kind", "result") != "result":
        raise BadMessage(f"{where} must be a result, not {str(carried.get('kind'))[:24]!r}")
    seq = _whole(carried.get("seq"), f"{where}.seq", retraction["from"], retraction["seq"])
    _whole(carried.get("prev"), f"{where}.prev", 0, seq - 1)
    if carried.get("game_id") != retraction["game_id"] or carried.get("game") != retraction["game"]:
        raise BadMessage(f"{where} must be of the retraction's own game")
    _names(carried.get("players", []), f"{where}.players")
    _outcomes(carried, f"{where}.")
