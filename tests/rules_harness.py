"""A ruleset at a test table, folded the way the session folds it: each event is applied to a deep
copy of the state, an applied event's state is kept, a refusal changes nothing. Each game's test
support module (tests/test_<game>_support.py) subclasses RulesTable with that game's moves."""
from __future__ import annotations

import copy
from typing import Any

from companion.rules import Action, Applied, Refusal, Ruleset, Seat


class RulesTable:
    def __init__(self, rules: Ruleset, seats: list[Seat], options: dict[str, Any]):
        self.rules = rules
        self.state = rules.setup(seats, rules.resolve_options(options))
        self.seq = 1  # the start event
        self.last: Applied | Refusal | None = None
        self.outcomes: list = []

    def send(self, kind: str, **data) -> Applied | Refusal:
        """Apply one event; keep the new state if it was applied. Returns Applied or Refusal."""
        self.seq += 1
        before = copy.deepcopy(self.state)
        result = self.rules.apply(copy.deepcopy(self.state), Action(kind, data, "test", self.seq))
        assert isinstance(result, (Applied, Refusal)), result
        assert self.state == before, "apply must not change the state it was given"
        if isinstance(result, Applied):
            self.state = result.state
            self.outcomes += list(result.outcomes)
        self.last = result
        return result

    def ok(self, kind: str, **data) -> Applied:
        """Send an input that must be applied."""
        result = self.send(kind, **data)
        assert isinstance(result, Applied), f"{kind} {data} refused: {getattr(result, 'reason', '')}"
        return result

    def refused(self, kind: str, **data) -> str:
        """Send an input that must be refused; check the state did not change; return the reason."""
        before = copy.deepcopy(self.state)
        result = self.send(kind, **data)
        assert isinstance(result, Refusal), f"{kind} {data} was applied: {[o.say for o in result.outcomes]}"
        assert self.state == before
        return result.reason
