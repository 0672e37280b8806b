"""What the referee decided, in words: the sentence for each kind of ``Told``, and its terms.

Only this module (with prompt.py and buttons.py) makes sentences players read; the rules hand it
data. A sentence about a seat whose identity is not face up never names a team: the data it is
made from carries none.
"""
from __future__ import annotations

from typing import Callable

from ..base import Term
from . import refusals, seats
from .cards import Deck
from .plays import describe
from .rulebook import RULE, TEAM_CARD, TEAM_PLURAL
from .state import BattleState, Told

Words = Callable[[Told, BattleState, Deck], str]

FIRST_CARD = {
    "battle": ("The BATTLE card is the first card flipped: \"The player left of the dealer begins the battle by "
               "playing a fight card(s).\" {who} starts."),
    "skip": "SKIP first: \"The player left of the dealer is skipped, and play begins with the next player.\" {who} "
            "plays first.",
    "reverse": "REVERSE first: \"The dealer is the first to play, and play moves to the right.\" {who} plays first.",
    "take": "{card} first: \"The player left of the dealer has the option to draw the card.\" {who} may take it "
            "from the discard pile.",
    "fight": "{who} plays first: draw from the deck or take the top discard.",
    "expose": "EXPOSE first: \"The dealer chooses a player to expose his/her Identity card.\"",
}
NO_EFFECT = {
    "building": "{card} has no effect when discarded in the building phase.",
    "nobody_eliminated": "No player is being eliminated, so SAVE has no effect.",
    "all_exposed": "Every other player's identity is already face up: EXPOSE has no effect.",
    "nobody_left": "No other player is left in the round: ELIMINATE has no effect.",
}
CHOOSE = {"expose": "{who} chooses a player to expose.", "eliminate": "{who} chooses a player to eliminate.",
          "save_by": "A SAVE card is played for {target}: who played it?"}


def say(told: Told, state: BattleState, deck: Deck) -> str:
    return SAY[told.kind](told, state, deck)


def terms(told: Told, state: BattleState) -> tuple[Term, ...]:
    """The reasoning shown under the sentence: what a play had to beat, and each seat's team and points."""
    if told.kind == "play" and told.beaten_count is not None:
        return (Term("play", describe(told.count, told.rank), f"{told.count} card(s) of rank {told.rank}"),
                Term("to beat", describe(told.beaten_count, told.beaten_rank), "count first, then rank"))
    if told.kind == "round":
        return tuple(Term(seats.name(state, s), TEAM_CARD[team],
                          f"{told.scores[s]} point(s)" + (" (+1)" if team == told.team else ""))
                     for s, team in told.teams.items())
    return ()


def count_question(state: BattleState, seat: int) -> str:
    return (f"How many cards does {seats.name(state, seat)} hold in hand now (not counting the identity card)? "
            f"Answer on the tablet.")


def _who(told: Told, state: BattleState) -> str:
    return seats.name(state, told.seat)


def _identity(t: Told, state: BattleState, deck: Deck) -> str:
    return (f"{_who(t, state)} has {'shown another' if t.replaced else 'shown their'} identity card privately "
            f"({t.shown} of {t.of} players).")


def _draw(t: Told, state: BattleState, deck: Deck) -> str:
    if t.source == "discard":
        return f"{_who(t, state)} takes the top discard, {deck.name(t.card)}."
    return f"{_who(t, state)} draws from the deck."


def _conflict(t: Told, state: BattleState, deck: Deck) -> str:
    label = f"{deck.name(t.card)} ({t.card})" if t.card else "An identity card"
    return (f"{label} is seen in {t.zones[0]} and in {t.zones[1]} at once: two cards carry the same tag. "
            f"Take one away and re-tag it.")


def _play(t: Told, state: BattleState, deck: Deck) -> str:
    play = describe(t.count, t.rank)
    if t.beaten_count is None:
        return f"{_who(t, state)} starts the battle with {play}."
    return f"{_who(t, state)} plays {play}, beating {describe(t.beaten_count, t.beaten_rank)}."


def _round(t: Told, state: BattleState, deck: Deck) -> str:
    deed = "save the world" if t.team == "superhero" else "achieve world domination"
    return (f"{_who(t, state)} plays their {TEAM_CARD[t.team]} card: the {TEAM_PLURAL[t.team]} {deed}! A point to "
            f"every {TEAM_CARD[t.team]}.")


def _tiebreak_again(t: Told, state: BattleState, deck: Deck) -> str:
    if not t.players:
        return "\"If all tying players draw the ELIMINATE card in the same round, start the process over.\""
    return f"{seats.names(state, t.players)} all drew SAVE and are still tied: they draw again."


