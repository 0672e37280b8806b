"""The tag payload: what the QR code on a card says.

A payload names the game, the card and the physical copy, and must fit a version-1 QR code
(21 x 21 modules) at error-correction level M, whose alphanumeric capacity is 20 characters.
So it uses only QR's alphanumeric alphabet (digits, upper-case letters and ``:``):

    TC1:BM:GD500:2:K
    │   │  │     │ └ check character (mod 43 over everything before it)
    │   │  │     └── copy number, 1-99
    │   │  └──────── card id in the game's catalog, 1-8 characters A-Z 0-9
    │   └─────────── game code, 2 characters
    └─────────────── format and version ("TC" table companion, version 1)

The check character is there because a wrong read is worse than no read: QR's own
Reed-Solomon code can, rarely, "correct" a damaged code into a different valid one.

A card a game keeps hidden (a Stratego piece, a Gather Together identity, a Warriors hand) carries
a *private* tag instead, which names no card, only a random code that the table that printed it
maps to the card (card_tags/private.py):

    TC1:ST:K7QM2XJ9PA:C
    │   │  │          └ check character
    │   │  └─────────── the table's random code, 10 characters A-Z 0-9
    │   └────────────── game code
    └────────────────── format and version

See docs/payload-format.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .games import GAMES as REGISTERED

PREFIX = "TC1"
MAX_LENGTH = 20  # alphanumeric capacity of a version-1 QR code at level M
ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_VALUE = {c: i for i, c in enumerate(ALPHANUMERIC)}
CARD_ID = re.compile(r"^[A-Z0-9]{1,8}$")
_GAME = re.compile(r"^[A-Z0-9]{2}$")

# Game codes, from the one registry of games (card_tags/games/__init__.py); a code is part of every
# printed tag, so never reuse one.
GAME_CODES = {g.game: g.code for g in REGISTERED}
GAME_BY_CODE = {code: game for game, code in GAME_CODES.items()}


PRIVATE_LENGTH = 10  # 36^10 codes: a table's few hundred are never guessed, nor shared by two cards
_PRIVATE = re.compile(r"^[A-Z0-9]{%d}$" % PRIVATE_LENGTH)


class PayloadError(ValueError):
    """A code that is not one of our tags, or a damaged one. The message says which."""


class PrivateTag(PayloadError):
    """A well-formed private tag: it names no card; only the table that printed it knows which."""

    def __init__(self, text: str, game: str):
        super().__init__(f"a private {game} tag that this table did not print (another table's sheet, "
                         f"or a set replaced since): it names no card")
        self.game = game


@dataclass(frozen=True, order=True)
class CardRef:
    """One physical card: a game, a card id in that game's catalog, and a copy number."""

    game: str
    card: str
    copy: int = 1

    @property
    def key(self) -> str:
        """A short, stable name for this physical copy, used in game logs: ``GD500#2``."""
        return f"{self.card}#{self.copy}"

    @classmethod
    def from_key(cls, game: str, key: str) -> "CardRef":
        card, _, copy = key.partition("#")
        return cls(game, card, int(copy or 1))


def check_char(body: str) -> str:
    """Mod-43 check character over QR's alphanumeric alphabet (as Code 39 does)."""
    return ALPHANUMERIC[sum(map(_VALUE.__getitem__, body)) % 43]


def encode(ref: CardRef) -> str:
    code = GAME_CODES.get(ref.game)
    if code is None:
        raise PayloadError(f"no game code for {ref.game!r}")
    if not CARD_ID.match(ref.card):
        raise PayloadError(f"card id {ref.card!r} must be 1-8 characters A-Z, 0-9")
    if not 1 <= ref.copy <= 99:
        raise PayloadError(f"copy number {ref.copy} must be 1-99")
    body = f"{PREFIX}:{code}:{ref.card}:{ref.copy}"
    text = f"{body}:{check_char(body)}"
    if len(text) > MAX_LENGTH:
        raise PayloadError(f"payload {text!r} is longer than {MAX_LENGTH} characters")
    return text


def encode_private(game: str, code: str) -> str:
    """A private tag's payload: the game and the table's random code, never the card."""
    game_code = GAME_CODES.get(game)
    if game_code is None:
        raise PayloadError(f"no game code for {game!r}")
    if not _PRIVATE.match(code):
        raise PayloadError(f"a private code is {PRIVATE_LENGTH} characters A-Z, 0-9, not {code!r}")
    body = f"{PREFIX}:{game_code}:{code}"
    return f"{body}:{check_char(body)}"


def private_game(text: str) -> str | None:
    """The game of a well-formed private tag (its check character right), else None."""
    parts = text.split(":")
    if len(parts) != 4 or parts[0] != PREFIX or parts[1] not in GAME_BY_CODE or not _PRIVATE.match(parts[2]):
        return None
    return GAME_BY_CODE[parts[1]] if parts[3] == check_char(text.rsplit(":", 1)[0]) else None


def is_ours(text: str) -> bool:
    """True when the text claims to be a tag of ours (it may still be damaged)."""
    return text.startswith(PREFIX + ":")


def decode(text: str) -> CardRef:
    """Parse a payload, or raise PayloadError saying exactly what is wrong with it."""
    if not is_ours(text):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise PayloadError(f"not a table-companion tag: {shown!r}")
    parts = text.split(":")
    game = private_game(text) if len(parts) == 4 else None
    if game:
        raise PrivateTag(text, game)
    if len(parts) != 5:
        raise PayloadError(f"tag {text!r} should have 5 fields separated by ':'")
    _, code, card, copy, check = parts
    if not _VALUE.keys() >= set(text):   # a code read in a camera's view may hold anything
        raise PayloadError(f"tag {text!r} holds characters a tag never has (damaged or misread)")
    body = text.rsplit(":", 1)[0]
    if check != check_char(body):
        raise PayloadError(f"tag {text!r} fails its check character (damaged or misread)")
    if not _GAME.match(code) or code not in GAME_BY_CODE:
        raise PayloadError(f"tag {text!r} names an unknown game code {code!r}")
    if not CARD_ID.match(card):
        raise PayloadError(f"tag {text!r} has a malformed card id {card!r}")
    if not copy.isdigit() or not 1 <= int(copy) <= 99:
        raise PayloadError(f"tag {text!r} has a malformed copy number {copy!r}")
    return CardRef(GAME_BY_CODE[code], card, int(copy))
