"""A tiny counting game for testing the log, the session and the dashboard apart from any real
game's rules."""
from companion.rules import Applied, Outcome, Refusal, Ruleset


class Tally(Ruleset):
    """Each `score` command gives a seat a point; `peek` shows a secret; `cheat` is never allowed."""

    game, title, min_seats, max_seats = "tally", "Tally", 2, 4

    def __init__(self):
        pass

    def setup(self, seats, options):
        return {"points": {str(s.number): 0 for s in seats}, "peeked": 0, "seen": []}

    def apply(self, state, action):
        if action.kind == "score":
            state["points"][str(action.data["seat"])] += 1
            return Applied(state, (Outcome("point", f"seat {action.data['seat']} scores"),))
        if action.kind == "peek":
            state["peeked"] += 1
            return Applied(state, reveals=True)
        if action.kind == "boom":
            raise KeyError("a bug in the referee")
        if action.kind == "card_seen":
            state["seen"].append(action.data["card"])
            return Applied(state)
        return Refusal(f"{action.kind} is not allowed in Tally")

    def public_view(self, state):
        return {"standings": [{"seat": int(s), "points": p} for s, p in state["points"].items()]}
