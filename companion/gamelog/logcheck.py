"""Checking a game log that comes from outside (``companion replay``, ``companion import``) line by
line, so that a bad line is named by its number and what is wrong with it, in words, never with a
Python traceback or a Python error text.

The JSONL form is described in docs/game-log.md: one JSON object a line, with ``seq`` (the log
position, from 1, without gaps or repeats; optional in a hand-written log), ``ts`` (a number),
``kind`` (text), ``source`` (text) and ``data`` (an object).
"""
from __future__ import annotations

import json
import math
from typing import Any

from companion.gamelog.store import Event

MAX_DEPTH = 32  # a real event nests three or four levels; a custom deck's catalog a few more


class LogError(ValueError):
    """A game log that cannot be replayed (no start event, an unknown game, a bad line...)."""


def _what(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), "something else")


def _no_constants(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def read_jsonl(text: str, source: str = "<log>") -> list[Event]:
    """Every event of a JSONL log, checked; LogError names the first bad line and says why."""
    events: list[Event] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            events.append(read_line(line, len(events) + 1))
        except LogError as exc:
            raise LogError(f"{source} line {number}: {exc}") from None
    return events


def read_line(line: str, position: int) -> Event:
    """One line as the event at ``position`` (1 for the first event of the log)."""
    try:
        raw = json.loads(line, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise LogError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:
        raise LogError(f"not JSON ({exc})") from None
    except RecursionError:
        raise LogError("nests too deeply to be an event") from None
    if not isinstance(raw, dict):
        raise LogError(f"an event must be a JSON object, not {_what(raw)}")
    if depth(raw) > MAX_DEPTH:
        raise LogError(f"nests deeper than {MAX_DEPTH} levels; no event does")
    return Event(_seq(raw, position), _ts(raw), _text(raw, "kind", None), _text(raw, "source", "replay"),
                 _data(raw))


def _seq(raw: dict[str, Any], position: int) -> int:
    seq = raw.get("seq", position)
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise LogError(f"'seq' must be a whole number, not {_what(seq)} ({str(seq)[:20]})")
    if seq != position:
        raise LogError(f"'seq' is {str(seq)[:24]} where {position} was expected (seq counts the events "
                       f"from 1, without gaps or repeats)")
    return seq


def _ts(raw: dict[str, Any]) -> float:
    ts = raw.get("ts", 0.0)
    if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not math.isfinite(ts):
        raise LogError(f"'ts' must be a time in seconds (a number), not {_what(ts)}")
    return float(ts)


def _text(raw: dict[str, Any], name: str, default: str | None) -> str:
    value = raw.get(name, default)
    if value is None:
        raise LogError(f"the event has no '{name}'")
    if not isinstance(value, str) or not value:
        raise LogError(f"'{name}' must be text, not {_what(value)}")
    return value


def _data(raw: dict[str, Any]) -> dict[str, Any]:
    data = raw.get("data", {})
    if not isinstance(data, dict):
        raise LogError(f"'data' must be an object, not {_what(data)}")
    return data


def depth(value: Any, limit: int = MAX_DEPTH + 1) -> int:
    """How deeply a parsed JSON value nests (counting stops past ``limit``, so it cannot recurse far)."""
    if limit <= 0 or not isinstance(value, (dict, list)):
        return 0
    inner = value.values() if isinstance(value, dict) else value
    return 1 + max((depth(v, limit - 1) for v in inner), default=0)


def check_start(event: Event) -> None:
    """The start event's shape, in words: a game id, a list of seats, an options object."""
    where = f"event {event.seq}"
    if event.kind != "start":
        raise LogError(f"{where}: a game log must begin with a 'start' event, not {event.kind!r}")
    data = event.data
    for name in ("game", "seats"):
        if name not in data:
            raise LogError(f"{where}: the start event lacks {name!r}")
    if not isinstance(data["game"], str):
        raise LogError(f"{where}: the start event's 'game' must be a game id (text), not {_what(data['game'])}")
    seats = data["seats"]
    if not isinstance(seats, list) or not all(
            isinstance(s, dict) and isinstance(s.get("seat"), int) and not isinstance(s.get("seat"), bool)
            and isinstance(s.get("name"), str) for s in seats):
        raise LogError(f'{where}: the start event\'s \'seats\' must be a list of {{"seat": N, "name": "..."}}')
    if not isinstance(data.get("options", {}), dict):
        raise LogError(f"{where}: the start event's 'options' must be an object, not {_what(data['options'])}")
    if not isinstance(data.get("deck", {}), dict):  # a custom deck is recorded whole, never as a path
        raise LogError(f"{where}: the start event's 'deck' must be the deck itself (an object), not {_what(data['deck'])}")
