"""Combat: the four firing phases, who fires, legal targets, the hit rule, casualties, stalemate.

"In each firing phase, the aggressor fires his units that have the current phase listed on their
card. Casualties are removed. Then, the defender fires each defending unit that has the current
phase listed on their card. Casualties are removed." (GAME PHASES)
"""
from __future__ import annotations

from dataclasses import fields

from ..base import Outcome
from ..contract import Refused
from .cards import Deck
from .ending import finish
from .state import Battle, PacificState, Shot, Stage, forget
from .table import must_destroy


def other(side: str) -> str:
    return "defender" if side == "aggressor" else "aggressor"


# -- values with their bonuses ------------------------------------------------------------------------
def kept_bonus(deck: Deck, battle: Battle, unit: str, kind: str) -> int:
    """+attack or +defense from the Kept Cards the unit's army played this combat round."""
    seat = battle.owner[unit]
    army = battle.army(battle.side_of(seat))
    utype = deck.unit_type(unit)
    return sum(deck.card(k).get(f"bonus_{kind}", 0) or 0 for k in battle.bonuses
               if battle.bonus_owner[k] in army and utype in deck.card(k).get("bonus_types", []))


def best_support(deck: Deck, battle: Battle, shooter: str) -> str | None:
    """The biggest attack support still unused this phase (the one used when the player names none)."""
    return next(iter(attack_supporters(deck, battle, shooter)), None)


def attack_supporters(deck: Deck, battle: Battle, shooter: str) -> list[str]:
    """Units of the shooter's army that may add attack to it now: fighting, supporting its type,
    not yet used this phase, best first."""
    side = battle.side_of(battle.owner[shooter])
    found = [k for k in battle.fighting(side) if k != shooter and deck.support_attack(k) and
             deck.supports(k, shooter) and k not in battle.used_support and k not in battle.casualties]
    return sorted(found, key=lambda k: -deck.support_attack(k))


def defense_support(deck: Deck, battle: Battle, target: str) -> int:
    """The best defense support the target's army gives it (a general steadies every unit of the
    types he supports; the companion's reading, docs/referee/battlecards-pacific.md)."""
    side = battle.side_of(battle.owner[target])
    return max([deck.support_defense(k) for k in battle.fighting(side)
                if k != target and k not in battle.casualties and deck.supports(k, target)] + [0])


def values(deck: Deck, battle: Battle, shooter: str, target: str, support: str | None) -> tuple[int, int, int, int] | None:
    """(attack, defense, attack bonus, defense bonus) of a shot, or None when the target may not be attacked."""
    base_attack = deck.attack(shooter, deck.unit_type(target))
    base_defense = deck.defense(target, deck.unit_type(shooter))
    if base_attack is None or base_defense is None:
        return None
    a_bonus = kept_bonus(deck, battle, shooter, "attack") + (deck.support_attack(support) if support else 0)
    d_bonus = kept_bonus(deck, battle, target, "defense") + defense_support(deck, battle, target)
    attack, defense = base_attack + a_bonus, base_defense + d_bonus
    if attack < defense:
        return None
    return attack, defense, a_bonus, d_bonus


def legal_targets(deck: Deck, battle: Battle, shooter: str) -> list[str]:
    """"If the Attack Value is N/A, or lower than the selected target's defense, then the target may
    not be attacked." A unit already hit in this volley is not fired at again."""
    side = battle.side_of(battle.owner[shooter])
    best = best_support(deck, battle, shooter)
    return [t for t in battle.fighting(other(side)) if t not in battle.casualties
            and values(deck, battle, shooter, t, best) is not None]


def likeliest_target(deck: Deck, battle: Battle, shooter: str) -> str | None:
    """The legal target the shooter is likeliest to destroy, over the whole CONFLICT deck's Action Numbers
    (the first in battle order on a tie): the one it fires at when a card is turned before a target is
    chosen. The table cannot see a choice; the player who wants another target taps it first."""
    support = best_support(deck, battle, shooter)
    counts = deck.action_counts()
    best, best_hits = None, -1
    for target in legal_targets(deck, battle, shooter):
        shot = values(deck, battle, shooter, target, support)
        assert shot is not None
        hit = sum(n for action, n in counts.items() if hits(action, shot[0], shot[1]))
        if hit > best_hits:
            best, best_hits = target, hit
    return best


