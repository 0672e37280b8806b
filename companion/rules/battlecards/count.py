"""The exact count of a battle's odds (odds.py asks it): the battle as the odds play it (the policy), the
kinds of cards a battle tells apart, and the states memoised over the deck's composition. Pure."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterator, Protocol

from .question import AGGRESSOR, DEFENDER, Fighter, fold

__all__ = ["AGGRESSOR", "DEFENDER", "Exact", "PlayedBattle", "estimate", "played", "fold", "fold_kinds", "kinds_of", "projection",
           "round_rest"]


# -- one battle, its rules as the odds play them ---------------------------------------------------
class PlayedBattle:
    """A battle as the odds play it, with everything that does not change precomputed: the firing order,
    each shooter's supporters, each pair's values. ``reference``: the cards of a whole deck, by which a
    unit picks its likeliest target."""

    def __init__(self, fighters: tuple[Fighter, ...], must_destroy: tuple[str, ...], numbers: tuple[int, ...],
                 reference: tuple[int, ...]):
        self.fighters, self.must_destroy, self.numbers, self.reference = fighters, must_destroy, numbers, reference
        n = len(fighters)
        self.side = [f.side for f in fighters]
        self.members = {s: [i for i in range(n) if self.side[i] == s] for s in (AGGRESSOR, DEFENDER)}
        self.enemies = [self.members[DEFENDER if s == AGGRESSOR else AGGRESSOR] for s in self.side]
        self.steps = [(phase, side, i) for phase in (1, 2, 3, 4) for side in (AGGRESSOR, DEFENDER)
                      for i in self.members[side] if phase in fighters[i].phases]
        self.attack_support = [sorted((j for j in self.members[self.side[i]] if j != i and fighters[j].support_attack
                                       and fighters[i].type in fighters[j].supports),
                                      key=lambda j: -fighters[j].support_attack) for i in range(n)]
        self.defense_support = [sorted((j for j in self.members[self.side[i]] if j != i and fighters[j].support_defense
                                        and fighters[i].type in fighters[j].supports),
                                       key=lambda j: -fighters[j].support_defense) for i in range(n)]
        self.base: list[list[tuple[int, int] | None]] = [[None] * n for _ in range(n)]
        attack, defense = [dict(f.attack) for f in fighters], [dict(f.defense) for f in fighters]   # (once, not a pair)
        for i, f in enumerate(fighters):
            for j in self.enemies[i]:
                t = fighters[j]
                a, d = attack[i].get(t.type), defense[j].get(f.type)
                if a is not None and d is not None:
                    self.base[i][j] = (a + f.bonus_attack, d + t.bonus_defense)
        # The units a shooter's best shot depends on: its targets, their guards (defense support) and its own
        # supporters. Its best shot is memoised on those alone, so alive sets that differ elsewhere share it.
        self.relevant = [sum(1 << j for j in {*self.enemies[i], *self.attack_support[i],
                                              *(g for t in self.enemies[i] for g in self.defense_support[t])})
                         for i in range(n)]
        # A step's shot depends on its shooter's units and those of the shooters before it in the same volley
        # (the supporters they used): its decision is memoised on those alone.
        self.step_relevant = []
        for step, (phase, side, shooter) in enumerate(self.steps):
            bits, j = 1 << shooter | self.relevant[shooter], step - 1
            while j >= 0 and self.steps[j][:2] == (phase, side):
                bits |= 1 << self.steps[j][2] | self.relevant[self.steps[j][2]]
                j -= 1
            self.step_relevant.append(bits)
        self._decisions: dict[tuple[int, int], tuple[int, int, int] | None] = {}
        self._outcomes: dict[int, float | None] = {}
        self._pairs: dict[int, frozenset[tuple[int, int]]] = {}
        self._reach: dict[tuple[int, int], int] = {}
        self._best: dict[tuple[int, int, tuple[int, ...]], tuple[int, int, int] | None] = {}
        self._used: dict[tuple[int, int], tuple[int, ...]] = {}

    def pairs(self, mask: int) -> frozenset[tuple[int, int]]:
        """Every (Attack, Defense) a shot of the policy may compare an Action Number with, from this alive set
        on (fewer units alive, fewer pairs: each alive set counts the cards in its own kinds)."""
        if mask not in self._pairs:
            found = set()
            if self.outcome(mask) is None:
                found |= {d[1:] for d in (self.decision(mask, t) for t in range(len(self.steps))) if d}
                for i in range(len(self.fighters)):
                    if mask >> i & 1:
                        found |= self.pairs(mask & ~(1 << i))
            self._pairs[mask] = frozenset(found)
        return self._pairs[mask]

    def reach(self, attack: int, defense: int) -> int:
        found = self._reach.get((attack, defense))
        if found is None:
            found = self._reach[(attack, defense)] = sum(n for a, n in enumerate(self.reference) if defense < a <= attack)
        return found

    def alive(self, mask: int, side: str) -> list[int]:
        return [i for i in self.members[side] if mask >> i & 1]

    def decision(self, mask: int, step: int) -> tuple[int, int, int] | None:
        """What the shooter of a step does in an alive set (the policy): (target, attack, defense), or None
        when it is out of the fight or has no legal target. Memoised."""
        key = (mask & self.step_relevant[step], step)
        try:            # one look-up when memoised (most calls), and a memoised None is an answer
            return self._decisions[key]
        except KeyError:
            pass
        shooter = self.steps[step][2]
        found = None
        if mask >> shooter & 1:
            found = self.best_shot(mask, shooter, self.used_support(mask, step))
        self._decisions[key] = found
        return found

    def used_support(self, mask: int, step: int) -> tuple[int, ...]:
        """Supporters already used in this volley by the shooters before this step (the policy: best first)."""
        key = (mask & self.step_relevant[step], step)
        if key not in self._used:
            self._used[key] = self._used_support(mask, step)
        return self._used[key]

    def _used_support(self, mask: int, step: int) -> tuple[int, ...]:
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

    def best_shot(self, mask: int, shooter: int, used: tuple[int, ...]) -> tuple[int, int, int] | None:
        """(target, attack, defense) of the likeliest hit, or None when there is no legal target. Memoised."""
        key = (mask & self.relevant[shooter], shooter, tuple(j for j in used if j in self.attack_support[shooter]))
        try:            # one look-up when memoised (most calls), and a memoised None is an answer
            return self._best[key]
        except KeyError:
            found = self._best[key] = self._best_shot(mask, shooter, used)
            return found

    def _best_shot(self, mask: int, shooter: int, used: tuple[int, ...]) -> tuple[int, int, int] | None:
        sup = self.best_supporter(mask, shooter, used)
        best, best_reach = None, -1
        for target in self.enemies[shooter]:
            if not mask >> target & 1:
                continue
            v = self.values(mask, shooter, target, sup)
            if v is not None:
                reach = self.reach(*v)
                if reach > best_reach:
                    best, best_reach = (target, v[0], v[1]), reach
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


@lru_cache(maxsize=16)   # one a battle (and Kept Cards played): its questions, counted or simulated, share the policy worked out
def played(fighters: tuple[Fighter, ...], must_destroy: tuple[str, ...], numbers: tuple[int, ...],
           reference: tuple[int, ...]) -> PlayedBattle:
    """The battle as the odds play it, one for every question asked of it."""
    return PlayedBattle(fighters, must_destroy, numbers, reference)


@lru_cache(maxsize=1024)   # asked of the same pairs by the estimate, the count and its compiled hand-over
def kinds_of(pairs: frozenset[tuple[int, int]], top: int) -> tuple[tuple[int, ...], int]:
    """Action Numbers 0..top grouped into kinds: two numbers of one kind hit or miss together in every shot
    with these (Attack, Defense) pairs, so only how many cards of each kind are left matters."""
    kind: list[int] = []
    seen: dict[tuple[bool, ...], int] = {}
    order = sorted(pairs)
    for n in range(top + 1):
        kind.append(seen.setdefault(tuple(d < n <= a for a, d in order), len(seen)))
    return tuple(kind), len(seen)


def fold_kinds(r: tuple[int, ...], proj: tuple[int, ...], kinds: int) -> tuple[int, ...]:
    out = [0] * kinds
    for k, n in enumerate(r):
        if n:
            out[proj[k]] += n
    return tuple(out)


@lru_cache(maxsize=256)   # asked again for every end of a round counted with its Kept Cards (round_rest)
def projection(fine: tuple[int, ...], coarse: tuple[int, ...]) -> tuple[int, ...]:
    """Each kind of the fine grouping to its kind in the coarse one (the coarse groups whole fine kinds)."""
    rep: dict[int, int] = {}
    for n, k in enumerate(fine):
        rep.setdefault(k, n)
    return tuple(coarse[rep[k]] for k in range(len(rep)))


@lru_cache(maxsize=512)   # the same few shots, asked by every alive set and every composition a round meets
def _hit_kinds(kind: tuple[int, ...], kinds: int, attack: int, defense: int) -> tuple[bool, ...]:
    """Which kinds of card a shot hits (an Action Number in (defense, attack])."""
    hit = [False] * kinds
    for n, k in enumerate(kind):
        hit[k] = hit[k] or defense < n <= attack
    return tuple(hit)


# -- the exact count ----------------------------------------------------------------------------------
Space = tuple[tuple[int, ...], int, tuple[int, ...]]
"""An alive set's kinds: (kind of each Action Number, how many kinds, the refill by kind)."""
Shot = tuple[int, tuple[bool, ...], int, float | None, tuple[int, ...] | None, int]
"""A shot at a step: (target, kinds it hits, the alive set after a hit, its outcome, each kind here to its kind
there or None when the battle is over, how many kinds there)."""


