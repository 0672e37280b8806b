"""What the camera (or a seat's reader) sees on the table and loses, and which rule each sighting goes to.

``card_seen`` in zone ``center`` is a card landing on the pile: the first discard during the deal,
a discard in the building phase, a play in the battle phase, a SAVE in the SAVE window, or an
identity card going out. In ``reader:N`` or ``tray`` it is an identity card shown privately.
In ``seat:N`` it is a card lying in front of a player, which plays nothing.

The contract keeps ``state.lying`` (card -> the zones it lies in) and ignores a card seen again
where it already lies. One physical card lying in two zones at once is a duplicated tag: flagged
in ``state.conflicts``, and play goes on.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card

from ..base import Outcome
from ..contract import Refused
from . import action_cards, battle, building, composition, counts, deal
from .cards import Deck
from .state import BattleState, Conflict, Phase


def card_seen(deck: Deck, state: BattleState, data: dict[str, Any]) -> tuple[Outcome, ...]:
    """``card_seen {"zone", "card", "seat"?}``: the card is routed by its zone."""
    key, zone = data["card"], data["zone"]
    card = deck.card(key)
    told = _note_conflict(deck, state, key, zone)
    if zone == "center":
        return told + _seen_on_pile(deck, state, key, card, data)
    if zone == "tray" or zone.startswith("reader:"):
        return told + deal.shown_privately(deck, state, key, card, zone, data)
    if not zone.startswith("seat:"):
        raise Refused("zone_not_used", zone=zone)
    return told  # seat:N is a card lying in front of a player (an exposed identity, a hand placed down): no play


def card_gone(state: BattleState, key: str, zone: str) -> tuple[Outcome, ...]:
    """``card_gone {"zone", "card"}``: a card taken back before its play was resolved leaves the play."""
    state.conflicts = [c for c in state.conflicts if c.card != key]
    pending = state.pending
    if zone == "center" and pending and key in pending.cards:
        pending.cards.remove(key)  # a card taken back before the play was resolved
        if not pending.cards:
            state.pending = None
    counts.drop_stale_check(state, key)
    return ()


def _note_conflict(deck: Deck, state: BattleState, key: str, zone: str) -> tuple[Outcome, ...]:
    """One physical card in two camera zones at once is a duplicated tag: flag it, keep playing."""
    if zone.startswith("reader:"):
        return ()  # a tap on a reader is a moment, not a place
    elsewhere = [z for z in state.lying.get(key, []) if z != zone]
    if not elsewhere:
        return ()
    zones = [elsewhere[-1], zone]
    state.conflicts.append(Conflict(card=key, zones=zones))
    if deck.is_identity(key):  # the public never learns an identity card's key
        return (Outcome("conflict", data={"zones": list(zones)}),)
    return (Outcome("conflict", data={"card": key, "zones": list(zones)}),)


def _seen_on_pile(deck: Deck, state: BattleState, key: str, card: Card, data: dict[str, Any]) -> tuple[Outcome, ...]:
    """A card lands on the centre pile: which rule it falls under depends on the phase and the card."""
    phase = state.phase
    if key in state.pile or phase in (Phase.ROUND_OVER, Phase.TIEBREAK, Phase.OVER):
        return ()  # seen again (the card above it was taken), or cards being gathered for the next round
    if phase == Phase.DEAL:
        return deal.flip_first(deck, state, key)
    if card.kind != "identity":
        composition.check_in_deck(deck, state, key)
    if card.get("action") == "save" and state.expect_save_card and not action_cards.save_window_open(state):
        state.expect_save_card -= 1  # the SAVE the tablet already recorded
        state.pile.append(key)
        return ()
    if action_cards.save_window_open(state) and card.get("action") == "save":
        return action_cards.save_card_seen(deck, state, key, data.get("seat"))
    if card.kind == "identity":
        return battle.identity_played(deck, state, key, data)
    if phase == Phase.BUILDING:
        return building.discarded(deck, state, key, card, data)
    return battle.added_to_play(deck, state, key, card, data)
