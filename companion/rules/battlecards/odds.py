"""The odds of a shot and of a battle, exact: cards drawn without replacement from the CONFLICT cards the
public can know are left, the discard pile reshuffled into a new deck when the deck runs out. Pure: no
clock, and the one simulation is seeded.

What anyone can know (``Cards``): every CONFLICT card turned face up since the last shuffle is seen, so the
cards not seen (``unseen``) are the deck plus the Kept Cards held face down since then (``hidden`` of them,
each a "Keep this card" card: ``keepable``). The held ones are equally likely to be any of the unseen
keepable cards, so the deck's composition is a hypergeometric mixture, and the order of the deck is
uniform. "When the CONFLICT deck ... has been completely discarded, flip the corresponding discard stack
over and reshuffle the cards": the next deck is the pile (``discard``) with every card turned meanwhile,
and in a battle every card turned goes to the pile, so each deck after the first is that same ``refill``.

A shot "hits" on an Action Number in (Defense, Attack]. A battle's odds are computed over its states
(which units are still fighting, which unit fires next, and how many cards of each kind are left in the
deck), memoised over the deck's composition; only the Action Numbers' classes that some shot tells apart
are counted ("kinds"). Within one set of units the draws cycle through the refill, so the value at a
refill solves V = a + b·V around the cycle. The policy the odds assume: every unit fires at the target it
is likeliest to destroy (with the cards of a whole deck), with the best support not yet used this phase;
nobody withdraws; the Kept Cards already played count for the rest of their round, no more are played.
The count itself (the battle as the odds play it, the kinds, the memoised states) is in ``count.py``. A
battle too large to count in the budget (``STATE_LIMIT``) is simulated: seeded, bounded in play-outs and
cards (never in time), every play-out at once with numpy, its error stated.

``python -m companion.rules.battlecards.bench`` prints the time of a query for every battle of the set, and
the fold of a whole demo game with and without the odds.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Iterable, Sequence

import numpy as np

from .count import AGGRESSOR, DEFENDER, Exact, PlayedBattle, estimate, fold, fold_kinds, kinds_of, projection, round_rest

__all__ = ["AGGRESSOR", "DEFENDER", "BattleOdds", "Cards", "Fighter", "battle_odds", "counts", "shot_chance", "simulate"]

STATE_LIMIT = 2_000         # the estimated states beyond which a battle is simulated (a query stays near 5 ms)
EXACT_UNITS = 6             # beyond this many units the states are not even estimated: the battle is simulated
SIM_RUNS, SIM_SEED = 2_000, 1   # play-outs of a simulated battle: a standard error of at most 1.1 points
DENSE_STATES = 1 << 18      # a simulated battle's states laid out in a table up to this many, else hashed
SIM_TAIL = 500              # stop when no more than 1 play-out in this many is still undecided
SIM_ROUNDS = 60             # a play-out still undecided after so many rounds is not counted


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
class Cards:
    """What the public (or one seat) can know of a CONFLICT deck: counts per Action Number (index = number)."""

    unseen: tuple[int, ...]          # not seen face up since the last shuffle: the deck and the Kept Cards held
    hidden: int = 0                  # how many of those are held face down, out of the deck
    keepable: tuple[int, ...] = ()   # the unseen cards the held ones may be ("Keep this card" cards)
    discard: tuple[int, ...] = ()    # the discard pile, reshuffled (with the cards turned meanwhile) next

    @property
    def left(self) -> int:
        return sum(self.unseen) - self.hidden


@dataclass(frozen=True)
class BattleOdds:
    aggressor: float           # the chance the aggressor wins if both fight on
    defender: float
    method: str                # "exact" or "simulation"
    error: float = 0.0         # the simulation's standard error (0 for exact)
    states: int = 0            # exact: the states counted (estimate); simulation: 0
    runs: int = 0


def counts(actions: Iterable[int]) -> tuple[int, ...]:
    """The cards as counts per Action Number (index = number)."""
    actions = list(actions)
    found = [0] * (max(actions, default=0) + 1)
    for a in actions:
        found[a] += 1
    return tuple(found)


def as_cards(cards: Cards | Sequence[int]) -> Cards:
    """A bare pool of counts is a deck with nothing held back and an empty discard pile."""
    return cards if isinstance(cards, Cards) else Cards(tuple(cards))


# -- the decks the public cannot tell apart --------------------------------------------------------------
def decks(cards: Cards, kind: Sequence[int], kinds: int) -> list[tuple[Fraction, tuple[int, ...], tuple[int, ...]]]:
    """(weight, deck, refill) for each deck the public cannot rule out, by kinds of card: the held Kept Cards
    are any ``hidden`` of the unseen keepable cards, all choices alike."""
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard))
    kind = list(kind) + [0] * max(0, top - len(kind))
    unseen, pile = fold(cards.unseen, kind, kinds), fold(cards.discard, kind, kinds)
    keep = fold(cards.keepable, kind, kinds) if cards.hidden <= sum(cards.keepable) else unseen
    held = max(0, min(cards.hidden, sum(keep)))
    found = []
    for h in product(*(range(min(k, held) + 1) for k in keep)):
        if sum(h) != held:
            continue
        weight = Fraction(math.prod(math.comb(k, x) for k, x in zip(keep, h, strict=True)), math.comb(sum(keep), held))
        deck = tuple(max(0, u - x) for u, x in zip(unseen, h, strict=True))
        found.append((weight, deck, tuple(d + p for d, p in zip(deck, pile, strict=True))))
    return found


def shot_chance(cards: Cards | Sequence[int], attack: int, defense: int) -> Fraction:
    """The chance the next card turned is in (defense, attack]: the cards in range over the cards in the deck,
    over every deck the public cannot rule out (the reshuffled pile when the deck is empty)."""
    cards = as_cards(cards)
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), 1)
    kind = [1 if defense < n <= attack else 0 for n in range(top)]
    chance = Fraction(0)
    for weight, deck, refill in decks(cards, kind, 2):
        now = deck if sum(deck) else refill
        if sum(now):
            chance += weight * Fraction(now[1], sum(now))
    return chance


def battle_odds(fighters: Iterable[Fighter], cards: Cards | Sequence[int], must_destroy: Iterable[str] = (),
                next_step: int = 0, alive: Iterable[str] | None = None,
                numbers: tuple[int, ...] = tuple(range(1, 10))) -> BattleOdds:
    """The chance each side wins if both fight on, from a position in the round (the shooter at
    ``next_step`` of the round's firing order fires next; ``alive`` the units still fighting)."""
    return _battle_odds(tuple(fighters), as_cards(cards), tuple(must_destroy), next_step,
                        None if alive is None else tuple(alive), tuple(numbers))


@lru_cache(maxsize=64)   # the tablet, the phones, the outcomes and the buttons ask the same question of one state
def _battle_odds(fighters: tuple[Fighter, ...], cards: Cards, must_destroy: tuple[str, ...],
                 next_step: int, alive: tuple[str, ...] | None, numbers: tuple[int, ...]) -> BattleOdds:
    plain = tuple(Fighter(**{**f.__dict__, "bonus_attack": 0, "bonus_defense": 0}) for f in fighters)
    mask = sum(1 << i for i, f in enumerate(fighters) if alive is None or f.key in alive)
    reference = tuple(u + p for u, p in zip(*_same_length(cards.unseen, cards.discard), strict=True))
    if len(fighters) > EXACT_UNITS:
        return simulate(fighters, cards, must_destroy, mask, numbers=numbers, next_step=next_step)
    now = PlayedBattle(fighters, must_destroy, numbers, reference)
    later = PlayedBattle(plain, must_destroy, numbers, reference)
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), max(numbers, default=0) + 1)
    kind, kinds = kinds_of(now.pairs(mask) | later.pairs(mask), top)
    groups = _mixture(cards, kind, kinds, top)
    size = sum(estimate(later, mask, _same_length(refill, (0,) * (top + 1))[0]) for _, _, refill in groups)
    if size > STATE_LIMIT:
        return simulate(fighters, cards, must_destroy, mask, numbers=numbers, next_step=next_step)
    bonus = now.base != later.base
    step = min(next_step, len(now.steps))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))   # a frame or two per card turned
    try:
        p = 0.0
        for weight, deck, refill in groups:
            exact = _engine(plain, must_destroy, numbers, reference, refill, top)
            if bonus:
                won = round_rest(now, exact, kind, fold(refill, kind, kinds), mask, step, deck, {})
            else:
                won = exact.value(mask, step, fold_kinds(deck, projection(kind, exact.space(mask)[0]),
                                                          exact.space(mask)[1]))
            p += float(weight) * won
    finally:
        sys.setrecursionlimit(limit)
    return BattleOdds(p, 1.0 - p, "exact", 0.0, size)


