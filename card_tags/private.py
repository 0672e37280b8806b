"""Private tags: the table's own codes for the cards a game keeps hidden, so a sticker says nothing.

A readable tag (``TC1:ST:R10:1:X``) tells any phone's camera app the card: a Stratego piece's rank,
a Gather Together identity. Each card a game keeps hidden (``KEPT_HIDDEN``) is therefore printed
with a private tag instead (``TC1:ST:K7QM2XJ9PA:C``, card_tags/payload.py): a random code made when
the sheet is first printed, which only this table maps to the card. The map lives in the table's
data folder (``private-tags.json``, readable by its owner only), is copied with every backup, is
exported with the PIN, and is reused when a sheet is printed again (a damaged sticker replaced);
``new_set`` makes fresh codes (the old stickers then name nothing at this table).

The scanner looks a private tag up in ``PrivateTags.lookup`` (one dict lookup per code read).
"""
from __future__ import annotations

import json
import os
import secrets
import string
import threading
import time
from pathlib import Path
from typing import Any

from .catalog import Catalog, CatalogError, load_game
from .payload import PRIVATE_LENGTH, CardRef, encode_private

FILE_NAME = "private-tags.json"

# The cards each game keeps from some player at some time, by kind (None: every card). Stratego's
# pieces stand rank away from the opponent; a Warriors or BATTLECARDS card is in a hand or face down
# before it is played; Gather Together hides only the identity cards. Book of Mormon "Battle" plays
# face up.
KEPT_HIDDEN: dict[str, tuple[str, ...] | None] = {
    "stratego": None,
    "warriors": None,
    "battlecards-pacific": None,
    "gt-battle": ("identity",),
}
_ALPHABET = string.ascii_uppercase + string.digits


def kept_hidden(catalog: Catalog) -> frozenset[str]:
    """The card ids of this deck whose tags must be private."""
    if catalog.game not in KEPT_HIDDEN:
        return frozenset()
    kinds = KEPT_HIDDEN[catalog.game]
    return frozenset(cid for cid, card in catalog.cards.items() if kinds is None or card.kind in kinds)


class PrivateTags:
    """The table's private codes (``<data>/private-tags.json``); ``data_dir`` None keeps them in
    memory. ``lookup`` maps each private payload to its card."""

    def __init__(self, data_dir: str | Path | None):
        self.path = Path(data_dir) / FILE_NAME if data_dir is not None else None
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, Any]] = {}
        self._mtime: float | None = None
        self._hidden: dict[str, frozenset[str]] = {}
        self.lookup: dict[str, CardRef] = {}
        self.reload_if_changed()

    # -- printing ---------------------------------------------------------------------------------
    def codes_for(self, catalog: Catalog, new_set: bool = False) -> dict[CardRef, str]:
        """The private payload of each hidden copy in the deck, made (and saved) where missing;
        ``new_set`` replaces every code of this game."""
        hidden = kept_hidden(catalog)
        with self._lock:
            if new_set or catalog.game not in self._games:
                self._games[catalog.game] = {"made": time.time(), "cards": {}}
            cards = self._games[catalog.game]["cards"]
            used = {code for game in self._games.values() for code in game["cards"].values()}
            added = False
            for ref in catalog.refs():
                if ref.card in hidden and ref.key not in cards:
                    cards[ref.key] = self._fresh(used)
                    used.add(cards[ref.key])
                    added = True
            if added or new_set:
                self._save()
            self._rebuild()
            return {ref: encode_private(catalog.game, cards[ref.key]) for ref in catalog.refs() if ref.card in hidden}

    @staticmethod
    def _fresh(used: set[str]) -> str:
        while True:
            code = "".join(secrets.choice(_ALPHABET) for _ in range(PRIVATE_LENGTH))
            if code not in used:
                return code

    # -- reading ----------------------------------------------------------------------------------
    def hidden_cards(self, game: str) -> frozenset[str]:
        """Card ids of the game's reference deck kept hidden (cached): a readable tag of one of
        them is an old sheet's, which gives its card away."""
        if game not in self._hidden:
            try:
                self._hidden[game] = kept_hidden(load_game(game))
            except (CatalogError, KeyError, ValueError):
                self._hidden[game] = frozenset()
        return self._hidden[game]

    def games(self) -> dict[str, dict[str, Any]]:
        """Each game's set: when it was made and how many codes it has (no code)."""
        with self._lock:
            return {game: {"made": g["made"], "codes": len(g["cards"])} for game, g in self._games.items()}

    def export(self) -> str:
        """The whole map, for a backup or another Pi of the same table (the PIN guards it)."""
        with self._lock:
            return json.dumps({"version": 1, "games": self._games}, indent=1) + "\n"

    def reload_if_changed(self) -> bool:
        """Read the file again if it changed (`companion tags print` run beside the service)."""
        if self.path is None:
            return False
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            return False
        if mtime == self._mtime:
            return False
        with self._lock:
            try:
                saved = json.loads(self.path.read_text())
                self._games = {str(g): {"made": float(v.get("made", 0)), "cards": dict(v["cards"])}
                               for g, v in saved.get("games", {}).items()}
            except (ValueError, KeyError, AttributeError, TypeError) as exc:
                raise SystemExit(f"{self.path}: not a private tags file ({exc}); restore it from a backup "
                                 f"(its stickers name nothing without it)") from None
            self._mtime = mtime
            self._rebuild()
        return True

    def _rebuild(self) -> None:
        lookup = {}
        for game, g in self._games.items():
            for key, code in g["cards"].items():
                lookup[encode_private(game, code)] = CardRef.from_key(game, key)
        self.lookup = lookup  # one assignment: the scanner sees the old map or the new one

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(json.dumps({"version": 1, "games": self._games}, indent=1) + "\n")
        tmp.replace(self.path)
        self._mtime = self.path.stat().st_mtime
