"""BATTLECARDS World Conflict, Pacific Theater, WWII: what its cards carry, and the rulebook's numbers.

"The game consists of a CONFLICT deck of 54 cards, 50 ARSENAL cards for the US forces, and 50
ARSENAL cards for the Japanese forces." (battlecards-wwii-pacific.txt, THE GAME CONCEPT). The text
gives no card list; the reference deck's cards are ours (docs/decks/battlecards-pacific.md).

CONFLICT cards (every one has an Action Number, "in the upper left and lower right hand corners"):
- ``battle``: a BATTLECARD: its aggressor, the unit types that fight (Ground, Air, Sea), the
  prerequisites (BATTLECARDs the aggressor must already hold), its Victory Points, and for some a
  special victory condition and what happens to the remaining forces. ``eliminates`` marks the two
  total-victory battles: "the US Player is eliminated when the enemy wins the 'Invasion of
  Australia' BATTLECARD. The Japanese player is eliminated when the enemy wins the 'Invasion of
  Japan' BATTLECARD."
- ``keep``: "Keep this card...": kept face down and played later (a combat bonus, or a draw).
- ``draw``: instructs the drawing player to "build up his hand by drawing more cards from the
  ARSENAL deck" (``draw`` cards, optionally then ``deploy`` some, or ``replenish`` the Reserve Hand
  to a size).
- ``intel``: lets the drawing player "learn about their opponent" (look at a stack, the Reserve
  Hand, or the Kept Cards).

ARSENAL cards (``unit``): side, unit type, rank (a plain unit, or a LEADER, GENERAL or ADMIRAL of
whom there is "only one representation" per deck), the Attack Value against Ground, Air and Sea
and the Defense Score against attacks from Ground, Air and Sea units (null is the card's "N/A":
it cannot attack that type / cannot be attacked by that type), the firing phases 1-4 in which it
fires, and the bonus it gives when supporting other units.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from card_tags.catalog import Card, Catalog

SIDES = ["us", "japan", "germany", "britain"]   # Germany and Britain: a Western European set combined with this one
PACIFIC_SIDES = ["us", "japan"]
THEATRES = ["pacific", "western"]
UNIT_TYPES = ["ground", "air", "sea"]
RANKS = ["unit", "leader", "general", "admiral"]
NAMED_RANKS = {"leader", "general", "admiral"}
PHASES = (1, 2, 3, 4)
LOOKS = ["deployed", "reserve", "kept"]

CONFLICT_DECK = 54
ARSENAL_PER_SIDE = 50
TOTAL_VP = 80  # "at least half of the available victory points in the deck ... the number would be 40"
STANDARD_VICTORY_VP = 40
# "the US Player is eliminated when the enemy wins the 'Invasion of Australia' BATTLECARD.
# The Japanese player is eliminated when the enemy wins the 'Invasion of Japan' BATTLECARD."
TOTAL_VICTORY = {"Invasion of Australia": ("japan", "us"), "Invasion of Japan": ("us", "japan")}
CONFLICT_KINDS = ("battle", "keep", "draw", "intel")

# "theatre": a CONFLICT card of the Western European set, when an owner combines it with this one
# ("Conflict decks will not be combined from different sets"); absent, the card is this set's.
_CONFLICT = {"action": "int", "text?": "str", "theatre?": THEATRES}
SCHEMA = {
    "battle": {
        **_CONFLICT,
        "aggressor": SIDES,
        "units": "list[str]",
        "prerequisites": "list[str]",
        "vp": "int",
        "description": "str",
        "year?": "int",
        "must_destroy?": "list[str]",   # a special victory condition: every enemy unit of these types
        "remaining?": "str",            # "it will also say what to do with any remaining forces"
        "eliminates?": SIDES,
    },
    "keep": {
        **_CONFLICT,
        "bonus_attack?": "int",
        "bonus_defense?": "int",
        "bonus_types?": "list[str]",
        "draw?": "int",
    },
    "draw": {
        **_CONFLICT,
        "draw": "int",
        "deploy?": "int",
        "replenish?": "int",
    },
    "intel": {
        **_CONFLICT,
        "look": LOOKS,
    },
    "unit": {
        "side": SIDES,
        "unit_type": UNIT_TYPES,
        "rank": RANKS,
        "attack_ground": "int|null",
        "attack_air": "int|null",
        "attack_sea": "int|null",
        "defense_ground": "int|null",
        "defense_air": "int|null",
        "defense_sea": "int|null",
        "phases": "list[int]",
        "support_attack?": "int",
        "support_defense?": "int",
        "supports?": "list[str]",
        "note?": "str",
    },
}


def attack(card: Card, target_type: str) -> int | None:
    """A unit's Attack Value against a unit of target_type (None for N/A)."""
    value: int | None = card.get(f"attack_{target_type}")
    return value


