"""Combining sets, rule 2: aid to an ally. "On your turn, you may aid your ally by either sacrificing your
draw to transfer up to 3 deployed cards to your ally's stacks, trade 1 reserve card for 1 reserve card of
your ally (without sacrificing your draw), or sending the top card of your arsenal deck to the bottom of
your ally's arsenal deck (again, without sacrificing your draw)." One of the three, once a turn. The cards
named are secret: the public history drops them (view.redact) and no refusal names them."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import ending, rulebook
from .battle import allies
from .cards import Deck
from .state import PacificState, Stage, forget

TRANSFER_MOST = 3


def ally_of(state: PacificState, seat: int) -> int:
    if len(state.seats) != 4:
        raise Refused(f"{rulebook.AID} There is no ally in a two-player game.")
    return next(s for s in allies(state, seat) if s != seat)


def _may_aid(state: PacificState, seat: int) -> None:
    if seat != state.turn or state.stage != Stage.DRAW or state.aided:
        raise Refused(f"{rulebook.AID} Aid is given once, on one's own turn, before the draw.")


def on_transfer(deck: Deck, state: PacificState, seat: int, unit: str) -> tuple[Outcome, ...]:
    """Up to 3 deployed cards to the ally's stacks, instead of the draw."""
    if state.stage == Stage.AID and seat == state.turn:
        pass
    else:
        _may_aid(state, seat)
    ally = ally_of(state, seat)
    army = state.armies[seat]
    if unit not in army.deployed():
        raise Refused(f"{rulebook.AID} That card is not one of {state.name(seat)}'s deployed cards.")
    utype = deck.unit_type(unit)
    army.stacks[utype].remove(unit)
    state.armies[ally].stacks[utype].append(unit)
    forget(state, unit)
    state.aided, state.stage, state.transferred = True, Stage.AID, state.transferred + 1
    out = [Outcome("transfer", data={"seat": seat, "ally": ally, "stack": utype, "count": state.transferred})]
    if state.transferred >= TRANSFER_MOST:
        ending.end_turn(state, out)
    return tuple(out)


def on_trade(state: PacificState, seat: int, give: str, take: str) -> tuple[Outcome, ...]:
    _may_aid(state, seat)
    ally = ally_of(state, seat)
    mine, theirs = state.armies[seat].hand, state.armies[ally].hand
    if give not in mine or take not in theirs:
        raise Refused(f"{rulebook.AID} Trade a card of your Reserve Hand for one of your ally's.")
    mine[mine.index(give)], theirs[theirs.index(take)] = take, give
    forget(state, give)
    forget(state, take)
    state.aided = True
    return (Outcome("trade", data={"seat": seat, "ally": ally}),)


def on_send(state: PacificState, seat: int) -> tuple[Outcome, ...]:
    _may_aid(state, seat)
    ally = ally_of(state, seat)
    army = state.armies[seat]
    if army.arsenal_left <= 0:
        raise Refused(f"{rulebook.AID} {state.name(seat)}'s ARSENAL deck is empty.")
    army.arsenal_left -= 1
    state.armies[ally].arsenal_left += 1
    state.armies[ally].foreign += 1
    state.aided = True
    return (Outcome("send", data={"seat": seat, "ally": ally}),)
