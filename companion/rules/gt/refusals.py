"""The words of every reason Battle's rules refuse an input for (the rules raise a code and its
data). Where the rulebook decides it, the words quote it (words.RULEBOOK).

``PUBLIC`` words a refusal whose full words would tell the table a secret: that the identity cards
shown so far hold half of one team. The full words reach only that seat's own page.
"""
from __future__ import annotations

from typing import Any

from . import seats
from .cards import Deck
from .plays import describe
from .state import BattleState
from .words import RULEBOOK

STEP_3 = "\"The number of players playing should equal the number of EXPOSE cards being used.\""
SMALL_TABLE = "\"*remove 1 SAVE card and 1 ELIMINATE card when playing with 4 or 5 players\""
OWED = {"expose": "{by_name} chooses a player to expose.", "eliminate": "{by_name} chooses a player to eliminate.",
        "save": "who played the SAVE card for {target_name}?", "save_by": "who played the SAVE card for {target_name}?"}

WORDS: dict[str, str] = {
    # the deal and the identities
    "only_identities_shown": ("In Battle only identity cards are shown to a reader or the tray; fight and action "
                              "cards are played on the centre pile."),
    "identity_after_deal": ("Identity cards are shown at the start of a round, before the first discard is played; "
                            "each player keeps the same identity card for the whole round."),
    "identity_shown_for_another": ("That identity card was already shown for {other_name} this round: two cards "
                                   "carry the same tag, or the cards were mixed up."),
    "team_too_large": ("With {players} players, {players} identity cards are dealt, half of each team (\"with 6 "
                       "players ... deal 3 SUPERHERO cards and 3 VILLAIN cards\"); this card would make one team "
                       "too large. Check the identity cards that were dealt."),
    "not_a_seat_reader": "zone {zone!r} is not the reader of a seat of this table (1-{last}).",
    "every_identity_shown": "Every player has already shown their identity card for this round.",
    "identity_as_first_discard": ("Identity cards are dealt one to each player and are not part of the deck; the "
                                  "first discard is the top card of the deck."),
    "first_discard_flipped": ("The first discard is already flipped ({card_name}). The next card on the pile is a "
                              "player's discard, once every player has shown their identity card."),
    "unknown_identity_copy": "That identity card tag is not one of this deck's copies; check the tag.",
    "not_in_this_rounds_deck": ("{rule} With {players} players the deck holds {limit} {card_name} card{plural}, and "
                                "{seen_keys} {is_are} already in play this round: {card} is not in this round's "
                                "deck. Take it away."),
    "zone_not_used": ("Battle does not use the zone {zone!r}: cards are played on the centre pile, and identity "
                      "cards are shown to a reader or the tray."),
    # building
    "already_drawn": "{name} has already drawn this turn; next they discard one card or pass.",
    "draw_from": f"A draw comes \"from\": \"deck\" or \"discard\", not {{source!r}}. {RULEBOOK['draw_or_take']}",
    "discard_pile_empty": "The discard pile is empty: draw from the deck.",
    "action_from_discard": (f"The top discard is {{card_name}}, an action card: {RULEBOOK['no_action_from_discard']} "
                            f"Draw from the deck instead."),
    "already_discarded": f"{RULEBOOK['discard_one']} {{name}} has already discarded this turn: take that card back.",
    "passed_on_discarding": f"{RULEBOOK['discard_one']} {{name}} has already passed on discarding: take that card back.",
    "battle_card_after_discard_draw": ("The BATTLE card comes from the deck, but {name} has already taken the top "
                                       "discard this turn. If the draw was entered wrongly, undo it first."),
    "battle_card_after_turn": ("The BATTLE card comes from the deck, but {name} has already finished drawing and "
                               "discarding this turn. If the draw was entered wrongly, undo it first."),
    "draw_before_passing": "{name} draws first (from the deck or the top discard); then they may pass on discarding.",
    "already_discarded_this_turn": "{name} has already discarded this turn.",
    # the battle
    "battle_card_on_pile": "There is one BATTLE card and it is already on the pile.",
    "action_on_its_own": ("{card_name} is an action card and is played on its own, not together with other cards "
                          "(only NEW BATTLE is followed by fight cards). Take back the extra card."),
    "second_new_battle": "One NEW BATTLE card resets the battle; take back the second one.",
    "mixed_ranks": f"{RULEBOOK['same_rank']} A {{rank}} cannot join the {{playing}}s being played: take it back.",
    "does_not_beat": f"{{play}} does not beat {{top}} played by {{top_name}}. {RULEBOOK['match_or_beat']} "
                     f"{RULEBOOK['cannot_beat']}",
    "nothing_to_resolve": "Nothing to resolve: no play is waiting on the centre pile.",
    "confirm_count_first": "First confirm the hand count: how many cards does {counted_name} hold in hand now?",
    "identity_in_battle_only": f"Identity cards are played in the battle phase: {RULEBOOK['identity']}",
    "identity_on_its_own": "An identity card is played on its own, on a turn of its own; take back the other cards first.",
    "not_own_identity": ("That is not the identity card {name} showed at the start of the round; each player plays "
                         "their own identity card."),
    "cards_waiting": "{name} has cards waiting on the pile; take them back before passing.",
    "no_one_to_play": "No one is to play yet.",
    "not_your_turn": (f"It is {{turn_name}}'s turn, not {{name}}'s (play moves to the {{direction}}). Only SAVE is "
                      f"played out of turn: {RULEBOOK['save']}"),
    # action cards
    "no_expose_waiting": "No EXPOSE card is waiting for a choice.",
    "expose_self": "\"The player of this card will choose one player to expose\": another player, not themselves.",
    "already_exposed": "{target_name}'s identity is already face up; choose another player.",
    "no_eliminate_waiting": "No ELIMINATE card is waiting for a choice.",
    "eliminate_self": "\"The player of this card will choose a player to be eliminated\": another player.",
    "already_out": "{target_name} is already out for the round; choose another player.",
    "no_one_to_save": f"No player is being eliminated right now. {RULEBOOK['save']}",
    "saver_out": "{saver_name} is out for the round and cannot play cards.",
    "no_save_window": "No player is waiting to be saved.",
    "chooser_chooses": "{by_name} played the card, so they choose.",
    # what the table must settle first
    "count_question_first": ("First confirm {counted_name}'s hand on the tablet: how many cards does {counted_name} "
                             "hold in hand now (not counting the identity card)?"),
    "choice_first": "First: {owed}",
    "count_out_of_range": "confirm_count needs \"cards\": the number of cards in hand (0 or more), not {cards!r}.",
    # scoring
    "not_tied": "Only the tying players draw: {players_names}.",
    "already_drew_tiebreak": "{name} has already drawn in this tie-break round.",
    "tiebreak_card": "A tie-break draw is \"card\": \"save\" or \"eliminate\", not {card!r}.",
}

