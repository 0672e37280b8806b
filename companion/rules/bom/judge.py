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
from typing import Any

from .plays import Fighter, Play


@dataclass(frozen=True)
class Verdict:
    """Who wins and by which rule, as data (the view tells it).

    ``rule``: points | rank | tie | famine | stripling | order (equal cards: the first in turn
    order). ``tied``: the seats that were level on the deciding value (with ``winner`` None they
    mount). ``versus``: for ``rank``, what separated two single cards: colour | shape | printed.
    ``no_gold``: Stripling Warriors was played but no gold card was in the battle.
    """

    winner: int | None
    tied: tuple[int, ...]
    rule: str
    values: dict[int, int] = field(default_factory=dict)
    deciding_card: Fighter | None = None
    versus: str = ""
    no_gold: bool = False
    by: str = "points"  # the rule the battle was judged by: points | famine | stripling


def judge(plays: list[Play], mounting: bool = False) -> Verdict:
    """``plays`` in turn order (the order only matters for a perfect tie, see ``_pick``)."""
    powers = {p.power for p in plays}
    if "famine" in powers:
        return _famine(plays, mounting)
    if "stripling_warriors" in powers and any(f.color == "gold" for p in plays for f in p.fighters):
        return _stripling(plays, mounting)
    verdict = _by_points(plays, mounting)
    if "stripling_warriors" in powers:
        verdict = Verdict(verdict.winner, verdict.tied, verdict.rule, verdict.values, verdict.deciding_card,
                          verdict.versus, no_gold=True)
    return verdict


def _pick(candidates: list[tuple[int, tuple[Any, ...]]], highest: bool = True) -> list[int]:
    """Seats whose key is best; several only when the keys are equal."""
    best = (max if highest else min)(key for _, key in candidates)
    return [seat for seat, key in candidates if key == best]


def famine_cards(plays: list[Play]) -> dict[int, Fighter]:
    """Under Famine each seat's highest single CHARACTER card, as printed."""
    return {p.seat: p.best_printed for p in plays}


def stripling_cards(plays: list[Play]) -> dict[int, Fighter]:
    """Under Stripling Warriors each seat's lowest gold card (seats with none left out)."""
    lowest: dict[int, Fighter] = {}
    for p in plays:
        golds = [f for f in p.fighters if f.color == "gold"]
        if golds:
            lowest[p.seat] = min(golds, key=lambda f: f.rank)
    return lowest


def _famine(plays: list[Play], mounting: bool) -> Verdict:
    best = famine_cards(plays)
    values = {p.seat: best[p.seat].value for p in plays}
    key = (lambda f: (f.value,)) if mounting else (lambda f: f.rank)
    top = _pick([(p.seat, key(best[p.seat])) for p in plays])
    if len(top) > 1 and mounting:
        return Verdict(None, tuple(top), "famine", values, by="famine")
    return Verdict(top[0], tuple(top), "famine" if len(top) == 1 else "order", values, best[top[0]], by="famine")


def _stripling(plays: list[Play], mounting: bool) -> Verdict:
    lowest = stripling_cards(plays)
    values = {seat: f.value for seat, f in lowest.items()}
    key = (lambda f: (f.value,)) if mounting else (lambda f: f.rank)
    bottom = _pick([(seat, key(f)) for seat, f in lowest.items()], highest=False)
    if len(bottom) > 1 and mounting:
        return Verdict(None, tuple(bottom), "stripling", values, by="stripling")
    return Verdict(bottom[0], tuple(bottom), "stripling" if len(bottom) == 1 else "order", values,
                   lowest[bottom[0]], by="stripling")


def _by_points(plays: list[Play], mounting: bool) -> Verdict:
    values = {p.seat: p.points for p in plays}
    top = _pick([(p.seat, (p.points,)) for p in plays])
    if len(top) == 1:
        return Verdict(top[0], (), "points", values)
    if mounting:
        return Verdict(None, tuple(top), "points", values)
    by_seat = {p.seat: p for p in plays}
    best = _pick([(seat, by_seat[seat].best.rank) for seat in top])
    winner = best[0]
    card = by_seat[winner].best
    if len(best) > 1:
        # Only possible with a custom deck holding two copies of the same card: the rulebook has no
        # further tie rule, so the first of them in turn order takes the battle.
        return Verdict(winner, tuple(best), "order", values, card)
    if all(not by_seat[seat].combination for seat in top):
        runner = max((by_seat[s].best for s in top if s != winner), key=lambda f: f.rank)
        versus = "colour" if runner.color != card.color else "shape" if runner.shape != card.shape else "printed"
        return Verdict(winner, tuple(top), "rank", values, card, versus)
    return Verdict(winner, tuple(top), "tie", values, card)
