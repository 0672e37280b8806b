"""What the referee decided, in words: the sentence for each kind of ``Told``, and its terms.

Only this module (with prompt.py and view.py) makes sentences players read; the rules hand it
data. A sentence about a seat whose identity is not face up never names a team: the data it is
made from carries none.
"""
from __future__ import annotations

from typing import TypeVar

from ..base import Outcome, Term
from ..contract import Game, View, says
from . import refusals, seats
from .cards import Deck
from .plays import describe
from .rulebook import RULE, TEAM_CARD, TEAM_PLURAL
from .state import BattleState, Told

T = TypeVar("T")


def known(value: T | None) -> T:
    """A fact this kind of ``Told`` always carries (None here is a bug in the rule that told it)."""
    if value is None:
        raise ValueError("a told outcome lacks a fact its sentence needs")
    return value


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


def terms(told: Told, state: BattleState) -> tuple[Term, ...]:
    """The reasoning shown under the sentence: what a play had to beat, and each seat's team and points."""
    if told.kind == "play" and told.beaten_count is not None:
        return (Term("play", describe(known(told.count), known(told.rank)), f"{told.count} card(s) of rank {told.rank}"),
                Term("to beat", describe(known(told.beaten_count), known(told.beaten_rank)), "count first, then rank"))
    if told.kind == "round":
        return tuple(Term(seats.name(state, s), TEAM_CARD[team],
                          f"{known(told.scores)[s]} point(s)" + (" (+1)" if team == told.team else ""))
                     for s, team in (told.teams or {}).items())
    return ()


def round_lines(told: Told, state: BattleState) -> tuple[Term, ...]:
    """A round's end, one line per seat: who scored (+1 to every member of the winning team) and
    their points now."""
    return tuple(Term(seats.name(state, s), "+1" if team == told.team else "+0",
                      f"{TEAM_CARD[team]}, {known(told.scores)[s]} point{'' if known(told.scores)[s] == 1 else 's'}")
                 for s, team in (told.teams or {}).items())


def round_headline(told: Told, state: BattleState, last: list[Told]) -> str:
    """The line shown big when a round ends: who went out, which team scores, and the game's end."""
    line = (f"Round {state.rounds[-1].round if state.rounds else state.round}: {_who(told, state)} goes out, "
            f"a point to every {TEAM_CARD[known(told.team)]}.")
    over = next((t for t in last if t.kind == "game_over"), None)
    if over is not None:
        return f"{line} {_who(over, state)} wins the game with {over.points} points!"
    tie = next((t for t in last if t.kind == "tie"), None)
    if tie is not None:
        return f"{line} {seats.names(state, known(tie.players))} tie at {tie.points} points: a tie-break draw."
    return line


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
        return f"{_who(t, state)} takes the top discard, {deck.name(known(t.card))}."
    return f"{_who(t, state)} draws from the deck."


def _conflict(t: Told, state: BattleState, deck: Deck) -> str:
    label = f"{deck.name(known(t.card))} ({t.card})" if t.card else "An identity card"
    return (f"{label} is seen in {known(t.zones)[0]} and in {known(t.zones)[1]} at once: two cards carry the same tag. "
            f"Take one away and re-tag it.")


def _play(t: Told, state: BattleState, deck: Deck) -> str:
    play = describe(known(t.count), known(t.rank))
    if t.beaten_count is None:
        return f"{_who(t, state)} starts the battle with {play}."
    return f"{_who(t, state)} plays {play}, beating {describe(known(t.beaten_count), known(t.beaten_rank))}."


def _round(t: Told, state: BattleState, deck: Deck) -> str:
    deed = "save the world" if t.team == "superhero" else "achieve world domination"
    return (f"{_who(t, state)} plays their {TEAM_CARD[known(t.team)]} card: the {TEAM_PLURAL[known(t.team)]} {deed}! A point to "
            f"every {TEAM_CARD[known(t.team)]}.")


def _tiebreak_again(t: Told, state: BattleState, deck: Deck) -> str:
    if not t.players:
        return "\"If all tying players draw the ELIMINATE card in the same round, start the process over.\""
    return f"{seats.names(state, known(t.players))} all drew SAVE and are still tied: they draw again."


