"""Warriors of the Promised Land: the referee (docs/referee/warriors.md).

The companion learns every card as it is laid or drawn: a face-up card (the primary Warrior, a
revealed card) from the camera in the seat's area (``seat:N``); a card that must stay secret (a
card drawn into the hand, a secondary card laid face down) from a private scan, on the seat's RFID
reader (``reader:N``) or in the covered scan tray (``tray``). A private scan of a card already in
the hand is that card being laid face down; of any other card, the card just drawn.
"""
from __future__ import annotations

import itertools
from typing import Any

from companion.rules.base import Option, Outcome, Seat
from companion.rules.contract import (CARD, SEAT, SEAT_ACTS, SEATS, Field, Game, Input, Offer, Refused,
                                      card_inputs, zone_seat)

from . import battle, prepare
from .cards import ABILITIES, info
from .state import Player, Step, WarriorsState
from .table import active, count_end, where
from .view import WarriorsView

PRIVATE_ZONES = ("reader:", "tray")


class Warriors(Game[WarriorsState]):
    game = "warriors"
    title = "Warriors of the Promised Land"
    min_seats, max_seats = 2, 6
    options = (Option("first", 1, "The seat that goes first (\"Flip a coin, draw straws, or bicker amongst "
                                   "yourselves\"); play proceeds clockwise.", choices=(1, 2, 3, 4, 5, 6),
                      label="First player", seat=True),)
    state_type = WarriorsState
    view_type = WarriorsView
    # Every code the rules refuse with, written out (its words in refusals.py; tests/test_contract_words.py
    # checks each is raised somewhere and worded).
    reasons = frozenset({
        "already_battled", "already_called", "already_disabled", "already_known", "call_before_any_turn",
        "call_not_now", "can_lay_a_card", "cannot_be_challenged", "cannot_be_laid", "challenger_is_target",
        "challenger_reveals_first", "choose_revealed_secondary", "deal_complete", "deal_pile_full",
        "deception_first", "deception_in_duel", "deck_empty", "disabled", "draw_the_new_card", "drawing_first",
        "duel_hands_held", "escape_once_per_challenge", "hand_full", "just_revealed", "keep_warrior",
        "no_challenge", "no_face_down_left", "no_hand_to_add", "no_private_card_now", "no_prophecy",
        "no_such_card_face_up", "nobody_called", "not_a_primary", "not_a_warriors_zone", "not_in_challenge",
        "not_in_hand", "not_in_hand_as_scanned", "not_usable_here", "not_used_by_choice", "not_your_reveal",
        "not_your_turn", "not_your_turn_to_scan", "once_per_round", "opponent_turns_next", "primary_before_pass",
        "primary_face_up", "prophecy_after_choice", "prophecy_no_face_down", "prophecy_not_challenger",
        "prophecy_targets", "prophecy_used", "redraw_complete", "redraw_pile_full", "reveal_in_order",
        "secondary_face_down", "stays_face_down", "stays_in_hand", "still_face_down", "surrendered",
        "tray_not_expecting", "use_not_in_challenge"})
    # Every kind the rules decide, written out (each a @says method of words.py; tests/test_contract_words.py
    # checks each is decided somewhere and has its sentence).
    outcome_kinds = frozenset({
        "all_passed", "call", "challenge", "deception", "deception_card", "decided", "drew", "duel", "duel_card",
        "escape", "game_over", "laid", "opening", "passed", "phase_one", "phase_two", "primary", "prophecy",
        "reveal", "round_over", "stopped", "surrender", "take"})
    zones = ("seat", "reader", "tray")
    inputs = (
        *card_inputs(extra=(Field("seat", SEAT, optional=True),)),
        Input("call", "on_call", (Field("seat", SEAT),), ("primary", "secondary"), SEAT_ACTS, button=True),
        Input("pass", "on_pass", (Field("seat", SEAT),), ("secondary",), SEAT_ACTS),
        Input("prophecy", "on_prophecy", (Field("seat", SEAT), Field("targets", SEATS)), ("challenge",), SEAT_ACTS),
        Input("challenge", "on_challenge", (Field("target", SEAT),), ("challenge",), button=True,
              choices="challenge_choices"),
        Input("reveal", "on_reveal", (Field("seat", SEAT),), ("reveal",), SEAT_ACTS, button=True),
        Input("use", "on_use", (Field("seat", SEAT), Field("card", CARD), Field("target", CARD, optional=True)),
              ("reveal", "duel"), SEAT_ACTS, button=True, choices="use_choices"),
        Input("resolve", "on_resolve", phases=("reveal", "duel"), button=True),
        Input("stop", "on_stop", button=True, confirm=True),
    )

    # -- setup and phases ---------------------------------------------------------------------------
    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> WarriorsState:
        if options["first"] > len(seats):
            from companion.rules.base import SetupError
            raise SetupError(f"the first player must be one of the {len(seats)} seats, not seat {options['first']}")
        players = {s.number: Player() for s in seats}
        self._deal_decks(players, options["first"])
        first = options["first"]
        return WarriorsState(seats=seats, options=options, players=players, leader=first, turn=first)

    def _deal_decks(self, players: dict[int, Player], first: int) -> None:
        """"Deal out both decks facedown so that each player has a deck of Warrior cards and a deck of
        Armory cards": one card at a time, starting with the first player (where the deal does not
        come out even, the first players get one more)."""
        order = sorted(players, key=lambda n: (n - first) % len(players))
        for kind, attr in (("warrior", "warrior_deck"), ("armory", "armory_deck")):
            total = sum(c.copies for c in self.catalog.cards.values() if c.kind == kind)
            for i, seat in enumerate(order):
                setattr(players[seat], attr, total // len(order) + (1 if i < total % len(order) else 0))

    def phase(self, state: WarriorsState) -> str:
        return "over" if state.over else state.step.value

    # -- the table's cards --------------------------------------------------------------------------
    def on_card_seen(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...] | None:
        if state.over:
            return None
        zone, key = data["zone"], data["card"]
        private = zone.startswith(PRIVATE_ZONES) or data.get("face_down") or data.get("hidden")
        seat = self._seat_of(state, zone, data)
        if private:
            return self._private(state, seat, key)
        return self._face_up(state, seat, key)

    def on_card_gone(self, state: WarriorsState, data: dict[str, Any]) -> None:
        return None   # a card picked up changes nothing: the companion follows the cards laid and drawn

    def _seat_of(self, state: WarriorsState, zone: str, data: dict[str, Any]) -> int:
        seat = zone_seat(zone)
        if seat is not None and seat in state.seat_numbers():
            return seat
        if zone == "tray":
            seat = data.get("seat") or self.tray_owner(state)
            if seat is None:
                raise Refused("tray_not_expecting")
            return seat
        raise Refused("not_a_warriors_zone", zone=zone)

    def tray_owner(self, state: WarriorsState) -> int | None:
        """Whose card the covered tray reads now (the tablet's prompt names them)."""
        return prepare.tray_owner(state)

    def _private(self, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
        """A card scanned where only the companion sees it: drawn, or laid face down. Refusals here
        never name the card."""
        c, step, hand = self.catalog, state.step, state.players[seat].hand
        if state.players[seat].out:
            raise Refused("surrendered", seat)
        if step == Step.DEAL:
            return (*prepare.deal_card(c, state, seat, key), *prepare.finish_deal(state))
        if step == Step.REDRAW:
            return battle.redraw(c, state, seat, key)
        if step == Step.REFILL:
            return battle.refill_draw(c, state, seat, key)
        if step in (Step.PRIMARY, Step.SECONDARY):
            return self._then_alone(state, self._phase_one_scan(state, seat, key))
        if step == Step.REVEAL and state.fight.deception == seat and key in hand:
            return battle.deception_card(c, state, seat, key)
        raise Refused("no_private_card_now", seat)

    def _phase_one_scan(self, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
        """Phase One: a card drawn after laying, or a secondary card laid face down."""
        c, step, hand = self.catalog, state.step, state.players[seat].hand
        if state.drawing == seat:
            if key in hand:
                raise Refused("draw_the_new_card", seat)
            return prepare.draw_after_lay(c, state, seat, key)
        if step == Step.PRIMARY and key in hand:
            raise Refused("primary_face_up", seat)
        if key in hand:
            return prepare.lay_secondary(c, state, seat, key)
        if seat == state.turn and step == Step.SECONDARY:
            raise Refused("not_in_hand_as_scanned", seat)
        raise Refused("not_your_turn_to_scan", seat, acting=state.drawing or state.turn,
                      draws=state.drawing is not None)

    def _then_alone(self, state: WarriorsState, outcomes: tuple[Outcome, ...]) -> tuple[Outcome, ...]:
        """Phase Two may have begun: with one player to challenge, that Challenge starts by itself."""
        return (*outcomes, *battle.only_one_left(self.catalog, state))

    def _face_up(self, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...] | None:
        c, step = self.catalog, state.step
        found = where(state, key)
        if found is not None and found[1] == "discard":
            return None    # a Discard pile's top card, seen again
        if found is not None and found[1] == "play":
            owner = found[0]
            laid = next(x for x in state.players[owner].play if x.card == key)
            if not laid.face_down:
                return None   # already face up
            if step == Step.CHALLENGE:
                return battle.opening_reveal(c, state, owner, key)
            if step != Step.REVEAL:
                raise Refused("stays_face_down", owner=owner)
            return battle.reveal(c, state, owner, key)
        if found is None or found[0] != seat:
            raise Refused("not_in_hand", seat, card=key)
        if step == Step.PRIMARY and not state.players[seat].play:
            return prepare.lay_primary(c, state, seat, key)
        if step == Step.REVEAL and state.fight.deception == seat:
            return battle.deception_card(c, state, seat, key)
        if step == Step.DUEL and seat in (state.fight.challenger, state.fight.defender):
            return battle.duel_card(c, state, seat, key)
        if step == Step.SECONDARY:
            raise Refused("secondary_face_down", seat, card=key)
        raise Refused("stays_in_hand", seat, card=key)

    # -- the tablet's inputs ------------------------------------------------------------------------
    def on_call(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._then_alone(state, prepare.call_to_battle(state, data["seat"]))

    def on_pass(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return self._then_alone(state, prepare.pass_turn(self.catalog, state, data["seat"]))

    def on_prophecy(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battle.prophecy(self.catalog, state, data["seat"], data["targets"])

    def on_challenge(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battle.challenge(self.catalog, state, data["target"])

    def on_reveal(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battle.reveal(self.catalog, state, data["seat"], None)

    def on_use(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battle.use(self.catalog, state, data["seat"], data["card"], data.get("target"))

    def on_resolve(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battle.decide(self.catalog, state)

    def on_stop(self, state: WarriorsState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        """"If players decide to stop the game before that, players simply count up all their cards.
        The player with the most Warrior cards wins.\""""
        return (count_end(self.catalog, state, "stopped"),)

    def ready_to_resolve(self, state: WarriorsState) -> bool:
        return state.step in (Step.REVEAL, Step.DUEL) and battle.why_not_decide(state) is None and \
            not any(o.kind == "use" for o in self.offers(state))

    # -- the buttons --------------------------------------------------------------------------------
    def challenge_choices(self, state: WarriorsState) -> list[dict[str, Any]]:
        return [{"target": n} for n in battle.to_battle(state)]

    def use_choices(self, state: WarriorsState) -> list[dict[str, Any]]:
        ch = state.challenge
        if ch is None:
            return []
        found = []
        for seat in (ch.challenger, ch.defender):
            theirs = state.players[battle.opponent(state, seat)].play[1:]
            for c in state.players[seat].play:
                kind = info(self.catalog, c.card).armory
                if c.face_down or kind not in ABILITIES:
                    continue
                if kind == "deception":
                    found.append({"seat": seat, "card": c.card})
                else:
                    found += [{"seat": seat, "card": c.card, "target": t.card} for t in theirs if not t.face_down]
        return found

    def offers(self, state: WarriorsState) -> list[Offer]:
        """The declared buttons, plus two offered on what the table can see only: whether a seat
        could pass or use Prophecy depends on its secret cards, so those are offered whenever the
        public situation allows and refused (with the rule) if the cards do not."""
        return super().offers(state) + self._public_offers(state)

    def _public_offers(self, state: WarriorsState) -> list[Offer]:
        if state.over:
            return []
        if state.step == Step.SECONDARY and state.drawing is None:
            return [Offer("pass", {"seat": state.turn})]
        if state.step == Step.CHALLENGE and not state.prophecy_used and state.challenger is not None and state.opened is None:
            others = [n for n in active(state) if n != state.challenger and battle.face_down(state, n)]
            pairs = [list(p) for p in itertools.combinations(others, 2)] or [[n] for n in others]
            return [Offer("prophecy", {"seat": state.challenger, "targets": p}) for p in pairs]
        return []


GAME = Warriors


def __getattr__(name: str) -> type[Any]:
    if name == "DEMO":   # imported on demand: the demo players are not part of the referee
        from .demo import WarriorsDemo
        return WarriorsDemo
    raise AttributeError(name)
