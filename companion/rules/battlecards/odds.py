"""The odds of a shot (exact) and of a battle (counted exactly where the count fits the budget, else a seeded
simulation of the same model with its error stated): cards drawn without replacement from the CONFLICT cards
the public can know are left, the discard pile reshuffled into a new deck when the deck runs out. Pure: no
clock, and the simulation is seeded.

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
The count itself (the battle as the odds play it, the kinds, the memoised states) is in ``count.py``, its
loop over the cards compiled in ``exact.c`` wherever it is built (``compiled.py``: the same figures). A
battle too large to count in the budget (``STATE_LIMIT``) is simulated (``simulate.py``): seeded, bounded in
play-outs and cards (never in time), compiled likewise (``playout.c``), its error stated.

The parts of a question (``Fighter``, ``Cards``, ``BattleOdds``) are in ``question.py``, the simulation in
``simulate.py``. ``companion bench battlecards-odds`` prints the time of a query for every battle of the set
and the combined sets, and the fold of a whole demo game with and without the odds.
"""
from __future__ import annotations

import sys
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Sequence

from .count import Exact, PlayedBattle, estimate, fold, fold_kinds, kinds_of, least_states, played, projection, round_rest
from .question import AGGRESSOR, DEFENDER, BattleOdds, Cards, Fighter, as_cards, counts, decks, same_length
from . import compiled as compiled_
from .simulate import simulate, table

__all__ = ["AGGRESSOR", "DEFENDER", "BattleOdds", "Cards", "Fighter", "battle_odds", "count", "counts", "forget", "shot_chance",
           "simulate"]

# The estimated states beyond which a battle is simulated: the compiled count (exact.c) counts that many in about
# 4 ms here (8,000-13,000 states met: the estimate is loose). One limit with or without a compiler, so
# a question gets the same figures on every machine (the Python count takes 40-140 ms there).
STATE_LIMIT = 40_000
EXACT_UNITS = 6             # beyond this many units still fighting the states are not even estimated: simulated
# While Kept Cards played this round count, the rest of the round is counted in Python (count.round_rest, about
# 6 µs a state) and the later rounds from every way it can end (about twice the states): a quarter of the budget
# keeps such a question near the others' (a 2-v-2 counted in 3-4 ms took 6-8 ms with a Kept Card played).
KEPT_ROUND_SHARE = 4


def shot_chance(cards: Cards | Sequence[int], attack: int, defense: int) -> Fraction:
    """The chance the next card turned is in (defense, attack]: the cards in range over the cards in the deck,
    over every deck the public cannot rule out (the reshuffled pile when the deck is empty)."""
    chance = Fraction(0)
    for weight, deck, refill in _by_number(as_cards(cards)):
        now = deck if sum(deck) else refill
        if sum(now):
            chance += weight * Fraction(sum(c for n, c in enumerate(now) if defense < n <= attack), sum(now))
    return chance


@lru_cache(maxsize=16)   # every legal target's chance is asked of the same cards
def _by_number(cards: Cards) -> list[tuple[Fraction, tuple[int, ...], tuple[int, ...]]]:
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), 1)
    return decks(cards, range(top), top)


def battle_odds(fighters: Iterable[Fighter], cards: Cards | Sequence[int], must_destroy: Iterable[str] = (),
                next_step: int = 0, alive: Iterable[str] | None = None,
                numbers: tuple[int, ...] = tuple(range(1, 10)), reference: tuple[int, ...] | None = None) -> BattleOdds:
    """The chance each side wins if both fight on, from a position in the round (the shooter at
    ``next_step`` of the round's firing order fires next; ``alive`` the units still fighting). ``reference``:
    the cards by Action Number a unit picks its likeliest target by (the referee's: the whole deck as printed;
    by default the cards of this deck and its pile)."""
    return _battle_odds(tuple(fighters), as_cards(cards), tuple(must_destroy), next_step,
                        None if alive is None else tuple(alive), tuple(numbers), reference)


@lru_cache(maxsize=64)   # the tablet, the phones, the outcomes and the buttons ask the same question of one state
def _battle_odds(fighters: tuple[Fighter, ...], cards: Cards, must_destroy: tuple[str, ...],
                 next_step: int, alive: tuple[str, ...] | None, numbers: tuple[int, ...],
                 reference: tuple[int, ...] | None) -> BattleOdds:
    mask = sum(1 << i for i, f in enumerate(fighters) if alive is None or f.key in alive)
    if mask.bit_count() <= EXACT_UNITS:     # (the units still fighting: a large battle near its end is counted)
        found = count(fighters, cards, must_destroy, next_step, alive, numbers, STATE_LIMIT, reference)
        if found is not None:
            return found
    return simulate(fighters, cards, must_destroy, mask, numbers=numbers, next_step=next_step, reference=reference)


