"""Whose turn it is and how play moves on: left or right, SKIP and REVERSE, the end of a building
turn, passing, and the battle's reset when the turn comes back round to the unbeaten player.

A building turn (``state["step"]``) is a draw, then one discard or a pass; it ends when both are
recorded and no EXPOSE or ELIMINATE choice is pending. Eliminated players are skipped. In the
battle phase, a turn that comes back to the player whose play nobody beat resets the battle
("No player can beat ...? The Battle resets").
"""
from __future__ import annotations

from ..base import State
from . import seats
from .cards import Deck
from .plays import describe
from .prompt import not_now
from .report import Refuse, Report
from .rulebook import RULE
from .seats import LEFT


def begin_turn(state: State) -> None:
    """A new building turn: nothing drawn or discarded yet; ``top`` is the discard it may take."""
    state["step"] = {"drew": None, "discard": None, "passed": False,
                     "top": state["pile"][-1] if state["pile"] else None}


def maybe_finish_turn(deck: Deck, state: State, report: Report) -> None:
    """A building turn ends once the draw is recorded and the player discarded or passed."""
    step = state["step"]
    if state["phase"] != "building" or step is None or state["awaiting"]:
        return
    if step["drew"] is None or not (step["discard"] or step["passed"]):
        return
    effect = deck.card(step["discard"]).get("action") if step["discard"] else None
    if effect == "reverse":
        reverse(state, report)
    advance(state, report, skip=effect == "skip")
    begin_turn(state)


def start_battle(state: State, seat: int) -> None:
    """The battle phase begins with ``seat`` to play any fight card(s)."""
    state.update(phase="battle", turn=seat, step=None, top=None, passed=[], pending=None,
                 may_take_flipped=False)


def on_pass(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``pass``: in the building phase, keeping every card (no discard); in the battle phase, not playing."""
    seat = seats.data_seat(state, data, "seat")
    if state["phase"] not in ("building", "battle"):
        raise Refuse(not_now(deck, state, "Passing happens in the building and battle phases"))
    check_turn(deck, state, seat)
    who = seats.name(state, seat)
    if state["phase"] == "building":
        step = state["step"]
        if step["drew"] is None:
            raise Refuse(f"{who} draws first (from the deck or the top discard); then they may pass on discarding.")
        if step["discard"]:
            raise Refuse(f"{who} has already discarded this turn.")
        step["passed"] = True
        report.say("pass", f"{who} keeps their cards (no discard).", seat=seat)
        maybe_finish_turn(deck, state, report)
        return
    if state["pending"]:
        raise Refuse(f"{who} has cards waiting on the pile; take them back before passing.")
    state["passed"].append(seat)
    report.say("pass", f"{who} passes.", seat=seat)
    advance(state, report)


def next_active(state: State, seat: int) -> int:
    """The next seat in the direction of play that is still in the round (itself if it is alone)."""
    n = len(state["seats"])
    candidate = seat
    for _ in range(n):
        candidate = (candidate - 1 + state["direction"]) % n + 1
        if not state["eliminated"][candidate - 1]:
            return candidate
    return seat


def reverse(state: State, report: Report) -> None:
    state["direction"] = -state["direction"]
    way = "left" if state["direction"] == LEFT else "right"
    report.say("reverse", f"REVERSE: \"If play was moving to the left, it switches to the right (or vice versa).\" "
                          f"Play now moves to the {way}.", direction=way)


def advance(state: State, report: Report, skip: bool = False) -> None:
    """The turn passes to the next player still in the round (the one after, if SKIP was played)."""
    following = next_active(state, state["turn"])
    if skip:
        report.say("skip", f"SKIP: {seats.name(state, following)}'s turn is skipped.", seat=following)
        following = next_active(state, following)
    state["turn"] = following
    if state["phase"] == "battle":
        _maybe_reset(state, report)
    report.say("turn", f"{seats.name(state, state['turn'])} to play.", seat=state["turn"])


def _maybe_reset(state: State, report: Report) -> None:
    """Back at the unbeaten player (or, if they were eliminated, at someone who already had a go)."""
    top, now = state["top"], state["turn"]
    if top is None:
        return
    unbeaten = now == top["seat"] or (state["eliminated"][top["seat"] - 1] and now in state["passed"])
    if unbeaten:
        report.say("reset", f"No one beat {describe(top['count'], top['rank'])} played by "
                            f"{seats.name(state, top['seat'])}. {RULE['no_one_beats']} "
                            f"{seats.name(state, now)} plays any fight card(s).", seat=now)
        state.update(top=None, passed=[])


def player_of(deck: Deck, state: State, data: dict) -> int:
    """Who put a card on the pile: the camera cannot tell, so it is the player whose turn it is,
    unless the tablet says otherwise ("seat" in the data)."""
    seat = seats.data_seat(state, data, "seat") if "seat" in data else state["turn"]
    check_turn(deck, state, seat)
    return seat


def check_turn(deck: Deck, state: State, seat: int) -> None:
    """Refuse a move by anyone but the player whose turn it is."""
    turn = state["turn"]
    if turn is None:
        raise Refuse(not_now(deck, state, "No one is to play yet"))
    if seat != turn:
        way = "left" if state["direction"] == LEFT else "right"
        raise Refuse(f"It is {seats.name(state, turn)}'s turn, not {seats.name(state, seat)}'s (play moves to the "
                     f"{way}). Only SAVE is played out of turn: {RULE['save']}")
