"""What a good game log is, checked in one place: a log from outside (``companion replay``,
``companion import``), every event the store reads back, and every event it writes. A bad line or
row is named with what is wrong with it, in words, never with a Python traceback or error text,
and the same fault gets the same sentence wherever it is found.

The JSONL form is described in docs/game-log.md: one JSON object a line, with ``seq`` (the log
position, from 1, without gaps or repeats; optional in a hand-written log), ``ts`` (a number),
``kind`` (text), ``source`` (text) and ``data`` (an object). Numbers are finite: ``1e999``,
``NaN`` and ``Infinity`` are refused (JSON has no such numbers; a browser cannot read a page that
holds one, and a log with one could not be exported and read back).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from companion.gamelog.finite import NotFinite, finite_decoder

MAX_DEPTH = 32  # a real event nests three or four levels; a custom deck's catalog a few more


class LogError(ValueError):
    """A game log that cannot be replayed (no start event, an unknown game, a bad line...)."""


@dataclass(frozen=True)
class Event:
    """One event of a game's log, as the store keeps it and the fold reads it."""

    seq: int
    ts: float
    kind: str
    source: str
    data: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "kind": self.kind, "source": self.source, "data": self.data}


def _what(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), "something else")


# -- numbers: finite, and not absurdly long ----------------------------------------------------------
NOT_FINITE = "a game log holds finite numbers only"


# One decoder for every read (json.loads with options would build one per event); whole numbers
# keep json's fast path (Python itself refuses those over 4300 digits).
_DECODER = finite_decoder()
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # an escaped UTF-16 half, which may stand alone


def loads(text: str) -> Any:
    """JSON text as data, refusing what a game log may not hold; LogError says what, in words."""
    try:
        value = _DECODER.decode(text)
    except NotFinite as exc:
        said = (f"{exc.text} is not a number JSON allows" if exc.constant else f"the number {exc.text[:24]} is too large")
        raise LogError(f"{said} ({NOT_FINITE})") from None
    except json.JSONDecodeError as exc:
        raise LogError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise LogError("nests too deeply to be an event") from None
    except ValueError as exc:
        if "digits" in str(exc):
            raise LogError("holds a whole number too long for a game log") from None
        raise LogError("not JSON") from None
    if _SURROGATE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # "\ud800": no database or page can hold it
            raise LogError("holds text that is not valid Unicode") from None
    return value


def dumps(data: Any) -> str:
    """An event's data as the store writes it; LogError (nothing written) for a number that is not
    finite, which JSON cannot hold and which would make the log unreadable."""
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except ValueError:
        where = _not_finite_at(data, "data")
        if not where:  # not a number (a value that contains itself): a bug, not an input
            raise
        raise LogError(f"{where} is not a finite number ({NOT_FINITE})") from None


def _not_finite_at(value: Any, where: str) -> str:
    """Where in ``value`` the first number that is not finite lies ('data.seat'), for the message."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"'{where}'"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for key, inner in items:
        found = _not_finite_at(inner, f"{where}.{key}")
        if found:
            return found
    return ""


# -- one event ----------------------------------------------------------------------------------------
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
    raw = loads(line)
    if not isinstance(raw, dict):
        raise LogError(f"an event must be a JSON object, not {_what(raw)}")
    if _deep(line, raw):
        raise LogError(f"nests deeper than {MAX_DEPTH} levels; no event does")
    return Event(_seq(raw, position), _ts(raw), _text(raw, "kind", None), _text(raw, "source", "replay"),
                 _data(raw))


def stored_event(seq: Any, ts: Any, kind: Any, source: Any, data: str, position: int) -> Event:
    """A row of the store's events table, checked as a line of an exported log is (same words)."""
    if not isinstance(data, str):
        raise LogError(f"its data is {_what(data)}, not JSON text")
    raw = loads(data)
    if (type(raw) is dict and type(seq) is int and seq == position and type(ts) is float and math.isfinite(ts)
            and type(kind) is str and kind and type(source) is str and source and not _deep(data, raw)):
        return Event(seq, ts, kind, source, raw)  # every event the companion wrote: read at full speed
    fields = {"seq": seq, "ts": ts, "kind": kind, "source": source, "data": raw}
    if _deep(data, raw):
        raise LogError(f"nests deeper than {MAX_DEPTH} levels; no event does")
    return Event(_seq(fields, position), _ts(fields), _text(fields, "kind", None), _text(fields, "source", None),
                 _data(fields))


def _deep(text: str, value: Any) -> bool:
    # Counting brackets in the text first keeps the walk off the common, shallow event.
    return text.count("{") + text.count("[") > MAX_DEPTH and depth(value) > MAX_DEPTH


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
    if not isinstance(ts, (int, float)) or isinstance(ts, bool):
        raise LogError(f"'ts' must be a time in seconds (a number), not {_what(ts)}")
    try:
        seconds = float(ts)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds):
        raise LogError(f"'ts' must be a time in seconds, not {str(ts)[:24]} ({NOT_FINITE})")
    return seconds


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
