"""The seeded simulation of a battle too large to count exactly within the budget (odds.py asks it): the same
model as the exact count (cards drawn without replacement from a deck the table cannot rule out, the refill
reshuffled each time the deck runs out, the Kept Cards played counting for the rest of their round), played
out ``SIM_RUNS`` times at once (``LARGE_RUNS`` for a battle of more than ``LARGE_BATTLE`` units still fighting),
seeded, bounded in play-outs and cards (never in time), its error stated. Pure: the seed is part of the question,
so a replay gives the same figures.

The play-outs run compiled (``playout.c``, built and loaded by ``compiled.py``) wherever a C compiler built
them: working out the policy in each state met, in Python (``Moves``), was most of a large battle's query.
The shuffles are drawn here either way, so the two give the same figures (tests/test_battlecards_playout.py)."""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np
from numpy.random import default_rng   # imported here, not by a battle's first query (numpy loads it lazily: 20 ms)
from numpy.typing import NDArray

from . import compiled as compiled_
from .count import PlayedBattle, played
from .question import BattleOdds, Cards, Fighter, as_cards, decks

SIM_RUNS, SIM_SEED = 2_000, 1   # play-outs of a simulated battle: a standard error of at most 1.1 points
# A battle of more units still fighting meets some 18,000 states in its first 2,000 play-outs (18 units: 6.5-7 ms
# here); with 600 its first query keeps within the 5 ms a query with a margin (issue 30: 3.3-3.5 ms in one
# process, where 800 took 4.0-4.1 and came to 5.2 in the benchmark on a loaded machine), at a standard error of
# at most 2.3 points, stated with it (the tablet's "±2%").
LARGE_BATTLE, LARGE_RUNS = 12, 600
SIM_TAIL = 500              # stop when no more than 1 play-out in this many is still undecided
SIM_ROUNDS = 60             # a play-out still undecided after so many rounds is not counted


def simulate(fighters: Sequence[Fighter], cards: Cards | Sequence[int], must_destroy: Sequence[str], mask: int,
             runs: int | None = None, seed: int = SIM_SEED, numbers: tuple[int, ...] = tuple(range(1, 10)),
             next_step: int = 0, reference: tuple[int, ...] | None = None, compiled: bool | None = None) -> BattleOdds:
    """Seeded play-outs of the same model as the exact count, all ``runs`` of them at once: each a deck drawn
    from those the public cannot rule out, shuffled, its cards turned in that order, then the refill shuffled
    each time the deck runs out. The work is bounded in cards, never in time: ``runs`` x at most SIM_ROUNDS
    rounds of shots; a play-out undecided by then is not counted (``runs`` says how many were). The error
    stated: the standard error of the play-outs decided plus the share cut off (the most it could move the
    figure). ``runs``: by default ``play_outs(mask)``. ``compiled``: whether the play-outs run compiled
    (``compiled.py``; by default whenever they are built, else in Python): the same figures either way."""
    runs = play_outs(mask) if runs is None else runs
    cards = as_cards(cards)
    fighters = tuple(fighters)
    plain = tuple(f.after_this_round() for f in fighters)
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), max(numbers, default=0) + 1)
    mixture = decks(cards, list(range(top)), top)
    group = (default_rng(seed).choice(len(mixture), size=runs, p=_weights(mixture)) if len(mixture) > 1
             else np.zeros(runs, dtype=np.int64))     # (one deck, no hidden card: no draw, 0.13 ms a query)
    deck = np.array([_spread(d) for _, d, _ in mixture], dtype=np.int8).reshape(len(mixture), -1)
    refill = np.array([_spread(r) for _, _, r in mixture], dtype=np.int8).reshape(len(mixture), -1)
    if compiled is None:
        compiled = _compiled_available(len(fighters))
    moves = table(fighters, plain, tuple(must_destroy), tuple(numbers), cards.whole if reference is None else reference, top,
                  compiled)
    start = moves.place(mask, min(next_step, moves.n), moves.now is not moves.later)
    most = SIM_ROUNDS * max(moves.n, 1) + 1
    if isinstance(moves, Moves):
        wins, decided, cut = _play_out(moves, start, deck, refill, group, most, seed)
    else:
        wins, decided, cut = _play_out_compiled(moves, start, deck, refill, group, most, seed)
    p = wins / decided if decided else 0.0
    error = math.sqrt(p * (1 - p) / max(decided, 1)) + cut / runs
    return BattleOdds(p, 1 - p, "simulation", error, 0, decided)


