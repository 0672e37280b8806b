"""Combined sets, rule 7: "You may liberate your ally if he is eliminated from a theatre by using a counterattack
to re-fight the battle that eliminated him." The rulebook does not describe the counterattack: the companion
takes it as the liberator's turn, in place of his draw (docs/referee/battlecards-pacific.md). The re-fought
battle's end is ``ending``'s."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from .battle import call_in
from .cards import Deck
from .state import Battle, PacificState
from .table import allies, eligible

# "EXCEPTION: Japan can only liberate the Germans if they first successfully invade Australia and the Germans can
# only liberate the Japanese if they win the Invasion of Britain": the side whose elimination must be won first.
FIRST = {"japan": "us", "germany": "britain"}


def fallen_ally(state: PacificState, seat: int) -> int | None:
    return next((s for s in allies(state, seat) if s != seat and state.armies[s].eliminated), None)


def on_liberate(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    if seat != state.turn:
        raise Refused("liberate_on_own_turn", seat, turn=state.turn)
    ally = fallen_ally(state, seat)
    if ally is None or not state.armies[ally].eliminated_by:
        raise Refused("ally_not_eliminated", seat)
    side = state.armies[seat].side
    need = FIRST.get(side)
    if need and not any(deck.card(k).get("eliminates") == need for k in state.armies[seat].won):
        raise Refused("liberate_first", seat, side=side)
    card = state.armies[ally].eliminated_by
    holder = next((s for s, a in state.armies.items() if card in a.won), None)
    theatre = deck.theatre(card)
    mine = allies(state, seat)
    # "US forces are eligible to participate in the liberation of Australia."
    attackers = [s for s in mine if s == ally or eligible(state, s, theatre)]
    defenders = [s for s in state.armies if s not in mine and eligible(state, s, theatre)]
    battle = Battle(card=card, aggressors=attackers, defenders=defenders, liberates=ally)
    out = [Outcome("liberation", data={"card": card, "seat": seat, "ally": ally, "holder": holder})]
    return tuple(out + call_in(deck, state, battle))
