"""Cards the camera (or a reader) sees and loses, and which rule each sighting goes to.

``card_seen`` in zone ``center`` is a card landing on the pile: the first discard during the deal,
a discard in the building phase, a play in the battle phase, a SAVE in the SAVE window, or an
identity card going out. In ``reader:N`` or ``tray`` it is an identity card shown privately.
In ``seat:N`` it is a card lying in front of a player, which plays nothing.

``state["visible"]`` (card key -> zone) remembers where each card is seen, so that one physical
card seen in two zones at once (a duplicated tag) is flagged in ``state["conflicts"]``.
"""
from __future__ import annotations

from card_tags.catalog import Card

from ..base import State
from . import action_cards, battle, building, counts, deal
from .cards import Deck
from .report import Refuse, Report


def on_card_seen(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``card_seen {"zone", "card", "seat"?}``: the card is routed by its zone."""
    key, zone = data.get("card"), data.get("zone")
    card = deck.card(key)
    if not isinstance(zone, str):
        raise Refuse("A card sighting must name its zone (center, tray, reader:N or seat:N).")
    _note_visible(state, key, zone, card, report)
    if zone == "center":
        _seen_on_pile(deck, state, key, card, data, report)
    elif zone == "tray" or zone.startswith("reader:"):
        deal.shown_privately(deck, state, key, card, zone, data, report)
    elif zone.startswith("seat:"):
        pass  # a card lying in front of a player (an exposed identity, a hand placed down): no play
    else:
        raise Refuse(f"Battle does not use the zone {zone!r}: cards are played on the centre pile, and "
                     f"identity cards are shown to a reader or the tray.")


def on_card_gone(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``card_gone {"zone", "card"}``: a card taken back before its play was resolved leaves the play."""
    key, zone = data.get("card"), data.get("zone")
    if not isinstance(key, str) or not isinstance(zone, str):
        raise Refuse('A card_gone needs "card" and "zone".')
    if state["visible"].get(key) == zone:
        del state["visible"][key]
    state["conflicts"] = [c for c in state["conflicts"] if c["card"] != key]
    pending = state["pending"]
    if zone == "center" and pending and key in pending["cards"]:
        pending["cards"].remove(key)  # a card taken back before the play was resolved
        if not pending["cards"]:
            state["pending"] = None
    counts.drop_stale_check(state, key)


def _note_visible(state: State, key: str, zone: str, card: Card, report: Report) -> None:
    """One physical card in two camera zones at once is a duplicated tag: flag it, keep playing."""
    if zone.startswith("reader:"):
        return  # a tap on a reader is a moment, not a place
    where = state["visible"].get(key)
    if where and where != zone:
        label = "An identity card" if card.kind == "identity" else f"{card.name} ({key})"
        state["conflicts"].append({"card": key, "zones": [where, zone]})
        report.say("conflict", f"{label} is seen in {where} and in {zone} at once: two cards carry the same tag. "
                               f"Take one away and re-tag it.", zones=[where, zone])
    state["visible"][key] = zone


def _seen_on_pile(deck: Deck, state: State, key: str, card: Card, data: dict, report: Report) -> None:
    """A card lands on the centre pile: which rule it falls under depends on the phase and the card."""
    if key in state["pile"]:
        return  # seen again: the card above it was taken, or the camera lost it for a moment
    if card.get("action") == "save" and state["expect_save_card"] and not action_cards.save_window_open(state):
        state["expect_save_card"] -= 1  # the SAVE the tablet already recorded
        state["pile"].append(key)
        return
    phase = state["phase"]
    if phase == "deal":
        deal.flip_first(deck, state, key, card, report)
    elif phase in ("round_over", "tiebreak"):
        return  # cards being gathered for the next round
    elif action_cards.save_window_open(state) and card.get("action") == "save":
        action_cards.save_card_seen(deck, state, key, data, report)
    elif card.kind == "identity":
        battle.identity_played(deck, state, key, data, report)
    elif phase == "building":
        building.discarded(deck, state, key, card, data, report)
    else:
        battle.added_to_play(deck, state, key, card, data, report)
