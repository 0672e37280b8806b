"""The words of every reason BATTLECARDS' rules refuse an input for (the rules raise a code and its data),
quoting the rulebook (battlecards-wwii-pacific.txt). A card in a hand, a stack or a Kept Card is secret: no
refusal of one names it."""
from __future__ import annotations

from typing import Any, Callable

from .state import PacificState

# -- the rulebook's sentences --------------------------------------------------------------------------------
DEPLOY = ("\"Each player deals himself 6 cards from the ARSENAL Deck into their Reserve Hand. Secretly look at "
          "your hands, and 'Deploy' 3 of your 6 cards.\"")
PROPER_STACK = "\"units may only be deployed in their proper stacks.\""
DRAWING = "\"On each turn, the Drawing Player will draw 1 card from the CONFLICT deck and follow its instructions.\""
KEEP = ("\"If the card says, 'Keep this card...' the Drawing Player keeps the card, face down beside his 3 "
        "deployed stacks.\"")
EMERGENCY = ("\"You may emergency deploy your reserve hand instead of drawing a conflict card at the start of any "
             "turn or when your homeland is invaded.\"")
HANDLESS = "\"Doing so will leave you without a hand until you draw a card that instructs you to replenish it.\""
AGGRESSOR = ("\"If there are prerequisites that have not been met, or the aggressor listed on the card does not "
             "wish to conduct the battle at this time, the Drawing Player discards the BATTLECARD and loses his turn.\"")
FIRING = ("\"The aggressor fires first when fighting a battle. ... In each firing phase, the aggressor fires his "
          "units that have the current phase listed on their card.\"")
TARGET = "\"To fire a unit, select a target from the opponent's deployed forces.\""
ILLEGAL_TARGET = ("\"If the Attack Value is N/A, or lower than the selected target's defense, then the target may "
                  "not be attacked.\"")
WITHDRAW = ("\"After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw any "
            "or all of their deployed forces.\"")
KEPT_IN_COMBAT = "\"some CONFLICT Cards can be kept and played in combat to give bonuses to friendly forces.\""
DISCARD_PILE = "\"Destroyed units must be discarded face up into a discard pile next to the player's ARSENAL deck\""
OWN_THEATRE = "\"each player will draw from their own theatre's conflict deck at all times\""
COMBINED_DECKS = ("\"Conflict decks will not be combined from different sets, and each player will draw from their "
                  "own theatre's conflict deck at all times.\"")
LIBERATED_DRAW = "\"He also immediately draws 6 and deploys 3 arsenal cards.\""
# Combining sets
AID = ("\"On your turn, you may aid your ally by either sacrificing your draw to transfer up to 3 deployed cards to "
       "your ally's stacks, trade 1 reserve card for 1 reserve card of your ally (without sacrificing your draw), "
       "or sending the top card of your arsenal deck to the bottom of your ally's arsenal deck\"")
SENT = ("\"3) ... At the end of the battle, all involved forces may be sent to either of the participant's "
        "deployed stacks.\"")
RAID = ("\"6) If an enemy is eliminated from a theatre and a battle comes up from that theatre, the player remaining "
        "in that theatre may take the battle without a fight, or discard the battle, and perform a raid against the "
        "enemy in the other theatre.\"")
RAID_FORCES = "\"He may make this attack as a Ground and Air attack or as an Air and Sea attack.\""
LIBERATE = ("\"7) You may liberate your ally if he is eliminated from a theatre by using a counterattack to re-fight "
            "the battle that eliminated him.\"")
LIBERATE_FIRST = {   # "EXCEPTION: ..."
    "japan": "\"Japan can only liberate the Germans if they first successfully invade Australia\"",
    "germany": "\"the Germans can only liberate the Japanese if they win the Invasion of Britain\"",
}

