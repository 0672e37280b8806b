"""\"Battle\" by Gather Together Games: the referee, hidden identities and all.

4 to 10 players, each secretly a SUPERHERO or a VILLAIN. A round has four phases:

- ``deal``: the players deal identity cards and the deal table's cards with real cards. Each player
  shows their identity card privately (to their own RFID reader, zone ``reader:N``, or to the
  covered scan tray, zone ``tray``); the first discard is flipped onto the centre pile.
- ``building``: in turn, a player draws (the tablet's ``draw`` command: the draw is hidden) and
  discards one card onto the centre pile (seen by the camera) or passes. It ends when someone draws
  the BATTLE card and places it on the pile.
- ``battle``: in turn, a player plays fight cards of one rank (gathered as a *pending* play until
  ``resolve``, which the session sends once the table is still), an action card, or passes. A play
  must match or beat the last by count first, then by rank. A player whose fight cards are gone
  plays their identity card on their next turn: their whole team scores.
- ``round_over`` (then ``new_round``), ``tiebreak`` and ``over``.

The companion cannot see hands. It counts each hand from the deal, draws, discards and plays; a
play the count cannot explain is held with a question (``count_check``) until the table answers
with ``confirm_count``. Identities are kept out of the public view (and, by ``redact``, out of the
public history) until EXPOSE shows one or the round ends.

All inputs and their data are documented in docs/referee/gt-battle.md. Seats are numbered 1..N
clockwise; "left" is the next seat number. State is plain JSON; per-seat lists are indexed seat-1.

This module is the ruleset the session folds events through: ``apply`` passes each input through
the gate (companion.rules.gt.gate) to its handler in ``INPUTS``; the work is done by the modules of
``companion.rules.gt`` (see its docstring for the map).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

from card_tags.catalog import Catalog

from .base import Action, Applied, Option, Refusal, Ruleset, Seat, State
from .gt import (action_cards, battle, building, buttons, counts, deal, gate, plays, scoring, seats, sightings,
                 turns, view)
from .gt.cards import Deck
from .gt.plays import beats, describe
from .gt.report import Refuse, Report
from .gt.rulebook import RULE, TEAM_CARD, TEAM_PLURAL
from .gt.seats import LEFT, RIGHT

# The names this module held before the referee was split into companion.rules.gt stay importable here.
__all__ = ["GatherTogetherBattle", "INPUTS", "LEFT", "RIGHT", "RULE", "Refuse", "Report", "TEAM_CARD", "TEAM_PLURAL",
           "beats", "describe"]

Handler = Callable[[Deck, State, dict[str, Any], Report], None]


def _expose(deck: Deck, state: State, data: dict[str, Any], report: Report) -> None:
    battle.resolve_chosen_card(deck, state, "expose", report)  # the EXPOSE card may not be resolved yet
    action_cards.on_expose(deck, state, data, report)


def _eliminate(deck: Deck, state: State, data: dict[str, Any], report: Report) -> None:
    battle.resolve_chosen_card(deck, state, "eliminate", report)  # the ELIMINATE card may not be resolved yet
    action_cards.on_eliminate(deck, state, data, report)


# Every input Battle takes, and its handler, called as handler(deck, state, data, report).
# The one input not listed is confirm_count: it needs the ruleset to run again the input it held
# (see GatherTogetherBattle._handler).
INPUTS: dict[str, Handler] = {
    "card_seen": sightings.on_card_seen,
    "card_gone": sightings.on_card_gone,
    "first_discard": deal.on_first_discard,
    "draw": building.on_draw,
    "pass": turns.on_pass,
    "resolve": battle.on_resolve,
    "expose": _expose,
    "eliminate": _eliminate,
    "save": action_cards.on_save,
    "no_save": action_cards.on_no_save,
    "tiebreak_draw": scoring.on_tiebreak_draw,
    "new_round": scoring.on_new_round,
}


class GatherTogetherBattle(Ruleset):
    game = "gt-battle"
    title = "Battle (Gather Together Games)"
    min_seats = 4
    max_seats = 10
    zones = ("center", "reader", "tray", "seat")
    options = (
        Option("target", 5, "points that win the game (\"an agreed amount of points, such as 5\")"),
        Option("first_dealer", 1, "seat of the first round's dealer; the deal passes left each round"),
    )

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.deck = Deck(catalog, self.game)

    def setup(self, seats: list[Seat], options: dict[str, Any]) -> State:
        self.check_seats(seats)
        return deal.new_game(self.catalog, seats, self.resolve_options(options))

    # -- inputs -----------------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> Applied | Refusal:
        if state["over"]:
            return Refusal(f"The game is over: {seats.name(state, state['winner'])} won.")
        if self._handler(action.kind) is None:
            return Refusal(f"Battle has no input {action.kind!r}; see docs/referee/gt-battle.md for its commands.")
        report = Report()
        try:
            self._run(state, action.kind, action.data, report)
        except Refuse as exc:
            return Refusal(str(exc))
        if report.outcomes:  # what the table page shows big: everything this input did
            state["last_outcome"] = {"say": " ".join(o.say for o in report.outcomes),
                                     "terms": [t.as_dict() for o in report.outcomes for t in o.terms]}
        return Applied(state, tuple(report.outcomes), report.reveals)

    def _run(self, state: State, kind: str, data: dict[str, Any], report: Report) -> None:
        """One input through the gate and its handler; also re-runs an input held for a hand count."""
        gate.check(self.deck, state, kind, data, report)
        self._handler(kind)(self.deck, state, data, report)

    def _handler(self, kind: Any) -> Handler | None:
        if kind == "confirm_count":  # answering the count re-runs the input it held, through _run
            return partial(counts.confirm_count, rerun=self._run)
        return INPUTS.get(kind) if isinstance(kind, str) else None

    # -- views and the tablet's buttons ------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        return view.public_view(self.deck, state)

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        """What one player's phone shows: the table, plus their own identity and hand."""
        return view.seat_view(self.deck, state, seat)

    def actions(self, state: State) -> list[dict[str, Any]]:
        """The commands that make sense now; the dashboard shows them as buttons and pickers."""
        return buttons.offer(self.deck, state)

    # -- the session's questions -------------------------------------------------------------------
    def ready_to_resolve(self, state: State) -> bool:
        pending = state.get("pending")
        return bool(state.get("phase") == "battle" and pending and not state["count_check"]
                    and not state["awaiting"] and plays.play_problem(self.deck, state, pending) is None)

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Identity card keys never reach the public history, whatever zone they were seen in."""
        data = super().redact(kind, data)
        key = data.get("card")
        if isinstance(key, str) and self.deck.is_identity(key):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data
