"""The points of a Challenge, term by term, from the "Armory Cards Appendix" as written.

``score(catalog, mine, theirs)`` counts one side's cards in play against the other's: only cards
turned face up count (points run after every reveal), a card turned 90 degrees by an Escape counts
nothing, and a card that came into play without being laid (taken, Deception's, the special
battle's) counts only if it "can be used with your cards in play". Each term (``Point``) is a card
and what it adds, with the reason as a code; a card that adds nothing is a term too, saying why.
The words of each reason are the view's (words.POINT_WORDS).

The order of the appendix's interactions (the rulebook gives none; docs/referee/warriors.md):
Sleep first (it disables Fortress, Shield and Armor), then Fortress (it disables weapon cards),
then Ambush and Murmuring (one card each), then the points, then Faithful Women doubling the
holder's total, then the opponent's Shield and Armor subtracting, never below zero.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from card_tags.catalog import Catalog

from .cards import Info, info, usable
from .state import Laid


@dataclass(frozen=True)
class Point:
    """One term of a side's points, as data: the card it is about (its name), what it adds, and why
    (a reason code, words.POINT_WORDS), with the other card (``other``) or the number (``count``)
    the words name."""

    card: str
    value: int
    why: str
    other: str = ""
    count: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card, "value": self.value, "why": self.why, "other": self.other, "count": self.count}


@dataclass(frozen=True)
class Side:
    total: int
    points: tuple[Point, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "points": [p.as_dict() for p in self.points]}


def active(catalog: Catalog, play: list[Laid]) -> tuple[list[Info], dict[str, str]]:
    """The cards of one side that count now, and why each other face-up card does not."""
    laid = [info(catalog, c.card) for c in play if c.how == "laid" and not c.face_down]
    shown, why = [], {}
    for c in play:
        if c.face_down:
            continue
        card = info(catalog, c.card)
        if c.disabled:
            why[c.card] = "Escape"
        elif c.how != "laid" and not usable(card, laid):
            why[c.card] = ""   # cannot be used with these cards in play
        else:
            shown.append(card)
    return shown, why


def _disable(cards: list[Info], kinds: tuple[str, ...], count: int | None, reason: str,
             why: dict[str, str]) -> list[Info]:
    """Take up to ``count`` (all if None) cards of these kinds out of play, recording which card
    disabled them (``why``: card key -> the disabling card's name; "" for a card that cannot be used)."""
    kept = []
    for card in cards:
        if card.armory in kinds and (count is None or count > 0):
            why[card.key] = reason
            count = None if count is None else count - 1
        else:
            kept.append(card)
    return kept


def _kinds(cards: list[Info], kind: str) -> int:
    return sum(1 for c in cards if c.armory == kind)


def counting(catalog: Catalog, a: list[Laid], b: list[Laid]) -> tuple[list[Info], list[Info], dict[str, str], dict[str, str]]:
    """Both sides' counting cards after the appendix's disabling cards have acted."""
    mine, why_a = active(catalog, a)
    theirs, why_b = active(catalog, b)
    # "This card disables all Fortress, Shield, and Armor cards an opponent plays."
    mine_slept = _disable(mine, ("fortress", "shield", "armor"), None, "Sleep", why_a) \
        if _kinds(theirs, "sleep") else mine
    theirs_slept = _disable(theirs, ("fortress", "shield", "armor"), None, "Sleep", why_b) \
        if _kinds(mine, "sleep") else theirs
    mine, theirs = mine_slept, theirs_slept
    # "This card disables an opponent's weapon cards (Arrows, Javelin, Sword, and/or Sling & Stone)."
    weapons = ("arrow", "javelin", "sword", "sling_stone")
    mine_f = _disable(mine, weapons, None, "Fortress", why_a) if _kinds(theirs, "fortress") else mine
    theirs_f = _disable(theirs, weapons, None, "Fortress", why_b) if _kinds(mine, "fortress") else theirs
    mine, theirs = mine_f, theirs_f
    # "One Ambush card will disable one Reinforcements card." "One Murmuring card disables one
    # Faithful Women card in play."
    mine_x = _disable(mine, ("reinforcements",), _kinds(theirs, "ambush"), "Ambush", why_a)
    theirs_x = _disable(theirs, ("reinforcements",), _kinds(mine, "ambush"), "Ambush", why_b)
    mine_x = _disable(mine_x, ("faithful_women",), _kinds(theirs, "murmuring"), "Murmuring", why_a)
    theirs_x = _disable(theirs_x, ("faithful_women",), _kinds(mine, "murmuring"), "Murmuring", why_b)
    return mine_x, theirs_x, why_a, why_b


def _card_points(card: Info, mine: list[Info], theirs: list[Info]) -> Point:
    primary = next((c for c in mine if c.warrior), None)
    their_primary = next((c for c in theirs if c.warrior), None)
    side = primary.side if primary else None
    if card.warrior:
        return Point(card.name, card.points, "warrior")
    kind = card.armory
    if kind in ("faith", "wickedness", "murmuring"):
        wanted = "righteous" if kind == "faith" else "wicked"
        return Point(card.name, card.points, "on_primary", wanted) if side == wanted else \
            Point(card.name, 0, "only_primary", wanted)
    if kind == "ambush":
        return Point(card.name, card.points, "with_warrior", "righteous") if side == "righteous" else \
            Point(card.name, card.points_wicked or 0, "with_warrior", "wicked")
    if kind == "stoning":
        if their_primary is not None and their_primary.prophet:
            return Point(card.name, card.points_vs_prophet or card.points, "against_prophet", their_primary.name)
        return Point(card.name, card.points, "points")
    if card.weapon:
        immune = next((w for w in theirs if w.warrior and kind in w.immune), None)
        if immune is not None:
            return Point(card.name, 0, "immune", immune.name)
        lab = _kinds(mine, "sword_of_laban")
        if lab:
            return Point(card.name, card.points * 2 ** lab, "laban", count=lab)
        return Point(card.name, card.points, "weapon")
    return Point(card.name, card.points, "ability", kind or "")


def score(catalog: Catalog, a: list[Laid], b: list[Laid]) -> Side:
    """Side ``a``'s points against side ``b``, with every term."""
    mine, theirs, why, _ = counting(catalog, a, b)
    terms: list[Point] = []
    total = 0
    for card in mine:
        point = _card_points(card, mine, theirs)
        total += point.value
        terms.append(point)
    for warrior in (c for c in mine if c.warrior):
        for card_id, extra in warrior.bonus:
            partner = next((c for c in mine if c.id == card_id), None)
            if partner is not None:
                total += extra
                terms.append(Point(warrior.name, extra, "bonus", partner.name))
    for c in a:
        if c.card in why:
            terms.append(Point(info(catalog, c.card).name, 0, "disabled" if why[c.card] else "unusable", why[c.card]))
    # "This card doubles the total points of the holder's cards in play."
    for _ in range(_kinds(mine, "faithful_women")):
        terms.append(Point("Faithful Women", total, "doubles", count=total))
        total *= 2
    # "This shields all your cards by subtracting one of your opponent's points for each weapon card
    # ... your opponent plays"; the Sword of Laban doubles it ("a Shield would block 2 points").
    my_weapons = sum(1 for c in mine if c.weapon)
    for guard in (c for c in theirs if c.armory in ("shield", "armor")):
        blocked = my_weapons * 2 ** _kinds(theirs, "sword_of_laban")
        if blocked:
            terms.append(Point(guard.name, -blocked, "shielded", count=blocked // my_weapons))
            total -= blocked
    return Side(max(total, 0), tuple(terms))
