"""Whose turn it is and how play moves on: left or right, SKIP and REVERSE, the end of a building
turn, passing, and the battle's reset when the turn comes back round to the unbeaten player.

A building turn (``state.step``) is a draw, then one discard or a pass; it ends when both are
recorded and no EXPOSE or ELIMINATE choice is pending. Eliminated players are skipped. In the
battle phase, a turn that comes back to the player whose play nobody beat resets the battle
("No player can beat ...? The Battle resets").
"""
from __future__ import annotations

from typing import Any

from ..contract import Refused
from .cards import Deck
from .report import Report
from .state import LEFT, BattleState, Phase, Step


def begin_turn(state: BattleState) -> None:
    """A new building turn: nothing drawn or discarded yet; ``top`` is the discard it may take."""
    state.step = Step(top=state.pile[-1] if state.pile else None)


def maybe_finish_turn(deck: Deck, state: BattleState, report: Report) -> None:
    """A building turn ends once the draw is recorded and the player discarded or passed."""
    step = state.step
    if state.phase != Phase.BUILDING or step is None or state.awaiting:
        return
    if step.drew is None or not (step.discard or step.passed):
        return
    effect = deck.action(step.discard) if step.discard else None
    if effect == "reverse":
        reverse(state, report)
    advance(state, report, skip=effect == "skip")
    begin_turn(state)


def start_battle(state: BattleState, seat: int) -> None:
    """The battle phase begins with ``seat`` to play any fight card(s)."""
    state.phase, state.turn, state.step, state.top = Phase.BATTLE, seat, None, None
    state.passed, state.pending, state.may_take_flipped = [], None, False


def only_the_deck(deck: Deck, state: BattleState) -> bool:
    """The turn's draw can only have come from the deck: no top discard, or one that may not be
    taken ("Action cards cannot be picked up from the discard pile", bar the flipped exception)."""
    top = state.building_step().top
    if top is None or top not in state.pile:
        return True
    return deck.card(top).kind == "action" and not (state.may_take_flipped and top == state.flipped)


def imply_deck_draw(state: BattleState, seat: int, report: Report) -> None:
    """The player drew from the deck without a tap (the only place they could draw from)."""
    report.tell("draw", seat=seat, source="deck")
    state.deck = max(0, state.deck - 1)
    state.hands[seat] += 1
    state.may_take_flipped = False
    state.building_step().drew = "deck"


def on_pass(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``pass``: in the building phase, keeping every card (no discard); in the battle phase, not playing."""
    seat = data["seat"]
    check_turn(state, seat)
    if state.phase == Phase.BUILDING:
        step = state.building_step()
        if step.drew is None and only_the_deck(deck, state):
            imply_deck_draw(state, seat, report)
        if step.drew is None:
            raise Refused("draw_before_passing", seat)
        if step.discard:
            raise Refused("already_discarded_this_turn", seat)
        step.passed = True
        report.tell("pass", seat=seat, keeps=True)
        maybe_finish_turn(deck, state, report)
        return
    if state.pending:
        raise Refused("cards_waiting", seat)
    state.passed.append(seat)
    report.tell("pass", seat=seat, keeps=False)
    advance(state, report)


def next_active(state: BattleState, seat: int) -> int:
    """The next seat in the direction of play that is still in the round (itself if it is alone)."""
    candidate = seat
    for _ in state.seats:
        candidate = state.left_of(candidate) if state.direction == LEFT else state.right_of(candidate)
        if not state.eliminated[candidate]:
            return candidate
    return seat


def reverse(state: BattleState, report: Report) -> None:
    state.direction = -state.direction
    report.tell("reverse", direction=way(state))


def way(state: BattleState) -> str:
    return "left" if state.direction == LEFT else "right"


def advance(state: BattleState, report: Report, skip: bool = False) -> None:
    """The turn passes to the next player still in the round (the one after, if SKIP was played)."""
    following = next_active(state, state.turn if state.turn is not None else state.dealer)
    if skip:
        report.tell("skip", seat=following)
        following = next_active(state, following)
    state.turn = following
    if state.phase == Phase.BATTLE:
        _maybe_reset(state, report)
    report.tell("turn", seat=state.turn)


def _maybe_reset(state: BattleState, report: Report) -> None:
    """Back at the unbeaten player (or, if they were eliminated, at someone who already had a go)."""
    top, now = state.top, state.turn
    if top is None:
        return
    if now == top.seat or (state.eliminated[top.seat] and now in state.passed):
        report.tell("reset", seat=now, unbeaten=top.seat, count=top.count, rank=top.rank)
        state.top, state.passed = None, []


def player_of(state: BattleState, data: dict[str, Any]) -> int:
    """Who put a card on the pile: the camera cannot tell, so it is the player whose turn it is,
    unless the tablet says otherwise ("seat" in the data)."""
    seat: int | None = data.get("seat", state.turn)
    check_turn(state, seat)
    assert seat is not None  # check_turn refuses a move when it is nobody's turn
    return seat


def check_turn(state: BattleState, seat: int | None) -> None:
    """Refuse a move by anyone but the player whose turn it is."""
    turn = state.turn
    if turn is None:
        raise Refused("no_one_to_play")
    if seat != turn:
        raise Refused("not_your_turn", seat, turn=turn, direction=way(state))
