"""Combined sets, rule 7: "You may liberate your ally if he is eliminated from a theatre by using a counterattack
to re-fight the battle that eliminated him." The rulebook does not describe the counterattack: the companion
takes it as the liberator's turn, in place of his draw (docs/referee/battlecards-pacific.md)."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import battle as battles, ending
from .cards import Deck
from .state import Battle, PacificState, Stage, Task

RULE = ("\"7) You may liberate your ally if he is eliminated from a theatre by using a counterattack to re-fight "
        "the battle that eliminated him.\"")
FIRST = {   # "EXCEPTION: Japan can only liberate the Germans if they first successfully invade Australia and the
    # Germans can only liberate the Japanese if they win the Invasion of Britain."
    "japan": ("us", "\"Japan can only liberate the Germans if they first successfully invade Australia\""),
    "germany": ("britain", "\"the Germans can only liberate the Japanese if they win the Invasion of Britain\""),
}
SETUP_DRAW, SETUP_DEPLOY = 6, 3   # "He also immediately draws 6 and deploys 3 arsenal cards."


def fallen_ally(state: PacificState, seat: int) -> int | None:
    return next((s for s in battles.allies(state, seat) if s != seat and state.armies[s].eliminated), None)


def on_liberate(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    if seat != state.turn:
        raise Refused(f"{RULE} It is {state.name(state.turn)}'s turn.")
    ally = fallen_ally(state, seat)
    if ally is None or not state.armies[ally].eliminated_by:
        raise Refused(f"{RULE} {state.name(seat)}'s ally is not eliminated.")
    need = FIRST.get(state.armies[seat].side)
    if need and not any(deck.card(k).get("eliminates") == need[0] for k in state.armies[seat].won):
        raise Refused(f"{need[1]}.")
    card = state.armies[ally].eliminated_by
    holder = next((s for s, a in state.armies.items() if card in a.won), None)
    theatre = deck.theatre(card)
    mine = battles.allies(state, seat)
    # "US forces are eligible to participate in the liberation of Australia."
    attackers = [s for s in mine if s == ally or battles.eligible(deck, state, s, theatre)]
    defenders = [s for s in state.armies if s not in mine and battles.eligible(deck, state, s, theatre)]
    battle = Battle(card=card, aggressors=attackers, defenders=defenders, liberates=ally)
    out = [Outcome("liberation", data={"card": card, "seat": seat, "ally": ally, "holder": holder})]
    return tuple(out + battles.call_in(deck, state, battle))


def over(deck: Deck, state: PacificState, winner_side: str, how: str, out: list[Outcome]) -> None:
    """The re-fought battle's end: won by the liberators, the ally is back and they take the BATTLECARD (its VP
    leave its holder); held by the defenders, nothing changes."""
    battle = state.battle
    ally, card = battle.liberates, battle.card
    state.battle, state.stage = None, Stage.DRAW
    if winner_side != "aggressor":
        out.append(Outcome("liberation_failed", data={"card": card, "ally": ally, "how": how}))
        ending.end_turn(state, out)
        return
    vp = deck.card(card)["vp"]
    for army in state.armies.values():
        if card in army.won:
            army.won.remove(card)
            army.vp -= vp
    liberator = state.turn
    state.armies[liberator].won.append(card)
    state.armies[liberator].vp += vp
    army = state.armies[ally]
    army.eliminated, army.eliminated_by = False, ""
    out.append(Outcome("liberated", data={"card": card, "ally": ally, "seat": liberator, "vp": vp, "how": how}))
    ending.check_victory(deck, state, out)
    if state.over:
        return
    if army.side == "us":
        # "EXCEPTION: US player never stopped taking turns, and so he does not get to draw and deploy when
        # Australia is liberated."
        ending.end_turn(state, out)
        return
    state.task, state.stage = Task(seat=ally, card=card, draw=SETUP_DRAW, deploy=SETUP_DEPLOY, exact=True), Stage.ARSENAL
    army.handless = False