class Sayings(View[BattleState]):
    """The sentence of each kind of ``Told``: one method per outcome kind (``@says``), read by
    BattleView (it extends this class)."""

    def __init__(self, game: Game[BattleState]):
        super().__init__(game)
        self.deck = Deck(game.catalog)  # lookups by card key into the game's catalog (gt/cards.py)

    @says("identity")
    def said_identity(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return _identity(t, state, self.deck)

    @says("flip")
    def said_flip(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"Step 6: the first card flipped is {self.deck.name(known(t.card))}."

    @says("first_card")
    def said_first_card(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (FIRST_CARD[known(t.first)].format(
                who=_who(t, state), card=self.deck.name(known(t.card)) if t.card else ""))

    @says("draw")
    def said_draw(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return _draw(t, state, self.deck)

    @says("discard")
    def said_discard(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} discards {self.deck.name(known(t.card))}."

    @says("no_effect")
    def said_no_effect(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return NO_EFFECT[known(t.reason)].format(card=self.deck.name(known(t.card)) if t.card else "")

    @says("battle_begins")
    def said_battle_begins(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{_who(t, state)} draws the BATTLE card: the battle begins, and "
                f"they start it by playing fight card(s).")

    @says("choose")
    def said_choose(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return CHOOSE[known(t.what)].format(who=_who(t, state), target=seats.name(state, t.target))

    @says("expose")
    def said_expose(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{seats.name(state, t.by)} exposes {_who(t, state)}: a {TEAM_CARD[known(t.team)]}. "
                f"\"The Identity card is left face up in front of its owner.\"")

    @says("eliminate")
    def said_eliminate(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{seats.name(state, t.by)} chooses {_who(t, state)} for elimination: they "
                f"are out for the round \"unless immediately saved\". {RULE['save']}")

    @says("save")
    def said_save(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} plays SAVE: {seats.name(state, t.saved)} stays in the game."

    @says("eliminated")
    def said_eliminated(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"No SAVE: {_who(t, state)} places their hand down and is out for the "
                f"round.")

    @says("conflict")
    def said_conflict(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return _conflict(t, state, self.deck)

    @says("count_check")
    def said_count_check(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{_who(t, state)} plays {t.needs} card(s), but the companion counted "
                f"{t.counted} in their hand. {count_question(state, known(t.seat))}")

    @says("count")
    def said_count(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{_who(t, state)} holds {t.cards} card(s) in hand (the companion had counted "
                f"{max(known(t.counted), 0)}).")

    @says("held_refused")
    def said_held_refused(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return ("The play that waited for the count does not stand: "
                + refusals.word(t.reason or "", t.facts or {}, state, self.deck))

    @says("reverse")
    def said_reverse(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"REVERSE: \"If play was moving to the left, it switches to the right (or "
                f"vice versa).\" Play now moves to the {t.direction}.")

    @says("skip")
    def said_skip(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"SKIP: {_who(t, state)}'s turn is skipped."

    @says("turn")
    def said_turn(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} to play."

    @says("reset")
    def said_reset(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"No one beat {describe(known(t.count), known(t.rank))} played by "
                f"{seats.name(state, t.unbeaten)}. {RULE['no_one_beats']} {_who(t, state)} "
                f"plays any fight card(s).")

    @says("pass")
    def said_pass(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} {'keeps their cards (no discard)' if t.keeps else 'passes'}."

    @says("new_battle")
    def said_new_battle(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{_who(t, state)} plays NEW BATTLE: \"the player of this card resets the "
                f"battle, and gets to start a new battle with any fight card(s).\"")

    @says("play")
    def said_play(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return _play(t, state, self.deck)

    @says("last_card")
    def said_last_card(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} has no cards left: {RULE['identity']}"

    @says("action")
    def said_action(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} plays {self.deck.name(known(t.card))}. {RULE['action_in_battle']}"

    @says("cards_left")
    def said_cards_left(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"The companion counted {t.cards} card(s) still in {_who(t, state)}'s "
                f"hand: they go out with them, so they must all be action cards "
                f"({RULE['identity']}).")

    @says("round")
    def said_round(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return _round(t, state, self.deck)

    @says("next_round")
    def said_next_round(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"Round {t.round} is over. Shuffle, deal new identity cards and tap New "
                f"round.")

    @says("tie")
    def said_tie(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"A tie for game winner at {t.points} points: {seats.names(state, known(t.players))}. "
                f"\"Randomly place one SAVE card and one ELIMINATE card face down. A tying player "
                f"will draw one of the two cards. This is repeated with each tying player.\"")

    @says("tiebreak_draw")
    def said_tiebreak_draw(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"{_who(t, state)} draws {(t.drew or '').upper()}"
                f"{': they are out' if t.drew == 'eliminate' else ''}.")

    @says("tiebreak_again")
    def said_tiebreak_again(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return _tiebreak_again(t, state, self.deck)

    @says("game_over")
    def said_game_over(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return f"{_who(t, state)} wins the game with {t.points} points!"

    @says("new_round")
    def said_new_round(self, outcome: Outcome, state: BattleState) -> str:
        t = Told.of_outcome(outcome.kind, outcome.data)
        return (f"Round {t.round}: {_who(t, state)} deals {t.cards} cards each and a new "
                f"identity card to everyone. Show your identity card privately, then flip "
                f"the first discard.")