def play_outs(mask: int) -> int:
    """The play-outs a battle is simulated with, by the units still fighting (``mask``): a pure function of the
    question, so a replay gives the same figures."""
    return LARGE_RUNS if mask.bit_count() > LARGE_BATTLE else SIM_RUNS


WARM_SHUFFLES = 8     # the shuffles an 18-unit battle of the combined sets goes through: 6


def warm_up() -> None:
    """What every simulated battle needs, made when a table opens, not while its first battle waits: the
    compiled play-outs loaded (built if need be) and the first shuffles of a deck of up to 64 cards drawn
    (about 4 ms each here)."""
    compiled_.library()
    for shuffles in range(WARM_SHUFFLES):
        _positions(SIM_RUNS, 64, SIM_SEED, shuffles)


def _compiled_available(units: int) -> bool:
    return units <= compiled_.MOST_UNITS and compiled_.library() is not None


@lru_cache(maxsize=8)    # one per battle: the next query of the same battle finds the states it met numbered
def table(fighters: tuple[Fighter, ...], plain: tuple[Fighter, ...], must_destroy: tuple[str, ...],
          numbers: tuple[int, ...], reference: tuple[int, ...], top: int,
          compiled: bool = False) -> Moves | compiled_.CompiledMoves:
    now, later = played(fighters, must_destroy, numbers, reference), played(plain, must_destroy, numbers, reference)
    lib = compiled_.wanted(compiled)
    return compiled_.CompiledMoves(lib, now, later) if lib is not None else Moves(now, later, top)


def _weights(mixture: Sequence[tuple[Fraction, tuple[int, ...], tuple[int, ...]]]) -> NDArray[np.float64]:
    w = np.array([float(weight) for weight, _, _ in mixture], dtype=np.float64)
    return w / float(w.sum())


def _spread(by_number: Sequence[int]) -> list[int]:
    """A deck's cards as their Action Numbers, one a card (every deck of a mixture holds as many)."""
    return [n for n, c in enumerate(by_number) for _ in range(c)]


Fired = tuple[int, int, int, int, int]   # a state that fires: (its place, the place on a hit, on a miss, attack, defense)
Over = tuple[int, bool]                  # a state where the battle is over: (its place, whether the aggressor won)


