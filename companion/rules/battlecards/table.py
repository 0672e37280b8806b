"""Who stands where at a BATTLECARDS table: allies and enemies, who takes turns and fights in a theatre,
where a card is, the forces a BATTLECARD calls in, and the turn passing on. Read by every rule module
(nothing here imports another rule module)."""
from __future__ import annotations

from ..base import Outcome
from .cards import Deck
from .state import Battle, PacificState, Stage

AXIS = ("germany", "japan")
COMMANDERS = ("general", "admiral")


def allies(state: PacificState, seat: int) -> list[int]:
    """A seat and its ally (Axis: Germany and Japan; Allies: Britain and the US)."""
    mine = state.armies[seat].side in AXIS
    return [s for s, a in state.armies.items() if (a.side in AXIS) == mine]


def opponent(state: PacificState, seat: int) -> int:
    """The in-theatre opponent (with two players, the other one)."""
    mine = allies(state, seat)
    enemies = [s for s in state.armies if s not in mine]
    same = [s for s in enemies if state.armies[s].theatre == state.armies[seat].theatre]
    return (same or enemies)[0]


def takes_turns(state: PacificState, seat: int) -> bool:
    """An eliminated player "no longer gets a turn" (EXCEPTION: the US after the Invasion of Australia)."""
    army = state.armies[seat]
    return not army.eliminated or army.side == "us"


def eligible(state: PacificState, seat: int, theatre: str) -> bool:
    """An eliminated player fights no battle of his theatre until liberated ("Once liberated, a player ... is
    eligible for battles in his theatre again"); the US, who "still takes his turns" after the Invasion of
    Australia, "may continue to participate in Western European Theatre battles"."""
    army = state.armies[seat]
    return not army.eliminated or (takes_turns(state, seat) and army.theatre != theatre)


def aggressor_seat(deck: Deck, state: PacificState, card: str) -> int:
    side = deck.card(card)["aggressor"]
    return next(s for s, a in state.armies.items() if a.side == side)


def theatre_of(deck: Deck, battle: Battle) -> str:
    return battle.theatre or deck.theatre(battle.card)


def must_destroy(deck: Deck, battle: Battle) -> list[str]:
    """The card's special victory condition (a raid has none: it wins no BATTLECARD)."""
    return [] if battle.raid else list(deck.card(battle.card).get("must_destroy", []))


def involved(deck: Deck, state: PacificState, seats: list[int], battle: Battle) -> list[str]:
    """The deployed units of the battle's force types. "Generals and Admirals cannot take part in battles
    from theatres they are not deployed to.\""""
    types, theatre = battle.raid or deck.card(battle.card)["units"], theatre_of(deck, battle)
    units: list[str] = []
    for seat in seats:
        army = state.armies[seat]
        for t in types:
            units += [k for k in army.stacks[t]
                      if deck.card(k)["rank"] not in COMMANDERS or army.theatre == theatre]
    return units


def where(state: PacificState, key: str) -> str | None:
    """Where the table holds a card: ``hand:N``, ``stack:N``, ``kept:N``, ``won:N``, ``destroyed:N``,
    ``discard``, ``battle`` (a BATTLECARD set aside), or None (in a deck)."""
    for seat, army in state.armies.items():
        if key in army.hand:
            return f"hand:{seat}"
        if key in army.deployed():
            return f"stack:{seat}"
        if key in army.kept:
            return f"kept:{seat}"
        if key in army.won:
            return f"won:{seat}"
        if key in army.arsenal_discard:
            return f"destroyed:{seat}"
    if any(key in pile for pile in state.conflict_discard.values()):
        return "discard"
    if key == state.pending or (state.battle and key == state.battle.card):
        return "battle"
    return None


def end_turn(state: PacificState) -> list[Outcome]:
    """"Starting with the Japanese Player, alternate between players.\""""
    order = state.order
    i = order.index(state.turn)
    seat = state.turn
    for step in range(1, len(order) + 1):
        seat = order[(i + step) % len(order)]
        if takes_turns(state, seat):
            break
    state.turn, state.turn_number = seat, state.turn_number + 1
    state.stage, state.task, state.pending, state.convoy_played = Stage.DRAW, None, None, False
    state.aided, state.transferred = False, 0
    return [Outcome("turn", data={"seat": seat, "turn": state.turn_number})]