def count(fighters: Sequence[Fighter], cards: Cards | Sequence[int], must_destroy: Sequence[str] = (),
          next_step: int = 0, alive: Iterable[str] | None = None, numbers: tuple[int, ...] = tuple(range(1, 10)),
          budget: int | None = None, reference: tuple[int, ...] | None = None,
          compiled: bool | None = None) -> BattleOdds | None:
    """The battle's odds counted exactly, or None when the states the count may need (``estimate``) exceed the
    ``budget`` (no budget: counted whatever it takes). A floor of them (``least_states``) is asked first: a battle
    far beyond the budget is known so without walking every smaller alive set."""
    fighters, cards, must_destroy = tuple(fighters), as_cards(cards), tuple(must_destroy)
    alive = None if alive is None else tuple(alive)
    plain = tuple(f.after_this_round() for f in fighters)
    mask = sum(1 << i for i, f in enumerate(fighters) if alive is None or f.key in alive)
    reference = cards.whole if reference is None else reference
    now = played(fighters, must_destroy, numbers, reference)
    later = played(plain, must_destroy, numbers, reference)
    top = max(len(cards.unseen), len(cards.keepable), len(cards.discard), max(numbers, default=0) + 1)
    bonus = now.base != later.base
    if bonus and budget is not None:
        budget //= KEPT_ROUND_SHARE
    if budget is not None and _beyond(later, mask, cards, top, budget):
        return None
    kind, kinds = kinds_of(now.pairs(mask) | later.pairs(mask), top)
    groups = _mixture(cards, kind, kinds, top)
    size, sizes = 0, []
    for _, _, refill in groups:
        sizes.append(estimate(later, mask, same_length(refill, (0,) * (top + 1))[0], None if budget is None else budget - size))
        size += sizes[-1]
        if budget is not None and size > budget:
            return None
    step = min(next_step, len(now.steps))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))   # a frame or two per card turned
    try:
        p = 0.0
        for (weight, deck, refill), states in zip(groups, sizes, strict=True):
            exact = _engine(plain, must_destroy, numbers, reference, refill, top,
                            compiled_.library() is not None if compiled is None else compiled)
            exact.reserve(states)
            if bonus:
                won = round_rest(now, exact, kind, fold(refill, kind, kinds), mask, step, deck, {})
            else:
                won = exact.value(mask, step, fold_kinds(deck, projection(kind, exact.space(mask)[0]),
                                                          exact.space(mask)[1]))
            p += float(weight) * won
    finally:
        sys.setrecursionlimit(limit)
    return BattleOdds(p, 1.0 - p, "exact", 0.0, size)


def _beyond(later: PlayedBattle, mask: int, cards: Cards, top: int, budget: int) -> bool:
    """Whether the states the count may need exceed the budget for one of the decks the public cannot rule out
    alone, by ``least_states``: decided without the kinds of every smaller alive set (``pairs``, which cost a
    6-unit battle's first query 5 of its 8 ms only to find it too large to count)."""
    refill = decks(cards, tuple(range(top + 1)), top + 1)[0][2]
    return least_states(later, mask, same_length(refill, (0,) * (top + 1))[0]) > budget


def _mixture(cards: Cards, kind: tuple[int, ...], kinds: int,
             top: int) -> list[tuple[Fraction, tuple[int, ...], tuple[int, ...]]]:
    """The decks the public cannot rule out, grouped when they hold as many cards of each kind: (weight, deck
    by kind, refill by Action Number: the first of the group's, all of them counting alike)."""
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Fraction, tuple[int, ...]]] = {}
    for weight, deck, refill in decks(cards, tuple(range(top + 1)), top + 1):
        key = (fold(deck, kind, kinds), fold(refill, kind, kinds))
        if key in found:
            found[key] = (found[key][0] + weight, found[key][1])
        else:
            found[key] = (weight, refill)
    return [(weight, by_kind, refill) for (by_kind, _), (weight, refill) in found.items()]


@lru_cache(maxsize=16)   # one per battle and refill: the next query of the same battle finds its states counted
def _engine(plain: tuple[Fighter, ...], must_destroy: tuple[str, ...], numbers: tuple[int, ...],
            reference: tuple[int, ...], refill: tuple[int, ...], top: int,
            compiled: bool = False) -> Exact | compiled_.CompiledExact:
    """The count of one battle and refill: compiled (exact.c) where it is built, the same figures either way."""
    exact = Exact(played(plain, must_destroy, numbers, reference), refill, top)
    lib = compiled_.wanted(compiled)
    return compiled_.CompiledExact(lib, exact) if lib is not None else exact


def forget(answers_only: bool = False) -> None:
    """Forget the memoised answers (and, unless ``answers_only``, the states counted and the simulation's
    tables): the benchmark times a question asked afresh."""
    _battle_odds.cache_clear()
    _by_number.cache_clear()
    if not answers_only:
        _engine.cache_clear()
        table.cache_clear()
        played.cache_clear()
