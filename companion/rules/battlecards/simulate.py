"""The seeded simulation of a battle too large to count exactly within the budget (odds.py asks it): the same
model as the exact count (cards drawn without replacement from a deck the table cannot rule out, the refill
reshuffled each time the deck runs out, the Kept Cards played counting for the rest of their round), played
out ``SIM_RUNS`` times at once with numpy, seeded, bounded in play-outs and cards (never in time), its error
stated. Pure: the seed is part of the question, so a replay gives the same figures."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

import numpy as np

from .count import PlayedBattle
from .question import BattleOdds, Cards, Fighter, as_cards, decks

SIM_RUNS, SIM_SEED = 2_000, 1   # play-outs of a simulated battle: a standard error of at most 1.1 points
DENSE_STATES = 1 << 18      # a simulated battle's states laid out in a table up to this many, else hashed
SIM_TAIL = 500              # stop when no more than 1 play-out in this many is still undecided
SIM_ROUNDS = 60             # a play-out still undecided after so many rounds is not counted


def simulate(fighters: Sequence[Fighter], cards: Cards | Sequence[int], must_destroy: Sequence[str], mask: int,
             runs: int = SIM_RUNS, seed: int = SIM_SEED, numbers: tuple[int, ...] = tuple(range(1, 10)),
             next_step: int = 0) -> BattleOdds:
    """Seeded play-outs of the same model as the exact count, all ``runs`` of them at once: each a deck drawn
    from those the public cannot rule out, shuffled, its cards turned in that order, then the refill shuffled
    each time the deck runs out. The work is bounded in cards, never in time: ``runs`` x at most SIM_ROUNDS
    rounds of shots; a play-out undecided by then is not counted (``runs`` says how many were). The error
    stated: the standard error of the play-outs decided plus the share cut off (the most it could move the
    figure)."""
    cards = as_cards(cards)
    fighters = tuple(fighters)
    plain = tuple(f.after_this_round() for f in fighters)
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), 1)
    mixture = decks(cards, list(range(top)), top)
    rng = np.random.default_rng(seed)
    group = rng.choice(len(mixture), size=runs, p=_weights(mixture))
    deck = np.array([_spread(d) for _, d, _ in mixture], dtype=np.int8)
    refill = np.array([_spread(r) for _, _, r in mixture], dtype=np.int8)
    shots = table(fighters, plain, tuple(must_destroy), tuple(numbers), cards.whole)
    wins, decided, cut = _play_out(shots, rng, shots.key(mask, min(next_step, shots.n), shots.now is not shots.later),
                                   deck, refill, group, SIM_ROUNDS * max(shots.n, 1))
    p = wins / decided if decided else 0.0
    error = math.sqrt(p * (1 - p) / max(decided, 1)) + cut / runs
    return BattleOdds(p, 1 - p, "simulation", error, 0, decided)


@lru_cache(maxsize=8)    # one per battle: the next query of the same battle finds the states it met laid out
def table(fighters: tuple[Fighter, ...], plain: tuple[Fighter, ...], must_destroy: tuple[str, ...],
          numbers: tuple[int, ...], reference: tuple[int, ...]) -> Shots:
    later = PlayedBattle(plain, must_destroy, numbers, reference)
    return Shots(later if plain == fighters else PlayedBattle(fighters, must_destroy, numbers, reference), later)


def _weights(mixture) -> np.ndarray:
    w = np.array([float(weight) for weight, _, _ in mixture])
    return w / w.sum()


def _spread(by_number: Sequence[int]) -> list[int]:
    """A deck's cards as their Action Numbers, one a card (every deck of a mixture holds as many)."""
    return [n for n, c in enumerate(by_number) for _ in range(c)]


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


def _play_out(shots: Shots, rng: np.random.Generator, start: int, deck: np.ndarray, refill: np.ndarray,
              group: np.ndarray, most: int) -> tuple[int, int, int]:
    """Every play-out one shot at a time, all at once. Each play-out's deck is shuffled once (a row of Action
    Numbers in the order they will be turned), and every play-out turns its next card together (all hold as
    many), so the card turned is one column; when the decks run out, each live play-out's refill is shuffled.
    (Aggressor's wins, play-outs decided, cut off.)"""
    key = np.full(len(group), start, dtype=np.int64)
    order = rng.permuted(deck[group], axis=1)
    row = np.arange(len(group))
    live_group = group
    at = wins = decided = 0
    tail = len(group) // SIM_TAIL     # the last few play-outs of a long tail are cut off (they are in the error)
    for t in range(most + 1):
        rows = shots.rows(key)
        over = rows[:, 0] != Shots.FIRE
        if over.any():
            wins += int((rows[:, 0] == Shots.AGGRESSOR_WINS).sum())
            decided += int(over.sum())
            keep = ~over
            key, rows, row, live_group = key[keep], rows[keep], row[keep], live_group[keep]
        if len(key) <= tail or t == most:
            break
        if at == order.shape[1]:   # "flip the corresponding discard stack over and reshuffle the cards"
            if not refill.shape[1]:   # no card at all to turn: nothing can be hit, the defender holds the field
                decided += len(key)
                key = key[:0]
                break
            order, row, at = rng.permuted(refill[live_group], axis=1), np.arange(len(key)), 0
        card = order[row, at]
        at += 1
        key += rows[:, 4] - ((card > rows[:, 2]) & (card <= rows[:, 3])) * rows[:, 1]
    return wins, decided, len(key)
