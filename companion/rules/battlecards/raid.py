"""Combined sets, rule 6: "If an enemy is eliminated from a theatre and a battle comes up from that theatre, the
player remaining in that theatre may take the battle without a fight, or discard the battle, and perform a raid
against the enemy in the other theatre. He may make this attack as a Ground and Air attack or as an Air and Sea
attack. No victory points are awarded in such a raid." (The card waits for him: ``battle.drawn``.)"""
from __future__ import annotations

from typing import Any

from ..base import Outcome
from ..contract import Refused
from .battle import call_in
from .cards import Deck
from .ending import check_victory
from .state import Battle, PacificState
from .table import allies, eligible, end_turn
from .variants import in_play

FORCES = {"ground_air": ["ground", "air"], "air_sea": ["air", "sea"]}   # "as a Ground and Air attack or as an Air and Sea attack"


def _chooser(deck: Deck, state: PacificState, seat: int) -> str:
    """The BATTLECARD waiting, if ``seat`` is the player remaining in its theatre."""
    card = state.battlecard()
    remaining = in_play(state).raider(deck, state, card)
    if remaining is None:
        raise Refused("no_enemy_eliminated", seat)
    if seat != remaining:
        raise Refused("not_the_remaining_player", seat, remaining=remaining)
    return card


def on_take(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    """"take the battle without a fight": the BATTLECARD and its VP."""
    card = _chooser(deck, state, seat)
    state.pending = None
    army = state.armies[seat]
    army.won.append(card)
    army.vp += deck.card(card)["vp"]
    out = [Outcome("battle_won", data={"card": card, "seat": seat, "side": "aggressor", "vp": deck.card(card)["vp"],
                                       "how": "taken", "losers": []})]
    out += check_victory(deck, state)
    if not state.over:
        out += end_turn(state)
    return tuple(out)


def on_raid(deck: Deck, state: PacificState, seat: int, forces: str) -> tuple[Outcome, ...]:
    """"discard the battle, and perform a raid against the enemy in the other theatre": the raider's side
    against the other theatre's enemy (allies called in together, as in any battle), fought there."""
    card = _chooser(deck, state, seat)
    if forces not in FORCES:
        raise Refused("raid_forces", seat)
    theatre = _other_theatre(state, seat)
    mine = allies(state, seat)
    attackers = [s for s in mine if eligible(state, s, theatre)]
    defenders = [s for s in state.armies if s not in mine and eligible(state, s, theatre)]
    state.pending = None
    battle = Battle(card=card, aggressors=attackers, defenders=defenders, raid=FORCES[forces], theatre=theatre)
    out = [Outcome("raid", data={"card": card, "seat": seat, "types": FORCES[forces], "defenders": defenders})]
    return tuple(out + call_in(deck, state, battle))


def _other_theatre(state: PacificState, seat: int) -> str:
    return next(a.theatre for a in state.armies.values() if a.theatre != state.armies[seat].theatre)


def choices(deck: Deck, state: PacificState) -> list[dict[str, Any]]:
    seat = in_play(state).raider(deck, state, state.pending) if state.pending else None
    return [] if seat is None else [{"seat": seat, "forces": f} for f in FORCES]
