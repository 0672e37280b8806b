"""The battle phase: fight cards put down as a pending play, ``resolve`` making it final (if it
beats the play on top), action cards played on a turn, NEW BATTLE, and going out with the
identity card.

Cards the camera sees land on the pile gather in ``state["pending"]`` (the play being put down);
the session sends ``resolve`` once the table is still. A play the hand count cannot explain is
held for ``confirm_count`` (counts.py). Passing, SKIP, REVERSE and the reset when nobody beats a
play are turn order (turns.py).
"""
from __future__ import annotations

from card_tags.catalog import Card

from ..base import State, Term
from . import action_cards, counts, plays, scoring, seats, turns
from .cards import Deck
from .plays import describe
from .report import Refuse, Report
from .rulebook import RULE


def added_to_play(deck: Deck, state: State, key: str, card: Card, data: dict, report: Report) -> None:
    """A card joins the current player's pending play; ``resolve`` makes it final."""
    seat = turns.player_of(deck, state, data)
    if card.kind == "battle":
        raise Refuse("There is one BATTLE card and it is already on the pile.")
    cards = (state["pending"]["cards"] if state["pending"] else []) + [key]
    problem = plays.composition_problem(deck, cards)
    if problem:
        raise Refuse(problem)
    state["pending"] = {"seat": seat, "cards": cards}


def on_resolve(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``resolve``: the pending play becomes final, if it beats the top and the hand count allows it."""
    pending = state["pending"]
    if state["phase"] != "battle" or not pending:
        raise Refuse("Nothing to resolve: no play is waiting on the centre pile.")
    problem = plays.play_problem(deck, state, pending)
    if problem:
        raise Refuse(problem)
    seat, count = pending["seat"], len(pending["cards"])
    if state["hands"][seat - 1] < count:
        counts.hold_for_count(state, seat, count, {"kind": "resolve", "data": {}}, report)
        return
    _commit_play(deck, state, report)


def resolve_chosen_card(deck: Deck, state: State, what: str, report: Report) -> None:
    """A target chosen on the tablet before the session resolved the card: resolve it now."""
    pending = state["pending"]
    if state["awaiting"] is None and pending and len(pending["cards"]) == 1 \
            and deck.card(pending["cards"][0]).get("action") == what:
        on_resolve(deck, state, {}, report)
        if state["count_check"]:
            raise Refuse(f"First confirm the hand count: {counts.question(state, state['count_check'])}")


def _commit_play(deck: Deck, state: State, report: Report) -> None:
    pending = state["pending"]
    seat, keys = pending["seat"], pending["cards"]
    cards = [deck.card(k) for k in keys]
    state["pending"] = None
    state["hands"][seat - 1] -= len(keys)
    state["pile"].extend(keys)
    who = seats.name(state, seat)
    if any(c.get("action") == "new_battle" for c in cards):
        state.update(top=None, passed=[])
        report.say("new_battle", f"{who} plays NEW BATTLE: \"the player of this card resets the battle, and gets "
                                 f"to start a new battle with any fight card(s).\"", seat=seat)
    fights = [c for c in cards if c.kind == "fight"]
    if fights:
        _fight_played(state, seat, [k for k, c in zip(keys, cards) if c.kind == "fight"], fights[0]["rank"], report)
    elif cards[0].kind == "action" and cards[0]["action"] != "new_battle":
        _action_played(deck, state, seat, cards[0], report)


def _fight_played(state: State, seat: int, keys: list[str], rank: int, report: Report) -> None:
    previous, count = state["top"], len(keys)
    state.update(top={"seat": seat, "count": count, "rank": rank, "cards": keys}, passed=[])
    play, who = describe(count, rank), seats.name(state, seat)
    if previous:
        beaten = describe(previous["count"], previous["rank"])
        terms = (Term("play", play, f"{count} card(s) of rank {rank}"),
                 Term("to beat", beaten, "count first, then rank"))
        report.say("play", f"{who} plays {play}, beating {beaten}.", terms, seat=seat, count=count, rank=rank)
    else:
        report.say("play", f"{who} starts the battle with {play}.", seat=seat, count=count, rank=rank)
    if state["hands"][seat - 1] == 0:
        report.say("last_card", f"{who} has no cards left: {RULE['identity']}", seat=seat)
    turns.advance(state, report)


def _action_played(deck: Deck, state: State, seat: int, card: Card, report: Report) -> None:
    """SKIP, REVERSE, EXPOSE, ELIMINATE or SAVE played on a turn: the next player must still beat the top."""
    state["passed"].append(seat)
    what = card["action"]
    report.say("action", f"{seats.name(state, seat)} plays {card.name}. {RULE['action_in_battle']}", seat=seat,
               action=what)
    if what == "reverse":
        turns.reverse(state, report)
    if what == "expose":
        action_cards.ask_expose(deck, state, seat, "advance", report)
    elif what == "eliminate":
        action_cards.ask_eliminate(deck, state, seat, "advance", report)
    else:
        if what == "save":
            report.say("no_effect", "No player is being eliminated, so SAVE has no effect.")
        turns.advance(state, report, skip=what == "skip")


def identity_played(deck: Deck, state: State, key: str, data: dict, report: Report) -> None:
    """A player goes out with their identity card: their team wins the round (scoring.py)."""
    if state["phase"] != "battle":
        raise Refuse(f"Identity cards are played in the battle phase: {RULE['identity']}")
    seat = turns.player_of(deck, state, data)
    if state["pending"]:
        raise Refuse("An identity card is played on its own, on a turn of its own; take back the other cards first.")
    if state["identity"][seat - 1]["card"] != key:
        raise Refuse(f"That is not the identity card {seats.name(state, seat)} showed at the start of the round; "
                     f"each player plays their own identity card.")
    left = state["hands"][seat - 1]
    if left:
        report.say("note", f"The companion counted {left} card(s) still in {seats.name(state, seat)}'s hand: they "
                           f"go out with them, so they must all be action cards ({RULE['identity']}).", seat=seat)
    scoring.win_round(state, seat, report)
