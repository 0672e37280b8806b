"""The odds of a shot and of a battle, from what is left of the CONFLICT deck. Pure: no clock, and
the one simulation is seeded.

Every CONFLICT card turned is public, so anyone can know which Action Numbers are left. A shot
hits when the Action Number turned "is equal to or less than the attacker's Attack Score AND is
greater than the target unit's Defense Score", so its chance is the cards in (defense, attack]
over the cards left.

A battle's odds are computed by dynamic programming over its states (which units are still in
the fight, and which unit fires next), each shot drawing from the cards left now (the model: draws
at the deck's present odds; the next few cards change them only slightly). Within one alive set the
round repeats until someone is hit, so the value at a round's start solves V = a + b·V. The policy
the odds assume: every unit fires at the target it is likeliest to destroy, with the best support
not yet used this phase, and nobody withdraws. Where the state space is too large, a seeded
simulation (cards drawn without replacement) gives the odds with their standard error.

``python -m companion.rules.battlecards.bench`` prints the time of a 6-unit battle.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable

AGGRESSOR, DEFENDER = "aggressor", "defender"
EXACT_LIMIT = 2_000_000    # masks x steps beyond which the battle is simulated (about 16 units)
SIM_RUNS, SIM_SEED, SIM_ROUNDS = 1000, 1, 30
SIM_BUDGET = 50_000       # firing steps a simulation may play out in all (it stops early, and says how many runs)


@dataclass(frozen=True)
class Fighter:
    """A unit in a battle, as the odds need it."""

    key: str
    side: str
    type: str
    attack: tuple[tuple[str, int | None], ...]     # (target type, Attack Value)
    defense: tuple[tuple[str, int | None], ...]    # (attacker type, Defense Score)
    phases: tuple[int, ...] = ()
    support_attack: int = 0
    support_defense: int = 0
    supports: tuple[str, ...] = ()
    bonus_attack: int = 0       # Kept Cards played this round
    bonus_defense: int = 0

    def att(self, target_type: str) -> int | None:
        return dict(self.attack).get(target_type)

    def dfn(self, attacker_type: str) -> int | None:
        return dict(self.defense).get(attacker_type)


@dataclass(frozen=True)
class BattleOdds:
    aggressor: float           # the chance the aggressor wins if both fight on
    defender: float
    method: str                # "exact" or "simulation"
    error: float = 0.0         # the simulation's standard error (0 for exact)
    states: int = 0
    runs: int = 0


def counts(actions: Iterable[int]) -> tuple[int, ...]:
    """The cards left as counts per Action Number (index = number)."""
    actions = list(actions)
    top = max(actions, default=0)
    found = [0] * (top + 1)
    for a in actions:
        found[a] += 1
    return tuple(found)


def shot_chance(pool: tuple[int, ...], attack: int, defense: int) -> Fraction:
    """The cards in (defense, attack] over the cards left."""
    total = sum(pool)
    if total == 0:
        return Fraction(0)
    good = sum(n for a, n in enumerate(pool) if defense < a <= attack)
    return Fraction(good, total)


# -- one battle, its rules as the odds play them ---------------------------------------------------
class _Battle:
    """A battle as the odds play it, with everything that does not change precomputed: the firing
    order, each shooter's supporters, each pair's values, the chance of each (attack, defense)."""

    def __init__(self, fighters: tuple[Fighter, ...], pool: tuple[int, ...], must_destroy: tuple[str, ...],
                 numbers: tuple[int, ...] = tuple(range(1, 10))):
        self.fighters, self.pool, self.must_destroy, self.numbers = fighters, pool, must_destroy, numbers
        n = len(fighters)
        self.side = [f.side for f in fighters]
        self.members = {s: [i for i in range(n) if self.side[i] == s] for s in (AGGRESSOR, DEFENDER)}
        self.enemies = [self.members[DEFENDER if s == AGGRESSOR else AGGRESSOR] for s in self.side]
        self.steps = [(phase, side, i) for phase in (1, 2, 3, 4) for side in (AGGRESSOR, DEFENDER)
                      for i in self.members[side] if phase in fighters[i].phases]
        # Attack supporters of each shooter, best first; defense supporters of each target, best first.
        self.attack_support = [sorted((j for j in self.members[self.side[i]] if j != i and fighters[j].support_attack
                                       and fighters[i].type in fighters[j].supports),
                                      key=lambda j: -fighters[j].support_attack) for i in range(n)]
        self.defense_support = [sorted((j for j in self.members[self.side[i]] if j != i and fighters[j].support_defense
                                        and fighters[i].type in fighters[j].supports),
                                       key=lambda j: -fighters[j].support_defense) for i in range(n)]
        self.base: list[list[tuple[int, int] | None]] = [[None] * n for _ in range(n)]
        for i, f in enumerate(fighters):
            for j in self.enemies[i]:
                t = fighters[j]
                a, d = f.att(t.type), t.dfn(f.type)
                if a is not None and d is not None:
                    self.base[i][j] = (a + f.bonus_attack, d + t.bonus_defense)
        self.cum = [0]
        for count in pool:
            self.cum.append(self.cum[-1] + count)
        self.total = self.cum[-1]
        self._decisions: dict[tuple[int, int], tuple[int, float, int, int] | None] = {}
        self._outcomes: dict[int, float | None] = {}

    def chance(self, attack: int, defense: int) -> float:
        """The cards in (defense, attack] over the cards left."""
        if not self.total or attack <= defense:
            return 0.0
        top = len(self.pool) - 1
        return (self.cum[min(attack, top) + 1] - self.cum[min(max(defense, -1), top) + 1]) / self.total

    def alive(self, mask: int, side: str) -> list[int]:
        return [i for i in self.members[side] if mask >> i & 1]

    def decision(self, mask: int, step: int) -> tuple[int, float, int, int] | None:
        """What the shooter of a step does in an alive set (the policy): (target, chance, attack, defense),
        or None when it is out of the fight or has no legal target. Memoized: the DP and the
        simulation ask the same questions many times."""
        key = (mask, step)
        if key not in self._decisions:
            shooter = self.steps[step][2]
            found = None
            if mask >> shooter & 1:
                found = self.best_shot(mask, shooter, self.used_support(mask, step))
            self._decisions[key] = found
        return self._decisions[key]

    def used_support(self, mask: int, step: int) -> tuple[int, ...]:
        """Supporters already used in this volley by the shooters before this step (the policy: best first)."""
        phase, side, _ = self.steps[step]
        used: tuple[int, ...] = ()
        j = step - 1
        while j >= 0 and self.steps[j][:2] == (phase, side):
            j -= 1
        for k in range(j + 1, step):
            shooter = self.steps[k][2]
            if mask >> shooter & 1 and self.best_shot(mask, shooter, used) is not None:
                sup = self.best_supporter(mask, shooter, used)
                if sup is not None:
                    used += (sup,)
        return used

    def best_supporter(self, mask: int, shooter: int, used: tuple[int, ...]) -> int | None:
        return next((j for j in self.attack_support[shooter] if mask >> j & 1 and j not in used), None)

    def values(self, mask: int, shooter: int, target: int, support: int | None) -> tuple[int, int] | None:
        base = self.base[shooter][target]
        if base is None:
            return None
        a = base[0] + (self.fighters[support].support_attack if support is not None else 0)
        guard = next((j for j in self.defense_support[target] if mask >> j & 1), None)
        d = base[1] + (self.fighters[guard].support_defense if guard is not None else 0)
        return (a, d) if a >= d else None

    def best_shot(self, mask: int, shooter: int, used: tuple[int, ...]) -> tuple[int, float, int, int] | None:
        """(target, chance, attack, defense) of the likeliest hit, or None when there is no legal target."""
        sup = self.best_supporter(mask, shooter, used)
        best = None
        for target in self.enemies[shooter]:
            if not mask >> target & 1:
                continue
            v = self.values(mask, shooter, target, sup)
            if v is None:
                continue
            p = self.chance(v[0], v[1])
            if best is None or p > best[1]:
                best = (target, p, v[0], v[1])
        return best

    def outcome(self, mask: int) -> float | None:
        """1.0 the aggressor has won, 0.0 the defender has, None the battle goes on."""
        if mask not in self._outcomes:
            self._outcomes[mask] = self._outcome(mask)
        return self._outcomes[mask]

    def _outcome(self, mask: int) -> float | None:
        defenders, aggressors = self.alive(mask, DEFENDER), self.alive(mask, AGGRESSOR)
        if not defenders:
            return 1.0
        if not aggressors:
            return 0.0
        if self.must_destroy and not any(self.fighters[i].type in self.must_destroy for i in defenders):
            return 1.0
        if self.stalemate(mask):
            return 0.0   # "the aggressor MUST withdraw his forces, allowing the defender to win"
        return None

    def stalemate(self, mask: int) -> bool:
        for i, f in enumerate(self.fighters):
            if not (mask >> i & 1) or not f.phases:
                continue
            sup = self.best_supporter(mask, i, ())
            for t in self.enemies[i]:
                v = self.values(mask, i, t, sup) if mask >> t & 1 else None
                if v is not None and any(v[1] < n <= v[0] for n in self.numbers):
                    return False
        return True


def battle_odds(fighters: Iterable[Fighter], pool: tuple[int, ...], must_destroy: Iterable[str] = (),
                next_step: int = 0, alive: Iterable[str] | None = None,
                numbers: tuple[int, ...] = tuple(range(1, 10))) -> BattleOdds:
    """The chance each side wins if both fight on, from a position in the round (the shooter at
    ``next_step`` of the round's firing order fires next; ``alive`` the units still fighting)."""
    return _battle_odds(tuple(fighters), tuple(pool), tuple(must_destroy), next_step,
                        None if alive is None else tuple(alive), tuple(numbers))


@lru_cache(maxsize=32)   # the tablet, the phones and the buttons ask the same question of one state
def _battle_odds(fighters: tuple[Fighter, ...], pool: tuple[int, ...], must_destroy: tuple[str, ...],
                 next_step: int, alive: tuple[str, ...] | None, numbers: tuple[int, ...]) -> BattleOdds:
    plain = tuple(Fighter(**{**f.__dict__, "bonus_attack": 0, "bonus_defense": 0}) for f in fighters)
    keys = [f.key for f in fighters]
    mask = sum(1 << i for i, k in enumerate(keys) if alive is None or k in alive)
    later = _Battle(plain, pool, must_destroy, numbers)
    size = (1 << len(fighters)) * max(1, len(later.steps))
    if size > EXACT_LIMIT:
        return simulate(fighters, pool, must_destroy, mask, numbers=numbers)
    round_start = _round_values(later)
    now = _Battle(fighters, pool, must_destroy, numbers)
    p = _current_round(now, round_start, mask, min(next_step, len(now.steps)))
    return BattleOdds(p, 1.0 - p, "exact", 0.0, size)


def _round_values(b: _Battle):
    """V(mask) at a round's start with no bonuses: for each alive set, V = a + b·V around the round."""
    n_steps = len(b.steps)

    @lru_cache(maxsize=None)
    def start(mask: int) -> float:
        done = b.outcome(mask)
        if done is not None:
            return done
        a, bb = step_coeffs(mask)[0]
        return a / (1.0 - bb) if bb < 1.0 else 0.0   # nobody can hit: the stalemate the defender wins

    @lru_cache(maxsize=None)
    def step_coeffs(mask: int) -> list[tuple[float, float]]:
        """For each step i: V(mask, i) = a_i + b_i·V(mask, 0)."""
        out = [(0.0, 1.0)] * (n_steps + 1)
        for i in range(n_steps - 1, -1, -1):
            a_next, b_next = out[i + 1]
            shot = b.decision(mask, i)
            if shot is None or shot[1] == 0.0:
                out[i] = (a_next, b_next)
                continue
            target, p = shot[:2]
            out[i] = (p * value(mask & ~(1 << target), i + 1) + (1 - p) * a_next, (1 - p) * b_next)
        return out

    def value(mask: int, i: int) -> float:
        done = b.outcome(mask)
        if done is not None:
            return done
        a, bb = step_coeffs(mask)[i]
        return a + bb * start(mask)

    return start


def _current_round(b: _Battle, start, mask: int, step: int) -> float:
    """The rest of this round (with the Kept Cards played in it), then the bonus-free rounds."""
    @lru_cache(maxsize=None)
    def w(mask: int, i: int) -> float:
        done = b.outcome(mask)
        if done is not None:
            return done
        if i >= len(b.steps):
            return start(mask)
        shot = b.decision(mask, i)
        if shot is None:
            return w(mask, i + 1)
        target, p = shot[:2]
        return p * w(mask & ~(1 << target), i + 1) + (1 - p) * w(mask, i + 1)

    return w(mask, step)


def simulate(fighters: tuple[Fighter, ...], pool: tuple[int, ...], must_destroy: tuple[str, ...], mask: int,
             runs: int = SIM_RUNS, seed: int = SIM_SEED, numbers: tuple[int, ...] = tuple(range(1, 10))) -> BattleOdds:
    """Seeded play-outs, cards drawn without replacement (the pool reshuffled when it runs out), as many as
    ``runs`` or the step budget allows. A play-out still undecided after SIM_ROUNDS rounds is not counted."""
    b = _Battle(fighters, pool, must_destroy, numbers)
    rng = random.Random(seed)
    cards = [a for a, n in enumerate(pool) for _ in range(n)]
    outcome = lru_cache(maxsize=None)(b.outcome)
    wins = decided = played = steps = 0
    while played < runs and (steps < SIM_BUDGET or decided < 30):
        played += 1
        deck: list[int] = []
        m = mask
        result = None
        for _round in range(SIM_ROUNDS):
            steps += len(b.steps)
            for i in range(len(b.steps)):
                result = outcome(m)
                if result is not None:
                    break
                shot = b.decision(m, i)
                if shot is None:
                    continue
                if not deck:
                    deck = cards[:]
                    rng.shuffle(deck)
                action = deck.pop()
                target, _, att, dfn = shot
                if dfn < action <= att:
                    m &= ~(1 << target)
            result = outcome(m) if result is None else result
            if result is not None:
                break
        wins += result == 1.0
        decided += result is not None
    p = wins / decided if decided else 0.0
    return BattleOdds(p, 1 - p, "simulation", math.sqrt(p * (1 - p) / max(decided, 1)), 0, decided)