def defense(card: Card, attacker_type: str) -> int | None:
    """A unit's Defense Score against an attacker of attacker_type (None: cannot be attacked by it)."""
    value: int | None = card.get(f"defense_{attacker_type}")
    return value


def _check_types(where: str, field_name: str, values: list[str], allow_empty: bool) -> list[str]:
    problems = [f"{where}: field {field_name!r} has {v!r}; unit types are {UNIT_TYPES}"
                for v in values if v not in UNIT_TYPES]
    if len(set(values)) != len(values):
        problems.append(f"{where}: field {field_name!r} names a unit type twice")
    if not values and not allow_empty:
        problems.append(f"{where}: field {field_name!r} must name at least one of {UNIT_TYPES}")
    return problems


def _check_battle(card: Card, cards: dict[str, Card]) -> list[str]:
    where = f"card {card.id!r}"
    problems = _check_types(where, "units", card["units"], allow_empty=False)
    problems += _check_types(where, "must_destroy", card.get("must_destroy", []), allow_empty=True)
    if card["vp"] <= 0:
        problems.append(f"{where}: field 'vp' must be positive")
    if card.copies != 1:
        problems.append(f"{where}: field 'copies' must be 1: \"remove any duplicates of the BATTLES from the conflict deck\"")
    for other in card["prerequisites"]:
        target = cards.get(other)
        if target is None or target.kind != "battle":
            problems.append(f"{where}: field 'prerequisites' names {other!r}, which is not a BATTLECARD of this deck")
        elif other == card.id:
            problems.append(f"{where}: field 'prerequisites' names the card itself")
    eliminated = card.get("eliminates")
    if eliminated is not None and eliminated == card["aggressor"]:
        problems.append(f"{where}: field 'eliminates' cannot be the aggressor itself")
    return problems


def _check_unit(card: Card) -> list[str]:
    where = f"card {card.id!r}"
    problems = []
    for field_name in ("attack_ground", "attack_air", "attack_sea", "defense_ground", "defense_air", "defense_sea",
                       "support_attack", "support_defense"):
        value = card.get(field_name)
        if value is not None and value < 0:
            problems.append(f"{where}: field {field_name!r} must not be negative")
    phases = card["phases"]
    if any(p not in PHASES for p in phases) or len(set(phases)) != len(phases):
        problems.append(f"{where}: field 'phases' must list distinct firing phases from 1-4, not {phases}")
    fires = any(attack(card, t) is not None for t in UNIT_TYPES)
    if fires and not phases:
        problems.append(f"{where}: field 'phases' is empty, but the unit has an Attack Value; say in which phases it fires")
    if not fires and phases:
        problems.append(f"{where}: field 'phases' lists {phases}, but every Attack Value is N/A")
    supports = card.get("supports", [])
    problems += _check_types(where, "supports", supports, allow_empty=True)
    bonus = card.get("support_attack", 0) or card.get("support_defense", 0)
    if supports and not bonus:
        problems.append(f"{where}: field 'supports' is set but there is no 'support_attack' or 'support_defense' bonus")
    if bonus and not supports:
        problems.append(f"{where}: field 'supports' must say which unit types the support bonus applies to")
    if card["rank"] in NAMED_RANKS and card.copies != 1:
        problems.append(f"{where}: field 'copies' must be 1: \"only one representation of each LEADER or GENERAL\"")
    return problems


def _check_western(card: Card, cards: dict[str, Card]) -> list[str]:
    """A card of a Western European set combined with this one: the same shapes as this set's cards."""
    if card.kind == "battle":
        return _check_battle(card, cards)
    if card.kind == "unit":
        return _check_unit(card)
    return []


def _prerequisite_cycle(cards: dict[str, Card]) -> list[str]:
    """Battle ids that can never be fought because their prerequisites lead back to themselves."""
    battles = {cid: card["prerequisites"] for cid, card in cards.items() if card.kind == "battle"}
    state: dict[str, int] = {}  # 1 visiting, 2 done
    looped: list[str] = []

    def visit(cid: str) -> None:
        state[cid] = 1
        for nxt in battles.get(cid, []):
            if nxt not in battles:
                continue
            if state.get(nxt) == 1:
                looped.append(nxt)
            elif nxt not in state:
                visit(nxt)
        state[cid] = 2

    for cid in battles:
        if cid not in state:
            visit(cid)
    return sorted(set(looped))


