"""What an odds question is made of: the units fighting (``Fighter``), what the table can know of the CONFLICT
deck (``Cards``, and the decks it cannot tell apart), and the answer (``BattleOdds``). Pure data; the count
(``count.py``), the simulation (``simulate.py``) and the odds (``odds.py``) all read it, it reads none of them."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Iterable, Sequence

AGGRESSOR, DEFENDER = "aggressor", "defender"


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

    def after_this_round(self) -> Fighter:
        """The unit in the rounds after this one: the Kept Cards played count "for the rest of this round" only."""
        if not (self.bonus_attack or self.bonus_defense):
            return self        # (no Kept Card: the same unit, without a copy for each of a battle's units)
        return replace(self, bonus_attack=0, bonus_defense=0)


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

    @property
    def whole(self) -> tuple[int, ...]:
        """Every card of the deck and its pile by Action Number: the cards by which a unit picks its likeliest
        target, and (less the Kept Cards held) the refill of every reshuffle in a battle."""
        return tuple(u + p for u, p in zip(*same_length(self.unseen, self.discard), strict=True))


@dataclass(frozen=True)
class BattleOdds:
    aggressor: float           # the chance the aggressor wins if both fight on
    defender: float
    method: str                # "exact" or "simulation"
    error: float = 0.0         # the simulation's error bound (0 for exact)
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


def same_length(*found: Sequence[int]) -> list[tuple[int, ...]]:
    """Counts by Action Number, padded with zeros to the longest."""
    top = max(len(f) for f in found)
    return [tuple(f) + (0,) * (top - len(f)) for f in found]


def fold(found: Sequence[int], kind: Sequence[int], kinds: int) -> tuple[int, ...]:
    """Counts by Action Number as counts by kind (``kind[number]``)."""
    out = [0] * kinds
    for number, n in enumerate(found):
        if n:
            out[kind[number]] += n
    return tuple(out)


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
