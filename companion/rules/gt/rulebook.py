"""The rulebook's words the referee quotes (gather-together-battle.txt), and the teams' names.

Refusals and outcomes quote these sentences so the players read the rule, not the companion's
paraphrase of it. Kept in one place so the same quote reads the same everywhere.
"""
from __future__ import annotations

TEAM_CARD = {"superhero": "SUPERHERO", "villain": "VILLAIN"}
TEAM_PLURAL = {"superhero": "Superheroes", "villain": "Villains"}

RULE = {
    "no_action_from_discard": "\"Action cards cannot be picked up from the discard pile.\"",
    "same_rank": "\"Fight cards of similar rank are played together.\"",
    "match_or_beat": ("\"Play moves to the next player who has to match or beat the rank of fight cards previously "
                      "played. A pair beats any single, a three-of-a-kind beats any pair, and so on.\""),
    "cannot_beat": "\"A player cannot beat the previously played fight card(s)? The player can play an Action card, "
                   "or pass on playing.\"",
    "action_in_battle": "\"An action card is played in the Battle phase? The next player in sequence must beat the "
                        "previously played fight card(s).\"",
    "no_one_beats": "\"No player can beat the previously played fight card(s)? The Battle resets and the player of "
                    "the unbeatable fight card(s) can play any fight card(s).\"",
    "identity": "\"Once players are able to get rid of their fight cards, they can play their identity card on "
                "their next turn.\"",
    "save": "\"If the holder of the card wants to save an eliminated player, this card is played out of turn "
            "immediately after a player is chosen for elimination.\"",
    "draw_or_take": "\"The player can choose to pick up the top discard, or the top card of the deck.\"",
    "discard_one": "\"After drawing a card, the player has the option to discard one card, but it is not required.\"",
}
