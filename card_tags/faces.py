"""Where each deck's cards show their name and value, so that the tag sticker goes where it hides neither.

A card's tag patch must be big enough for the camera (card_tags/geometry.py: 40.5 mm of code at the
recommended camera, 48 mm with its quiet zone, most of a 63 mm card's width), so where it goes
decides what a player can still read. Each deck's ``DeckFace`` gives the card's size, the areas
a player reads (its name, its value: what the card *is* in play), and the corner whose sticker
leaves them free; a kind of card laid out differently has its own ``Face``.

The rulebooks say little about card faces. What they do say is quoted in ``Area.source``
(BATTLECARDS: "Each CONFLICT Card has an Action Number in the upper left and lower right hand
corners", "On the left side of your unit's card, it will give you its Attack Value"); everything
else ("ours") follows how such cards are usually printed: the name across the top, a value or
rank in the top-left corner, and is said to be ours in docs/decks/README.md. An owner whose cards
differ prints with ``companion tags print GAME --corner CORNER``.

Areas are in millimetres from the card's top-left corner, the card upright (portrait).
"""
from __future__ import annotations

from dataclasses import dataclass, field

CORNERS = ("bottom-right", "bottom-left", "top-right", "top-left")
OURS = "ours (the rulebook does not say)"


@dataclass(frozen=True)
class Area:
    """A part of the card face a player reads: x, y, w, h in mm from the card's top-left corner."""

    what: str
    x: float
    y: float
    w: float
    h: float
    source: str = OURS

    def overlaps(self, x: float, y: float, w: float, h: float) -> bool:
        """True when this area and the rectangle x, y, w, h share any part."""
        return x < self.x + self.w and self.x < x + w and y < self.y + self.h and self.y < y + h


@dataclass(frozen=True)
class Face:
    """One layout of a card's face: what it shows where, and the corner its sticker goes in."""

    areas: tuple[Area, ...]
    corner: str = "bottom-right"

    def __post_init__(self) -> None:
        if self.corner not in CORNERS:
            raise ValueError(f"a sticker goes in one of the corners {', '.join(CORNERS)}, not {self.corner!r}")


@dataclass(frozen=True)
class DeckFace:
    """A deck's cards: their size (mm, portrait), the sheet layout that prints them, and their faces."""

    size: tuple[float, float]
    layout: str
    face: Face
    kinds: dict[str, Face] = field(default_factory=dict)   # kinds laid out otherwise than ``face``
    size_source: str = OURS

    def of(self, kind: str) -> Face:
        return self.kinds.get(kind, self.face)


W, H = 63.0, 88.0   # poker size, the usual size of a game's cards
NAME = Area("name", 4.0, 3.0, 55.0, 9.0)
TOP_LEFT_VALUE = Area("value", 3.0, 3.0, 11.0, 18.0)
POKER = "ours: poker size, 63 x 88 mm (the rulebook gives no size)"

CONFLICT = Face((
    NAME,
    Area("action number", 3.0, 3.0, 9.0, 12.0, '"an Action Number in the upper left and lower right hand corners"'),
    Area("action number", W - 12.0, H - 15.0, 9.0, 12.0, '"an Action Number in the upper left and lower right hand corners"'),
), corner="bottom-left")

FACES: dict[str, DeckFace] = {
    "bom-battle": DeckFace((W, H), "card-63x88", Face((NAME, TOP_LEFT_VALUE)), {
        # a POWER card is known by its name; its wording is the rulebook's, read from the catalog page
        "power": Face((NAME,)),
    }, POKER),
    "warriors": DeckFace((W, H), "card-63x88", Face((
        NAME,
        Area("points", W - 14.0, 3.0, 11.0, 11.0),
        Area("icons", 3.0, 13.0, 57.0, 9.0),
        Area("Righteous or Wicked dot", 3.0, 13.0, 8.0, 8.0, '"the yellow or red dot in the corner of the image"'),
    )), {}, POKER),
    "gt-battle": DeckFace((W, H), "card-63x88", Face((
        NAME,
        Area("rank", 3.0, 3.0, 9.0, 13.0),
        Area("rank", W - 12.0, H - 16.0, 9.0, 13.0),
    ), corner="bottom-left"), {}, POKER),
    "battlecards-pacific": DeckFace((W, H), "card-63x88", CONFLICT, {
        "unit": Face((
            NAME,
            Area("unit type", W - 16.0, 3.0, 13.0, 9.0, '"indicated as its UNIT TYPE on the card" (where: ours)'),
            Area("attack and defense values", 2.0, 14.0, 9.5, 60.0,
                 '"On the left side of your unit\'s card, it will give you its Attack Value"'),
        ), corner="bottom-right"),
    }, POKER),
}


def deck_face(game: str) -> DeckFace | None:
    """The deck's card faces, or None for a game without cards (Stratego's pieces carry stickers)."""
    return FACES.get(game)