SAY: dict[str, Words] = {
    "identity": _identity,
    "flip": lambda t, state, deck: f"Step 6: the first card flipped is {deck.name(t.card)}.",
    "first_card": lambda t, state, deck: FIRST_CARD[t.first].format(
        who=_who(t, state), card=deck.name(t.card) if t.card else ""),
    "draw": _draw,
    "discard": lambda t, state, deck: f"{_who(t, state)} discards {deck.name(t.card)}.",
    "no_effect": lambda t, state, deck: NO_EFFECT[t.reason].format(card=deck.name(t.card) if t.card else ""),
    "battle_begins": lambda t, state, deck: (f"{_who(t, state)} draws the BATTLE card: the battle begins, and "
                                             f"they start it by playing fight card(s)."),
    "choose": lambda t, state, deck: CHOOSE[t.what].format(who=_who(t, state), target=seats.name(state, t.target)),
    "expose": lambda t, state, deck: (f"{seats.name(state, t.by)} exposes {_who(t, state)}: a {TEAM_CARD[t.team]}. "
                                      f"\"The Identity card is left face up in front of its owner.\""),
    "eliminate": lambda t, state, deck: (f"{seats.name(state, t.by)} chooses {_who(t, state)} for elimination: they "
                                         f"are out for the round \"unless immediately saved\". {RULE['save']}"),
    "save": lambda t, state, deck: f"{_who(t, state)} plays SAVE: {seats.name(state, t.saved)} stays in the game.",
    "eliminated": lambda t, state, deck: (f"No SAVE: {_who(t, state)} places their hand down and is out for the "
                                          f"round."),
    "conflict": _conflict,
    "count_check": lambda t, state, deck: (f"{_who(t, state)} plays {t.needs} card(s), but the companion counted "
                                           f"{t.counted} in their hand. {count_question(state, t.seat)}"),
    "count": lambda t, state, deck: (f"{_who(t, state)} holds {t.cards} card(s) in hand (the companion had counted "
                                     f"{max(t.counted, 0)})."),
    "held_refused": lambda t, state, deck: ("The play that waited for the count does not stand: "
                                            + refusals.word(t.reason or "", t.facts or {}, state, deck)),
    "reverse": lambda t, state, deck: (f"REVERSE: \"If play was moving to the left, it switches to the right (or "
                                       f"vice versa).\" Play now moves to the {t.direction}."),
    "skip": lambda t, state, deck: f"SKIP: {_who(t, state)}'s turn is skipped.",
    "turn": lambda t, state, deck: f"{_who(t, state)} to play.",
    "reset": lambda t, state, deck: (f"No one beat {describe(t.count, t.rank)} played by "
                                     f"{seats.name(state, t.unbeaten)}. {RULE['no_one_beats']} {_who(t, state)} "
                                     f"plays any fight card(s)."),
    "pass": lambda t, state, deck: f"{_who(t, state)} {'keeps their cards (no discard)' if t.keeps else 'passes'}.",
    "new_battle": lambda t, state, deck: (f"{_who(t, state)} plays NEW BATTLE: \"the player of this card resets the "
                                          f"battle, and gets to start a new battle with any fight card(s).\""),
    "play": _play,
    "last_card": lambda t, state, deck: f"{_who(t, state)} has no cards left: {RULE['identity']}",
    "action": lambda t, state, deck: f"{_who(t, state)} plays {deck.name(t.card)}. {RULE['action_in_battle']}",
    "cards_left": lambda t, state, deck: (f"The companion counted {t.cards} card(s) still in {_who(t, state)}'s "
                                          f"hand: they go out with them, so they must all be action cards "
                                          f"({RULE['identity']})."),
    "round": _round,
    "next_round": lambda t, state, deck: (f"Round {t.round} is over. Shuffle, deal new identity cards and tap New "
                                          f"round."),
    "tie": lambda t, state, deck: (f"A tie for game winner at {t.points} points: {seats.names(state, t.players)}. "
                                   f"\"Randomly place one SAVE card and one ELIMINATE card face down. A tying player "
                                   f"will draw one of the two cards. This is repeated with each tying player.\""),
    "tiebreak_draw": lambda t, state, deck: (f"{_who(t, state)} draws {t.drew.upper()}"
                                             f"{': they are out' if t.drew == 'eliminate' else ''}."),
    "tiebreak_again": _tiebreak_again,
    "game_over": lambda t, state, deck: f"{_who(t, state)} wins the game with {t.points} points!",
    "new_round": lambda t, state, deck: (f"Round {t.round}: {_who(t, state)} deals {t.cards} cards each and a new "
                                         f"identity card to everyone. Show your identity card privately, then flip "
                                         f"the first discard."),
}
