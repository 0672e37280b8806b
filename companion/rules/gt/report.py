"""What one input did, gathered while its handler runs: ``Told`` records (data, no words).

Internal to the package: the game turns them into the contract's ``Outcome``s (the view words
them) and keeps them in ``state.last``. Refusals are the contract's ``Refused``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .state import Told


@dataclass
class Report:
    told: list[Told] = field(default_factory=list)

    def tell(self, kind: str, reveals: bool = False, **facts: Any) -> None:
        self.told.append(Told(kind=kind, reveals=reveals, **facts))
