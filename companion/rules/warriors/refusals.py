"""The words of every reason Warriors' rules refuse an input for (the rules raise a code and its
data), quoting the rulebook, and the words of the combination rules a card in hand may break.

A card scanned privately (drawn, or laid face down) is secret, but the deck it is drawn from is
not (the table sees the pile it is taken from): refusals of a draw may name the deck. ``PUBLIC``
words a refusal whose full words would tell the table about a card laid face down (which
combination rule it breaks says which side or kind it is); the full words reach only that seat's
own page.
"""
from __future__ import annotations

from typing import Any

from .state import WarriorsState

DEAL_RULE = "\"Each player now draws 3 cards from his/her Warrior pile and 3 from his/her Armory pile\""
REDRAW_RULE = "\"six new cards from their decks (3 Warrior and 3 Armory)\""
KEEP_WARRIOR = "\"he/she must keep at least one Warrior in his/her hand at all times\""
CALL_RULE = "\"A player can stop Phase One by saying, 'Call to battle!' at the end of his/her turn\""
REVEAL_RULE = "\"The player who made the Challenge then reveals the first facedown card on the right of his/her Warrior.\""
COMPETING = ("\"As soon as a card is revealed, it may be used. If a player chooses not to use the card's "
             "abilities before the next card is revealed in the Challenge, it may be taken or disabled by an "
             "opponent.\"")
PROPHECY_RULE = ("\"if you are the challenger, you may privately look at two players' facedown cards before "
                 "deciding which player to challenge.\"")
DUEL_RULE = "\"each opponent must lay down all six cards in his/her hand to help in the battle\""
ONCE_PER_ROUND = {"conversion": "\"You can only use the Conversion card once per Battle round.\"",
                  "dissenter": "\"You can only use the Dissenter card once per Battle round.\"",
                  "deception": "\"The Deception card may only be used once per Battle round.\""}
TARGET_RULE = {"escape": "\"you may disable one of your opponent's secondary cards\"",
               "take": "\"Take one secondary card from your opponent\""}

# The rulebook's combination rules ("Additional Instructions"), by the code cards.py gives a card
# that breaks one. They name no card: a secondary card is laid face down.
PRIMARY_RULE = ("\"The first player chooses a Warrior to play as his/her primary card (the chosen Warrior must "
                "have icons)\"")
COMBINATION: dict[str, str] = {
    "not_warrior": f"A primary card is a Warrior: {PRIMARY_RULE}.",
    "no_icons": f"{{card_name}} has no icons: {PRIMARY_RULE}.",
    "primary_first": f"The primary Warrior comes first: {PRIMARY_RULE}.",
    "icon": ("\"Secondary cards need to have at least one icon that matches the icon of a Warrior card already "
             "played\"; \"Armory cards cannot be used to make a Chain\""),
    "side": "\"'Wicked' Warriors cannot be played with 'Righteous' Warriors and vice versa\"",
    "dot": ("\"Any Armory card with a yellow or red dot in place of an icon may be played with any corresponding "
            "(Righteous or Wicked) Warrior card\""),
}