class Moves:
    """Where each card turned sends a play-out, from every state it can be in (alive set, step of the round,
    whether the round's Kept Cards still count), the states numbered as they are met. A play-out is held as its
    state's number times ``cards`` (its *place*), and ``moves[place + card]`` is the next place: one look-up a
    card for every play-out at once. A state whose moves are not yet worked out moves to -1; a state where the
    battle is over moves to itself."""

    def __init__(self, now: PlayedBattle, later: PlayedBattle, cards: int):
        self.now, self.later, self.n, self.cards = now, later, len(later.steps), cards
        self.number: dict[tuple[int, int, bool], int] = {}
        self.states: list[tuple[int, int, bool]] = []
        self.moves = np.full(256 * cards, -1, dtype=np.int64)
        self.fighting = np.zeros(256 * cards, dtype=bool)   # at a state's place: the battle goes on there
        self.won = np.zeros(256 * cards, dtype=bool)        # at a state's place: the aggressor has won there

    def place(self, mask: int, step: int, first: bool) -> int:
        """The place of a state, numbering it if it is new (its moves are worked out when a play-out is there)."""
        state = (mask, step, first)
        found = self.number.get(state)
        if found is None:
            found = self.number[state] = len(self.states)
            self.states.append(state)
            if len(self.states) * self.cards > len(self.moves):
                self._grow()
        return found * self.cards

    def _grow(self) -> None:
        more = len(self.moves)
        self.moves = np.concatenate([self.moves, np.full(more, -1, dtype=np.int64)])
        self.fighting = np.concatenate([self.fighting, np.zeros(more, dtype=bool)])
        self.won = np.concatenate([self.won, np.zeros(more, dtype=bool)])

    def work_out(self, places: NDArray[np.int64]) -> None:
        """The moves from these places (each a state not worked out yet). Each state's shot is the policy's,
        worked out in Python; their rows are then written together, a few NumPy calls for all of them."""
        fired: list[Fired] = []
        over: list[Over] = []
        for place in sorted(set(places.tolist())):   # (np.unique imports numpy.ma: 60 ms, on the first query)
            mask, step, first = self.states[place // self.cards]
            self._work_out(place, mask, step, first, fired, over)
        span = np.arange(self.cards)
        if fired:
            at, hit, miss, attack, defense = (np.array(column, dtype=np.int64) for column in zip(*fired))
            hits = (defense[:, None] < span) & (span <= attack[:, None])
            self.moves[at[:, None] + span] = np.where(hits, hit[:, None], miss[:, None])
            self.fighting[at] = True
        if over:
            at, won = np.array([o[0] for o in over], dtype=np.int64), np.array([o[1] for o in over], dtype=bool)
            self.moves[at[:, None] + span] = at[:, None]
            self.won[at] = won

    def _work_out(self, place: int, mask: int, step: int, first: bool, fired: list[Fired], over: list[Over]) -> None:
        if first:
            ended = self.now.outcome(mask)
            if ended is not None:
                return over.append((place, ended == 1.0))
            for t in range(step, len(self.now.steps)):
                shot = self.now.decision(mask, t)
                if shot is not None:
                    return self._fire(place, mask, shot, t + 1, True, fired)
            step = 0           # the round with the Kept Cards is over: the next ones without them
        done = self.later.outcome(mask)
        if done is not None:
            return over.append((place, done == 1.0))
        for j in range(self.n):
            t = (step + j) % self.n
            shot = self.later.decision(mask, t)
            if shot is not None:
                return self._fire(place, mask, shot, (t + 1) % self.n, False, fired)
        over.append((place, False))    # nobody can fire: the defender holds the field

    def _fire(self, place: int, mask: int, shot: tuple[int, int, int], after: int, first: bool, fired: list[Fired]) -> None:
        target, attack, defense = shot
        fired.append((place, self.place(mask & ~(1 << target), after, first), self.place(mask, after, first), attack, defense))


def _play_out(moves: Moves, start: int, deck: NDArray[np.int8], refill: NDArray[np.int8], group: NDArray[np.int64],
              most: int, seed: int) -> tuple[int, int, int]:
    """Every play-out one card at a time, all at once. Each play-out's deck is put in order once (the Action
    Numbers in the order they will be turned) and every play-out turns its next card together (all hold as
    many), so the cards turned are one row; when the decks run out, the refills are put in order the same way.
    A play-out that is over stays where it is. (Aggressor's wins, play-outs decided, cut off.)"""
    runs = len(group)
    place = np.full(runs, start, dtype=np.int64)
    cards, at, shuffles = _in_order(deck, group, seed, 0), 0, 0
    tail = runs // SIM_TAIL     # the last few play-outs of a long tail are cut off (they are in the error)
    for t in range(most):
        if t % 4 == 0:
            if (moves.moves.take(place) < 0).any():
                moves.work_out(place[moves.moves.take(place) < 0])
            if int(moves.fighting.take(place).sum()) <= tail:
                break
        if at == len(cards):   # "flip the corresponding discard stack over and reshuffle the cards"
            if not refill.shape[1]:
                break              # no card at all to turn: nothing can be hit
            shuffles += 1
            cards, at = _in_order(refill, group, seed, shuffles), 0
        after = moves.moves.take(place + cards[at])
        if after.min() < 0:        # a play-out reached a state not worked out yet
            moves.work_out(place[moves.moves.take(place) < 0])
            after = moves.moves.take(place + cards[at])
        place = after
        at += 1
    if (moves.moves.take(place) < 0).any():
        moves.work_out(place[moves.moves.take(place) < 0])
    fighting = moves.fighting.take(place)
    wins = int(moves.won.take(place).sum())
    if not refill.shape[1] and at == len(cards):
        return wins, runs, 0     # with no card left to turn the defender holds the field
    return wins, runs - int(fighting.sum()), int(fighting.sum())


def _play_out_compiled(moves: compiled_.CompiledMoves, start: int, deck: NDArray[np.int8], refill: NDArray[np.int8],
                       group: NDArray[np.int64], most: int, seed: int) -> tuple[int, int, int]:
    """``_play_out`` with its loop over the cards compiled (``playout.c``): the same shuffles (``_positions``),
    drawn here and handed over a deck at a time, each deck's order taken from them by ``_order``'s rule, so the
    same play-outs and figures."""
    runs = len(group)
    at = np.full(runs, start, dtype=np.int32)
    group32 = group.astype(np.int32)
    decks, turned, shuffles, t = deck, 0, 0, 0
    while t < most:
        if turned == decks.shape[1]:   # "flip the corresponding discard stack over and reshuffle the cards"
            if not refill.shape[1]:
                break
            decks, shuffles = refill, shuffles + 1
        turned, stopped = moves.run(at, decks, group32, _shuffled(runs, decks.shape[1], seed, shuffles), t, most,
                                    runs // SIM_TAIL)
        t += turned
        if stopped:
            break
    wins, fighting = moves.tally(at)
    if not refill.shape[1] and turned == decks.shape[1]:
        return wins, runs, 0     # with no card left to turn the defender holds the field
    return wins, runs - fighting, fighting


def _in_order(decks: NDArray[np.int8], group: NDArray[np.int64], seed: int, shuffles: int) -> NDArray[np.int8]:
    """Each play-out's deck (of its group in the mixture, as Action Numbers) in the order its cards are turned,
    one row a card turned, one column a play-out: a uniformly random order (``_order``)."""
    size = decks.shape[1]
    order = _order(len(group), size, seed, shuffles)
    picked: NDArray[np.int8] = decks[0].take(order) if len(decks) == 1 else decks.ravel().take(group * size + order)
    return picked       # (numpy's stubs lose the dtype through these takes)


@lru_cache(maxsize=64)   # the decks of a game come in a few dozen sizes, and each is put in order for every question
def _order(runs: int, size: int, seed: int, shuffles: int) -> NDArray[np.int8] | NDArray[np.int16]:
    """``runs`` uniformly random orders of the positions 0..size-1, one column each: the positions under the
    deck's size in a shuffle of a larger deck (``_shuffled``), in their shuffled order, are a shuffle of it."""
    positions = _shuffled(runs, size, seed, shuffles)
    order = positions[positions < size].reshape(runs, size).T
    if size <= 128:     # kept small: 64 of them
        return np.ascontiguousarray(order, dtype=np.int8)
    return np.ascontiguousarray(order, dtype=np.int16)


def _shuffled(runs: int, size: int, seed: int, shuffles: int) -> NDArray[np.int16]:
    """The shuffles a deck of ``size`` cards is put in order by: of a deck of at least 64, a power of two; the
    first ``runs`` of SIM_RUNS (so a large battle's fewer play-outs use the shuffles drawn at the table's opening)."""
    shuffled = _positions(max(runs, SIM_RUNS), max(64, 1 << max(size - 1, 0).bit_length()), seed, shuffles)
    return shuffled[:runs]


@lru_cache(maxsize=16)   # a handful of shuffles per question, the same for every question: shuffling is the cost
def _positions(runs: int, size: int, seed: int, shuffles: int) -> NDArray[np.int16]:
    """``runs`` shuffles of the positions 0..size-1, seeded by the question's seed and the shuffle's number."""
    rng = default_rng([seed, size, shuffles])
    shuffled: NDArray[np.int16] = rng.permuted(np.tile(np.arange(size, dtype=np.int16), (runs, 1)), axis=1)
    return shuffled     # (numpy's stubs lose the dtype through permuted)
