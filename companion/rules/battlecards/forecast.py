"""The odds the table sees, from the state: the pool of CONFLICT cards nobody has seen face up (the
public odds), or that pool less a seat's own Kept Cards (that seat's phone). Never a face-down stack,
a Reserve Hand or another seat's Kept Card."""
from __future__ import annotations

from typing import Any

from . import battle as battle_rules, combat, odds
from .cards import Deck
from .state import Battle, PacificState, Stage

TYPES = ("ground", "air", "sea")


def pool(deck: Deck, state: PacificState, theatre: str, seat: int | None = None) -> tuple[int, ...]:
    """Action Number counts of the cards that may come next: every card of the deck since its last
    shuffle that no one has seen face up (less the seat's own Kept Cards, which it knows are not there)."""
    unseen = list(state.conflict_pool[theatre])
    if seat is not None:
        unseen = [k for k in unseen if k not in state.armies[seat].kept]
    return odds.counts(deck.action(k) for k in unseen)


def fighter(deck: Deck, battle: Battle, key: str) -> odds.Fighter:
    c = deck.card(key)
    return odds.Fighter(key, battle.side_of(battle.owner[key]), c["unit_type"],
                        tuple((t, c.get(f"attack_{t}")) for t in TYPES), tuple((t, c.get(f"defense_{t}")) for t in TYPES),
                        tuple(c["phases"]), deck.support_attack(key), deck.support_defense(key),
                        tuple(c.get("supports", [])), combat.kept_bonus(deck, battle, key, "attack"),
                        combat.kept_bonus(deck, battle, key, "defense"))


def battle_forecast(deck: Deck, state: PacificState, seat: int | None = None) -> dict[str, Any] | None:
    battle = state.battle
    if battle is None or state.stage not in (Stage.COMBAT, Stage.WITHDRAWAL):
        return None
    theatre = deck.theatre(battle.card)
    left = pool(deck, state, theatre, seat)
    fighting = [k for k in battle.units if k not in battle.destroyed and k not in battle.withdrawn]
    fighters = [fighter(deck, battle, k) for k in fighting]
    alive = [k for k in fighting if k not in battle.casualties]
    step = _next_step(deck, battle, fighting) if state.stage == Stage.COMBAT else 10 ** 6
    result = odds.battle_odds(fighters, left, battle_rules.must_destroy(deck, battle), step, alive,
                              tuple(deck.action_numbers()))
    shots = []
    if state.stage == Stage.COMBAT and battle.queue:
        shooter = battle.queue[0]
        support = battle.support if battle.aim else (combat.attack_supporters(deck, battle, shooter) or [None])[0]
        for target in combat.legal_targets(deck, battle, shooter):
            attack, defense, a_bonus, d_bonus = combat.values(deck, battle, shooter, target, support)
            chance = odds.shot_chance(left, attack, defense)
            shots.append({"unit": shooter, "target": target, "attack": attack, "defense": defense,
                          "attack_bonus": a_bonus, "defense_bonus": d_bonus, "hits": sum(
                              n for a, n in enumerate(left) if defense < a <= attack),
                          "cards": sum(left), "chance": float(chance), "aimed": battle.aim == target})
    return {"aggressor": round(result.aggressor, 4), "defender": round(result.defender, 4), "method": result.method,
            "error": round(result.error, 4), "cards_left": sum(left), "shots": shots,
            "withdraw": {side: {"winner": "defender" if side == "aggressor" else "aggressor",
                                "vp": deck.card(battle.card)["vp"], "keeps": len(battle.fighting(side))}
                         for side in ("aggressor", "defender")}}


def _next_step(deck: Deck, battle: Battle, fighting: list[str]) -> int:
    """The index, in the round's firing order the odds use, of the unit that fires next."""
    order = [(p, side, k) for p in (1, 2, 3, 4) for side in ("aggressor", "defender")
             for k in fighting if battle.side_of(battle.owner[k]) == side and p in deck.phases(k)]
    if battle.queue:
        target = (battle.phase, battle.firing, battle.queue[0])
        return order.index(target) if target in order else len(order)
    after = [i for i, (p, side, _) in enumerate(order) if (p, side) > (battle.phase, battle.firing)]
    return after[0] if after else len(order)
