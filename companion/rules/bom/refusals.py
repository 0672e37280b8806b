"""The words of every reason Book of Mormon "Battle"'s rules refuse an input for (the rules raise a
code and its data, ``Refused(code, **data)``). Where the rulebook decides it, the words quote it
(bom-battle.txt). A seat is named "Seat 2 (Bo)" (``player`` in the data becomes ``who``).

A card read face down (Secret Weapon) or in the scan tray (Spy's Trivia's card being read) is never
named in the public view, so a refusal of it carries ``hidden`` ("face down", "in the tray"): the
table's words say "the card read face down", and only its seat's page names the card.
"""
from __future__ import annotations

from typing import Any

from .state import BomState

BATTALION_RULE = "\"If a player only has a BATTALION (5 cards or fewer) left, he must play the card(s) for his attack\""
TOO_MANY_RULE = ("\"If a player has 4 or more POWER cards in his hand, he must choose 2 and place them in his "
                 "discard pile\"")
# What a Young Players' refusal names ("... is not part of the Rules for Young Players").
YOUNG_WHAT = {"withdraw": "Withdrawing from a battle", "too_many_powers": "\"Too many POWER cards\"",
              "face_down": "A face-down POWER card"}

WORDS: dict[str, str] = {
    # cards on the table
    "over_no_new_battle": "The game is over; {card_name} starts no new battle.",
    "not_seen_there": "{card_named} was not seen in {zone!r}; nothing to take away.",
    "not_a_battlefield_zone": ("{title} reads cards in the seats' areas of the battlefield ('seat:N') or on their "
                               "readers ('reader:N'), not in {zone!r}."),
    "no_such_seat": "There is no seat {number} at this table (seats 1-{seats}).",
    "out_with_a_card": "{who} is out of the game and has no cards to play; take {card_name} off its area.",
    "face_down_outside_secret_weapon": ("Cards are laid face down only under Secret Weapon (a mounting battle's "
                                        "face-down cards are counted by the companion, not scanned)."),
    "character_face_down": ("Under Secret Weapon \"the CHARACTER card(s) must be laid faceup but the POWER card "
                            "will be laid facedown\"."),
    "no_power_while_mounting": "While a battle mounts each tied player plays one CHARACTER card, no POWER card.",
    "not_in_this_battle": "{who} is not in this battle.",
    "face_down_already": "{who} already has a face-down POWER card; a play uses one POWER card at most.",
    "power_already": "{who} already has a POWER card in its play.",
    # the variants' cards
    "young_no_power": "Rules for Young Players: \"Remove all the POWER cards from the deck.\"",
    "last_battle_characters_only": "The last battle after the timer is fought with CHARACTER cards only.",
    "last_battle_tied_only": "Only the tied players ({tied_names}) fight the last battle after the timer.",
    "mounting_tied_only": ("The battle is mounting: only {tied_names} play now; take {card_name} back until the "
                           "next battle."),
    # commands
    "not_for_young_players": "{what} is not part of the Rules for Young Players.",
    "out_of_the_game": "{who} is out of the game.",
    "already_withdrawn": "{who} has already withdrawn from this battle.",
    "cards_on_battlefield": "{who} has cards on the battlefield; take them back before withdrawing.",
    "must_play_battalion": (f"{BATTALION_RULE}: {{who}} cannot sit out. With no CHARACTER card, lay the whole "
                            f"BATTALION in your area: the winner takes it as the spoils of war."),
    "show_only_powers": f"{TOO_MANY_RULE}: show only the POWER cards; {{character_names}} is a CHARACTER card.",
    "show_the_powers": (f"{TOO_MANY_RULE}: lay the 4 or more POWER cards in your area (or on your reader) for the "
                        f"companion to see; {{who}} shows {{shown}}."),
    "more_shown_than_held": "{who}'s BATTALION holds {battalion} card(s), but {shown} are shown.",
    "not_tied": "{who} is not one of the tied players.",
    "too_few_to_swap": ("{who} has fewer than two cards in its BATTALION to swap; if it cannot play the tie, it "
                        "surrenders."),
    "face_down_needs_secret_weapon": "Only Secret Weapon lays a POWER card face down.",
    "no_timer": "This game has no timer: it was started without the Rules for a Shorter Game.",
    "timer_gone_off": "The timer has already gone off.",
    "stop_young_only": ("Only the Rules for Young Players end when you stop playing; the basic game ends when one "
                        "player holds all the cards (or use the Rules for a Shorter Game's timer)."),
    "finish_mounting_first": "Finish the mounting battle first: its cards are on the battlefield, in nobody's hands.",
    # Spy's Trivia
    "trivia_tray_only": ("In Spy's Trivia the reader scans the top card of his pile in the scan tray (zone 'tray'), "
                         "where the table does not see its name."),
    "trivia_characters_only": "Spy's Trivia uses just the CHARACTER cards; put the POWER cards away.",
    "trivia_card_being_read": "A card is being read: award it, or tap 'nobody knew', before the next card.",
    "trivia_read_already": "That card has been read already; take the top card of the reader's pile.",
    "trivia_no_card": "No card is being read: the reader scans the top card of his pile first.",
    "trivia_all_clues": ("All {clues} clues are showing; award the card, ask for the book and chapter, or tap "
                         "'nobody knew'."),
    "trivia_reader_guesses": ("{who} is the reader and has seen the card; if nobody knows it, tap 'nobody knew' and "
                              "the reader keeps it."),
    "trivia_tie_of_one": "A tie needs two or more seats that guessed at the same time, e.g. {{\"seats\": [1, 3]}}.",
    "trivia_asked_already": "The book and chapter have been asked for already.",
    # the battle cannot be resolved yet: every reason, worded by PROBLEMS
    "not_ready": "{problems_said}",
    "trivia_tied_only": ("This card goes to whoever of the tied seats named the book and chapter first or closest: "
                         "{tied_or}."),
}

