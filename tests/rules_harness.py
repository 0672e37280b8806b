"""A ruleset at a test table, folded the way the session folds it: each event is applied to a deep
copy of the state, an applied event's state is kept, a refusal changes nothing. Each game's test
support module (tests/test_<game>_support.py) subclasses RulesTable with that game's moves."""
from __future__ import annotations

import copy
from typing import Any

from companion.rules import Applied, Refusal, Ruleset, Seat
from companion.gamelog.fold import step
from companion.gamelog.store import Event


class RulesTable:
    def __init__(self, rules: Ruleset, seats: list[Seat], options: dict[str, Any]):
        self.rules = rules
        self.state = rules.setup(seats, rules.resolve_options(options))
        self.seq = 1  # the start event
        self.last: Applied | Refusal | None = None
        self.outcomes: list = []
        self.start = {"game": rules.game, "seats": [{"seat": s.number, "name": s.name} for s in seats],
                      "options": options}
        self.events: list[Event] = []  # every event sent, in order (``log`` gives the whole game's log)

    def send(self, kind: str, **data) -> Applied | Refusal:
        """Apply one event; keep the new state if it was applied. Returns Applied or Refusal."""
        self.seq += 1
        event = Event(self.seq, 0.0, kind, "test", data)
        self.events.append(event)
        entry, self.state = step(self.rules, self.state, event)
        assert entry.status in ("applied", "refused"), entry.status
        assert "referee could not take" not in entry.reason, entry.reason  # a crash is a bug, not a refusal
        if entry.status == "applied":
            result: Applied | Refusal = Applied(self.state, tuple(_outcome(o) for o in entry.outcomes), entry.reveals)
            self.outcomes += list(result.outcomes)
        else:
            result = Refusal(entry.reason, entry.seat, private=entry.private)
        self.last = result
        return result

    def log(self) -> list[Event]:
        """This table's game as a log (its start event, then every event sent), to serve or replay."""
        return [Event(1, 0.0, "start", "test", self.start), *self.events]

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
        assert self.state == before, "the state the session keeps after a refusal must be the one before it"
        return result.reason


def _outcome(d: dict[str, Any]):
    """An outcome as the session recorded it, back as an Outcome (tests read .kind, .say, .data, .terms)."""
    from companion.rules import Outcome, Term

    return Outcome(d["kind"], d["say"], tuple(Term(**t) for t in d["terms"]), d["data"])