def hits(action: int, attack: int, defense: int) -> bool:
    """"If the Action Number is equal to or less than the attacker's Attack Score AND is greater than
    the target unit's Defense Score ... then the target is destroyed.\""""
    return defense < action <= attack


def why(action: int, attack: int, defense: int) -> str:
    """Why a shot hit or missed, as a code the view words."""
    if action > attack:
        return "above_attack"
    if action <= defense:
        return "not_above_defense"
    return "in_range"


# -- the firing order ------------------------------------------------------------------------------------
def shooters(deck: Deck, battle: Battle, side: str) -> list[str]:
    return [k for k in battle.fighting(side) if battle.phase in deck.phases(k)]


def start_round(deck: Deck, state: PacificState) -> list[Outcome]:
    battle = state.fight()
    battle.phase, battle.firing, battle.bonuses, battle.bonus_owner = 1, "aggressor", [], {}
    battle.used_support = []
    battle.queue = shooters(deck, battle, "aggressor")
    state.stage = Stage.COMBAT
    return advance(deck, state)


LAST_PHASE = 4   # "After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw"


def advance(deck: Deck, state: PacificState) -> list[Outcome]:
    """Move on until a unit must fire (a target to choose, a card to turn), the withdrawal phase, or the end."""
    battle = state.fight()
    out: list[Outcome] = []
    while state.battle is battle and state.stage == Stage.COMBAT:
        if battle.queue:
            shooter = battle.queue[0]
            if legal_targets(deck, battle, shooter):
                return out
            out.append(Outcome("no_target", data={"unit": shooter, "seat": battle.owner[shooter],
                                                  "phase": battle.phase, "round": battle.round}))
            battle.queue.pop(0)
            continue
        out += end_volley(deck, state)
        if state.battle is not battle:
            return out
        if battle.firing == "aggressor":
            battle.firing = "defender"
        else:
            battle.phase += 1
            battle.firing, battle.used_support = "aggressor", []
            if battle.phase > LAST_PHASE:
                state.stage, battle.deciding = Stage.WITHDRAWAL, "aggressor"
                out.append(Outcome("withdrawal_phase", data={"round": battle.round}))
                return out
        battle.queue = shooters(deck, battle, battle.firing)
    return out


def end_volley(deck: Deck, state: PacificState) -> list[Outcome]:
    """"Casualties are removed." Then: is the battle over, won by a special condition, or a stalemate?"""
    battle = state.fight()
    out: list[Outcome] = []
    if battle.casualties:
        for key in battle.casualties:
            seat = battle.owner[key]
            army = state.armies[seat]
            army.stacks[deck.unit_type(key)].remove(key)
            army.arsenal_discard.append(key)
            battle.destroyed.append(key)
            forget(state, key)
        out.append(Outcome("casualties", data={"units": list(battle.casualties),
                                               "seats": [battle.owner[k] for k in battle.casualties]}))
        battle.casualties = []
    return out + settle(deck, state)


def settle(deck: Deck, state: PacificState) -> list[Outcome]:
    """End the battle if one army has nothing left, a special victory condition is met, or nobody can hit."""
    battle = state.fight()
    if not battle.fighting("defender"):
        return finish(deck, state, "aggressor", "destroyed_or_withdrawn")
    if not battle.fighting("aggressor"):
        return finish(deck, state, "defender", "destroyed_or_withdrawn")
    if special_victory(deck, battle):
        return finish(deck, state, "aggressor", "special")
    if stalemate(deck, battle):
        return [Outcome("stalemate", data={"card": battle.card}), *finish(deck, state, "defender", "stalemate")]
    return []


def special_victory(deck: Deck, battle: Battle) -> bool:
    """"Some BATTLECARDS list special victory conditions like the elimination of all enemy Ground units.\""""
    must = must_destroy(deck, battle)
    return bool(must) and not any(deck.unit_type(k) in must for k in battle.fighting("defender"))


def can_ever_hit(deck: Deck, battle: Battle, shooter: str, target: str) -> bool:
    """Whether some Action Number of the deck could destroy the target, with the best support allocation."""
    if not deck.phases(shooter):
        return False
    shot = values(deck, battle, shooter, target, best_support(deck, battle, shooter))
    return shot is not None and any(hits(n, shot[0], shot[1]) for n in deck.action_numbers())


