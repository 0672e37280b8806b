"""Setup: each side scans its 40 pieces once, behind the screen; play starts when both are checked."""
from __future__ import annotations

from card_tags.games.stratego import ARMY_SIZE, COLOURS

from companion.rules.base import Outcome, Term
from companion.rules.contract import Refused

from .ranks import Quote
from .state import PLAY, RED, Piece, StrategoState


def scan_piece(state: StrategoState, seat: int, key: str, colour: str, rank: str) -> tuple[Outcome, ...]:
    """One of ``seat``'s pieces scanned in its area or on its reader. A side's army is checked when its
    40th distinct piece of its colour is seen: the catalog holds exactly the rulebook's 40 per colour."""
    own = state.colours[seat]
    if colour != own:
        raise Refused("wrong_colour", seat=seat, colour=colour, own=own)
    if len(state.army(own)) == ARMY_SIZE:
        raise Refused("army_complete", seat=seat, own=own, size=ARMY_SIZE)
    if key in state.pieces:
        raise Refused("already_scanned", seat=seat)
    state.pieces[key] = Piece(colour=colour, rank=rank)
    if len(state.army(own)) < ARMY_SIZE:
        return ()
    outcomes = [Outcome("army_checked", data={"seat": seat, "colour": own})]
    if all(len(state.army(c)) == ARMY_SIZE for c in COLOURS):
        state.phase = PLAY
        outcomes.append(Outcome("play_starts", terms=(Term("rule", Quote.RED_FIRST),),
                                data={"seat": state.seat_of(RED)}))
    return tuple(outcomes)
