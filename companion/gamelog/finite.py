"""JSON read with finite numbers only, for everything the game log, a saved state or a request holds.

Python's json takes ``NaN``, ``Infinity`` and ``-Infinity``, and reads ``1e999`` as infinity;
JSON itself allows none of them, and a log holding one could no longer be written or read back.
A decoder from ``finite_decoder`` raises ``NotFinite`` at the first such number; each caller says
it in its own words (a request's refusal, a log's error, a state's).
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable


class NotFinite(ValueError):
    """A number that is not finite, as written: a constant (``NaN``, ``Infinity``) or one too large
    for a float (``1e999``). Raised from inside json's decoding, before its own ValueError texts."""

    def __init__(self, text: str, constant: bool):
        super().__init__(text)
        self.text = text
        self.constant = constant


def _refuse_constant(name: str) -> float:
    raise NotFinite(name, constant=True)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise NotFinite(text, constant=False)
    return value


def finite_decoder(object_hook: Callable[[dict[str, Any]], Any] | None = None) -> json.JSONDecoder:
    """A decoder refusing every number that is not finite; build one per use and keep it (json.loads
    with options would build one per call). Whole numbers keep json's fast path."""
    return json.JSONDecoder(object_hook=object_hook, parse_constant=_refuse_constant, parse_float=_finite)