def stalemate(deck: Deck, battle: Battle) -> bool:
    """"If none of the units remaining on either side in a battle can hit the enemy regardless of what
    action number is pulled, it is considered a Stalemate.\""""
    for side in ("aggressor", "defender"):
        for shooter in battle.fighting(side):
            if any(can_ever_hit(deck, battle, shooter, t) for t in battle.fighting(other(side))):
                return False
    return True


# -- inputs --------------------------------------------------------------------------------------------------
def on_aim(deck: Deck, state: PacificState, seat: int, target: str, support: str | None) -> tuple[Outcome, ...]:
    battle = state.fight()
    shooter = current_shooter(state)
    if battle.owner[shooter] != seat:
        raise Refused("not_your_shooter", seat, shooter=shooter, owner=battle.owner[shooter])
    if target not in battle.units or target not in battle.fighting(other(battle.firing)):
        raise Refused("not_an_enemy_unit", seat, target=target)
    if support is not None and support not in attack_supporters(deck, battle, shooter):
        raise Refused("cannot_support", seat)
    if support is None:
        support = best_support(deck, battle, shooter)
    if target in battle.casualties or values(deck, battle, shooter, target, support) is None:
        raise Refused("illegal_target", seat)
    battle.aim, battle.support = target, support
    return (Outcome("aim", data={"unit": shooter, "seat": seat, "target": target, "support": support}),)


def current_shooter(state: PacificState) -> str:
    battle = state.battle
    if state.stage != Stage.COMBAT or battle is None or not battle.queue:
        raise Refused("no_unit_firing")
    return battle.queue[0]


def fire(deck: Deck, state: PacificState, card: str) -> list[Outcome]:
    """A CONFLICT card turned face up onto the discard pile: the current shooter's attack is resolved."""
    battle = state.fight()
    shooter = current_shooter(state)
    if battle.aim is None:
        battle.aim, battle.support = likeliest_target(deck, battle, shooter), best_support(deck, battle, shooter)
    target, support = battle.aim, battle.support
    assert target is not None, "a unit waits to fire only while it has a legal target (advance)"
    shot_values = values(deck, battle, shooter, target, support)
    assert shot_values is not None, "an aimed target stays in reach (a bonus that takes it out clears the aim)"
    attack, defense, a_bonus, d_bonus = shot_values
    action = deck.action(card)
    hit = hits(action, attack, defense)
    shot = Shot(number=len(battle.shots) + 1, round=battle.round, phase=battle.phase, seat=battle.owner[shooter],
                unit=shooter, target=target, target_seat=battle.owner[target], card=card, action=action,
                attack=attack, defense=defense, attack_bonus=a_bonus, defense_bonus=d_bonus, support=support,
                hit=hit, why=why(action, attack, defense))
    battle.shots.append(shot)
    if support:
        battle.used_support.append(support)
    if hit:
        battle.casualties.append(target)
    battle.queue.pop(0)
    battle.aim = battle.support = None
    return [shot_outcome(shot), *advance(deck, state)]


def shot_outcome(shot: Shot) -> Outcome:
    """A shot as data: every term of the ruling (the view words it)."""
    return Outcome("shot", data={f.name: getattr(shot, f.name) for f in fields(Shot)})


def play_bonus(deck: Deck, state: PacificState, seat: int, card: str) -> list[Outcome]:
    """A Kept Card played in combat: its bonus lasts for the rest of the combat round."""
    battle = state.battle
    kept = deck.card(card)
    if not (kept.get("bonus_attack") or kept.get("bonus_defense")):
        raise Refused("not_a_combat_card", seat, card=card)
    if battle is None or seat not in battle.aggressors + battle.defenders:
        raise Refused("not_in_this_battle", seat)
    state.armies[seat].kept.remove(card)
    forget(state, card)
    battle.bonuses.append(card)
    battle.bonus_owner[card] = seat
    out = [Outcome("kept_played", data={"seat": seat, "card": card, "round": battle.round})]
    if state.stage == Stage.COMBAT:
        # A defense bonus may put the aimed target, or every target, out of the shooter's reach.
        if battle.aim and values(deck, battle, battle.queue[0], battle.aim, battle.support) is None:
            battle.aim = battle.support = None
            out.append(Outcome("aim_lost", data={"unit": battle.queue[0]}))
        out += advance(deck, state)
    return out