WORDS: dict[str, str] = {
    # where a card is scanned
    "tray_not_expecting": "Nobody draws or lays a card now, so the covered tray is not expecting one.",
    "not_a_warriors_zone": ("Warriors cards are laid in the players' areas (seat:N), or scanned privately on a "
                            "seat's reader (reader:N) or in the covered tray (tray); not in {zone!r}."),
    "surrendered": "{name} has surrendered and plays no more cards.",
    "no_private_card_now": "No card is drawn or laid face down now ({step_name}).",
    # the deal, drawing and refilling
    "deal_complete": f"{{name}} already holds the 3 Warrior and 3 Armory cards of the deal: {DEAL_RULE}.",
    "deal_pile_full": f"{{name}} already drew 3 {{pile}} cards: {DEAL_RULE}.",
    "redraw_complete": "{name} has drawn the six new cards (3 Warrior and 3 Armory).",
    "redraw_pile_full": f"{{name}} already drew 3 {{pile}} cards: {REDRAW_RULE}.",
    "hand_full": "{name}'s hand is back up to six (or both decks are empty).",
    "already_known": ("{name}: that card is already known at the table (in a hand, in play or on a Discard pile), "
                      "so it cannot be a new card from your deck. Scan the card you drew."),
    "deck_empty": "{name}'s {pile} deck is empty; the card drawn must come from {name}'s own decks.",
    "keep_warrior": f"{{name}} has no Warrior left in hand, so this card comes from the Warrior deck: {KEEP_WARRIOR}.",
    "draw_the_new_card": "{name} draws a new card now: scan the card just drawn.",
    # Phase One
    "primary_face_up": ("{name}: the primary Warrior is laid face up, where the camera sees it (\"chooses a Warrior "
                        "to play as his/her primary card ... and lays him faceup\")."),
    "not_in_hand": ("{card_name} is not in {name}'s hand as scanned: scan every card you draw on your reader or in "
                    "the covered tray."),
    "not_in_hand_as_scanned": ("{name}: that card is not in your hand as scanned. Lay a card from your hand (every "
                               "card drawn is scanned as it is drawn)."),
    "not_your_turn_to_scan": "It is {acting_name}'s turn to {act}; {name} scans a card when laying it face down or drawing it.",
    "secondary_face_down": ("A secondary card is laid facedown (\"lays another card (secondary card) facedown to the "
                            "right of his/her Warrior\"): scan {card_name} on your reader or in the covered tray, then "
                            "lay it face down."),
    "stays_in_hand": "{card_name} stays in {name}'s hand now ({step_name}).",
    "not_a_primary": "{rule}",
    "cannot_be_laid": "{name}'s card cannot be laid with {name}'s cards in play: {rule}. Keep it and lay another.",
    "drawing_first": "{drawing_name} draws a card first, then play goes on clockwise.",
    "not_your_turn": "It is {turn_name}'s turn; play proceeds clockwise.",
    "primary_before_pass": ("{name} lays a primary Warrior first; a player whose hand has no Warrior with icons "
                            "surrenders instead."),
    "can_lay_a_card": ("{name} holds a card that can be laid: \"All players take turns laying down secondary cards "
                       "and drawing new cards until someone announces a Call to Battle.\""),
    "call_not_now": f"{CALL_RULE}: only {{finished_name}} can call now.",
    "call_before_any_turn": f"{CALL_RULE}; no turn has ended yet.",
    "already_called": "{caller_name} has already called to battle.",
    # Phase Two: the Challenge
    "stays_face_down": f"{{owner_name}}'s facedown cards stay face down until the Challenge: {REVEAL_RULE}",
    "nobody_called": "Nobody has called to battle.",
    "challenger_is_target": "{target_name} is the challenger: \"chooses another player\".",
    "already_battled": ("{target_name} has already battled this round: the winner challenges another player "
                        "\"until all players have battled\"."),
    "cannot_be_challenged": ("{owner_name} may not be challenged now (already battled this round, or the challenger): "
                             "turn the card back face down; {challenger_name} challenges \"another player\" who has not battled."),
    "challenger_reveals_first": f"{{challenger_name}} turns a card first: {REVEAL_RULE} Turn the card back face down.",
    "opponent_turns_next": ("{challenger_name} has turned a card: the player {challenger_name} challenges turns theirs next "
                            "(\"His/her opponent does the same\"), or tap whom {challenger_name} challenges."),
    "prophecy_after_choice": f"{{name}} has turned a card, so the choice is made: {PROPHECY_RULE}",
    "prophecy_not_challenger": f"Only the challenger may use Prophecy: {PROPHECY_RULE}",
    "prophecy_used": "{name} has already looked before this Challenge.",
    "no_prophecy": "{name} has no Prophecy card in play.",
    "prophecy_targets": "Prophecy looks at \"two players' facedown cards\": choose one or two other players.",
    "prophecy_no_face_down": "Prophecy looks at facedown cards; choose players who still have some.",
    "not_in_challenge": "{name} is not in this Challenge; it is {challenger_name} against {defender_name}.",
    "no_face_down_left": "{name} has no facedown card left.",
    "not_your_reveal": f"{{next_name}} turns a card next: {REVEAL_RULE} \"His/her opponent does the same.\"",
    "reveal_in_order": ("{name} reveals \"the first facedown card on the right of his/her Warrior\" first, then the "
                        "next, in order."),
    # cards used in a Challenge
    "use_not_in_challenge": "Only the two players of the Challenge use their cards in it.",
    "no_such_card_face_up": "{name} has no such card face up in play: \"As soon as a card is revealed, it may be used.\"",
    "not_used_by_choice": "{card_name} is not used by choice; its points count by themselves.",
    "disabled": "{card_name} is disabled (turned 90 degrees).",
    "not_usable_here": "{card_name} cannot be used with {name}'s cards in play.",
    "once_per_round": "{rule}",
    "escape_once_per_challenge": "\"This card may be used once in each Challenge of a Battle round.\"",
    "choose_revealed_secondary": "Choose one of {opponent_name}'s revealed secondary cards: {rule}.",
    "already_disabled": "{card_name} is already disabled.",
    "just_revealed": f"{{card_name}} was just revealed: {COMPETING} Wait for the next card.",
    "no_hand_to_add": "{name} has no card in hand to add.",
    "deception_in_duel": f"In the special battle every card of the hand is laid down already: {DUEL_RULE}.",
    # deciding the Challenge
    "no_challenge": "No Challenge is being fought.",
    "still_face_down": ("{next_name} still has a facedown card to reveal: \"Players continue this sequence with each "
                        "secondary card\"."),
    "deception_first": "{deception_name} lays the card from Deception first.",
    "duel_hands_held": f"{DUEL_RULE}: {{holding_names}} still hold cards.",
}