def _mixture(cards: Cards, kind: tuple[int, ...], kinds: int, top: int):
    """The decks the public cannot rule out, grouped when they hold as many cards of each kind: (weight, deck
    by kind, refill by Action Number: the first of the group's, all of them counting alike)."""
    found: dict[tuple, list] = {}
    for weight, deck, refill in decks(cards, tuple(range(top + 1)), top + 1):
        key = (fold(deck, kind, kinds), fold(refill, kind, kinds))
        if key in found:
            found[key][0] += weight
        else:
            found[key] = [weight, key[0], refill]
    return [tuple(g) for g in found.values()]


def _same_length(*found: Sequence[int]) -> list[tuple[int, ...]]:
    top = max(len(f) for f in found)
    return [tuple(f) + (0,) * (top - len(f)) for f in found]


@lru_cache(maxsize=16)   # one per battle and refill: the next query of the same battle finds its states counted
def _engine(plain: tuple[Fighter, ...], must_destroy: tuple[str, ...], numbers: tuple[int, ...],
            reference: tuple[int, ...], refill: tuple[int, ...], top: int) -> Exact:
    return Exact(PlayedBattle(plain, must_destroy, numbers, reference), refill, top)


# -- the simulation, beyond the budget ---------------------------------------------------------------
def simulate(fighters: tuple[Fighter, ...], cards: Cards | Sequence[int], must_destroy: tuple[str, ...], mask: int,
             runs: int = SIM_RUNS, seed: int = SIM_SEED, numbers: tuple[int, ...] = tuple(range(1, 10)),
             next_step: int = 0) -> BattleOdds:
    """Seeded play-outs of the same model as the exact count, all ``runs`` of them at once (numpy): each a deck
    drawn from those the public cannot rule out, turned without replacement, then the refill reshuffled each
    time the deck runs out; the Kept Cards played count for the rest of their round. The work is bounded in
    cards, never in time: ``runs`` x at most SIM_ROUNDS rounds of shots; a play-out undecided by then is not
    counted (``runs`` says how many were)."""
    cards = as_cards(cards)
    reference = tuple(u + p for u, p in zip(*_same_length(cards.unseen, cards.discard), strict=True))
    fighters = tuple(fighters)
    plain = tuple(Fighter(**{**f.__dict__, "bonus_attack": 0, "bonus_defense": 0}) for f in fighters)
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), 1)
    mixture = decks(cards, list(range(top)), top)
    rng = np.random.default_rng(seed)
    group = rng.choice(len(mixture), size=runs, p=_weights(mixture))
    deck = np.array([_padded(d, top) for _, d, _ in mixture], dtype=np.int64)[group]
    refill = np.array([_padded(r, top) for _, _, r in mixture], dtype=np.int64)
    shots = _shots(fighters, plain, tuple(must_destroy), tuple(numbers), reference)
    wins, decided, cut = _play_out(shots, rng, mask,
                                   min(next_step, shots.n), deck, refill, group,
                                   SIM_ROUNDS * max(shots.n, 1))
    p = wins / decided if decided else 0.0
    # The error: the standard error of the play-outs decided, plus the most the ones cut off could move it.
    error = math.sqrt(p * (1 - p) / max(decided, 1)) + cut / runs
    return BattleOdds(p, 1 - p, "simulation", error, 0, decided)


