"""A BATTLECARD drawn: its prerequisites, its aggressor's decision, the forces called in, the flip,
and the withdrawal phase."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import combat, ending, rulebook
from .cards import Deck
from .state import Battle, PacificState, Stage

COMMANDERS = ("general", "admiral")


def allies(state: PacificState, seat: int) -> list[int]:
    """A seat and its ally (Axis: Germany and Japan; Allies: Britain and the US)."""
    axis = ("germany", "japan")
    mine = state.armies[seat].side in axis
    return [s for s, a in state.armies.items() if (a.side in axis) == mine]


def theatre_of(deck: Deck, battle: Battle) -> str:
    return battle.theatre or deck.theatre(battle.card)


def must_destroy(deck: Deck, battle: Battle) -> list[str]:
    """The card's special victory condition (a raid has none: it wins no BATTLECARD)."""
    return [] if battle.raid else deck.card(battle.card).get("must_destroy", [])


def eligible(deck: Deck, state: PacificState, seat: int, theatre: str) -> bool:
    """An eliminated player fights no battle of his theatre until liberated ("Once liberated, a player ... is
    eligible for battles in his theatre again"); the US, who "still takes his turns" after the Invasion of
    Australia, "may continue to participate in Western European Theatre battles"."""
    army = state.armies[seat]
    return not army.eliminated or (ending.takes_turns(state, seat) and army.theatre != theatre)


def aggressor_seat(deck: Deck, state: PacificState, card: str) -> int:
    side = deck.card(card)["aggressor"]
    return next(s for s, a in state.armies.items() if a.side == side)


def drawn(deck: Deck, state: PacificState, card: str) -> list[Outcome]:
    """"Check the BATTLECARD to see if there are any prerequisites for this battle.\""""
    from . import raid
    remaining = raid.raider(deck, state, card)
    if remaining is not None:
        return raid.offered(deck, state, card, remaining)
    battle = deck.card(card)
    seat = aggressor_seat(deck, state, card)
    held = {k.partition("#")[0] for k in state.armies[seat].won}
    missing = [p for p in battle["prerequisites"] if p not in held]
    if missing:
        state.conflict_discard[deck.theatre(card)].append(card)
        out = [Outcome("prerequisites_unmet", data={"card": card, "seat": seat, "missing": missing})]
        ending.end_turn(state, out)
        return out
    state.pending, state.stage = card, Stage.DECISION
    return [Outcome("battle_drawn", data={"card": card, "aggressor": seat, "drawer": state.turn})]


def involved(deck: Deck, state: PacificState, seats: list[int], battle: Battle) -> list[str]:
    """The deployed units of the battle's force types. "Generals and Admirals cannot take part in battles
    from theatres they are not deployed to.\""""
    types, theatre = battle.raid or deck.card(battle.card)["units"], theatre_of(deck, battle)
    units = []
    for seat in seats:
        army = state.armies[seat]
        for t in types:
            units += [k for k in army.stacks[t]
                      if deck.card(k)["rank"] not in COMMANDERS or army.theatre == theatre]
    return units


def on_decide(deck: Deck, state: PacificState, seat: int, fight: bool) -> tuple[Outcome, ...]:
    card = state.pending
    from . import raid
    if raid.raider(deck, state, card) is not None:
        raise Refused(f"{raid.RULE} Take it, or raid.")
    aggressor = aggressor_seat(deck, state, card)
    if seat != aggressor:
        raise Refused(f"{rulebook.AGGRESSOR} The aggressor of {deck.card(card).name} is {state.name(aggressor)}.")
    if not fight:
        state.conflict_discard[deck.theatre(card)].append(card)
        out = [Outcome("battle_declined", data={"card": card, "seat": seat})]
        ending.end_turn(state, out)
        return tuple(out)
    theatre = deck.theatre(card)
    attackers = [s for s in allies(state, aggressor) if eligible(deck, state, s, theatre)]
    defenders = [s for s in state.armies if s not in allies(state, aggressor) and eligible(deck, state, s, theatre)]
    state.pending = None
    return tuple(call_in(deck, state, Battle(card=card, aggressors=attackers, defenders=defenders)))