# Each POWER card's wording, as a refusal quotes it: (what it does, what it goes with).
POWER_WORDS = {
    "faith": ("Faith only multiplies a gold CHARACTER card under 1000 (100-900)",
              "Faith multiplies one gold CHARACTER card under 1000 (100-900)"),
    "wickedness": ("Wickedness only multiplies a black CHARACTER card under 1000 (100-900)",
                   "Wickedness multiplies one black CHARACTER card under 1000 (100-900)"),
    "conversion": ("Conversion only changes a black CHARACTER card under 1000 (100-900)",
                   "Conversion changes one black CHARACTER card under 1000 (100-900)"),
    "title_of_liberty": ("Title of Liberty combines two gold CHARACTER cards under 1000 (100-900)",) * 2,
    "secret_combination": ("Secret Combination combines two black CHARACTER cards under 1000 (100-900)",) * 2,
    "battle": ("Battle combines any CHARACTER cards, regardless of color",
               "Battle combines CHARACTER cards, regardless of color"),
    "stripling_warriors": ("Stripling Warriors goes into battle with one CHARACTER card",) * 2,
    "famine": ("Famine goes into battle with one CHARACTER card",) * 2,
}
ONE_CARD = {
    "tiebreak": "In the last battle after the timer each tied player plays one CHARACTER card drawn at random.",
    "mount": "While the battle mounts, each tied player plays one new CHARACTER card from his BATTALION.",
    "mount_young": "While the battle mounts, each tied player plays one new CHARACTER card from the top of his ARMY.",
    "young": "Under the Rules for Young Players each player lays down the top card of his ARMY: one CHARACTER card.",
}
WITHDRAW_HINT = ": play a CHARACTER card, or withdraw if you have none"

