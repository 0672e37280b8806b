"""The rulebook's variants, each a unit (``BomVariant`` subclass) switched on by its option.

"SPECIAL RULES AND GAMES (These rules can be combined.)" -- but not every pair can: Spy's Trivia
is a different game (no battles), and the Rules for Young Players have no POWER cards and no
BATTALION. Each variant names the ones it does not combine with (``excludes``) and why
(``reasons``); the contract refuses such a start with the reason (``contract.clashes``).

``BomVariant`` (hooks.py) holds the hooks the game calls, each with the basic game's rule as its
default. A variant overrides only the hooks its rule changes; ``Rules`` (hooks.py) combines the
variants in play. The big variants live in their own modules (mounting.py, turns.py, trivia.py);
the small ones are here, with the list of all of them.
"""
from __future__ import annotations

import functools
from typing import Any

from card_tags.catalog import Card

from ..base import Option
from ..contract import Refused
from . import piles
from .cards import POWER
from .hooks import Basic, BomVariant, Referee, Rules
from .mounting import MountingBattles
from .state import BomState, Mode, Piles
from .trivia import SpysTrivia
from .turns import SecretWeapon

__all__ = ["OPTIONS", "Basic", "BomVariant", "PowerPlay", "Rules", "ShorterGame", "YoungPlayers", "rules_for",
           "variant_classes"]

MAX_MINUTES = 24 * 60

# The start options: a setting (first_seat) and the six variants, by the option that switches each on.
OPTIONS = (
    Option("first_seat", 1, "The seat on the dealer's left: dealt the first card, first to play under Secret "
                            "Weapon, first reader in Spy's Trivia.", label="First player (left of the dealer)"),
    Option("young_players", False, "Rules for Young Players: no POWER cards; each player turns the top card of "
                                   "his ARMY; the most cards when you stop wins.", label="Rules for Young Players"),
    Option("shorter_game_minutes", 0, "Rules for a Shorter Game: minutes on the timer (the rulebook suggests 15); "
                                      "0 plays without a timer. The most cards when it goes off wins.",
           label="Rules for a Shorter Game (minutes)"),
    Option("mounting_battles", False, "Mounting Battles: battles by point value only; tied players add three "
                                      "face-down ARMY cards and play again.", label="Mounting Battles"),
    Option("secret_weapon", False, "Secret Weapon: one player at a time from the dealer's left, POWER cards "
                                   "face down until everyone has played.", label="Secret Weapon"),
    Option("power_play", False, "Power Play: before each battle the rest of each BATTALION goes to the discard "
                                "pile and five new cards are drawn.", label="Power Play"),
    Option("spys_trivia", False, "Spy's Trivia: CHARACTER cards only; name the character from the clues to win "
                                 "the card.", label="Spy's Trivia"),
)



# -- the small variants -------------------------------------------------------------------------------
class YoungPlayers(BomVariant):
    """"Remove all the POWER cards from the deck, then shuffle and deal out the CHARACTER cards.
    Each player draws the top card from his ARMY and lays it down faceup. The player with the
    highest card wins and takes the other players' cards and puts them in his discard pile. ...
    The winner is the one with the most cards when you stop playing.\""""

    option = "young_players"
    title = "Rules for Young Players"
    excludes = ("power_play", "secret_weapon", "spys_trivia")
    reasons = {
        "power_play": "The Rules for Young Players remove the POWER cards and have no BATTALION, so Power Play "
                      "has nothing to redraw.",
        "secret_weapon": "Under the Rules for Young Players each player turns up the top card of his ARMY: there is "
                         "no card to choose after seeing the others', and no POWER card to lay face down, so Secret "
                         "Weapon changes nothing.",
    }

    def mode(self) -> Mode:
        return Mode.YOUNG

    def with_powers(self) -> bool:
        return False

    def battalion(self) -> bool:
        return False

    def stops_when_players_stop(self) -> bool:
        return True

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        return Refused("young_no_power") if card.kind == POWER else None

    def hand(self, state: BomState, s: Piles) -> int:
        return s.army + s.discard

    def commit(self, s: Piles, n: int) -> bool:
        s.army -= n  # the top card of the ARMY; a reshuffle waits until the battle is over
        return True

    def refill(self, s: Piles) -> bool:
        return True  # no BATTALION to refill

    def spoils(self) -> bool:
        return False

    def one_card(self, state: BomState) -> str:
        return "young"

    def enough_for_tie(self, s: Piles) -> bool:
        """Three ARMY cards face down, then the next ARMY card."""
        return s.army + s.discard >= 4


class PowerPlay(BomVariant):
    """"Before each battle, the remaining cards in each BATTALION are placed facedown in the
    player's discard pile. Each time a player takes a turn, five new cards are drawn to form a new
    BATTALION." Before each battle means before the first one too: the BATTALION drawn at the deal
    goes to the discard pile and five new cards are drawn."""

    option = "power_play"
    title = "Power Play"

    def start(self, state: BomState, game: Referee, dealt: list[int]) -> None:
        for s in state.piles:
            piles.new_battalion(s)

    def refill(self, s: Piles) -> bool:
        piles.new_battalion(s)
        return True


class ShorterGame(BomVariant):
    """"Set a timer for 15 minutes (or the desired time of play). The player with the most cards
    when the timer goes off wins. In case of a tie, tied players shuffle their CHARACTER cards and
    draw one card randomly for battle." The timer is the tablet's; ``time_up`` ends the game (see
    battle.time_up); the tied seats' last battle is refereed here."""

    option = "shorter_game_minutes"
    title = "Rules for a Shorter Game"

    def problems(self, options: dict[str, Any], seats: int) -> list[str]:
        minutes = options[self.option]
        if not 0 <= minutes <= MAX_MINUTES:
            return [f"shorter_game_minutes must be 0 (no timer) to {MAX_MINUTES}, not {minutes}."]
        return []

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        if state.tiebreak is None:
            return None
        if card.kind == POWER:
            return Refused("last_battle_characters_only")
        if seat not in state.tiebreak:
            return Refused("last_battle_tied_only", tied=list(state.tiebreak))
        return None

    def hand(self, state: BomState, s: Piles) -> int | None:
        return 1 if state.tiebreak else None  # one card drawn at random from the seat's own cards

    def one_card(self, state: BomState) -> str | None:
        return "tiebreak" if state.tiebreak else None


@functools.lru_cache(maxsize=64)
def _rules(chosen: tuple[tuple[str, Any], ...]) -> Rules:
    options = dict(chosen)
    return Rules([v(options) for v in variant_classes() if v.on(options)])


def rules_for(options: dict[str, Any]) -> Rules:
    """The variants a game's options switch on, combined (the same object for the same options)."""
    return _rules(tuple(sorted(options.items())))


def variant_classes() -> tuple[type[BomVariant], ...]:
    return (SpysTrivia, YoungPlayers, MountingBattles, SecretWeapon, PowerPlay, ShorterGame)