PUBLIC: dict[str, str] = {
    "team_too_large": "That identity card cannot be taken for {name}; {name}, see your page for why.",
}

SEAT_FIELDS = {"seat": "name", "target": "target_name", "by": "by_name", "saver": "saver_name",
               "other": "other_name", "turn": "turn_name", "counted_seat": "counted_name", "top_seat": "top_name"}


def facts(code: str, data: dict[str, Any], state: BattleState, deck: Deck) -> dict[str, Any]:
    """What the words are made from: the data, with seats named, cards named and plays described."""
    out = {**data, **{SEAT_FIELDS[k]: seats.name(state, v) for k, v in data.items() if k in SEAT_FIELDS}}
    if isinstance(data.get("card"), str) and "#" in data["card"]:
        out["card_name"] = deck.name(data["card"])
    if "players" in data and isinstance(data["players"], list):
        out["players_names"] = seats.names(state, data["players"])
    if code == "does_not_beat":
        out.update(play=describe(data["count"], data["rank"]).capitalize(),
                   top=describe(data["top_count"], data["top_rank"]))
    if code == "not_in_this_rounds_deck":
        seen = data["seen"]
        out.update(rule=STEP_3 if data["action"] == "expose" else SMALL_TABLE, plural="" if data["limit"] == 1 else "s",
                   seen_keys=", ".join(seen), is_are="is" if len(seen) == 1 else "are")
    if code == "choice_first":
        out["owed"] = OWED[data["what"]].format(**out)
    return out


def word(code: str, data: dict[str, Any], state: BattleState, deck: Deck) -> str:
    """The full words of a refusal (the view uses them for a play's problem and a held play)."""
    return WORDS[code].format(**facts(code, data, state, deck))
