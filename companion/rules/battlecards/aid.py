"""Combining sets, rule 2: aid to an ally. "On your turn, you may aid your ally by either sacrificing your
draw to transfer up to 3 deployed cards to your ally's stacks, trade 1 reserve card for 1 reserve card of
your ally (without sacrificing your draw), or sending the top card of your arsenal deck to the bottom of
your ally's arsenal deck (again, without sacrificing your draw)." One of the three, once a turn. The cards
named are secret: the public history drops them (view.redact) and no refusal names them."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from .cards import Deck
from .state import PacificState, Stage, forget
from .table import end_turn
from .variants import in_play

TRANSFER_MOST = 3


def _may_aid(state: PacificState, seat: int) -> None:
    if seat != state.turn or state.stage != Stage.DRAW or state.aided:
        raise Refused("aid_once", seat)


def on_transfer(deck: Deck, state: PacificState, seat: int, unit: str) -> tuple[Outcome, ...]:
    """Up to 3 deployed cards to the ally's stacks, instead of the draw."""
    if state.stage != Stage.AID or seat != state.turn:
        _may_aid(state, seat)
    ally = in_play(state).ally(state, seat)
    army = state.armies[seat]
    if unit not in army.deployed():
        raise Refused("not_deployed", seat)
    utype = deck.unit_type(unit)
    army.stacks[utype].remove(unit)
    state.armies[ally].stacks[utype].append(unit)
    forget(state, unit)
    state.aided, state.stage, state.transferred = True, Stage.AID, state.transferred + 1
    out = [Outcome("transfer", data={"seat": seat, "ally": ally, "stack": utype, "count": state.transferred})]
    if state.transferred >= TRANSFER_MOST:
        out += end_turn(state)
    return tuple(out)


def on_trade(state: PacificState, seat: int, give: str, take: str) -> tuple[Outcome, ...]:
    _may_aid(state, seat)
    ally = in_play(state).ally(state, seat)
    mine, theirs = state.armies[seat].hand, state.armies[ally].hand
    if give not in mine or take not in theirs:
        raise Refused("trade_hand_cards", seat)
    mine[mine.index(give)], theirs[theirs.index(take)] = take, give
    forget(state, give)
    forget(state, take)
    state.aided = True
    return (Outcome("trade", data={"seat": seat, "ally": ally}),)


def on_send(state: PacificState, seat: int) -> tuple[Outcome, ...]:
    _may_aid(state, seat)
    ally = in_play(state).ally(state, seat)
    army = state.armies[seat]
    if army.arsenal_left <= 0:
        raise Refused("arsenal_empty", seat)
    army.arsenal_left -= 1
    state.armies[ally].arsenal_left += 1
    state.armies[ally].foreign += 1
    state.aided = True
    return (Outcome("send", data={"seat": seat, "ally": ally}),)