# Why a seat's play is not legal, or the battle not ready (plays.Problem, battle.check).
PROBLEMS: dict[str, str] = {
    "no_cards": "No cards played yet.",
    "two_powers": "A play uses one POWER card at most; this play has {power_names}.",
    "power_alone": ("POWER cards strengthen CHARACTER cards; they cannot be played individually. Add a CHARACTER "
                    "card to the {card_name}."),
    "characters_without_power": ("Play one CHARACTER card, or combine CHARACTER cards with a POWER card (Battle, "
                                 "Title of Liberty or Secret Combination); this play has {count} CHARACTER cards "
                                 "and no POWER card."),
    "power_count": "{count_rule}; this play has {count_cards}.",
    "power_color": "{power_rule}; {card_name} is {color}.",
    "power_under_1000": "{power_rule}; the {value} is not under 1000.",
    "face_down_waiting": "Its POWER card is face down; each seat in turn turns it face up once every seat has played.",
    "not_played": "Has not played yet.",
    "one_card": "{one_card}",
    "battalion_overplayed": ("Its BATTALION holds {hand} card(s), but {count} are on the battlefield; a player plays "
                             "from his BATTALION."),
    "over": "The game is over.",
    "trivia_no_battles": "Spy's Trivia has no battles to resolve: award the card being read, or tap 'nobody knew'.",
    "same_card_twice": ("{card_name} ({card}) is seen at {at_names} at once: the same physical card cannot be in two "
                        "places; take the duplicate away."),
    "all_withdrawn": "Nobody has played: every seat has withdrawn from this battle.",
    "seat_not_played": "{who} has not played yet{hint}.",
    "seat_face_down": "{who} has not revealed its face-down POWER card yet.",
    "seat_play": "{who}: {why_said}",
    "nobody_attacks": "Nobody attacks: every seat in the battle laid only POWER cards.",
}


def who(state: BomState, seat: int) -> str:
    """How a refusal names a seat: "Seat 2 (Bo)"."""
    return f"Seat {seat} ({state.name(seat)})"


def names(state: BomState, seats: list[int], joiner: str = " and ") -> str:
    """Seats as a refusal names them: "Seat 1 (Ann), Seat 2 (Bo) and Seat 3 (Cy)"."""
    named = [who(state, s) for s in seats]
    return ", ".join(named[:-1]) + joiner + named[-1] if len(named) > 1 else "".join(named)


def facts(data: dict[str, Any], state: BomState, card_name: Any) -> dict[str, Any]:
    """What the words are made from: the data, with seats and cards named."""
    out = dict(data)
    if "player" in data:
        out["who"] = who(state, data["player"])
    if data.get("unnamed"):  # the public words of a card read face down or in the tray
        out["card_name"] = out["card_named"] = f"the card read {data['hidden']}"
    elif isinstance(data.get("card"), str):
        out["card_name"] = card_name(data["card"])
        out["card_named"] = f"{out['card_name']} ({data['card']})"
    if "characters" in data:
        out["character_names"] = ", ".join(card_name(k) for k in data["characters"])
    if "tied" in data:
        out["tied_names"] = " and ".join(who(state, s) for s in data["tied"])
        out["tied_or"] = " or ".join(who(state, s) for s in data["tied"])
    if "problems" in data:
        out["problems_said"] = " ".join(problem(p, state, card_name) for p in data["problems"])
    if "why" in data:
        out["why_said"] = problem(data["why"], state, card_name)
    if "power" in data:
        out["power_rule"], out["count_rule"] = POWER_WORDS[data["power"]]
        out["count_cards"] = f"{data['count']} CHARACTER card{'' if data['count'] == 1 else 's'}" \
            if "count" in data else ""
    if "powers" in data:
        out["power_names"] = " and ".join(card_name(k) for k in data["powers"])
    if "at_seats" in data:
        out["at_names"] = " and ".join(who(state, s) for s in data["at_seats"])
    if "one" in data:
        out["one_card"] = ONE_CARD[data["one"]]
    if "withdraw_hint" in data:
        out["hint"] = WITHDRAW_HINT if data["withdraw_hint"] else ""
    if "input" in data:
        out["what"] = YOUNG_WHAT.get(data["input"], data["input"])
    return out


def problem(data: dict[str, Any], state: BomState, card_name: Any) -> str:
    """The words of one ``Problem`` (as data: its code and its facts)."""
    facts_of = {k: v for k, v in data.items() if k != "code"}
    return PROBLEMS[data["code"]].format(**facts(facts_of, state, card_name))