WORDS: dict[str, str] = {
    # where a card is laid or shown
    "not_a_battlecards_zone": ("BATTLECARDS reads the CONFLICT discard pile (center), each seat's area (seat:N) and "
                               "each seat's reader (reader:N), not {zone!r}."),
    "not_yours_to_lay": "That card is not {name}'s to lay there.",
    "no_draw_now": "No CONFLICT card is drawn now: {waiting}",
    "no_arsenal_now": "No ARSENAL card is drawn or deployed now: {waiting}",
    "no_turn_now": "No CONFLICT card is turned now: {waiting}",
    "pile_holds_conflict_cards": f"{DISCARD_PILE}: the CONFLICT discard pile holds CONFLICT cards only.",
    "not_in_conflict_deck": "{card_name} is not in the CONFLICT deck: it is {place_words}.",
    "shot_from_other_theatre": f"{OWN_THEATRE}: this battle's shots are turned from its own theatre's CONFLICT deck.",
    # setup, ARSENAL cards
    "draw_six_first": f"{DEPLOY} {{name}} has drawn {{drawn}} of 6.",
    "deployed_three": f"{DEPLOY} {{name}} has deployed 3 already.",
    "drawn_six": f"{DEPLOY} {{name}} has drawn 6 already.",
    "other_sides_arsenal": "That card belongs to the other side's ARSENAL deck, not {name}'s.",
    "not_in_arsenal": "That card is not in {name}'s ARSENAL deck{where_it_is}.",
    "not_in_hand": "Deploy from your Reserve Hand: that card is not in {name}'s hand.",
    "proper_stack": f"{PROPER_STACK} That unit does not belong in the {{stack_name}} stack.",
    # the turn
    "own_theatre_deck": COMBINED_DECKS,
    "keep_from_own_theatre": f"{OWN_THEATRE}.",
    "kept_not_discarded": f"{KEEP} Take it back: it is kept, not discarded.",
    "not_the_drawing_player": f"{DRAWING} It is {{turn_name}}'s turn.",
    "discard_face_up": (f"{DRAWING} Unless the card says \"Keep this card\", it is discarded face up onto the discard "
                        f"pile, where the camera reads it."),
    "not_the_looker": "{looker_name} looks, having drawn the card.",
    "no_such_stack": "Look at one of the stacks: ground, air or sea.",
    "told_another": f"{DRAWING} The card told {{told_name}} to draw, not {{name}}.",
    "draw_first": "Draw first: {draw} more ARSENAL card{draw_s} into the Reserve Hand.",
    "draw_not_deploy": "{card_name} lets {name} draw, not deploy.",
    "all_drawn": "{card_name}: every card it gives is drawn.",
    "not_your_turn": "It is {turn_name}'s turn.",
    "still_to_draw": "{draw} ARSENAL card{draw_s} still to draw into the Reserve Hand.",
    "deploy_three_more": f"{LIBERATED_DRAW} {{deploy}} more to deploy.",
    "not_start_of_turn": f"{EMERGENCY} It is not the start of {{name}}'s turn.",
    "no_reserve_hand": f"{HANDLESS} {{name}} has no Reserve Hand to deploy.",
    "convoy_at_turn_start": "{card_name} is played at the start of one of {name}'s own turns.",
    # a BATTLECARD
    "not_the_aggressor": f"{AGGRESSOR} The aggressor of {{card_name}} is {{aggressor_name}}.",
    "only_the_invaded": f"{EMERGENCY} Only the invaded player decides this.",
    # combat
    "no_unit_firing": "No unit is firing now.",
    "not_your_shooter": f"{FIRING} Now {{owner_name}}'s {{shooter_name}} fires.",
    "not_an_enemy_unit": f"{TARGET} {{target}} is not one of the opponent's units in this battle.",
    "cannot_support": ("That unit cannot support this shot: a support unit adds its bonus to a friendly unit of a "
                       "type it supports, once per firing phase."),
    "illegal_target": ILLEGAL_TARGET,
    "kept_played_in_battle": "{card_name} is played in a battle.",
    "not_a_combat_card": "{card_name} is played at the start of a turn, not in combat.",
    "not_in_this_battle": f"{KEPT_IN_COMBAT} {{name}} is not in this battle.",
    # the withdrawal phase
    "not_deciding": f"{WITHDRAW} Now {{deciding_names}} decide{{deciding_s}}.",
    "not_in_the_fight": f"{WITHDRAW} {{unit}} is not one of {{name}}'s units still in the fight.",
    "no_unit_left": "{name} has no unit left in this fight.",
    # combining sets
    "no_ally": f"{AID} There is no ally in a two-player game.",
    "aid_once": f"{AID} Aid is given once, on one's own turn, before the draw.",
    "not_deployed": f"{AID} That card is not one of {{name}}'s deployed cards.",
    "trade_hand_cards": f"{AID} Trade a card of your Reserve Hand for one of your ally's.",
    "arsenal_empty": f"{AID} {{name}}'s ARSENAL deck is empty.",
    "not_a_participant": f"{SENT} {{name}} did not take part in this battle with an ally.",
    "not_involved": f"{SENT} That card is not one of the forces involved in the battle in {{name}}'s stacks.",
    "regrouped_already": "{name} is done already: waiting for {ally_name}.",
    "take_or_raid": f"{RAID} Take it, or raid.",
    "no_enemy_eliminated": f"{RAID} No enemy is eliminated from this battle's theatre.",
    "not_the_remaining_player": f"{RAID} {{remaining_name}} is the player remaining in that theatre.",
    "raid_forces": RAID_FORCES,
    "liberate_on_own_turn": f"{LIBERATE} It is {{turn_name}}'s turn.",
    "ally_not_eliminated": f"{LIBERATE} {{name}}'s ally is not eliminated.",
    "liberate_first": "{first_rule}.",
}

