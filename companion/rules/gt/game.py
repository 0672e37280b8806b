"""The referee of "Battle" by Gather Together Games on the referee contract: its options, its input
table, and the handlers that send each input through the gate to its rules module.

4 to 10 players, each secretly a SUPERHERO or a VILLAIN. A round has the phases ``deal`` (identity
cards shown privately, the first discard flipped), ``building`` (draw, then discard or pass, until
someone draws the BATTLE card), ``battle`` (fight cards of one rank that must match or beat the
last play; action cards; going out with the identity card), then ``round_over``, and at the end
``tiebreak`` or ``over``. The companion cannot see hands: it counts them, and holds a play the
count cannot explain until the table confirms the count (``confirm_count`` runs it again).
docs/referee/gt-battle.md has every input and ruling.
"""
from __future__ import annotations

from typing import Any, Callable

from card_tags.catalog import Card, Catalog

from ..base import Action, Applied, Option, Outcome, Refusal, Seat
from ..contract import (CARD, INT, SEAT, SEAT_ACTS, STR, Field, Game, Input, Refused, card_inputs)
from . import (action_cards, battle, building, counts, deal, gate, plays, refusals, scoring, sightings, turns)
from .cards import Deck, lifted
from .report import Report
from .state import BattleState, Held, Phase
from .view import BattleView

DEAL, BUILDING, BATTLE, ROUND_OVER, TIEBREAK = (p.value for p in Phase if p != Phase.OVER)
# A rule of the package: what one input does, told into the Report as data.
Rule = Callable[[Deck, BattleState, dict[str, Any], Report], None]


