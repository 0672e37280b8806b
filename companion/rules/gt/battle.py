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

from ..contract import Refused
from . import action_cards, counts, plays, scoring, turns
from .cards import Deck
from .report import Report
from .state import BattleState, Fight, Held, Pending, Phase


def added_to_play(deck: Deck, state: BattleState, key: str, card: Card, data: dict[str, Any], report: Report) -> None:
    """A card joins the current player's pending play; ``resolve`` makes it final."""
    seat = turns.player_of(state, data)
    if card.kind == "battle":
        raise Refused("battle_card_on_pile")
    cards = state.pending.cards if state.pending else []
    if key in cards:
        return  # one physical card is one card of the play, however often it is reported
    problem = plays.composition_problem(deck, cards + [key])
    if problem:
        raise Refused(problem[0], **problem[1])
    state.pending = Pending(seat=seat, cards=cards + [key])


def on_resolve(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``resolve``: the pending play becomes final, if it beats the top and the hand count allows it."""
    pending = state.pending
    if not pending:
        raise Refused("nothing_to_resolve")
    problem = plays.play_problem(deck, state, pending)
    if problem:
        raise Refused(problem[0], **problem[1])
    if state.hands[pending.seat] < len(pending.cards):
        counts.hold_for_count(state, pending.seat, len(pending.cards), Held(kind="resolve"), report)
        return
    _commit_play(deck, state, report)


def resolve_chosen_card(deck: Deck, state: BattleState, what: str, report: Report) -> None:
    """A target chosen on the tablet before the session resolved the card: resolve it now."""
    pending = state.pending
    if state.awaiting is None and pending and len(pending.cards) == 1 and deck.action(pending.cards[0]) == what:
        on_resolve(deck, state, {}, report)
        if state.count_check:
            raise Refused("confirm_count_first", counted_seat=state.count_check.seat)


def _commit_play(deck: Deck, state: BattleState, report: Report) -> None:
    seat, keys = state.play_waiting().seat, state.play_waiting().cards
    cards = [deck.card(k) for k in keys]
    state.pending = None
    state.hands[seat] -= len(keys)
    state.pile.extend(keys)
    if any(c.get("action") == "new_battle" for c in cards):
        state.top, state.passed = None, []
        report.tell("new_battle", seat=seat)
    fights = [k for k, c in zip(keys, cards) if c.kind == "fight"]
    if fights:
        _fight_played(deck, state, seat, fights, report)
    elif cards[0].kind == "action" and cards[0]["action"] != "new_battle":
        _action_played(deck, state, seat, keys[0], report)


def _fight_played(deck: Deck, state: BattleState, seat: int, keys: list[str], report: Report) -> None:
    previous, count, rank = state.top, len(keys), deck.card(keys[0])["rank"]
    state.top, state.passed = Fight(seat=seat, count=count, rank=rank, cards=keys), []
    if previous:
        report.tell("play", seat=seat, count=count, rank=rank, beaten_count=previous.count,
                    beaten_rank=previous.rank)
    else:
        report.tell("play", seat=seat, count=count, rank=rank)
    if state.hands[seat] == 0:
        report.tell("last_card", seat=seat)
    turns.advance(state, report)


def _action_played(deck: Deck, state: BattleState, seat: int, key: str, report: Report) -> None:
    """SKIP, REVERSE, EXPOSE, ELIMINATE or SAVE played on a turn: the next player must still beat the top."""
    state.passed.append(seat)
    what = deck.action(key)
    report.tell("action", seat=seat, action=what, card=key)
    if what == "reverse":
        turns.reverse(state, report)
    if what == "expose":
        action_cards.ask_expose(deck, state, seat, "advance", report)
    elif what == "eliminate":
        action_cards.ask_eliminate(deck, state, seat, "advance", report)
    else:
        if what == "save":
            report.tell("no_effect", reason="nobody_eliminated")
        turns.advance(state, report, skip=what == "skip")


def identity_played(deck: Deck, state: BattleState, key: str, data: dict[str, Any], report: Report) -> None:
    """A player goes out with their identity card: their team wins the round (scoring.py)."""
    if state.phase != Phase.BATTLE:
        raise Refused("identity_in_battle_only")
    seat = turns.player_of(state, data)
    if state.pending:
        raise Refused("identity_on_its_own")
    if state.identity[seat].card != key:
        raise Refused("not_own_identity", seat)
    if state.hands[seat]:
        report.tell("cards_left", seat=seat, cards=state.hands[seat])
    scoring.win_round(state, seat, report)