@lru_cache(maxsize=8)    # one per battle: the next query of the same battle finds the states it met laid out
def _shots(fighters: tuple[Fighter, ...], plain: tuple[Fighter, ...], must_destroy: tuple[str, ...],
           numbers: tuple[int, ...], reference: tuple[int, ...]) -> Shots:
    later = PlayedBattle(plain, must_destroy, numbers, reference)
    return Shots(later if plain == fighters else PlayedBattle(fighters, must_destroy, numbers, reference), later)


def _weights(mixture) -> np.ndarray:
    w = np.array([float(weight) for weight, _, _ in mixture])
    return w / w.sum()


def _padded(by_number: Sequence[int], top: int) -> tuple[int, ...]:
    return tuple(by_number) + (0,) * (top - len(by_number))


class Shots:
    """What a play-out does from each state (alive set, step, first round or not), as a row: (what happens,
    the key's change on a hit, the shot's Defense, its Attack, the key's change on a miss). A state's key is
    ``(alive * (steps + 1) + step) * 2 + first``, so a play-out moves on by adding a row's changes."""

    UNKNOWN, FIRE, AGGRESSOR_WINS, DEFENDER_WINS = 0, 1, 2, 3

    def __init__(self, now: PlayedBattle, later: PlayedBattle):
        self.now, self.later, self.n = now, later, len(later.steps)
        self._memo: dict[int, tuple[int, ...]] = {}
        size = (1 << len(later.fighters)) * (self.n + 1) * 2
        self.laid_out = size <= DENSE_STATES
        self.table = np.zeros((size if self.laid_out else 1 << 14, 5), dtype=np.int64)
        self.block_of = None if self.laid_out else np.full(1 << len(later.fighters), -1, dtype=np.int64)
        self.blocks = 0

    def key(self, mask: int, step: int, first: bool) -> int:
        return (mask * (self.n + 1) + step) * 2 + int(first)

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """The rows of every play-out's state at once, from a table filled as states are met (laid out by key, or
        by alive sets met when the battle has too many states to lay out)."""
        at = keys if self.laid_out else self._places(keys)
        rows = self.table[at]
        unknown = rows[:, 0] == self.UNKNOWN
        if unknown.any():
            found, first = np.unique(at[unknown], return_index=True)
            self.table[found] = [self.lookup(int(k)) for k in keys[unknown][first]]
            rows = self.table[at]
        return rows

    def _places(self, keys: np.ndarray) -> np.ndarray:
        """Where each state's row is when the battle has too many states to lay out: the alive sets met get a
        block of rows each (one a step and round), in order of meeting."""
        per = 2 * (self.n + 1)
        masks, within = np.divmod(keys, per)
        block = self.block_of[masks]
        new = block < 0
        if new.any():
            fresh = np.unique(masks[new])
            self.block_of[fresh] = np.arange(self.blocks, self.blocks + len(fresh))
            self.blocks += len(fresh)
            if self.blocks * per > len(self.table):
                grown = np.zeros((max(2 * len(self.table), self.blocks * per), 5), dtype=np.int64)
                grown[:len(self.table)] = self.table
                self.table = grown
            block = self.block_of[masks]
        return block * per + within

    def lookup(self, key: int) -> tuple[int, ...]:
        found = self._memo.get(key)
        if found is None:
            rest, first = divmod(key, 2)
            mask, step = divmod(rest, self.n + 1)
            found = self._memo[key] = self._row(key, mask, step, bool(first))
        return found

    def _row(self, key: int, mask: int, step: int, first: bool) -> tuple[int, ...]:
        if first:
            if self.now.outcome(mask) is not None:
                return self._over(self.now.outcome(mask))
            for t in range(step, len(self.now.steps)):
                shot = self.now.decision(mask, t)
                if shot is not None:
                    return self._fire(key, mask, shot, t + 1, True)
            step = 0           # the round with the Kept Cards is over: the next ones without them
        done = self.later.outcome(mask)
        if done is not None:
            return self._over(done)
        for j in range(self.n):
            t = (step + j) % self.n
            shot = self.later.decision(mask, t)
            if shot is not None:
                return self._fire(key, mask, shot, (t + 1) % self.n, False)
        return self._over(0.0)    # nobody can fire: the defender holds the field

    def _over(self, outcome: float) -> tuple[int, ...]:
        return (self.AGGRESSOR_WINS if outcome == 1.0 else self.DEFENDER_WINS), 0, 0, 0, 0

    def _fire(self, key: int, mask: int, shot: tuple[int, int, int], after: int, first: bool) -> tuple[int, ...]:
        target, attack, defense = shot
        miss = self.key(mask, after, first) - key
        return self.FIRE, (1 << target) * (self.n + 1) * 2, defense, attack, miss


