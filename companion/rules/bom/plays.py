"""One seat's play: is it legal, and what is it worth.

"From the BATTALION, each player chooses a CHARACTER card (or combination of cards if using a
POWER card)." "POWER cards strengthen CHARACTER cards. They cannot be played individually."
(bom-battle.txt). A play is one CHARACTER card, or CHARACTER card(s) with exactly one POWER card,
used exactly as its card is worded. ``evaluate`` returns a ``Play`` (data: the view tells how its
value was reached) or the ``Problem`` saying why not.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from card_tags.catalog import Card

# "under 1000 (100-900)", the rulebook's own limit for Faith, Wickedness, Conversion, Title of
# Liberty and Secret Combination.
LOW, HIGH = 100, 900


@dataclass(frozen=True)
class PowerRule:
    """What a POWER card's wording asks of the CHARACTER cards it goes with (its words: refusals.py)."""

    count: int | None        # how many CHARACTER cards go with it (None: any number, at least one)
    color: str | None        # the colour they must be
    under_1000: bool         # each must be 100-900


@dataclass(frozen=True)
class Problem:
    """Why a play is not legal, or a battle not ready: a reason code and its data (worded in refusals.py)."""

    code: str
    data: dict[str, Any] = field(default_factory=dict)

    def as_data(self) -> dict[str, Any]:
        return {"code": self.code, **self.data}


POWER_RULES = {
    "faith": PowerRule(1, "gold", True),
    "wickedness": PowerRule(1, "black", True),
    "conversion": PowerRule(1, "black", True),
    "title_of_liberty": PowerRule(2, "gold", True),
    "secret_combination": PowerRule(2, "black", True),
    "battle": PowerRule(None, None, False),
    # The rulebook does not say how many cards go with these two; they change how the battle is
    # won, not a card's value, so the companion has them go into battle with one CHARACTER card.
    "stripling_warriors": PowerRule(1, None, False),
    "famine": PowerRule(1, None, False),
}
COMBINATIONS = {"battle", "title_of_liberty", "secret_combination"}  # add to a combined value
BONUS = {"battle": 2000, "title_of_liberty": 5000, "secret_combination": 5000}


@dataclass(frozen=True)
class Fighter:
    """One CHARACTER card as it fights: Faith and Wickedness multiply its value, Conversion makes
    it gold and adds 1000 ("a black diamond 300 becomes a gold diamond 1300"). ``printed`` is the
    value on the card, what Famine goes back to."""

    key: str
    name: str
    value: int
    color: str
    shape: str
    printed: int
    printed_color: str

    @property
    def rank(self) -> tuple[int, ...]:
        """"CHARACTER cards are rated by point value first, then color (gold over black), and then
        shape (diamond over oval)." The printed value only separates a Faith 500 from a real 5000."""
        return (self.value, self.color == "gold", self.shape == "diamond", self.printed)

    def as_printed(self) -> "Fighter":
        return Fighter(self.key, self.name, self.printed, self.printed_color, self.shape, self.printed,
                       self.printed_color)


@dataclass(frozen=True)
class Play:
    seat: int
    fighters: tuple[Fighter, ...]
    power: str | None       # the POWER card's rule id ("faith"...), or None
    points: int
    keys: tuple[str, ...]   # every physical card of the play, POWER card included

    @property
    def combination(self) -> bool:
        return self.power in COMBINATIONS

    @property
    def best(self) -> Fighter:
        """The play's highest single CHARACTER card (the tie rule's card)."""
        return max(self.fighters, key=lambda f: f.rank)

    @property
    def best_printed(self) -> Fighter:
        """The play's highest single CHARACTER card as printed (what Famine looks at)."""
        return max((f.as_printed() for f in self.fighters), key=lambda f: f.rank)


def _fighter(key: str, card: Card) -> Fighter:
    return Fighter(key, card.name, card["value"], card["color"], card["shape"], card["value"], card["color"])


def problem(cards: list[tuple[str, Card]]) -> Problem | None:
    """Why these cards are not a legal play, or None when they are."""
    powers = [(key, card) for key, card in cards if card.kind == "power"]
    characters = [(key, card) for key, card in cards if card.kind == "character"]
    if not cards:
        return Problem("no_cards")
    if len(powers) > 1:
        return Problem("two_powers", {"powers": [key for key, _ in powers]})
    if powers and not characters:
        return Problem("power_alone", {"card": powers[0][0]})
    if not powers:
        return Problem("characters_without_power", {"count": len(characters)}) if len(characters) > 1 else None
    power = powers[0][1]["power"]
    rule = POWER_RULES[power]
    if rule.count is not None and len(characters) != rule.count:
        return Problem("power_count", {"power": power, "count": len(characters)})
    for key, card in characters:
        if rule.color and card["color"] != rule.color:
            return Problem("power_color", {"power": power, "card": key, "color": card["color"]})
        if rule.under_1000 and not LOW <= card["value"] <= HIGH:
            return Problem("power_under_1000", {"power": power, "value": card["value"]})
    return None


def evaluate(seat: int, cards: list[tuple[str, Card]]) -> Play | Problem:
    """The play's worth (points and how they were reached), or why it is not legal."""
    wrong = problem(cards)
    if wrong:
        return wrong
    keys = tuple(key for key, _ in cards)
    fighters = [_fighter(key, card) for key, card in cards if card.kind == "character"]
    powers = [card for _, card in cards if card.kind == "power"]
    power = powers[0]["power"] if powers else None
    if power in ("faith", "wickedness"):
        fighters = [replace(fighters[0], value=fighters[0].value * 10)]
    elif power == "conversion":
        fighters = [replace(fighters[0], value=fighters[0].value + 1000, color="gold")]
    points = sum(f.value for f in fighters) + BONUS.get(power or "", 0)
    return Play(seat, tuple(fighters), power, points, keys)
