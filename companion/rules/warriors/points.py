"""The points of a Challenge, term by term, from the "Armory Cards Appendix" as written.

``score(catalog, mine, theirs)`` counts one side's cards in play against the other's: only cards
turned face up count (points run after every reveal), a card turned 90 degrees by an Escape counts
nothing, and a card that came into play without being laid (taken, Deception's, the special
battle's) counts only if it "can be used with your cards in play". Each term is a card and what it
adds, with the reason; a card that adds nothing is a term too, saying why.

The order of the appendix's interactions (the rulebook gives none; docs/referee/warriors.md):
Sleep first (it disables Fortress, Shield and Armor), then Fortress (it disables weapon cards),
then Ambush and Murmuring (one card each), then the points, then Faithful Women doubling the
holder's total, then the opponent's Shield and Armor subtracting, never below zero.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from card_tags.catalog import Catalog
from companion.rules.base import Term

from .cards import Info, info, usable
from .state import Laid


@dataclass(frozen=True)
class Side:
    total: int
    terms: tuple[Term, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "terms": [t.as_dict() for t in self.terms]}


def active(catalog: Catalog, play: list[Laid]) -> tuple[list[Info], dict[str, str]]:
    """The cards of one side that count now, and why each other face-up card does not."""
    laid = [info(catalog, c.card) for c in play if c.how == "laid" and not c.face_down]
    shown, why = [], {}
    for c in play:
        if c.face_down:
            continue
        card = info(catalog, c.card)
        if c.disabled:
            why[c.card] = "disabled by Escape"
        elif c.how != "laid" and not usable(card, laid):
            why[c.card] = "cannot be used with these cards in play"
        else:
            shown.append(card)
    return shown, why


def _disable(cards: list[Info], kinds: tuple[str, ...], count: int | None, reason: str,
             why: dict[str, str]) -> list[Info]:
    """Take up to ``count`` (all if None) cards of these kinds out of play, recording why."""
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
    mine_slept = _disable(mine, ("fortress", "shield", "armor"), None, "disabled by Sleep", why_a) \
        if _kinds(theirs, "sleep") else mine
    theirs_slept = _disable(theirs, ("fortress", "shield", "armor"), None, "disabled by Sleep", why_b) \
        if _kinds(mine, "sleep") else theirs
    mine, theirs = mine_slept, theirs_slept
    # "This card disables an opponent's weapon cards (Arrows, Javelin, Sword, and/or Sling & Stone)."
    weapons = ("arrow", "javelin", "sword", "sling_stone")
    mine_f = _disable(mine, weapons, None, "disabled by Fortress", why_a) if _kinds(theirs, "fortress") else mine
    theirs_f = _disable(theirs, weapons, None, "disabled by Fortress", why_b) if _kinds(mine, "fortress") else theirs
    mine, theirs = mine_f, theirs_f
    # "One Ambush card will disable one Reinforcements card." "One Murmuring card disables one
    # Faithful Women card in play."
    mine_x = _disable(mine, ("reinforcements",), _kinds(theirs, "ambush"), "disabled by Ambush", why_a)
    theirs_x = _disable(theirs, ("reinforcements",), _kinds(mine, "ambush"), "disabled by Ambush", why_b)
    mine_x = _disable(mine_x, ("faithful_women",), _kinds(theirs, "murmuring"), "disabled by Murmuring", why_a)
    theirs_x = _disable(theirs_x, ("faithful_women",), _kinds(mine, "murmuring"), "disabled by Murmuring", why_b)
    return mine_x, theirs_x, why_a, why_b


def _card_points(card: Info, mine: list[Info], theirs: list[Info]) -> tuple[int, str]:
    primary = next((c for c in mine if c.warrior), None)
    their_primary = next((c for c in theirs if c.warrior), None)
    side = primary.side if primary else None
    if card.warrior:
        return card.points, "Warrior"
    kind = card.armory
    if kind in ("faith", "wickedness", "murmuring"):
        wanted = "righteous" if kind == "faith" else "wicked"
        return (card.points, f"on a {wanted.title()} primary card") if side == wanted else \
            (0, f"adds only to a {wanted.title()} primary card")
    if kind == "ambush":
        return (card.points, "with a Righteous Warrior") if side == "righteous" else \
            (card.points_wicked or 0, "with a Wicked Warrior")
    if kind == "stoning":
        if their_primary is not None and their_primary.prophet:
            return card.points_vs_prophet or card.points, f"against a prophet ({their_primary.name})"
        return card.points, ""
    if card.weapon:
        immune = next((w for w in theirs if w.warrior and kind in w.immune), None)
        if immune is not None:
            return 0, f"adds no points against {immune.name}"
        lab = _kinds(mine, "sword_of_laban")
        if lab:
            return card.points * 2 ** lab, "weapon, doubled by the Sword of Laban" + (f" x{lab}" if lab > 1 else "")
        return card.points, "weapon"
    return card.points, ZERO_POINT_DETAIL.get(kind, "")


ZERO_POINT_DETAIL = {
    "armor": "shields: see the opponent's weapon cards", "shield": "shields: see the opponent's weapon cards",
    "fortress": "disables the opponent's weapon cards", "sleep": "disables Fortress, Shield and Armor",
    "faithful_women": "doubles the total", "conversion": "takes a card, once per Battle round",
    "dissenter": "takes a card, once per Battle round", "deception": "adds a card from the hand, once per Battle round",
    "escape": "disables a card, once in each Challenge",
}


def score(catalog: Catalog, a: list[Laid], b: list[Laid]) -> Side:
    """Side ``a``'s points against side ``b``, with every term."""
    mine, theirs, why, _ = counting(catalog, a, b)
    terms: list[Term] = []
    total = 0
    for card in mine:
        value, detail = _card_points(card, mine, theirs)
        total += value
        terms.append(Term(card.name, value, detail))
    for warrior in (c for c in mine if c.warrior):
        for card_id, extra in warrior.bonus:
            partner = next((c for c in mine if c.id == card_id), None)
            if partner is not None:
                total += extra
                terms.append(Term(f"{warrior.name} + {partner.name}", extra, "bonus (Special Abilities)"))
    for c in a:
        if c.card in why:
            terms.append(Term(info(catalog, c.card).name, 0, why[c.card]))
    # "This card doubles the total points of the holder's cards in play."
    for _ in range(_kinds(mine, "faithful_women")):
        terms.append(Term("Faithful Women", total, "doubles the total"))
        total *= 2
    # "This shields all your cards by subtracting one of your opponent's points for each weapon card
    # ... your opponent plays"; the Sword of Laban doubles it ("a Shield would block 2 points").
    my_weapons = sum(1 for c in mine if c.weapon)
    for guard in (c for c in theirs if c.armory in ("shield", "armor")):
        blocked = my_weapons * 2 ** _kinds(theirs, "sword_of_laban")
        if blocked:
            terms.append(Term(f"their {guard.name}", -blocked, f"-{blocked // my_weapons} per weapon card"))
            total -= blocked
    return Side(max(total, 0), tuple(terms))