def call_in(deck: Deck, state: PacificState, battle: Battle) -> list[Outcome]:
    """The forces the battle calls for: none on either side, a homeland invaded, none on one side, or the flip.
    The homeland comes before "no forces": "You may emergency deploy your reserve hand ... when your homeland
    is invaded", so a defender with nothing deployed but a Reserve Hand is offered it first."""
    card = battle.card
    state.battle = battle
    a_units = involved(deck, state, battle.aggressors, battle)
    d_units = involved(deck, state, battle.defenders, battle)
    out: list[Outcome] = []
    if not a_units and not d_units:
        state.battle = None
        state.conflict_discard[deck.theatre(card)].append(card)
        out.append(Outcome("battle_ignored", data={"card": card}))
        ending.end_turn(state, out)
    elif a_units and homeland_invaded(deck, state, battle):
        state.stage = Stage.HOMELAND
        out.append(Outcome("homeland", data={"card": card, "seats": battle.defenders}))
    else:
        engage(deck, state, out)
    return out


def homeland_invaded(deck: Deck, state: PacificState, battle: Battle) -> bool:
    """A BATTLECARD that eliminates the defender, fought (not a raid, not a liberation), against a defender
    who still holds a Reserve Hand to deploy."""
    return (not battle.raid and battle.liberates is None and bool(deck.card(battle.card).get("eliminates"))
            and any(state.armies[s].hand for s in battle.defenders))


def engage(deck: Deck, state: PacificState, out: list[Outcome]) -> None:
    """"If one player has none of the deployed forces indicated on the BATTLECARD, the other player wins that
    battle." Otherwise the stacks are flipped."""
    battle = state.battle
    a_units = involved(deck, state, battle.aggressors, battle)
    d_units = involved(deck, state, battle.defenders, battle)
    if not a_units or not d_units:
        out.append(Outcome("no_forces", data={"card": battle.card, "side": "aggressor" if not a_units else "defender"}))
        ending.finish(deck, state, "defender" if not a_units else "aggressor", "no forces", out)
    else:
        flip(deck, state, out)


def flip(deck: Deck, state: PacificState, out: list[Outcome]) -> None:
    """"Otherwise, both sides flip over their indicated stacks of deployed forces.\""""
    battle = state.battle
    for seat in battle.aggressors + battle.defenders:
        for key in involved(deck, state, [seat], battle):
            battle.units.append(key)
            battle.owner[key] = seat
    out.append(Outcome("battle_begins", data={"card": battle.card, "aggressors": battle.aggressors,
                                              "defenders": battle.defenders, "units": list(battle.units)}))
    state.stage = Stage.COMBAT
    combat.settle(deck, state, out)
    if state.battle is battle:
        combat.start_round(deck, state, out)


def on_hold(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    """The invaded defender keeps the Reserve Hand: the stacks are flipped."""
    if seat not in state.battle.defenders:
        raise Refused(f"{rulebook.EMERGENCY} Only the invaded player decides this.")
    out: list[Outcome] = []
    engage(deck, state, out)
    return tuple(out)


# -- the withdrawal phase ---------------------------------------------------------------------------
def _deciding(state: PacificState, seat: int) -> None:
    battle = state.battle
    if seat not in battle.army(battle.deciding):
        who = " and ".join(state.name(s) for s in battle.army(battle.deciding))
        raise Refused(f"{rulebook.WITHDRAW} Now {who} decide{'s' if len(battle.army(battle.deciding)) == 1 else ''}.")


def on_withdraw(deck: Deck, state: PacificState, seat: int, unit: str | None) -> tuple[Outcome, ...]:
    """"You may choose to withdraw some forces and allow others to stay in the fight.\""""
    _deciding(state, seat)
    battle = state.battle
    mine = [k for k in battle.fighting(battle.deciding) if battle.owner[k] == seat]
    if unit is not None and unit not in mine:
        raise Refused(f"{rulebook.WITHDRAW} {unit} is not one of {state.name(seat)}'s units still in the fight.")
    leaving = [unit] if unit else mine
    if not leaving:
        raise Refused(f"{state.name(seat)} has no unit left in this fight.")
    battle.withdrawn += leaving
    out = [Outcome("withdraw", data={"seat": seat, "units": leaving, "all": unit is None})]
    combat.settle(deck, state, out)
    if state.battle is battle and unit is None:
        out += on_fight_on(deck, state, seat)
    return tuple(out)


def on_fight_on(deck: Deck, state: PacificState, seat: int) -> list[Outcome]:
    """"If neither side withdraws all of their forces, the engagement is repeated starting at phase 1.\""""
    _deciding(state, seat)
    battle = state.battle
    out = [Outcome("fight_on", data={"seat": seat, "side": battle.deciding})]
    if battle.deciding == "aggressor":
        battle.deciding = "defender"
        return out
    battle.round += 1
    out.append(Outcome("round", data={"round": battle.round}))
    combat.start_round(deck, state, out)
    return out