# The rule a face-down card breaks would tell the table which side or kind of card it is.
PUBLIC: dict[str, str] = {
    "cannot_be_laid": "{name}'s card cannot be laid with {name}'s cards in play: {name}, see your page for why.",
}

# Data fields that are seats, and the fact their name is given as.
SEAT_FIELDS = {"seat": "name", "acting": "acting_name", "owner": "owner_name", "drawing": "drawing_name",
               "turn": "turn_name", "finished": "finished_name", "caller": "caller_name", "target": "target_name",
               "challenger": "challenger_name", "defender": "defender_name", "next": "next_name",
               "opponent": "opponent_name", "deception": "deception_name"}


def names(state: WarriorsState, seats: list[int]) -> str:
    words = [state.name(s) for s in seats]
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def facts(code: str, data: dict[str, Any], state: WarriorsState, card_name: Any, step_name: str) -> dict[str, Any]:
    """What the words are made from: the data, with seats and face-up cards named, and the rule
    quoted where the data names it by its code."""
    out = {**data, **{SEAT_FIELDS[k]: state.name(v) for k, v in data.items() if k in SEAT_FIELDS}}
    if isinstance(data.get("card"), str):
        out["card_name"] = card_name(data["card"])
    if "holding" in data:
        out["holding_names"] = ", ".join(state.name(s) for s in data["holding"])
    if code in ("cannot_be_laid", "not_a_primary"):
        out["rule"] = COMBINATION[data["rule"]].format(**out)
    if code == "once_per_round":
        out["rule"] = ONCE_PER_ROUND[data["kind"]]
    if code == "choose_revealed_secondary":
        out["rule"] = TARGET_RULE["escape" if data["kind"] == "escape" else "take"]
    if code == "not_your_turn_to_scan":
        out["act"] = "draw" if data["draws"] else "lay a card"
    out["step_name"] = step_name
    return out
