"""Warriors of the Promised Land: what its cards carry, and the counts the rulebook gives.

Two decks (warriors-of-the-promised-land.txt, "Getting Ready to Play"): gold-bordered Warrior cards
and blue-bordered Armory cards. The rulebook's appendix gives all 26 Armory cards and their counts
(84 cards); it gives no list of Warriors, so the reference deck's Warriors are ours
(docs/decks/warriors.md says what comes from where).

What the rules need from a card:

- A Warrior is Righteous or Wicked ("as indicated by the yellow or red dot in the corner"), has
  icons (or none: "the chosen Warrior must have icons" to be a primary card), points, whether he is
  a prophet (Stoning: "add 3 points to your total if you play this card against a prophet"), and
  special abilities. Abilities are data the referee can apply:
    ``bonus``    ["FVISION+2"]: bonus points when played with that card (the rulebook's Nephi and
                 Faith: Vision example).
    ``joins``    ["NEPHI"]: may be played as a secondary card with that Warrior without a matching
                 icon (the way to play a Warrior that has no icons).
    ``immune``   ["arrow"]: an opponent's Armory cards of these kinds add no points against him.
    ``captures`` 1: when he wins a Challenge he also captures that many cards from the top of the
                 loser's Discard pile (the rulebook's "exceptions may be found in the Special
                 Abilities on certain cards").
    ``duel``     "SHIZ": the Coriantumr-and-Shiz special battle when these two face each other.
- An Armory card has icons, or a Righteous or Wicked dot "in place of an icon"; the points it adds;
  whether it is a weapon card ("Arrows, Javelin, Sword, and/or Sling and Stone"); and, for Faith
  and Wickedness, which of the five named expressions it is.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from card_tags.catalog import Card, Catalog

SIDES = ["righteous", "wicked"]

# The appendix, card by card: (count, points added, weapon card). "Armory Cards Appendix".
APPENDIX = {
    "ambush": (3, 3, False),            # 3 with a Righteous Warrior, 2 with a Wicked one
    "armor": (3, 0, False),
    "arrow": (3, 2, True),
    "assassination": (3, 3, False),
    "conversion": (3, 0, False),
    "deception": (3, 0, False),
    "dissenter": (3, 0, False),
    "escape": (3, 0, False),
    "faith": (5, 3, False),
    "faithful_women": (3, 0, False),    # doubles the holder's total instead
    "fortress": (4, 0, False),
    "javelin": (3, 2, True),
    "liahona": (3, 2, False),
    "murmuring": (3, 2, False),
    "plates": (3, 2, False),
    "prayer": (4, 3, False),
    "prophecy": (2, 2, False),
    "reinforcements": (3, 2, False),
    "secret_combination": (3, 5, False),
    "shield": (3, 0, False),
    "sleep": (3, 0, False),
    "sling_stone": (3, 2, True),
    "stoning": (3, 2, False),           # 3 against a prophet
    "sword_of_laban": (3, 2, False),    # "not grouped with the other weapon cards"
    "sword": (4, 2, True),
    "wickedness": (5, 3, False),
}
ARMORY_TOTAL = 84
AMBUSH_WICKED_POINTS = 2
STONING_VS_PROPHET_POINTS = 3

# "There are 5 expressions of Faith: Love, Vision, Repentance, Revelation, and Steadfast."
# "There are 5 expressions of Wickedness: Greed, Pride, Hatred, Anger, Seek for Power."
EXPRESSIONS = {
    "faith": ["Love", "Vision", "Repentance", "Revelation", "Steadfast"],
    "wickedness": ["Greed", "Pride", "Hatred", "Anger", "Seek for Power"],
}

# The rulebook's worked examples name these cards and their numbers:
# "Nephi and the Faith: Vision card would give a player 1 point for Nephi, 3 points for
# Faith: Vision, and 2 bonus points"; the same for King Noah and Wickedness: Pride.
EXAMPLE_BONUSES = [("Nephi", "faith", "Vision"), ("King Noah", "wickedness", "Pride")]
EXAMPLE_POINTS, EXAMPLE_BONUS = 1, 2

# Our reading of "Getting Ready to Play": every player draws 3 Warriors and "must keep at least
# one Warrior in his/her hand at all times", so a deal for 6 players needs at least 4 Warriors each.
MAX_PLAYERS = 6
MIN_WARRIORS_PER_PLAYER = 4

_BONUS = re.compile(r"^([A-Z0-9]{1,8})\+([1-9][0-9]?)$")
_ICON = re.compile(r"^[a-z][a-z_]*$")

SCHEMA = {
    "warrior": {
        "side": SIDES,
        "icons": "list[str]",
        "points": "int",
        "prophet": "bool",
        "bonus?": "list[str]",
        "joins?": "list[str]",
        "immune?": "list[str]",
        "captures?": "int",
        "duel?": "str",
        "text?": "str",        # the Special Abilities in words, as they read on the card
        "reference?": "str",   # where the Book of Mormon tells of him
    },
    "armory": {
        "armory": list(APPENDIX),
        "icons": "list[str]",
        "dot?": SIDES,
        "points": "int",
        "points_wicked?": "int",
        "points_vs_prophet?": "int",
        "weapon": "bool",
        "expression?": "str",
        "text": "str",
    },
}


def bonus_parts(entry: str) -> tuple[str, int] | None:
    """"FVISION+2" -> ("FVISION", 2); None if the entry is malformed."""
    match = _BONUS.match(entry)
    return (match.group(1), int(match.group(2))) if match else None


def _check_warrior(card: Card, cards: dict[str, Card]) -> list[str]:
    problems = []
    where = f"card {card.id!r}"
    for icon in card["icons"]:
        if not _ICON.match(icon):
            problems.append(f"{where}: field 'icons' has {icon!r}; an icon is a lower-case word")
    if card["points"] < 0:
        problems.append(f"{where}: field 'points' must not be negative")
    for entry in card.get("bonus", []):
        parts = bonus_parts(entry)
        if parts is None:
            problems.append(f"{where}: field 'bonus' has {entry!r}; write CARDID+POINTS, e.g. 'FVISION+2'")
        elif parts[0] not in cards:
            problems.append(f"{where}: field 'bonus' names {parts[0]!r}, which is not a card of this deck")
    for other in card.get("joins", []):
        target = cards.get(other)
        if target is None or target.kind != "warrior":
            problems.append(f"{where}: field 'joins' names {other!r}, which is not a Warrior of this deck")
        elif target["side"] != card["side"]:
            problems.append(f"{where}: field 'joins' names {other!r}, but Righteous and Wicked Warriors "
                            f"cannot be played together")
    for kind in card.get("immune", []):
        if kind not in APPENDIX:
            problems.append(f"{where}: field 'immune' has {kind!r}; it must name Armory cards ({', '.join(APPENDIX)})")
    if card.get("captures", 0) < 0:
        problems.append(f"{where}: field 'captures' must not be negative")
    duel = card.get("duel")
    if duel is not None:
        target = cards.get(duel)
        if target is None or target.kind != "warrior":
            problems.append(f"{where}: field 'duel' names {duel!r}, which is not a Warrior of this deck")
        elif target.get("duel") != card.id:
            problems.append(f"{where}: field 'duel' names {duel!r}, whose 'duel' does not name {card.id!r} back")
    return problems


def _check_armory(card: Card) -> list[str]:
    problems = []
    where = f"card {card.id!r}"
    kind = card["armory"]
    count, points, weapon = APPENDIX[kind]
    title = kind.replace("_", " ").title()
    has_dot = card.get("dot") is not None
    if has_dot and card["icons"]:
        problems.append(f"{where}: field 'dot': a card with a dot has it \"in place of an icon\", so 'icons' must be empty")
    if not has_dot and not card["icons"]:
        problems.append(f"{where}: field 'icons' is empty and there is no 'dot'; an Armory card needs one or the other")
    for icon in card["icons"]:
        if not _ICON.match(icon):
            problems.append(f"{where}: field 'icons' has {icon!r}; an icon is a lower-case word")
    if card["points"] != points:
        problems.append(f"{where}: field 'points' is {card['points']}, but the appendix gives {title} {points}")
    if card["weapon"] != weapon:
        problems.append(f"{where}: field 'weapon' must be {weapon}: the weapon cards are Arrows, Javelin, "
                        f"Sword and Sling & Stone")
    expected_extra = {"points_wicked": AMBUSH_WICKED_POINTS if kind == "ambush" else None,
                      "points_vs_prophet": STONING_VS_PROPHET_POINTS if kind == "stoning" else None}
    for field_name, expected in expected_extra.items():
        if card.get(field_name) != expected:
            wanted = "absent" if expected is None else str(expected)
            problems.append(f"{where}: field {field_name!r} is {card.get(field_name)!r}; for {title} the "
                            f"appendix makes it {wanted}")
    expression = card.get("expression")
    if kind in EXPRESSIONS:
        if expression not in EXPRESSIONS[kind]:
            problems.append(f"{where}: field 'expression' must be one of the five expressions of {title}: "
                            f"{', '.join(EXPRESSIONS[kind])}; not {expression!r}")
    elif expression is not None:
        problems.append(f"{where}: field 'expression' is only for Faith and Wickedness cards")
    return problems


def _check_examples(cards: dict[str, Card]) -> list[str]:
    """The rulebook's own numbers for Nephi and King Noah, where the deck has them."""
    problems = []
    for name, kind, expression in EXAMPLE_BONUSES:
        for card in cards.values():
            if card.kind != "warrior" or card.name != name:
                continue
            if card["points"] != EXAMPLE_POINTS:
                problems.append(f"card {card.id!r}: field 'points' is {card['points']}; the rulebook counts "
                                f"\"{EXAMPLE_POINTS} point for {name}\"")
            wanted = [c.id for c in cards.values()
                      if c.kind == "armory" and c["armory"] == kind and c.get("expression") == expression]
            bonuses = dict(bonus_parts(b) for b in card.get("bonus", []) if bonus_parts(b))  # type: ignore[misc]  # no None left
            if not any(bonuses.get(w) == EXAMPLE_BONUS for w in wanted):
                problems.append(f"card {card.id!r}: field 'bonus' must give {EXAMPLE_BONUS} bonus points with "
                                f"{kind.title()}: {expression}, as the rulebook's example says")
    return problems


