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

from ..base import Outcome
from ..contract import Refused
from . import action_cards, counts, turns
from .cards import Deck
from .state import BattleState, Held


def draw(deck: Deck, state: BattleState, seat: int, source: str) -> tuple[Outcome, ...]:
    """``draw {"seat": N, "from": "deck" | "discard"}``: the draw that opens a building turn."""
    turns.check_turn(state, seat)
    step = state.building_step()
    if step.drew:
        raise Refused("already_drawn", seat)
    if source == "discard":
        told = _take_top_discard(deck, state, seat)
    elif source == "deck":
        state.deck = max(0, state.deck - 1)
        told = (Outcome("draw", data={"seat": seat, "source": "deck"}),)
    else:
        raise Refused("draw_from", source=source)
    state.hands[seat] += 1
    state.may_take_flipped = False
    step.drew = source
    return told + turns.maybe_finish_turn(deck, state)


def _take_top_discard(deck: Deck, state: BattleState, seat: int) -> tuple[Outcome, ...]:
    top = state.building_step().top
    if top is None:
        raise Refused("discard_pile_empty")
    card = deck.card(top)
    flipped_exception = state.may_take_flipped and top == state.flipped
    if card.kind == "action" and not flipped_exception:
        raise Refused("action_from_discard", card=top)
    state.pile.remove(top)
    state.lift(top, "center")  # in a hand now: seen on the pile again, it is a new discard
    return (Outcome("draw", data={"seat": seat, "source": "discard", "card": top}),)


def discarded(deck: Deck, state: BattleState, key: str, card: Card, data: dict[str, Any]) -> tuple[Outcome, ...]:
    """A new card on the centre pile in the building phase: the player's discard (or the BATTLE card)."""
    seat = turns.player_of(state, data)
    step = state.building_step()
    if card.kind == "battle":
        return _battle_card_drawn(state, seat, key)
    if step.discard or step.passed:
        raise Refused("already_discarded" if step.discard else "passed_on_discarding", seat)
    told = turns.imply_deck_draw(state, seat) if step.drew is None and turns.only_the_deck(deck, state) else ()
    if state.hands[seat] < 1:
        held = Held(kind="card_seen", card=key, zone="center", seat=data.get("seat"))
        return told + counts.hold_for_count(state, seat, 1, held)
    state.hands[seat] -= 1
    state.pile.append(key)
    step.discard = key
    told += (Outcome("discard", data={"seat": seat, "card": key}), *_discard_effect(deck, state, seat, key))
    return told + turns.maybe_finish_turn(deck, state)


def _discard_effect(deck: Deck, state: BattleState, seat: int, key: str) -> tuple[Outcome, ...]:
    """EXPOSE and ELIMINATE ask for their choice; SKIP and REVERSE act when the turn ends (turns.py)."""
    what = deck.action(key)
    if what == "expose":
        return action_cards.ask_expose(deck, state, seat, "finish_turn")
    if what == "eliminate":
        return action_cards.ask_eliminate(deck, state, seat, "finish_turn")
    if what in ("new_battle", "save"):
        return (Outcome("no_effect", data={"reason": "building", "card": key}),)
    return ()


def _battle_card_drawn(state: BattleState, seat: int, key: str) -> tuple[Outcome, ...]:
    """"The player to draw the BATTLE card will immediately place it on top of the discard pile"."""
    step = state.building_step()
    if step.drew == "discard" or step.discard or step.passed:
        raise Refused("battle_card_after_discard_draw" if step.drew == "discard" else "battle_card_after_turn", seat)
    if step.drew is None:  # the camera saw it before the tablet's tap: the deck draw is implied
        state.deck = max(0, state.deck - 1)
        state.hands[seat] += 1
    state.hands[seat] -= 1
    state.pile.append(key)
    turns.start_battle(state, seat)
    return (Outcome("battle_begins", data={"seat": seat}),)