class GatherTogetherBattle(Game[BattleState]):
    game = "gt-battle"
    title = "Battle (Gather Together Games)"
    min_seats, max_seats = 4, 10
    zones = ("center", "reader", "tray", "seat")
    options = (
        Option("target", 5, "points that win the game (\"an agreed amount of points, such as 5\")",
               label="Points to win"),
        Option("first_dealer", 1, "seat of the first round's dealer; the deal passes left each round",
               label="First dealer"),
    )
    state_type = BattleState
    reasons = frozenset(refusals.WORDS)  # every code the rules refuse with, worded in refusals.py
    outcome_kinds = frozenset(BattleView.sayers)  # every kind a rule tells, each a @says method of words.py
    view_type = BattleView
    view: BattleView
    inputs = (
        *card_inputs(extra=(Field("seat", SEAT, optional=True),)),
        Input("first_discard", "on_first_discard", (Field("card", CARD),), (DEAL,)),
        Input("draw", "on_draw", (Field("seat", SEAT), Field("from", STR)), (BUILDING,), SEAT_ACTS, button=True,
              choices="draws"),
        Input("pass", "on_pass", (Field("seat", SEAT),), (BUILDING, BATTLE), SEAT_ACTS, button=True,
              choices="player_to_act"),
        Input("resolve", "on_resolve", phases=(BATTLE,)),  # the page's own Resolve button, or the session
        Input("expose", "on_expose", (Field("target", SEAT), Field("by", SEAT, optional=True)), (BUILDING, BATTLE),
              button=True, choices="expose_targets", chooser="target"),
        Input("eliminate", "on_eliminate", (Field("target", SEAT), Field("by", SEAT, optional=True)),
              (BUILDING, BATTLE), button=True, choices="eliminate_targets", chooser="target"),
        Input("save", "on_save", (Field("by", SEAT),), (BUILDING, BATTLE), button=True, choices="savers",
              chooser="by"),
        Input("no_save", "on_no_save", phases=(BUILDING, BATTLE), button=True, choices="save_window"),
        Input("confirm_count", "on_confirm_count", (Field("seat", SEAT), Field("cards", INT)), button=True,
              choices="hand_counts", chooser="cards"),
        Input("new_round", "on_new_round", (Field("dealer", SEAT, optional=True),), (ROUND_OVER,), button=True),
        Input("tiebreak_draw", "on_tiebreak_draw", (Field("seat", SEAT), Field("card", STR)), (TIEBREAK,),
              button=True, choices="tiebreak_draws", chooser="card"),
    )

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.deck = Deck(catalog)

    def new_state(self, players: list[Seat], options: dict[str, Any]) -> BattleState:
        return deal.new_game(self.catalog, players, options)

    def phase(self, state: BattleState) -> str:
        return state.phase.value

    # -- the contract's checks, in Battle's words -------------------------------------------------
    def card(self, key: Any) -> Card:
        """A card key of this deck; the refusal of a bad identity card key never names its team."""
        try:
            return super().card(key)
        except Refused:
            if self.deck.is_identity(key):
                raise Refused("unknown_identity_copy") from None
            raise

    def _example_key(self) -> str:
        return "F7#2"  # never an identity card: refusals are public

    def apply(self, state: BattleState, action: Action) -> Applied | Refusal:
        result = super().apply(state, action)
        zone = action.data.get("zone") if isinstance(action.data, dict) else None
        if isinstance(result, Applied) and action.kind == "card_seen" and isinstance(zone, str) \
                and zone.startswith("reader:"):
            lifted(result.state, action.data["card"], zone)  # a tap on a reader is a moment, not a place
        return result

    # -- handlers: one per input of the table above, each through the gate to its rule ---------------
    def on_card_seen(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "card_seen", data, sightings.on_card_seen)

    def on_card_gone(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "card_gone", data, sightings.on_card_gone)

    def on_first_discard(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "first_discard", data, deal.on_first_discard)

    def on_draw(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "draw", data, building.on_draw)

    def on_pass(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "pass", data, turns.on_pass)

    def on_resolve(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "resolve", data, battle.on_resolve)

    def on_expose(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "expose", data, action_cards.on_expose, chosen="expose")

    def on_eliminate(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "eliminate", data, action_cards.on_eliminate, chosen="eliminate")

    def on_save(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "save", data, action_cards.on_save)

    def on_no_save(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "no_save", data, action_cards.on_no_save)

    def on_confirm_count(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        def confirm(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
            counts.confirm_count(state, data, report, self._rerun)
        return self._through(state, "confirm_count", data, confirm)

    def on_new_round(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "new_round", data, scoring.on_new_round)

    def on_tiebreak_draw(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._through(state, "tiebreak_draw", data, scoring.on_tiebreak_draw)

    def _through(self, state: BattleState, kind: str, data: dict[str, Any], rule: Rule,
                 chosen: str = "") -> tuple[Outcome, ...]:
        """The gate (what the table must settle first), then the rule; what it did, kept in
        ``state.last`` (what the tablet shows big) and returned as outcomes."""
        report = Report()
        gate.check(self.deck, state, kind, data, report)
        if chosen:  # the EXPOSE or ELIMINATE card may not be resolved yet
            battle.resolve_chosen_card(self.deck, state, chosen, report)
        rule(self.deck, state, data, report)
        if report.told:
            state.last = report.told
        return tuple(Outcome(t.kind, terms=self.view.told_terms(t, state), data=t.data(), reveals=t.reveals)
                     for t in report.told)

    def _rerun(self, state: BattleState, held: Held, report: Report) -> None:
        """An input held for a hand count, run again: checked as it was first, then its handler;
        what it did joins what the count's answer did."""
        spec = self._inputs[held.kind]
        before = state.last
        state.last = []
        getattr(self, spec.handler)(state, self.check_input(state, spec, held.data()))
        report.told.extend(state.last)
        state.last = before

    # -- the candidates the tablet's buttons are tried with ---------------------------------------
    def _settled(self, state: BattleState) -> bool:
        """Nothing owed first: no count question, no choice. Only then are turn buttons offered."""
        return state.count_check is None and state.awaiting is None and state.turn is not None

    def draws(self, state: BattleState) -> list[dict[str, Any]]:
        return [{"seat": state.turn, "from": f} for f in ("deck", "discard")] if self._settled(state) else []

    def player_to_act(self, state: BattleState) -> list[dict[str, Any]]:
        return [{"seat": state.turn}] if self._settled(state) else []

    def _owed(self, state: BattleState, *what: str) -> bool:
        return state.awaiting is not None and state.awaiting.what in what

    def expose_targets(self, state: BattleState) -> list[dict[str, Any]]:
        return [{"target": s} for s in state.seat_numbers()] if self._owed(state, "expose") else []

    def eliminate_targets(self, state: BattleState) -> list[dict[str, Any]]:
        return [{"target": s} for s in state.seat_numbers()] if self._owed(state, "eliminate") else []

    def savers(self, state: BattleState) -> list[dict[str, Any]]:
        return [{"by": s} for s in state.seat_numbers()] if self._owed(state, "save", "save_by") else []

    def save_window(self, state: BattleState) -> list[dict[str, Any]]:
        return [{}] if self._owed(state, "save") else []

    def hand_counts(self, state: BattleState) -> list[dict[str, Any]]:
        check = state.count_check
        return [{"seat": check.seat, "cards": n} for n in range(31)] if check else []

    def tiebreak_draws(self, state: BattleState) -> list[dict[str, Any]]:
        tie = state.tiebreak
        return [{"seat": s, "card": c} for s in (tie.players if tie else []) for c in ("save", "eliminate")]

    # -- the session's questions -------------------------------------------------------------------
    def ready_to_resolve(self, state: BattleState) -> bool:
        pending = state.pending
        return bool(state.phase == Phase.BATTLE and pending and not state.count_check and not state.awaiting
                    and plays.play_problem(self.deck, state, pending) is None)

    def plays_complete(self, state: BattleState) -> bool:
        return self.ready_to_resolve(state) and plays.complete(self.deck, state, state.play_waiting())


GAME = GatherTogetherBattle
