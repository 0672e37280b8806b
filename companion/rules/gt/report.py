"""How a handler answers one input: raise ``Refuse`` to refuse it, or add outcomes to a ``Report``.

Every function of this package that takes an input further either says what happened
(``report.say``) or raises ``Refuse`` with a sentence for the players. ``GatherTogetherBattle.apply``
turns the first into ``Applied`` and the second into ``Refusal``; since ``apply`` works on its own
copy of the state, a refusal raised half-way leaves the game unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import Outcome, Term


class Refuse(Exception):
    """Raised anywhere inside ``apply``: the input is refused with this reason, state unchanged."""


@dataclass
class Report:
    """What one input did: outcomes to show, and whether an identity was revealed."""

    outcomes: list[Outcome] = field(default_factory=list)
    reveals: bool = False

    def say(self, kind: str, text: str, terms: tuple[Term, ...] = (), **data: Any) -> None:
        self.outcomes.append(Outcome(kind, text, terms, data))
