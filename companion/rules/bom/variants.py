"""The rulebook's variants as options chosen at game start, and which combinations make sense.

"SPECIAL RULES AND GAMES (These rules can be combined.)" -- but not every pair can: Spy's Trivia
is a different game (no battles), and the Rules for Young Players have no POWER cards and no
BATTALION. A combination that makes no sense is refused at setup with the reason.
"""
from __future__ import annotations

from typing import Any

from ..base import Option, SetupError

OPTIONS = (
    Option("first_seat", 1, "The seat on the dealer's left: dealt the first card, first to play under Secret "
                            "Weapon, first reader in Spy's Trivia."),
    Option("young_players", False, "Rules for Young Players: no POWER cards; each player turns the top card of "
                                   "his ARMY; the most cards when you stop wins."),
    Option("shorter_game_minutes", 0, "Rules for a Shorter Game: minutes on the timer (the rulebook suggests 15); "
                                      "0 plays without a timer. The most cards when it goes off wins."),
    Option("mounting_battles", False, "Mounting Battles: battles by point value only; tied players add three "
                                      "face-down ARMY cards and play again."),
    Option("secret_weapon", False, "Secret Weapon: one player at a time from the dealer's left, POWER cards "
                                   "face down until everyone has played."),
    Option("power_play", False, "Power Play: before each battle the rest of each BATTALION goes to the discard "
                                "pile and five new cards are drawn."),
    Option("spys_trivia", False, "Spy's Trivia: CHARACTER cards only; name the character from the clues to win "
                                 "the card."),
)

MAX_MINUTES = 24 * 60

# (option, option) -> why they cannot be combined
NONSENSE = {
    ("spys_trivia", "mounting_battles"): "Spy's Trivia has no battles to mount: cards are won by naming characters.",
    ("spys_trivia", "secret_weapon"): "Spy's Trivia has no battles and no POWER cards to lay face down.",
    ("spys_trivia", "power_play"): "Spy's Trivia uses just the CHARACTER cards and has no BATTALION for Power "
                                   "Play to redraw.",
    ("spys_trivia", "young_players"): "Spy's Trivia and the Rules for Young Players are two different games: one "
                                      "names characters from their clues, the other turns up the top card of the "
                                      "ARMY. Choose one.",
    ("young_players", "power_play"): "The Rules for Young Players remove the POWER cards and have no BATTALION, "
                                     "so Power Play has nothing to redraw.",
    ("young_players", "secret_weapon"): "Under the Rules for Young Players each player turns up the top card of his "
                                        "ARMY: there is no card to choose after seeing the others', and no POWER "
                                        "card to lay face down, so Secret Weapon changes nothing.",
}


def check(options: dict[str, Any], seats: int) -> None:
    """Raise SetupError with every reason these options cannot be played together."""
    problems = [why for (a, b), why in NONSENSE.items() if options[a] and options[b]]
    if not 1 <= options["first_seat"] <= seats:
        problems.append(f"first_seat must be a seat of this table (1-{seats}), not {options['first_seat']}.")
    if not 0 <= options["shorter_game_minutes"] <= MAX_MINUTES:
        problems.append(f"shorter_game_minutes must be 0 (no timer) to {MAX_MINUTES}, "
                        f"not {options['shorter_game_minutes']}.")
    if problems:
        raise SetupError(" ".join(problems))


def mode(options: dict[str, Any]) -> str:
    """battle (the basic game and its variants), young (Rules for Young Players) or trivia."""
    if options["spys_trivia"]:
        return "trivia"
    return "young" if options["young_players"] else "battle"


def active(options: dict[str, Any]) -> list[str]:
    """The variants in play, by name, for the view."""
    names = {"young_players": "Rules for Young Players", "mounting_battles": "Mounting Battles",
             "secret_weapon": "Secret Weapon", "power_play": "Power Play", "spys_trivia": "Spy's Trivia"}
    chosen = [label for key, label in names.items() if options[key]]
    if options["shorter_game_minutes"]:
        chosen.append(f"Rules for a Shorter Game ({options['shorter_game_minutes']} minutes)")
    return chosen