class Exact:
    """The chance the aggressor wins from (alive set, step, cards left by kind), every later deck the refill.
    Each alive set counts the cards in its own kinds (fewer units tell fewer numbers apart).

    ``lin(mask, s, r)`` is (a, b, g): the value is a + b·X, X the value at the refill with the same units
    alive, the unit at step g firing next (draws under one alive set follow one order, so g is fixed)."""

    def __init__(self, battle: PlayedBattle, refill: tuple[int, ...], top: int):
        self.b, self.refill_numbers, self.top = battle, refill, top
        self.n = len(battle.steps)
        self._lin: dict[tuple[int, int, tuple[int, ...]], tuple[float, float, int]] = {}
        self._solved: dict[tuple[int, int], float] = {}
        self._draws: dict[tuple[int, int], int | None] = {}
        self._spaces: dict[int, Space] = {}
        self._shots: dict[tuple[int, int], Shot] = {}

    def space(self, mask: int) -> Space:
        """(kind of each Action Number, how many kinds, the refill by kind) for an alive set."""
        if mask not in self._spaces:
            kind, kinds = kinds_of(self.b.pairs(mask), self.top)
            self._spaces[mask] = (kind, kinds, fold(self.refill_numbers, kind, kinds))
        return self._spaces[mask]

    def refill(self, mask: int) -> tuple[int, ...]:
        return self.space(mask)[2]

    def next_draw(self, mask: int, s: int) -> int | None:
        key = (mask, s)
        if key not in self._draws:
            self._draws[key] = next(((s + j) % self.n for j in range(self.n)
                                     if self.b.decision(mask, (s + j) % self.n) is not None), None)
        return self._draws[key]

    def shot(self, mask: int, t: int) -> Shot:
        """The shot at step t (one ``next_draw`` found: someone fires there): (target, kinds it hits, the alive
        set after a hit, its outcome, each kind here to its kind there (None when it is over), kinds there)."""
        key = (mask, t)
        if key not in self._shots:
            decision = self.b.decision(mask, t)
            assert decision is not None, "next_draw picks a step whose shooter fires"
            target, attack, defense = decision
            kind, kinds, _ = self.space(mask)
            hit = _hit_kinds(kind, kinds, attack, defense)
            after = mask & ~(1 << target)
            done = self.b.outcome(after)
            proj = None if done is not None else projection(kind, self.space(after)[0])
            self._shots[key] = (target, hit, after, done, proj, self.space(after)[1])
        return self._shots[key]

    def reserve(self, states: int) -> None:
        """The states a question may need (the compiled count makes its table that size; a dict grows alone)."""

    def lin(self, mask: int, s: int, r: tuple[int, ...]) -> tuple[float, float, int]:
        key = (mask, s, r)
        found = self._lin.get(key)
        if found is None:
            found = self._lin[key] = self._count(mask, s, r)
        return found

    def _count(self, mask: int, s: int, r: tuple[int, ...]) -> tuple[float, float, int]:
        done = self.b.outcome(mask)
        if done is not None:
            return done, 0.0, -1
        t = self.next_draw(mask, s)
        if t is None:
            return 0.0, 0.0, -1
        total = sum(r)
        if not total:
            return 0.0, 1.0, t
        _, hit, after_mask, after_done, proj, after_kinds = self.shot(mask, t)
        after, a, b, g = (t + 1) % self.n, 0.0, 0.0, -1
        missed = self.next_draw(mask, after)    # (the step that fires next after a miss: see value; t at the latest)
        for k, left in enumerate(r):
            if not left:
                continue
            p = left / total
            if hit[k]:
                if after_done is not None:
                    a += p * after_done
                else:
                    rest = r[:k] + (left - 1,) + r[k + 1:]
                    assert proj is not None, "a shot whose battle goes on maps its kinds on"
                    a += p * self.value(after_mask, after, fold_kinds(rest, proj, after_kinds))
            else:
                a2, b2, g2 = self.lin(mask, missed if missed is not None else after, r[:k] + (left - 1,) + r[k + 1:])
                a, b = a + p * a2, b + p * b2
                g = g2 if b2 else g
        return a, b, g

    def value(self, mask: int, s: int, r: tuple[int, ...]) -> float:
        # counted from the step that fires next, not the step asked (the count is the same from any step before
        # it): an alive set then holds a state for each of its shooters, however many units the battle began with
        fires = self.next_draw(mask, s) if self.b.outcome(mask) is None else None
        s = s if fires is None else fires
        a, b, g = self.lin(mask, s, r)
        return a + b * self.at_refill(mask, g) if b else a

    def at_refill(self, mask: int, g: int) -> float:
        """X: the value at a fresh refill, solved around the cycle of refills (from its lowest step, so the
        figure does not depend on which query asked first)."""
        if (mask, g) not in self._solved:
            self._solve(mask, g)
        return self._solved[(mask, g)]

    def _solve(self, mask: int, g: int) -> None:
        path: list[tuple[int, float, float, int]] = []
        seen: dict[int, int] = {}
        step = g
        while step >= 0 and step not in seen and (mask, step) not in self._solved:
            seen[step] = len(path)
            a, b, nxt = self.lin(mask, step, self.refill(mask))
            path.append((step, a, b, nxt if b else -1))
            step = nxt if b else -1
        if step >= 0 and step in seen:          # a cycle of refills: solve it from its lowest step
            cycle = path[seen[step]:]
            path = path[:seen[step]]
            low = min(range(len(cycle)), key=lambda i: cycle[i][0])
            cycle = cycle[low:] + cycle[:low]
            gain, carry = 0.0, 1.0
            for _, a, b, _ in cycle:
                gain, carry = gain + carry * a, carry * b
            # No card of any deck to come can hit: the battle never ends, and the defender holds it.
            self._solved[(mask, cycle[0][0])] = gain / (1.0 - carry) if carry < 1.0 - 1e-12 else 0.0
            for st, a, b, nxt in reversed(cycle[1:]):
                self._solved[(mask, st)] = a + b * self._solved[(mask, nxt)]
        for st, a, b, nxt in reversed(path):
            self._solved[(mask, st)] = a + (b * self._solved[(mask, nxt)] if b else 0.0)


