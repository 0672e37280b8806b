"""A combat decided: the rules no variant changes, then the variants in play, then the classic
rules; and what the combat shows the table."""
from __future__ import annotations

from typing import Any, Iterable

from .ranks import IMMOBILE, RANK_NAME, Verdict, classic, decisive
from .variants import VARIANTS, StrategoVariant


def variants_in(options: dict[str, Any]) -> list[StrategoVariant]:
    return [v(options) for v in VARIANTS if v.on(options)]


def decide(attacker: str, defender: str, variants: Iterable[StrategoVariant]) -> Verdict:
    """The result of ``attacker`` (a movable rank) attacking ``defender`` (any rank)."""
    if attacker in IMMOBILE:
        raise ValueError(f"a {RANK_NAME[attacker]} never moves, so it cannot attack")
    verdict = decisive(attacker, defender)
    for variant in variants:
        verdict = verdict or variant.fight(attacker, defender)
    return verdict or classic(attacker, defender)


def fight(attacker: str, defender: str, options: dict[str, Any]) -> Verdict:
    """``decide`` under a game's options (``ties``, ``spy_attack``)."""
    return decide(attacker, defender, variants_in(options))


def defender_shown(attacker: str, verdict: Verdict, variants: Iterable[StrategoVariant]) -> bool:
    """Whether the defender's rank is shown (classic: "each player must reveal the rank of their
    piece"). The attacker's always is."""
    said = [v.defender_shown(attacker, verdict) for v in variants]
    return next((s for s in said if s is not None), True)


def defender_revealed(attacker: str, verdict: Verdict, options: dict[str, Any]) -> bool:
    """``defender_shown`` under a game's options (``reveal``)."""
    return defender_shown(attacker, verdict, variants_in(options))
