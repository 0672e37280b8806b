"""What the referee decided, in words: the sentence of each outcome kind, its terms, and the rulebook's
sentences quoted (``RULEBOOK``).

Only this module (with prompt.py and view.py) makes sentences players read; the rules hand it
data. A sentence about a seat whose identity is not face up never names a team: the data it is
made from carries none.
"""
from __future__ import annotations

from typing import Any

from ..base import Outcome, Term
from ..contract import Game, Told, View, says
from . import seats
from .cards import Deck
from .plays import describe
from .state import BattleState

# The rulebook's words (gather-together-battle.txt) the outcomes and refusals (refusals.py) quote, so that
# players read the rule, not a paraphrase of it; and the teams' names as the cards print them.
TEAM_CARD = {"superhero": "SUPERHERO", "villain": "VILLAIN"}
TEAM_PLURAL = {"superhero": "Superheroes", "villain": "Villains"}

RULEBOOK: dict[str, str] = {
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


def terms(outcome: Outcome, state: BattleState) -> tuple[Term, ...]:
    """The reasoning shown under the sentence: what a play had to beat, and each seat's team and points."""
    d = outcome.data
    if outcome.kind == "play" and "beaten_count" in d:
        return (Term("play", describe(d["count"], d["rank"]), f"{d['count']} card(s) of rank {d['rank']}"),
                Term("to beat", describe(d["beaten_count"], d["beaten_rank"]), "count first, then rank"))
    if outcome.kind == "round":
        return tuple(Term(seats.name(state, s), TEAM_CARD[team], f"{d['scores'][s]} point(s)" + (" (+1)" if team == d["team"] else ""))
                     for s, team in d["teams"].items())
    return ()


def round_lines(d: dict[str, Any], state: BattleState) -> tuple[Term, ...]:
    """A round's end (the ``round`` outcome's data), one line per seat: who scored (+1 to every member
    of the winning team) and their points now."""
    return tuple(Term(seats.name(state, s), "+1" if team == d["team"] else "+0",
                      f"{TEAM_CARD[team]}, {d['scores'][s]} point{'' if d['scores'][s] == 1 else 's'}")
                 for s, team in d["teams"].items())


def round_headline(d: dict[str, Any], state: BattleState, last: list[Told]) -> str:
    """The line shown big when a round ends (``d``: the ``round`` outcome's data; ``last``: what the
    input told): who went out, which team scores, and the game's end."""
    line = (f"Round {state.rounds[-1].round if state.rounds else state.round}: {_who(d, state)} goes out, "
            f"a point to every {TEAM_CARD[d['team']]}.")
    over = next((t.data for t in last if t.kind == "game_over"), None)
    if over is not None:
        return f"{line} {_who(over, state)} wins the game with {over['points']} points!"
    tie = next((t.data for t in last if t.kind == "tie"), None)
    if tie is not None:
        return f"{line} {seats.names(state, tie['players'])} tie at {tie['points']} points: a tie-break draw."
    return line


def count_question(state: BattleState, seat: int) -> str:
    return (f"How many cards does {seats.name(state, seat)} hold in hand now (not counting the identity card)? "
            f"Answer on the tablet.")


def _who(d: dict[str, Any], state: BattleState) -> str:
    return seats.name(state, d.get("seat"))


def _identity(d: dict[str, Any], state: BattleState, deck: Deck) -> str:
    return (f"{_who(d, state)} has {'shown another' if d['replaced'] else 'shown their'} identity card privately "
            f"({d['shown']} of {d['of']} players).")


def _draw(d: dict[str, Any], state: BattleState, deck: Deck) -> str:
    if d["source"] == "discard":
        return f"{_who(d, state)} takes the top discard, {deck.name(d['card'])}."
    return f"{_who(d, state)} draws from the deck."


def _conflict(d: dict[str, Any], state: BattleState, deck: Deck) -> str:
    label = f"{deck.name(d['card'])} ({d['card']})" if d.get("card") else "An identity card"
    return (f"{label} is seen in {d['zones'][0]} and in {d['zones'][1]} at once: two cards carry the same tag. "
            f"Take one away and re-tag it.")


def _play(d: dict[str, Any], state: BattleState, deck: Deck) -> str:
    play = describe(d["count"], d["rank"])
    if "beaten_count" not in d:
        return f"{_who(d, state)} starts the battle with {play}."
    return f"{_who(d, state)} plays {play}, beating {describe(d['beaten_count'], d['beaten_rank'])}."


def _round(d: dict[str, Any], state: BattleState, deck: Deck) -> str:
    team = d["team"]
    deed = "save the world" if team == "superhero" else "achieve world domination"
    return (f"{_who(d, state)} plays their {TEAM_CARD[team]} card: the {TEAM_PLURAL[team]} {deed}! A point to "
            f"every {TEAM_CARD[team]}.")


def _tiebreak_again(d: dict[str, Any], state: BattleState, deck: Deck) -> str:
    if not d["players"]:
        return "\"If all tying players draw the ELIMINATE card in the same round, start the process over.\""
    return f"{seats.names(state, d['players'])} all drew SAVE and are still tied: they draw again."


class Sayings(View[BattleState]):
    """The sentence of each outcome kind: one method per kind (``@says``), read from the outcome's data;
    BattleView extends this class."""

    def __init__(self, game: Game[BattleState]):
        super().__init__(game)
        self.deck = Deck(game.catalog)  # lookups by card key into the game's catalog (gt/cards.py)

    @says("identity")
    def said_identity(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return _identity(d, state, self.deck)

    @says("flip")
    def said_flip(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"Step 6: the first card flipped is {self.deck.name(d['card'])}."

    @says("first_card")
    def said_first_card(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (FIRST_CARD[d['first']].format(
                who=_who(d, state), card=self.deck.name(d['card']) if d.get('card') else ""))

    @says("draw")
    def said_draw(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return _draw(d, state, self.deck)

    @says("discard")
    def said_discard(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} discards {self.deck.name(d['card'])}."

    @says("no_effect")
    def said_no_effect(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return NO_EFFECT[d['reason']].format(card=self.deck.name(d['card']) if d.get('card') else "")

    @says("battle_begins")
    def said_battle_begins(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{_who(d, state)} draws the BATTLE card: the battle begins, and "
                f"they start it by playing fight card(s).")

    @says("choose")
    def said_choose(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return CHOOSE[d['what']].format(who=_who(d, state), target=seats.name(state, d.get('target')))

    @says("expose")
    def said_expose(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{seats.name(state, d['by'])} exposes {_who(d, state)}: a {TEAM_CARD[d['team']]}. "
                f"\"The Identity card is left face up in front of its owner.\"")

    @says("eliminate")
    def said_eliminate(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{seats.name(state, d['by'])} chooses {_who(d, state)} for elimination: they "
                f"are out for the round \"unless immediately saved\". {RULEBOOK['save']}")

    @says("save")
    def said_save(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} plays SAVE: {seats.name(state, d['saved'])} stays in the game."

    @says("eliminated")
    def said_eliminated(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"No SAVE: {_who(d, state)} places their hand down and is out for the "
                f"round.")

    @says("conflict")
    def said_conflict(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return _conflict(d, state, self.deck)

    @says("count_check")
    def said_count_check(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{_who(d, state)} plays {d['needs']} card(s), but the companion counted "
                f"{d['counted']} in their hand. {count_question(state, d['seat'])}")

    @says("count")
    def said_count(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{_who(d, state)} holds {d['cards']} card(s) in hand (the companion had counted "
                f"{max(d['counted'], 0)}).")

    @says("held_refused")
    def said_held_refused(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return "The play that waited for the count does not stand: " + self.refusal(d['reason'], d['facts'], state)[0]

    @says("reverse")
    def said_reverse(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"REVERSE: \"If play was moving to the left, it switches to the right (or "
                f"vice versa).\" Play now moves to the {d['direction']}.")

    @says("skip")
    def said_skip(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"SKIP: {_who(d, state)}'s turn is skipped."

    @says("turn")
    def said_turn(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} to play."

    @says("reset")
    def said_reset(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"No one beat {describe(d['count'], d['rank'])} played by "
                f"{seats.name(state, d['unbeaten'])}. {RULEBOOK['no_one_beats']} {_who(d, state)} "
                f"plays any fight card(s).")

    @says("pass")
    def said_pass(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} {'keeps their cards (no discard)' if d['keeps'] else 'passes'}."

    @says("new_battle")
    def said_new_battle(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{_who(d, state)} plays NEW BATTLE: \"the player of this card resets the "
                f"battle, and gets to start a new battle with any fight card(s).\"")

    @says("play")
    def said_play(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return _play(d, state, self.deck)

    @says("last_card")
    def said_last_card(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} has no cards left: {RULEBOOK['identity']}"

    @says("action")
    def said_action(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} plays {self.deck.name(d['card'])}. {RULEBOOK['action_in_battle']}"

    @says("cards_left")
    def said_cards_left(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"The companion counted {d['cards']} card(s) still in {_who(d, state)}'s "
                f"hand: they go out with them, so they must all be action cards "
                f"({RULEBOOK['identity']}).")

    @says("round")
    def said_round(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return _round(d, state, self.deck)

    @says("next_round")
    def said_next_round(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"Round {d['round']} is over. Shuffle, deal new identity cards and tap New "
                f"round.")

    @says("tie")
    def said_tie(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"A tie for game winner at {d['points']} points: {seats.names(state, d['players'])}. "
                f"\"Randomly place one SAVE card and one ELIMINATE card face down. A tying player "
                f"will draw one of the two cards. This is repeated with each tying player.\"")

    @says("tiebreak_draw")
    def said_tiebreak_draw(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"{_who(d, state)} draws {d['drew'].upper()}"
                f"{': they are out' if d['drew'] == 'eliminate' else ''}.")

    @says("tiebreak_again")
    def said_tiebreak_again(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return _tiebreak_again(d, state, self.deck)

    @says("game_over")
    def said_game_over(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return f"{_who(d, state)} wins the game with {d['points']} points!"

    @says("new_round")
    def said_new_round(self, outcome: Outcome, state: BattleState) -> str:
        d = outcome.data
        return (f"Round {d['round']}: {_who(d, state)} deals {d['cards']} cards each and a new "
                f"identity card to everyone. Show your identity card privately, then flip "
                f"the first discard.")