def least_states(battle: PlayedBattle, mask: int, refill: tuple[int, ...]) -> int:
    """A lower bound of ``estimate``, cheap: the alive set's own term, its kinds told apart by its own shots
    alone. The smaller alive sets' pairs (``pairs``, which walks every one of them) only split these kinds,
    and a kind split in two multiplies its compositions, never divides them ((a + 1)(b + 1) >= a + b + 1);
    a kind every shot here hits is split into kinds every shot here hits, which count 1 as it does."""
    if battle.outcome(mask) is not None:
        return 0
    shots = [d for d in (battle.decision(mask, t) for t in range(len(battle.steps))) if d]
    kind, kinds = kinds_of(frozenset(d[1:] for d in shots), len(refill) - 1)
    return len(shots) * _compositions(shots, kind, kinds, refill)


def _compositions(shots: list[tuple[int, int, int]], kind: tuple[int, ...], kinds: int, refill: tuple[int, ...]) -> int:
    """The compositions of the refill in these kinds that the count may meet: a kind every shot hits never
    shrinks (a hit ends a state's stay at this alive set)."""
    missed = [False] * kinds
    for shot in shots:
        for n, k in enumerate(kind):
            missed[k] = missed[k] or not shot[2] < n <= shot[1]
    return math.prod(n + 1 for n, miss in zip(fold(refill, kind, kinds), missed, strict=True) if miss)