def _play_out(shots: Shots, rng: np.random.Generator, mask: int, step: int, deck: np.ndarray,
              refill: np.ndarray, group: np.ndarray, most: int) -> tuple[int, int, int]:
    """Every play-out one shot at a time, all at once: each turns a card uniformly from what is left of its deck
    (by Action Number), its refill once the deck is empty (every deck the public cannot rule out holds as many
    cards, so all play-outs reshuffle together). (Aggressor's wins, play-outs decided, cut off.)"""
    runs = len(deck)
    key = np.full(runs, shots.key(mask, step, shots.now is not shots.later), dtype=np.int64)
    row_of = np.arange(runs)
    left, reshuffled = int(deck[0].sum()), int(refill[0].sum())
    wins = decided = 0
    tail = runs // SIM_TAIL     # the last few play-outs of a long tail are cut off (they are in the error)
    for t in range(most + 1):
        rows = shots.rows(key)
        over = rows[:, 0] != Shots.FIRE
        if over.any():
            wins += int((rows[:, 0] == Shots.AGGRESSOR_WINS).sum())
            decided += int(over.sum())
            keep = ~over
            key, rows, deck, group = key[keep], rows[keep], deck[keep], group[keep]
        if len(key) <= tail or t == most:
            break
        if not left:         # "flip the corresponding discard stack over and reshuffle the cards"
            deck, left = refill[group], reshuffled
            if not left:     # no card at all to turn: nothing can be hit, the defender holds the field
                decided += len(key)
                key = key[:0]
                break
        drawn = rng.integers(0, left, size=len(key))
        card = (deck.cumsum(axis=1) <= drawn[:, None]).sum(axis=1)
        deck[row_of[:len(key)], card] -= 1
        left -= 1
        key += rows[:, 4] - ((card > rows[:, 2]) & (card <= rows[:, 3])) * rows[:, 1]
    return wins, decided, len(key)