# Data fields that are seats, and the fact their name is given as.
SEAT_FIELDS = {"seat": "name", "turn": "turn_name", "looker": "looker_name", "told": "told_name",
               "aggressor": "aggressor_name", "owner": "owner_name", "ally": "ally_name", "remaining": "remaining_name"}
# Where a card is, in words (turns.where's places).
PLACES = {"hand": "in the Reserve Hand of seat ", "stack": "deployed by seat ", "destroyed": "destroyed, on the discard pile "
          "of seat ", "kept": "kept by seat ", "won": "won by seat "}


def place_words(place: str) -> str:
    what, _, seat = place.partition(":")
    return PLACES.get(what, what) + seat


def facts(code: str, data: dict[str, Any], state: PacificState, card_name: Callable[[str], str],
          waiting: Callable[[], str]) -> dict[str, Any]:
    """What the words are made from: the data, with seats named, face-up cards named, counts made plural, and
    the prompt where the words say what the table waits for."""
    out = {**data, **{SEAT_FIELDS[k]: state.name(v) for k, v in data.items() if k in SEAT_FIELDS}}
    for field in ("card", "shooter"):
        if isinstance(data.get(field), str):
            out[f"{field}_name"] = card_name(data[field])
    if "draw" in data:
        out["draw_s"] = "s" if data["draw"] != 1 else ""
    if "deciding" in data:
        out["deciding_names"] = " and ".join(state.name(s) for s in data["deciding"])
        out["deciding_s"] = "s" if len(data["deciding"]) == 1 else ""
    if code == "not_in_conflict_deck":
        out["place_words"] = data["place"].replace(":", " of seat ")
    if code == "not_in_arsenal":
        out["where_it_is"] = f" (it is {place_words(data['place'])})" if data.get("place") else ""
    if code == "proper_stack":
        out["stack_name"] = str(data["stack"]).title()
    if code == "liberate_first":
        out["first_rule"] = LIBERATE_FIRST[data["side"]]
    if code in ("no_draw_now", "no_arsenal_now", "no_turn_now"):
        out["waiting"] = waiting()
    return out