def subsets(mask: int) -> Iterator[int]:
    """The alive sets under ``mask``, itself first, largest numbers first (as ``range(mask, -1, -1)`` filtered, but
    without walking every number below it: two units of an 18-unit battle are 4 sets, not 2^17 numbers)."""
    m = mask
    while True:
        yield m
        if not m:
            return
        m = (m - 1) & mask


def estimate(battle: PlayedBattle, mask: int, refill: tuple[int, ...], limit: int | None = None) -> int:
    """The states the count may need, estimated (the budget's measure, not a bound): for each alive set under
    ``mask`` still fighting, its steps that fire x the compositions of the refill in its kinds, those every
    shot there hits left out (they never shrink during a stay there; but a stay may begin with fewer of them,
    so a count can meet more states than this: hypothesis found 531 for 519). Past ``limit`` the rest are not
    added up (the largest alive sets first: they weigh most)."""
    total = 0
    for m in subsets(mask):
        if battle.outcome(m) is not None:
            continue
        kind, kinds = kinds_of(battle.pairs(m), len(refill) - 1)
        shots = [d for d in (battle.decision(m, t) for t in range(len(battle.steps))) if d]
        total += len(shots) * _compositions(shots, kind, kinds, refill)     # (a state a step that fires: see value)
        if limit is not None and total > limit:
            break
    return total


