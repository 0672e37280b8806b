"""Whose move it is and how play moves on: what the table owes before anyone moves, left or right,
SKIP and REVERSE, the end of a building turn, passing, and the battle's reset when the turn comes
back round to the unbeaten player.

Before the player whose turn it is, the table owes the answers it was asked (``owed_first``): while a
hand count is in question (``count_check``) or a choice is owed (``awaiting``: an EXPOSE or ELIMINATE
target, who played a SAVE), inputs that move the game are refused with the question. An open SAVE
window is different: any other move closes it ("unless immediately saved": the moment has passed).

A building turn (``state.step``) is a draw, then one discard or a pass; it ends when both are
recorded and no EXPOSE or ELIMINATE choice is pending. Eliminated players are skipped. In the
battle phase, a turn that comes back to the player whose play nobody beat resets the battle
("No player can beat ...? The Battle resets").
"""
from __future__ import annotations

from typing import Any

from ..base import Outcome
from ..contract import Refused
from .cards import Deck
from .state import LEFT, BattleState, Phase, Step

ANSWERS = {"expose": "expose", "eliminate": "eliminate", "save_by": "save"}  # a choice owed -> the input answering it


# -- what the table owes first -------------------------------------------------------------------------
def owed_first(deck: Deck, state: BattleState, kind: str, data: dict[str, Any]) -> tuple[Outcome, ...]:
    """Before an input moves the game: a hand-count question or a choice is answered first (else the
    input is refused with the question), and an open SAVE window closes on any other move. Let through
    are the answer itself, sightings away from the centre pile or of a card already on it, and the
    draw of the chooser whose building turn it is, before they drew. (``card_gone`` and
    ``confirm_count``, the count's answer, never wait: their handlers do not ask.)"""
    if not _moves_the_game(state, kind, data):
        return ()
    if state.count_check:
        raise Refused("count_question_first", counted_seat=state.count_check.seat)
    asked = state.awaiting
    if asked is None:
        return ()
    if asked.what == "save":
        return () if _is_save_input(deck, kind, data) else close_save_window(deck, state)
    if kind == ANSWERS[asked.what]:
        return ()
    step = state.step
    own_draw = (kind == "draw" and step is not None and step.drew is None and asked.by == state.turn
                and data["seat"] == state.turn)
    if not own_draw:
        raise Refused("choice_first", what=asked.what, by=asked.by, target=asked.target)
    return ()


def _moves_the_game(state: BattleState, kind: str, data: dict[str, Any]) -> bool:
    """False for inputs that never wait on anything: sightings away from the centre, re-sightings."""
    if kind != "card_seen":
        return True
    return data["zone"] == "center" and data["card"] not in state.pile


def _is_save_input(deck: Deck, kind: str, data: dict[str, Any]) -> bool:
    if kind in ("save", "no_save"):
        return True
    return kind == "card_seen" and data["zone"] == "center" and deck.action(data["card"]) == "save"


def close_save_window(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    """"Unless immediately saved": the chosen player places their hand down and is out for the round."""
    asked = state.choice_owed()
    assert asked.target is not None, "a SAVE window is open for a chosen target"
    state.eliminated[asked.target] = True
    state.hands[asked.target] = 0  # "will place his/her hand down"
    state.awaiting = None
    return (Outcome("eliminated", data={"seat": asked.target}), *go_on(deck, state, asked.then))


def go_on(deck: Deck, state: BattleState, then: str) -> tuple[Outcome, ...]:
    """How play goes on once a choice is made: the building turn ends, or the battle moves on."""
    if then == "finish_turn":
        return maybe_finish_turn(deck, state)
    if then == "advance":
        return advance(state)
    return ()


# -- the turn ------------------------------------------------------------------------------------------
def begin_turn(state: BattleState) -> None:
    """A new building turn: nothing drawn or discarded yet; ``top`` is the discard it may take."""
    state.step = Step(top=state.pile[-1] if state.pile else None)


def maybe_finish_turn(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    """A building turn ends once the draw is recorded and the player discarded or passed."""
    step = state.step
    if state.phase != Phase.BUILDING or step is None or state.awaiting:
        return ()
    if step.drew is None or not (step.discard or step.passed):
        return ()
    effect = deck.action(step.discard) if step.discard else None
    told = reverse(state) if effect == "reverse" else ()
    told += advance(state, skip=effect == "skip")
    begin_turn(state)
    return told


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


def imply_deck_draw(state: BattleState, seat: int) -> tuple[Outcome, ...]:
    """The player drew from the deck without a tap (the only place they could draw from)."""
    state.deck = max(0, state.deck - 1)
    state.hands[seat] += 1
    state.may_take_flipped = False
    state.building_step().drew = "deck"
    return (Outcome("draw", data={"seat": seat, "source": "deck"}),)


def pass_turn(deck: Deck, state: BattleState, seat: int) -> tuple[Outcome, ...]:
    """``pass``: in the building phase, keeping every card (no discard); in the battle phase, not playing."""
    check_turn(state, seat)
    if state.phase == Phase.BUILDING:
        step = state.building_step()
        told = imply_deck_draw(state, seat) if step.drew is None and only_the_deck(deck, state) else ()
        if step.drew is None:
            raise Refused("draw_before_passing", seat)
        if step.discard:
            raise Refused("already_discarded_this_turn", seat)
        step.passed = True
        return (*told, Outcome("pass", data={"seat": seat, "keeps": True}), *maybe_finish_turn(deck, state))
    if state.pending:
        raise Refused("cards_waiting", seat)
    state.passed.append(seat)
    return (Outcome("pass", data={"seat": seat, "keeps": False}), *advance(state))


def next_active(state: BattleState, seat: int) -> int:
    """The next seat in the direction of play that is still in the round (itself if it is alone)."""
    candidate = seat
    for _ in state.seats:
        candidate = state.left_of(candidate) if state.direction == LEFT else state.right_of(candidate)
        if not state.eliminated[candidate]:
            return candidate
    return seat


def reverse(state: BattleState) -> tuple[Outcome, ...]:
    state.direction = -state.direction
    return (Outcome("reverse", data={"direction": way(state)}),)


def way(state: BattleState) -> str:
    return "left" if state.direction == LEFT else "right"


def advance(state: BattleState, skip: bool = False) -> tuple[Outcome, ...]:
    """The turn passes to the next player still in the round (the one after, if SKIP was played)."""
    told: tuple[Outcome, ...] = ()
    following = next_active(state, state.turn if state.turn is not None else state.dealer)
    if skip:
        told += (Outcome("skip", data={"seat": following}),)
        following = next_active(state, following)
    state.turn = following
    if state.phase == Phase.BATTLE:
        told += _maybe_reset(state)
    return (*told, Outcome("turn", data={"seat": state.turn}))


def _maybe_reset(state: BattleState) -> tuple[Outcome, ...]:
    """Back at the unbeaten player (or, if they were eliminated, at someone who already had a go)."""
    top, now = state.top, state.turn
    if top is None or not (now == top.seat or (state.eliminated[top.seat] and now in state.passed)):
        return ()
    state.top, state.passed = None, []
    return (Outcome("reset", data={"seat": now, "unbeaten": top.seat, "count": top.count, "rank": top.rank}),)


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
