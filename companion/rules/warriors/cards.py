"""What a Warriors card is, and whether it may be laid with the cards already in play.

The rulebook's combination rules ("Additional Instructions"):

- "Secondary cards need to have at least one icon that matches the icon of a Warrior card already
  played." A Chain: "link two or more Warriors together"; "Armory cards cannot be used to make a
  Chain."
- "'Wicked' Warriors cannot be played with 'Righteous' Warriors and vice versa." "Any Armory card
  with a yellow or red dot in place of an icon may be played with any corresponding (Righteous or
  Wicked) Warrior card."
- A primary card: "the chosen Warrior must have icons".

A card that breaks one is answered with the rule's code ("side", "icon", ...); the words, quoting
the rulebook, are in refusals.py (COMBINATION).
"""
from __future__ import annotations

from dataclasses import dataclass

from card_tags.catalog import Card, Catalog
from card_tags.games.warriors import bonus_parts

WEAPON_KINDS = ("arrow", "javelin", "sword", "sling_stone")
ABILITIES = ("conversion", "dissenter", "deception", "escape")   # used by a choice, at the table


@dataclass(frozen=True)
class Info:
    """One card's rules facts, read from the catalog."""

    key: str
    id: str
    name: str
    warrior: bool
    side: str | None       # a Warrior's side, or an Armory card's dot
    icons: tuple[str, ...]
    armory: str            # the appendix kind ("" for a Warrior)
    points: int
    prophet: bool = False
    weapon: bool = False
    joins: tuple[str, ...] = ()
    bonus: tuple[tuple[str, int], ...] = ()
    immune: tuple[str, ...] = ()
    captures: int = 0
    duel: str = ""
    points_wicked: int | None = None
    points_vs_prophet: int | None = None


def info(catalog: Catalog, key: str) -> Info:
    card: Card = catalog.cards[key.partition("#")[0]]
    if card.kind == "warrior":
        return Info(key, card.id, card.name, True, card["side"], tuple(card["icons"]), "", card["points"],
                    prophet=card["prophet"], joins=tuple(card.get("joins", [])),
                    bonus=tuple(p for p in (bonus_parts(b) for b in card.get("bonus", [])) if p),
                    immune=tuple(card.get("immune", [])), captures=card.get("captures", 0),
                    duel=card.get("duel") or "")
    return Info(key, card.id, card.name, False, card.get("dot"), tuple(card["icons"]), card["armory"],
                card["points"], weapon=card["weapon"], points_wicked=card.get("points_wicked"),
                points_vs_prophet=card.get("points_vs_prophet"))


def side_of(warriors: list[Info]) -> str | None:
    """The side a player's cards in play are on: their Warriors' (they are never mixed)."""
    return warriors[0].side if warriors else None


def why_not_primary(card: Info) -> str | None:
    """None if ``card`` may be the primary Warrior, else the code of the rule it breaks."""
    if not card.warrior:
        return "not_warrior"
    if not card.icons:
        return "no_icons"
    return None


def why_not_secondary(card: Info, warriors: list[Info]) -> str | None:
    """None if ``card`` may be laid next to these Warriors in play (the primary first), else the
    code of the rulebook's combination rule it breaks."""
    if not warriors:
        return "primary_first"
    side = side_of(warriors)
    if card.warrior and card.side != side:
        return "side"
    if not card.warrior and card.side is not None:
        return None if card.side == side else "dot"
    if card.warrior and any(w.id in card.joins for w in warriors):
        return None
    chain = {icon for w in warriors for icon in w.icons}
    if not set(card.icons) & chain:
        return "icon"
    return None


def usable(card: Info, others: list[Info]) -> bool:
    """Whether a card that came into play without being laid (taken with Conversion or Dissenter,
    added by Deception, laid down in the special battle) "can be used with your cards in play"."""
    warriors = [o for o in others if o.warrior]
    if card.warrior and warriors and warriors[0].key == card.key:
        return True
    return why_not_secondary(card, [w for w in warriors if w.key != card.key]) is None
