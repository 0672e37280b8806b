"""A BATTLECARD drawn: its prerequisites, its aggressor's decision, the forces called in, the flip,
and the withdrawal phase."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from .cards import Deck
from .combat import settle, start_round
from .ending import finish
from .state import Battle, PacificState, Stage
from .table import aggressor_seat, allies, eligible, end_turn, involved
from .table import must_destroy as must_destroy   # the odds read a battle's special victory condition here
from .variants import in_play


def drawn(deck: Deck, state: PacificState, card: str) -> list[Outcome]:
    """"Check the BATTLECARD to see if there are any prerequisites for this battle.\""""
    remaining = in_play(state).raider(deck, state, card)
    if remaining is not None:
        # Combined sets, rule 6: the card waits for the remaining player's choice (its prerequisites and
        # aggressor no longer apply: he takes it or raids).
        state.pending, state.stage = card, Stage.DECISION
        return [Outcome("raid_offered", data={"card": card, "seat": remaining})]
    battle = deck.card(card)
    seat = aggressor_seat(deck, state, card)
    held = {k.partition("#")[0] for k in state.armies[seat].won}
    missing = [p for p in battle["prerequisites"] if p not in held]
    if missing:
        state.conflict_discard[deck.theatre(card)].append(card)
        return [Outcome("prerequisites_unmet", data={"card": card, "seat": seat, "missing": missing}), *end_turn(state)]
    state.pending, state.stage = card, Stage.DECISION
    return [Outcome("battle_drawn", data={"card": card, "aggressor": seat, "drawer": state.turn})]


def flipped_to_fight(deck: Deck, state: PacificState, seat: int, unit: str) -> bool:
    """A unit turned face up in ``seat``'s area while a BATTLECARD waits for its aggressor: the table sees the
    aggressor flip a stack the card calls for ("Otherwise, both sides flip over their indicated stacks of
    deployed forces"), which is the decision to fight. (A raid's choice is a tap: no stack says which.)"""
    card = state.battlecard()
    if in_play(state).raider(deck, state, card) is not None or seat != aggressor_seat(deck, state, card):
        return False
    return unit in involved(deck, state, [seat], Battle(card=card, aggressors=[seat], defenders=[]))


def on_decide(deck: Deck, state: PacificState, seat: int, fight: bool) -> tuple[Outcome, ...]:
    card = state.battlecard()
    if in_play(state).raider(deck, state, card) is not None:
        raise Refused("take_or_raid", seat)
    aggressor = aggressor_seat(deck, state, card)
    if seat != aggressor:
        raise Refused("not_the_aggressor", seat, card=card, aggressor=aggressor)
    if not fight:
        state.conflict_discard[deck.theatre(card)].append(card)
        return (Outcome("battle_declined", data={"card": card, "seat": seat}), *end_turn(state))
    theatre = deck.theatre(card)
    attackers = [s for s in allies(state, aggressor) if eligible(state, s, theatre)]
    defenders = [s for s in state.armies if s not in allies(state, aggressor) and eligible(state, s, theatre)]
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
    if not a_units and not d_units:
        state.battle = None
        state.conflict_discard[deck.theatre(card)].append(card)
        return [Outcome("battle_ignored", data={"card": card}), *end_turn(state)]
    if a_units and homeland_invaded(deck, state, battle):
        state.stage = Stage.HOMELAND
        return [Outcome("homeland", data={"card": card, "seats": battle.defenders})]
    return engage(deck, state)


def homeland_invaded(deck: Deck, state: PacificState, battle: Battle) -> bool:
    """A BATTLECARD that eliminates the defender, fought (not a raid, not a liberation), against a defender
    who still holds a Reserve Hand to deploy."""
    return (not battle.raid and battle.liberates is None and bool(deck.card(battle.card).get("eliminates"))
            and any(state.armies[s].hand for s in battle.defenders))


def engage(deck: Deck, state: PacificState) -> list[Outcome]:
    """"If one player has none of the deployed forces indicated on the BATTLECARD, the other player wins that
    battle." Otherwise the stacks are flipped."""
    battle = state.fight()
    a_units = involved(deck, state, battle.aggressors, battle)
    d_units = involved(deck, state, battle.defenders, battle)
    if not a_units or not d_units:
        side = "aggressor" if not a_units else "defender"
        return [Outcome("no_forces", data={"card": battle.card, "side": side}),
                *finish(deck, state, "defender" if not a_units else "aggressor", "no_forces")]
    return flip(deck, state)


def flip(deck: Deck, state: PacificState) -> list[Outcome]:
    """"Otherwise, both sides flip over their indicated stacks of deployed forces." (The battle's odds are
    added to ``battle_begins`` by the game, from the state the flip leaves.)"""
    battle = state.fight()
    for seat in battle.aggressors + battle.defenders:
        for key in involved(deck, state, [seat], battle):
            battle.units.append(key)
            battle.owner[key] = seat
    out = [Outcome("battle_begins", data={"card": battle.card, "aggressors": battle.aggressors,
                                          "defenders": battle.defenders, "units": list(battle.units)})]
    state.stage = Stage.COMBAT
    out += settle(deck, state)
    if state.battle is battle:
        out += start_round(deck, state)
    return out


def on_hold(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    """The invaded defender keeps the Reserve Hand: the stacks are flipped."""
    if seat not in state.fight().defenders:
        raise Refused("only_the_invaded", seat)
    return tuple(engage(deck, state))


# -- the withdrawal phase ---------------------------------------------------------------------------
def deciding(state: PacificState, seat: int) -> Battle:
    """The battle, if ``seat`` is one of the army deciding now whether to withdraw."""
    battle = state.fight()
    if seat not in battle.army(battle.deciding):
        raise Refused("not_deciding", seat, deciding=battle.army(battle.deciding))
    return battle


def on_withdraw(deck: Deck, state: PacificState, seat: int, unit: str | None) -> tuple[Outcome, ...]:
    """"You may choose to withdraw some forces and allow others to stay in the fight.\""""
    battle = deciding(state, seat)
    mine = [k for k in battle.fighting(battle.deciding) if battle.owner[k] == seat]
    if unit is not None and unit not in mine:
        raise Refused("not_in_the_fight", seat, unit=unit)
    leaving = [unit] if unit else mine
    if not leaving:
        raise Refused("no_unit_left", seat)
    battle.withdrawn += leaving
    out = [Outcome("withdraw", data={"seat": seat, "units": leaving, "all": unit is None})]
    out += settle(deck, state)
    if state.battle is battle and unit is None:
        out += on_fight_on(deck, state, seat)
    return tuple(out)


def fight_on_by_the_card(deck: Deck, state: PacificState) -> list[Outcome]:
    """A CONFLICT card turned in the withdrawal phase: every army still to decide fights on (the table sees the
    next shot's card; a withdrawal is a tap before it), and the next round begins."""
    battle = state.fight()
    out: list[Outcome] = []
    while state.battle is battle and state.stage == Stage.WITHDRAWAL:
        out += on_fight_on(deck, state, battle.army(battle.deciding)[0])
    return out


def on_fight_on(deck: Deck, state: PacificState, seat: int) -> list[Outcome]:
    """"If neither side withdraws all of their forces, the engagement is repeated starting at phase 1.\""""
    battle = deciding(state, seat)
    out = [Outcome("fight_on", data={"seat": seat, "side": battle.deciding})]
    if battle.deciding == "aggressor":
        battle.deciding = "defender"
        return out
    battle.round += 1
    out.append(Outcome("round", data={"round": battle.round}))
    return out + start_round(deck, state)