def check(catalog: Catalog) -> list[str]:
    """Every count the rulebook gives; every problem, each naming the card and field."""
    cards = catalog.cards
    problems = []
    armory: Counter[str] = Counter()
    expressions: dict[str, Counter[str]] = {kind: Counter() for kind in EXPRESSIONS}
    warriors: Counter[str] = Counter()
    names: Any  # the expressions of Faith or Wickedness first, then the Warriors by name
    for card in cards.values():
        if card.kind == "warrior":
            warriors[card["side"]] += card.copies
            problems += _check_warrior(card, cards)
        else:
            armory[card["armory"]] += card.copies
            problems += _check_armory(card)
            if card["armory"] in EXPRESSIONS and card.get("expression"):
                expressions[card["armory"]][card["expression"]] += card.copies
    for kind, (count, _, _) in APPENDIX.items():
        if armory[kind] != count:
            title = kind.replace("_", " ").title()
            problems.append(f"the appendix has {count} {title} card(s); this deck has {armory[kind]}")
    total = sum(armory.values())
    if total != ARMORY_TOTAL:
        problems.append(f"the appendix adds up to {ARMORY_TOTAL} Armory cards; this deck has {total}")
    for kind, names in EXPRESSIONS.items():
        for name in names:
            if armory[kind] == len(names) and expressions[kind][name] != 1:
                problems.append(f"{kind.title()}: {name} must appear exactly once (one card per expression); "
                                f"this deck has {expressions[kind][name]}")
    needed = MAX_PLAYERS * MIN_WARRIORS_PER_PLAYER
    if sum(warriors.values()) < needed:
        problems.append(f"{MAX_PLAYERS} players each need a Warrior deck of at least {MIN_WARRIORS_PER_PLAYER} "
                        f"(3 in hand and one always kept): at least {needed} Warrior cards; this deck has "
                        f"{sum(warriors.values())}")
    for side in SIDES:
        if not warriors[side]:
            problems.append(f"the deck has no {side.title()} Warriors")
    with_icons = sum(c.copies for c in cards.values() if c.kind == "warrior" and c["icons"])
    if with_icons < MAX_PLAYERS:
        problems.append(f"every player's primary Warrior \"must have icons\"; only {with_icons} Warrior cards have any")
    names = {c.name: c for c in cards.values() if c.kind == "warrior"}
    for name in ("Coriantumr", "Shiz"):
        if name not in names:
            problems.append(f"the rulebook's special battle needs a Warrior named {name}; this deck has none")
    if "Coriantumr" in names and "Shiz" in names and names["Coriantumr"].get("duel") != names["Shiz"].id:
        problems.append(f"card {names['Coriantumr'].id!r}: field 'duel' must name Shiz ({names['Shiz'].id}) "
                        f"for the Coriantumr-and-Shiz special battle")
    warrior_icons = {i for c in cards.values() if c.kind == "warrior" for i in c["icons"]}
    for card in cards.values():
        if card.kind == "armory" and card["icons"] and not set(card["icons"]) & warrior_icons:
            problems.append(f"card {card.id!r}: field 'icons' {card['icons']} matches no Warrior's icons, so the "
                            f"card could never be played")
    problems += _check_examples(cards)
    return problems