def check(catalog: Catalog) -> list[str]:
    """The rulebook's numbers: 54 CONFLICT cards, 50 + 50 ARSENAL units, BATTLECARDs worth 80 VP with
    the two total-victory invasions; every problem, each naming the card and field."""
    cards = catalog.cards
    problems = []
    conflict = 0
    arsenal: Counter[str] = Counter()
    vp = 0
    named: dict[tuple[str, str], str] = {}
    for card in cards.values():
        if card.get("theatre", "pacific") != "pacific" or card.get("side", "us") not in PACIFIC_SIDES:
            problems += _check_western(card, cards)
            continue   # the Western set's cards: its own counts, which its rulebook gives, not this one
        if card.kind in CONFLICT_KINDS:
            conflict += card.copies
            if card["action"] < 1:
                problems.append(f"card {card.id!r}: field 'action' must be a positive Action Number")
        if card.kind == "battle":
            vp += card["vp"] * card.copies
            problems += _check_battle(card, cards)
        elif card.kind == "keep":
            if not (card.get("bonus_attack") or card.get("bonus_defense") or card.get("draw")):
                problems.append(f"card {card.id!r}: a kept card needs a 'bonus_attack', 'bonus_defense' or 'draw'")
            problems += _check_types(f"card {card.id!r}", "bonus_types", card.get("bonus_types", []), allow_empty=True)
        elif card.kind == "draw":
            if card["draw"] < 0 or card.get("deploy", 0) < 0 or card.get("replenish", 0) < 0:
                problems.append(f"card {card.id!r}: fields 'draw', 'deploy' and 'replenish' must not be negative")
        elif card.kind == "unit":
            arsenal[card["side"]] += card.copies
            problems += _check_unit(card)
            if card["rank"] in NAMED_RANKS:
                key = (card["side"], card.name)
                if key in named:
                    problems.append(f"card {card.id!r}: {card.name} is already in the deck as {named[key]!r}; "
                                    f"\"only one representation of each LEADER or GENERAL\"")
                named[key] = card.id
    if conflict != CONFLICT_DECK:
        problems.append(f"the CONFLICT deck has {CONFLICT_DECK} cards; this deck has {conflict}")
    for side in PACIFIC_SIDES:
        if arsenal[side] != ARSENAL_PER_SIDE:
            problems.append(f"the {side.upper() if side == 'us' else 'Japanese'} ARSENAL has {ARSENAL_PER_SIDE} "
                            f"cards; this deck has {arsenal[side]}")
    if vp != TOTAL_VP:
        problems.append(f"the BATTLECARDs must add up to {TOTAL_VP} VP (a STANDARD VICTORY is "
                        f"{STANDARD_VICTORY_VP}, half of them); this deck's add up to {vp}")
    for name, (aggressor, eliminated) in TOTAL_VICTORY.items():
        found = [c for c in cards.values() if c.kind == "battle" and c.name == name]
        if not found:
            problems.append(f"the deck has no {name!r} BATTLECARD, which decides a TOTAL VICTORY")
        for card in found:
            if card["aggressor"] != aggressor or card.get("eliminates") != eliminated:
                problems.append(f"card {card.id!r}: {name} must have aggressor {aggressor!r} and eliminate "
                                f"{eliminated!r} (fields 'aggressor', 'eliminates')")
    others = [c.id for c in cards.values() if c.kind == "battle" and c.get("eliminates")
              and c.name not in TOTAL_VICTORY and c.get("theatre", "pacific") == "pacific"]
    for cid in others:
        problems.append(f"card {cid!r}: field 'eliminates': only the Invasion of Australia and the Invasion of "
                        f"Japan eliminate a player in this set")
    for kind, words in (("keep", "\"Keep this card\""), ("draw", "draw from the ARSENAL")):
        if not any(c.kind == kind for c in cards.values()):
            problems.append(f"the CONFLICT deck has no {words} card")
    for cid in _prerequisite_cycle(cards):
        problems.append(f"card {cid!r}: field 'prerequisites' leads back to itself, so the battle could never be fought")
    return problems
