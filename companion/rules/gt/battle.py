"""The battle phase: fight cards put down as a pending play, ``resolve`` making it final (if it
beats the play on top), action cards played on a turn, NEW BATTLE, and going out with the
identity card.

Cards the camera sees land on the pile gather in ``state.pending`` (the play being put down); the
session sends ``resolve`` once the table is still. A play the hand count cannot explain is held
for ``confirm_count`` (counts.py). Passing, SKIP, REVERSE and the reset when nobody beats a play
are turn order (turns.py).
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card

from ..base import Outcome
from ..contract import Refused
from . import action_cards, counts, plays, scoring, turns
from .cards import Deck
from .state import BattleState, Fight, Held, Pending, Phase


def added_to_play(deck: Deck, state: BattleState, key: str, card: Card, data: dict[str, Any]) -> tuple[Outcome, ...]:
    """A card joins the current player's pending play; ``resolve`` makes it final."""
    seat = turns.player_of(state, data)
    if card.kind == "battle":
        raise Refused("battle_card_on_pile")
    cards = state.pending.cards if state.pending else []
    if key in cards:
        return ()  # one physical card is one card of the play, however often it is reported
    problem = plays.composition_problem(deck, cards + [key])
    if problem:
        raise Refused(problem[0], **problem[1])
    state.pending = Pending(seat=seat, cards=cards + [key])
    return ()


def resolve(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    """``resolve``: the pending play becomes final, if it beats the top and the hand count allows it."""
    pending = state.pending
    if not pending:
        raise Refused("nothing_to_resolve")
    problem = plays.play_problem(deck, state, pending)
    if problem:
        raise Refused(problem[0], **problem[1])
    if state.hands[pending.seat] < len(pending.cards):
        return counts.hold_for_count(state, pending.seat, len(pending.cards), Held(kind="resolve"))
    return _commit_play(deck, state)


def resolve_chosen_card(deck: Deck, state: BattleState, what: str) -> tuple[Outcome, ...]:
    """A target chosen on the tablet before the session resolved the EXPOSE or ELIMINATE card played:
    the card is resolved first."""
    pending = state.pending
    if state.awaiting is not None or not pending or len(pending.cards) != 1 or deck.action(pending.cards[0]) != what:
        return ()
    told = resolve(deck, state)
    if state.count_check:
        raise Refused("confirm_count_first", counted_seat=state.count_check.seat)
    return told


def _commit_play(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    seat, keys = state.play_waiting().seat, state.play_waiting().cards
    cards = [deck.card(k) for k in keys]
    state.pending = None
    state.hands[seat] -= len(keys)
    state.pile.extend(keys)
    told: tuple[Outcome, ...] = ()
    if any(c.get("action") == "new_battle" for c in cards):
        state.top, state.passed = None, []
        told += (Outcome("new_battle", data={"seat": seat}),)
    fights = [k for k, c in zip(keys, cards) if c.kind == "fight"]
    if fights:
        told += _fight_played(deck, state, seat, fights)
    elif cards[0].kind == "action" and cards[0]["action"] != "new_battle":
        told += _action_played(deck, state, seat, keys[0])
    return told


def _fight_played(deck: Deck, state: BattleState, seat: int, keys: list[str]) -> tuple[Outcome, ...]:
    previous, count, rank = state.top, len(keys), deck.card(keys[0])["rank"]
    state.top, state.passed = Fight(seat=seat, count=count, rank=rank, cards=keys), []
    beaten = {"beaten_count": previous.count, "beaten_rank": previous.rank} if previous else {}  # none: it starts the battle
    told: tuple[Outcome, ...] = (Outcome("play", data={"seat": seat, "count": count, "rank": rank, **beaten}),)
    if state.hands[seat] == 0:
        told += (Outcome("last_card", data={"seat": seat}),)
    return told + turns.advance(state)


def _action_played(deck: Deck, state: BattleState, seat: int, key: str) -> tuple[Outcome, ...]:
    """SKIP, REVERSE, EXPOSE, ELIMINATE or SAVE played on a turn: the next player must still beat the top."""
    state.passed.append(seat)
    what = deck.action(key)
    told: tuple[Outcome, ...] = (Outcome("action", data={"seat": seat, "action": what, "card": key}),)
    if what == "reverse":
        told += turns.reverse(state)
    if what == "expose":
        return told + action_cards.ask_expose(deck, state, seat, "advance")
    if what == "eliminate":
        return told + action_cards.ask_eliminate(deck, state, seat, "advance")
    if what == "save":
        told += (Outcome("no_effect", data={"reason": "nobody_eliminated"}),)
    return told + turns.advance(state, skip=what == "skip")


def identity_played(deck: Deck, state: BattleState, key: str, data: dict[str, Any]) -> tuple[Outcome, ...]:
    """A player goes out with their identity card: their team wins the round (scoring.py)."""
    if state.phase != Phase.BATTLE:
        raise Refused("identity_in_battle_only")
    seat = turns.player_of(state, data)
    if state.pending:
        raise Refused("identity_on_its_own")
    if state.identity[seat].card != key:
        raise Refused("not_own_identity", seat)
    if state.hands[seat]:
        return (Outcome("cards_left", data={"seat": seat, "cards": state.hands[seat]}), *scoring.win_round(state, seat))
    return scoring.win_round(state, seat)
