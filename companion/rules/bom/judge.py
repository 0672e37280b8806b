"""Who wins a battle, and why, from every seat's evaluated play.

Order of the rules (bom-battle.txt):
1. Famine "eliminates the effect of any other power cards played. The highest single CHARACTER
   card in the battle wins" -- every card back to its printed value and colour.
2. Stripling Warriors: "Instead of the highest point value winning, the lowest gold card in the
   battle wins." A card Conversion turned gold counts as gold. With no gold card in the battle the
   card has nothing to turn, and the highest value wins as usual (companion's decision).
3. Otherwise the highest value wins; "CHARACTER cards are rated by point value first, then color
   (gold over black), and then shape (diamond over oval)", and "in the event of a tie, the highest
   single CHARACTER card of the tied players wins the battle".
Under Mounting Battles "battles are determined strictly by point value, not by color or shape":
equal values are a tie, and the tied seats mount (see battle.py) instead of the tie rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..base import Term
from .plays import Fighter, Play


@dataclass(frozen=True)
class Verdict:
    winner: int | None             # None: the seats in ``tied`` mount (Mounting Battles)
    tied: tuple[int, ...]
    rule: str                      # points | rank | tie | famine | stripling | order
    because: str                   # the reason, to follow "Seat 2 (Ann) wins with ..."
    terms: tuple[Term, ...]
    values: dict[int, int] = field(default_factory=dict)
    deciding_card: Fighter | None = None


Who = Callable[[int], str]


def judge(plays: list[Play], who: Who, mounting: bool = False) -> Verdict:
    """``plays`` in turn order (the order only matters for a perfect tie, see ``_pick``)."""
    powers = {p.power for p in plays}
    if "famine" in powers:
        return _famine(plays, who, mounting)
    if "stripling_warriors" in powers and any(f.color == "gold" for p in plays for f in p.fighters):
        return _stripling(plays, who, mounting)
    verdict = _by_points(plays, who, mounting)
    if "stripling_warriors" in powers:
        note = Term("Stripling Warriors", None, "no gold card in the battle, so the highest value wins as usual")
        verdict = Verdict(verdict.winner, verdict.tied, verdict.rule, verdict.because, verdict.terms + (note,),
                          verdict.values, verdict.deciding_card)
    return verdict


def _pick(candidates: list[tuple[int, tuple]], highest: bool = True) -> list[int]:
    """Seats whose key is best; several only when the keys are equal."""
    best = (max if highest else min)(key for _, key in candidates)
    return [seat for seat, key in candidates if key == best]


def _names(seats, who: Who) -> str:
    named = [who(s) for s in seats]
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]


def _famine(plays: list[Play], who: Who, mounting: bool) -> Verdict:
    best = {p.seat: p.best_printed for p in plays}
    terms = []
    for p in plays:
        cancelled = f"; its {p.power.replace('_', ' ').title()} cancelled" if p.power not in (None, "famine") else ""
        terms.append(Term(who(p.seat), best[p.seat].value, f"highest single card {best[p.seat].text}{cancelled}"))
    values = {p.seat: best[p.seat].value for p in plays}
    key = (lambda f: (f.value,)) if mounting else (lambda f: f.rank)
    top = _pick([(p.seat, key(best[p.seat])) for p in plays])
    if len(top) > 1 and mounting:
        return Verdict(None, tuple(top), "famine", f"Famine: {_names(top, who)} tie at {values[top[0]]}",
                       tuple(terms), values)
    winner = top[0]
    return Verdict(winner, (), "famine" if len(top) == 1 else "order",
                   "Famine cancels every other POWER card, and the highest single CHARACTER card in the battle wins",
                   tuple(terms), values, best[winner])


def _stripling(plays: list[Play], who: Who, mounting: bool) -> Verdict:
    lowest: dict[int, Fighter] = {}
    for p in plays:
        golds = [f for f in p.fighters if f.color == "gold"]
        if golds:
            lowest[p.seat] = min(golds, key=lambda f: f.rank)
    terms = tuple(Term(who(p.seat), lowest[p.seat].value if p.seat in lowest else None,
                       f"lowest gold card {lowest[p.seat].text}" if p.seat in lowest else "no gold card")
                  for p in plays)
    values = {seat: f.value for seat, f in lowest.items()}
    key = (lambda f: (f.value,)) if mounting else (lambda f: f.rank)
    bottom = _pick([(seat, key(f)) for seat, f in lowest.items()], highest=False)
    if len(bottom) > 1 and mounting:
        return Verdict(None, tuple(bottom), "stripling",
                       f"Stripling Warriors: {_names(bottom, who)} tie with gold {values[bottom[0]]}s", terms, values)
    winner = bottom[0]
    return Verdict(winner, (), "stripling" if len(bottom) == 1 else "order",
                   "Stripling Warriors turns the tide of the battle, and the lowest gold card in the battle wins",
                   terms, values, lowest[winner])


def _by_points(plays: list[Play], who: Who, mounting: bool) -> Verdict:
    terms = tuple(Term(who(p.seat), p.points, p.detail) for p in plays)
    values = {p.seat: p.points for p in plays}
    top = _pick([(p.seat, (p.points,)) for p in plays])
    if len(top) == 1:
        return Verdict(top[0], (), "points", "", terms, values)
    if mounting:
        return Verdict(None, tuple(top), "points", f"{_names(top, who)} tie at {values[top[0]]}", terms, values)
    by_seat = {p.seat: p for p in plays}
    best = _pick([(seat, by_seat[seat].best.rank) for seat in top])
    winner = best[0]
    card = by_seat[winner].best
    if len(best) > 1:
        # Only possible with a custom deck holding two copies of the same card: the rulebook has no
        # further tie rule, so the first of them in turn order takes the battle.
        return Verdict(winner, (), "order",
                       f"{_names(best, who)} hold equal cards; the first of them in turn order takes the battle",
                       terms, values, card)
    if all(not by_seat[seat].combination for seat in top):
        runner = max((by_seat[s].best for s in top if s != winner), key=lambda f: f.rank)
        if runner.color != card.color:
            why = f"at {values[winner]} each, gold beats black"
        elif runner.shape != card.shape:
            why = f"at {values[winner]} each, both {card.color}, diamond beats oval"
        else:  # a Faith 500 against a printed 5000 of the same suit: the printed card is higher
            why = f"at {values[winner]} each, {card.name}'s printed {card.printed} is the higher card"
        return Verdict(winner, (), "rank", why, terms, values, card)
    return Verdict(winner, (), "tie",
                   f"{_names(top, who)} tie at {values[winner]}, and the highest single CHARACTER card of the tied "
                   f"players is {card.text}", terms, values, card)
