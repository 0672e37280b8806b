"""The referee of "Battle" by Gather Together Games, on the referee contract: ``GAME``.

4 to 10 players, each secretly a SUPERHERO or a VILLAIN. A round has the phases ``deal`` (identity
cards shown privately, the first discard flipped), ``building`` (draw, then discard or pass, until
someone draws the BATTLE card), ``battle`` (fight cards of one rank that must match or beat the
last play; action cards; going out with the identity card), then ``round_over``, and at the end
``tiebreak`` or ``over``. The companion cannot see hands: it counts them, and holds a play the
count cannot explain until the table confirms the count (``confirm_count`` runs it again).
docs/referee/gt-battle.md has every input and ruling.

The package, from the table to the score (each rule takes the state and returns what it decided as
``Outcome``s: their kinds and facts as data, no words):

- ``table``        a card seen or lost by the camera or a reader, routed by zone, phase and card (as
                   Book of Mormon's ``table``)
- ``deal``         a new game and round, identity cards shown privately, the first discard, who starts
- ``composition``  the cards a table of this size plays with (EXPOSE per player; SAVE and ELIMINATE)
- ``building``     the building phase: draws, discards, the BATTLE card drawn
- ``battle``       the battle phase: pending plays, ``resolve``, action cards played, going out
- ``action_cards`` EXPOSE, ELIMINATE and SAVE: the choices they wait on, and the SAVE window
- ``turns``        whose move: what the table owes first (a count, a choice, the SAVE window), left or
                   right, SKIP and REVERSE, a building turn's end, passing, resets
- ``counts``       hand counts: a play the count cannot explain waits for ``confirm_count``
- ``scoring``      points, the next round, the tie-break, the game's winner

The words (the view layer; the rules above return data and refusal reasons only):

- ``view``         the public view (no hidden identity in it), each seat's own view, ``redact``, the
                   tablet's buttons' labels and pickers
- ``words``        the sentence of each outcome (a ``@says`` method per kind) and its terms, and the
                   rulebook's sentences the outcomes and refusals quote (``RULEBOOK``)
- ``refusals``     the words of each reason the rules refuse with (the public ones leave secrets out)
- ``prompt``       one sentence for the table: what happens next and where the cards go

Shared: ``state`` (the typed state), ``plays`` (what beats what), ``seats`` (names, the order identities
are shown in), ``cards`` (the contract's deck with Battle's questions).
``demo`` holds the simulated players of ``companion demo --game gt-battle`` (``DEMO``).

This module declares the game: its options, its input table, and one handler per input.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card, Catalog

from ..base import Action, Applied, Option, Outcome, Refusal, Seat
from ..contract import CARD, INT, SEAT, SEAT_ACTS, STR, Field, Game, Input, Refused, card_inputs
from . import action_cards, battle, building, counts, deal, plays, scoring, table, turns
from .cards import Deck
from .demo import DEMO
from .state import BattleState, Held, Phase
from .view import BattleView

DEAL, BUILDING, BATTLE, ROUND_OVER, TIEBREAK = (p.value for p in Phase if p != Phase.OVER)


class GatherTogetherBattle(Game[BattleState]):
    game = "gt-battle"
    title = "Battle (Gather Together Games)"
    min_seats, max_seats = 4, 10
    zones = ("center", "reader", "tray", "seat")
    options = (
        Option("target", 5, "points that win the game (\"an agreed amount of points, such as 5\")",
               label="Points to win"),
        Option("first_dealer", 1, "seat of the first round's dealer; the deal passes left each round",
               label="First dealer", seat=True),
    )
    state_type = BattleState
    # Every code the rules refuse with, written out (its words in refusals.py; tests/test_contract_words.py
    # checks each is raised somewhere and worded).
    reasons = frozenset({
        "action_from_discard", "action_on_its_own", "already_discarded", "already_discarded_this_turn",
        "already_drawn", "already_drew_tiebreak", "already_exposed", "already_out",
        "battle_card_after_discard_draw", "battle_card_after_turn", "battle_card_on_pile", "cards_waiting",
        "choice_first", "chooser_chooses", "confirm_count_first", "count_out_of_range", "count_question_first",
        "discard_pile_empty", "does_not_beat", "draw_before_passing", "draw_from", "eliminate_self",
        "every_identity_shown", "expose_self", "first_discard_flipped", "identity_after_deal",
        "identity_as_first_discard", "identity_in_battle_only", "identity_on_its_own", "identity_shown_for_another",
        "mixed_ranks", "no_eliminate_waiting", "no_expose_waiting", "no_one_to_play", "no_one_to_save",
        "no_save_window", "not_a_seat_reader", "not_in_this_rounds_deck", "not_own_identity", "not_tied",
        "not_your_turn", "nothing_to_resolve", "only_identities_shown", "passed_on_discarding", "saver_out",
        "second_new_battle", "team_too_large", "tiebreak_card", "unknown_identity_copy", "zone_not_used"})
    # What the rules decide (each kind's sentence: a BattleView method marked @says, words.py).
    outcome_kinds = frozenset({
        "action", "battle_begins", "cards_left", "choose", "conflict", "count", "count_check", "discard", "draw",
        "eliminate", "eliminated", "expose", "first_card", "flip", "game_over", "held_refused", "identity",
        "last_card", "new_battle", "new_round", "next_round", "no_effect", "pass", "play", "reset", "reverse",
        "round", "save", "skip", "tie", "tiebreak_again", "tiebreak_draw", "turn"})
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
            result.state.lift(action.data["card"], zone)  # a tap on a reader is a moment, not a place
        return result

    # -- handlers: one per input of the table above; what the table owes first, then the rule ----------
    def on_card_seen(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "card_seen", data)
        return first + table.card_seen(self.deck, state, data)

    def on_card_gone(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return table.card_gone(state, data["card"], data["zone"])  # never waits

    def on_first_discard(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "first_discard", data)
        return first + deal.flip_first(self.deck, state, data["card"])

    def on_draw(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "draw", data)
        return first + building.draw(self.deck, state, data["seat"], data["from"])

    def on_pass(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "pass", data)
        return first + turns.pass_turn(self.deck, state, data["seat"])

    def on_resolve(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "resolve", data)
        return first + battle.resolve(self.deck, state)

    def on_expose(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "expose", data)
        first += battle.resolve_chosen_card(self.deck, state, "expose")  # the card may not be resolved yet
        return first + action_cards.expose(self.deck, state, data["target"], data.get("by"))

    def on_eliminate(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "eliminate", data)
        first += battle.resolve_chosen_card(self.deck, state, "eliminate")
        return first + action_cards.eliminate(state, data["target"], data.get("by"))

    def on_save(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "save", data)
        return first + action_cards.save(self.deck, state, data["by"])

    def on_no_save(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "no_save", data)
        return first + action_cards.no_save(self.deck, state)

    def on_confirm_count(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        """The answer to the count question (never waits on it); the input held for it runs again."""
        return counts.confirm_count(state, data["seat"], data["cards"], self._rerun)

    def on_new_round(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "new_round", data)
        return first + scoring.new_round(state, data.get("dealer"))

    def on_tiebreak_draw(self, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        first = turns.owed_first(self.deck, state, "tiebreak_draw", data)
        return first + scoring.tiebreak_draw(state, data["seat"], data["card"])

    def _rerun(self, state: BattleState, held: Held) -> tuple[Outcome, ...]:
        """An input held for a hand count, run again: checked as it was first, then its handler."""
        spec = self._inputs[held.kind]
        outcomes: tuple[Outcome, ...] = getattr(self, spec.handler)(state, self.check_input(state, spec, held.data()))
        return outcomes

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

__all__ = ["DEMO", "GAME", "GatherTogetherBattle"]