class Counted(Protocol):
    """What the rounds after the Kept Cards' round are asked of: ``Exact``, or it compiled (compiled.py)."""

    def space(self, mask: int) -> Space: ...

    def value(self, mask: int, s: int, r: tuple[int, ...]) -> float: ...

    def reserve(self, states: int) -> None: ...


def round_rest(now: PlayedBattle, later: Counted, kind: tuple[int, ...], refill: tuple[int, ...], mask: int, i: int,
                r: tuple[int, ...], memo: dict[tuple[int, int, tuple[int, ...]], float]) -> float:
    """The rest of this round with the Kept Cards played in it (counted in this query's kinds), then the
    rounds without them."""
    key = (mask, i, r)
    if key in memo:
        return memo[key]
    done = now.outcome(mask)
    if done is not None:
        return done
    if i >= len(now.steps):
        kind_there, kinds_there, _ = later.space(mask)
        memo[key] = later.value(mask, 0, fold_kinds(r, projection(kind, kind_there), kinds_there))
        return memo[key]
    shot = now.decision(mask, i)
    if shot is None:
        return round_rest(now, later, kind, refill, mask, i + 1, r, memo)
    if not sum(r):
        r = refill
    if not sum(r):
        return 0.0      # no card at all to turn: nothing can be hit
    target, attack, defense = shot
    hit = _hit_kinds(kind, len(r), attack, defense)
    total, p = sum(r), 0.0
    for k, left in enumerate(r):
        if left:
            rest = r[:k] + (left - 1,) + r[k + 1:]
            after = mask & ~(1 << target) if hit[k] else mask
            p += left / total * round_rest(now, later, kind, refill, after, i + 1, rest, memo)
    memo[key] = p
    return p
