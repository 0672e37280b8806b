"""The words of every reason Stratego's rules refuse an input for (the rules raise a code and its data),
quoting the rulebook where a rule is broken. ``PUBLIC`` words a refusal whose full words would tell the
table a secret; the full words reach only the refusing seat's own page.
"""
from __future__ import annotations

from .ranks import Quote
from .words import RULEBOOK


def _quoted(code: str) -> str:
    return repr(RULEBOOK[code])


WORDS: dict[str, str] = {
    "zone_names_no_seat": "zone {zone!r} names no seat of this game (seats 1 and 2)",
    "not_a_stratego_zone": ("Stratego reads pieces in the seats' areas, the scan tray and the seats' readers, "
                            "not in zone {zone!r}"),
    "setup_in_tray": "during setup, each side scans its army in its own area or on its own reader, not in the "
                     "scan tray",
    "play_in_seat_area": "during play, scan a combat's two pieces in the scan tray or on the readers",
    "not_own_reader": "reader {reader} is {Owner}'s; tap a {Colour} piece on {Colour}'s reader",
    "no_rescue_rule": "the rescue rule is not in play in this game (option 'rescue' is off)",
    "nothing_to_resolve": "a Stratego combat is decided as soon as the defender is scanned; there is nothing to "
                          "resolve",
    "wrong_colour": "that is a {Colour} piece; seat {seat} plays {Own}, so its army has none of the other colour",
    "army_complete": "{Own}'s army is already checked: all {size} pieces are scanned",
    "already_scanned": "that piece is already scanned (if two pieces carry the same tag, one tag is a duplicate: "
                       "reprint it)",
    "captured": "that piece was captured in combat {combat}; it is off the board",
    "not_your_turn_to_attack": f"it is {{Turn}}'s turn: a {{Colour}} piece cannot attack now "
                               f"({_quoted(Quote.RED_FIRST)})",
    "never_moves": f"that piece never moves, so it cannot attack ({_quoted(Quote.IMMOBILE)})",
    "same_piece_twice": "that piece is already scanned as the attacker; scan the {Other} piece it attacks",
    "friendly_piece": "that is another {Colour} piece: a piece attacks an enemy piece, never a friendly one; scan "
                      "the {Other} defender (or cancel)",
    "combat_under_way": "a combat is under way: scan the {Other} defender, or cancel it",
    "not_your_turn": f"it is {{Turn}}'s turn, not {{Colour}}'s ({_quoted(Quote.TURN)})",
    "no_combat_to_cancel": "there is no combat to cancel: no attacker is scanned",
    "only_attacker_cancels": "only {Colour}, who scanned the attacker, can cancel this combat",
    "only_a_scout": f"only a Scout may move and attack in the same turn ({_quoted(Quote.SCOUT_MOVE_ATTACK)})",
    "rescue_not_after_move": f"a rescue follows the move that reached the back row: {{Colour}} has not just "
                             f"moved ({_quoted(Quote.RESCUE)})",
    "already_rescued": "{Colour} has already rescued a piece for this move: one piece per arrival",
    "attacker_removed": "{Colour}'s attacking piece was removed in the combat, so it did not reach the back row",
    "not_own_piece": "that is a {Piece_colour} piece; {Colour} rescues one of their own",
    "still_on_board": "that piece is still on the board: only a defeated piece can be rescued",
}
# "never moves" would tell the opponent the lifted piece is a Bomb or the Flag: the table reads
# only that no attack began; the attacker's own page has the reason.
PUBLIC: dict[str, str] = {
    "never_moves": "{Colour}'s scan did not start an attack; {Colour}, see your page for why",
}
