"""The building phase: on their turn a player draws (the deck or the top discard), then discards
one card onto the centre pile or passes. Drawing the BATTLE card starts the battle phase.

The camera cannot see a draw, so the tablet records it (``draw``); a discard is the camera seeing
a new card land on the pile. When the top discard cannot be taken (none, or an action card), the
deck is the only place to draw from: a discard seen, or a pass, before the tap implies that draw,
and no tap is asked for. An EXPOSE or ELIMINATE discarded here takes effect (its choice ends
the turn); NEW BATTLE and SAVE discarded here do nothing.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card

from ..contract import Refused
from . import action_cards, counts, turns
from .cards import Deck, lifted
from .report import Report
from .state import BattleState, Held


def on_draw(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``draw {"seat": N, "from": "deck" | "discard"}``: the draw that opens a building turn."""
    seat = data["seat"]
    turns.check_turn(state, seat)
    step = state.building_step()
    if step.drew:
        raise Refused("already_drawn", seat)
    source = data["from"]
    if source == "discard":
        _take_top_discard(deck, state, seat, report)
    elif source == "deck":
        state.deck = max(0, state.deck - 1)
        report.tell("draw", seat=seat, source="deck")
    else:
        raise Refused("draw_from", source=source)
    state.hands[seat] += 1
    state.may_take_flipped = False
    step.drew = source
    turns.maybe_finish_turn(deck, state, report)


def _take_top_discard(deck: Deck, state: BattleState, seat: int, report: Report) -> None:
    top = state.building_step().top
    if top is None:
        raise Refused("discard_pile_empty")
    card = deck.card(top)
    flipped_exception = state.may_take_flipped and top == state.flipped
    if card.kind == "action" and not flipped_exception:
        raise Refused("action_from_discard", card=top)
    state.pile.remove(top)
    lifted(state, top, "center")  # in a hand now: seen on the pile again, it is a new discard
    report.tell("draw", seat=seat, source="discard", card=top)


def discarded(deck: Deck, state: BattleState, key: str, card: Card, data: dict[str, Any], report: Report) -> None:
    """A new card on the centre pile in the building phase: the player's discard (or the BATTLE card)."""
    seat = turns.player_of(state, data)
    step = state.building_step()
    if card.kind == "battle":
        _battle_card_drawn(state, seat, key, report)
        return
    if step.discard or step.passed:
        raise Refused("already_discarded" if step.discard else "passed_on_discarding", seat)
    if step.drew is None and turns.only_the_deck(deck, state):
        turns.imply_deck_draw(state, seat, report)
    if state.hands[seat] < 1:
        counts.hold_for_count(state, seat, 1, Held(kind="card_seen", card=key, zone="center", seat=data.get("seat")),
                              report)
        return
    state.hands[seat] -= 1
    state.pile.append(key)
    step.discard = key
    report.tell("discard", seat=seat, card=key)
    _discard_effect(deck, state, seat, key, report)
    turns.maybe_finish_turn(deck, state, report)


def _discard_effect(deck: Deck, state: BattleState, seat: int, key: str, report: Report) -> None:
    """EXPOSE and ELIMINATE ask for their choice; SKIP and REVERSE act when the turn ends (turns.py)."""
    what = deck.action(key)
    if what == "expose":
        action_cards.ask_expose(deck, state, seat, "finish_turn", report)
    elif what == "eliminate":
        action_cards.ask_eliminate(deck, state, seat, "finish_turn", report)
    elif what in ("new_battle", "save"):
        report.tell("no_effect", reason="building", card=key)


def _battle_card_drawn(state: BattleState, seat: int, key: str, report: Report) -> None:
    """"The player to draw the BATTLE card will immediately place it on top of the discard pile"."""
    step = state.building_step()
    if step.drew == "discard" or step.discard or step.passed:
        raise Refused("battle_card_after_discard_draw" if step.drew == "discard" else "battle_card_after_turn", seat)
    if step.drew is None:  # the camera saw it before the tablet's tap: the deck draw is implied
        state.deck = max(0, state.deck - 1)
        state.hands[seat] += 1
    state.hands[seat] -= 1
    state.pile.append(key)
    report.tell("battle_begins", seat=seat)
    turns.start_battle(state, seat)
