"""Every sentence the table reads about an outcome: built here from the outcome's data, which the
rules modules return without words (docs/referee/contract.md, "Words apart from rules")."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

from ..base import Outcome, Term
from . import turns
from .plays import BONUS, Fighter, Play, evaluate
from .state import BomState

if TYPE_CHECKING:
    from .variants import Referee

POWER_NAMES = {"faith": "Faith", "wickedness": "Wickedness", "battle": "Battle", "conversion": "Conversion",
               "title_of_liberty": "Title of Liberty", "secret_combination": "Secret Combination",
               "stripling_warriors": "Stripling Warriors", "famine": "Famine"}
QUESTION = "In which book of scripture, and which chapter, is this character found?"
TIE_QUESTION = f"Tie! {QUESTION}"


W = TypeVar("W")
R = TypeVar("R")

# The words of a told outcome, kept: the tablet's every view words the last ten results again (the
# state keeps them as data, Told), and evaluating each battle's plays to word it was most of a seat
# view's time. A told outcome's data is never changed once told (state.Told) and is shared by every
# copy of the state, so the same dict object means the same words while the seats' names and the
# deck are the same. Each entry holds its dict and deck, so their ids are not reused while kept.
KEPT = 512
_kept: dict[tuple[str, int, int, tuple[tuple[int, str], ...]], tuple[object, object, Any]] = {}


def kept(method: Callable[["Words", W], R]) -> Callable[["Words", W], R]:
    """``method`` (of an outcome's data, or of the outcome) worded once per told outcome, seat names and deck."""
    @functools.wraps(method)
    def words_of(self: "Words", told: W) -> R:
        data = told.data if isinstance(told, Outcome) else told
        deck = self.game.deck
        key = (method.__name__, id(data), id(deck), tuple((s.number, s.name) for s in self.state.seats))
        found = _kept.get(key)
        if found is not None and found[0] is data and found[1] is deck:
            kept_words: R = found[2]
            return kept_words
        said = method(self, told)
        if len(_kept) >= KEPT:
            _kept.clear()  # a whole clear, not an eviction: safe while another thread reads
        _kept[key] = (data, deck, said)
        return said
    return words_of


def suit(color: str, shape: str, value: int) -> str:
    return f"{color} {shape} {value}"


def card_text(f: Fighter) -> str:
    """"Zeezrom (black diamond 500)\""""
    return f"{f.name} ({suit(f.color, f.shape, f.value)})"


def detail(play: Play) -> str:
    """How a play's value was reached: "Alma², gold diamond 500 x10 by Faith = 5000"."""
    power = play.power
    if not play.fighters:
        return "no CHARACTER card: its last cards go to the winner"
    f = play.fighters[0]
    if power in ("faith", "wickedness"):
        return f"{f.name}, {suit(f.printed_color, f.shape, f.printed)} x10 by {POWER_NAMES[power]} = {f.value}"
    if power == "conversion":
        return (f"{f.name}, {suit(f.printed_color, f.shape, f.printed)} turned gold by Conversion = "
                f"{suit('gold', f.shape, f.value)}")
    if power in BONUS:
        parts = " + ".join(f"{x.name} {x.value}" for x in play.fighters)
        return f"{POWER_NAMES[power]}: {parts} + {BONUS[power]} = {play.points}"
    said = f"{f.name}, {suit(f.color, f.shape, f.value)}"
    return said + (f" with {POWER_NAMES[power]}" if power else "")


class Words:
    """The sentences of one game (its seat names and deck)."""

    def __init__(self, game: "Referee", state: BomState):
        self.game, self.state = game, state

    def who(self, seat: int) -> str:
        return f"Seat {seat} ({self.state.name(seat)})"

    def names(self, seats: Iterable[int | str], joiner: str = ", ") -> str:
        named = [self.who(int(s)) for s in seats]
        return joiner.join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)

    def plays(self, data: dict[str, Any]) -> dict[int, Play]:
        found = {}
        for seat, keys in data.get("plays", {}).items():
            play = evaluate(int(seat), [(k, self.game.deck.card(k)) for k in keys])
            if isinstance(play, Play) and play.fighters:
                found[int(seat)] = play
        return found

    def flag(self, seat: int, kind: str, other: int | None) -> str:
        who = self.who(seat)
        return {
            turns.REVEAL_EARLY: f"{who} turned its POWER card face up before every seat had played.",
            turns.REVEAL_OUT_OF_TURN: f"{who} revealed out of turn: {self.who(other or 0)} reveals first.",
            turns.AFTER_REVEALS: f"{who} laid a card after the reveals began.",
            turns.ADDED_LATE: f"{who} added a card after {self.who(other or 0)} had played.",
            turns.OUT_OF_TURN: f"{who} played out of turn: it is {self.who(other or 0)}'s turn.",
            turns.POWER_FACE_UP: f"{who} laid their POWER card face up; under Secret Weapon it goes face down until "
                                 f"the reveals.",
        }[kind]

    # -- verdicts ---------------------------------------------------------------------------------------
    def _deciding(self, data: dict[str, Any]) -> Fighter | None:
        if not data.get("card"):
            return None
        for play in self.plays(data).values():
            for f in play.fighters:
                if f.key == data["card"]:
                    return f.as_printed() if data.get("by") == "famine" else f
        return None

    def tie(self, data: dict[str, Any], level_key: str = "tied") -> str:
        """Why the tied seats are level (a tie that mounts, or draws again)."""
        level = data[level_key]
        value = data["values"][str(level[0])]
        if data.get("by") == "famine":
            return f"Famine: {self.names(level)} tie at {value}"
        if data.get("by") == "stripling":
            return f"Stripling Warriors: {self.names(level)} tie with gold {value}s"
        return f"{self.names(level)} tie at {value}"

    def because(self, data: dict[str, Any]) -> str:
        rule, by = data["rule"], data.get("by")
        card = self._deciding(data)
        value = data["values"].get(str(data["winner"]))
        if by == "famine":
            return "Famine cancels every other POWER card, and the highest single CHARACTER card in the battle wins"
        if by == "stripling":
            return "Stripling Warriors turns the tide of the battle, and the lowest gold card in the battle wins"
        if rule in ("rank", "tie") and card is None:
            raise ValueError(f"a battle won by {rule} names its deciding card: {data}")
        if rule == "rank" and card is not None:
            if data["versus"] == "colour":
                return f"at {value} each, gold beats black"
            if data["versus"] == "shape":
                return f"at {value} each, both {card.color}, diamond beats oval"
            return f"at {value} each, {card.name}'s printed {card.printed} is the higher card"
        if rule == "tie" and card is not None:
            return (f"{self.names(data['tied'])} tie at {value}, and the highest single CHARACTER card of the tied "
                    f"players is {card_text(card)}")
        if rule == "order":
            return f"{self.names(data['tied'])} hold equal cards; the first of them in turn order takes the battle"
        return ""

    def won(self, data: dict[str, Any], last: bool = False) -> str:
        """"Seat 2 (Bo) wins with Korihor, black diamond 800." and why."""
        card = self._deciding(data)
        if card is not None and (data.get("by") in ("famine", "stripling") or data["rule"] == "order"):
            won_with = f"{card.name}, {suit(card.color, card.shape, card.value)}"
        else:
            won_with = detail(self.plays(data)[data["winner"]])
        said = f"{self.who(data['winner'])} wins {'the last battle ' if last else ''}with {won_with}"
        because = self.because(data)
        return f"{said}: {because}." if because else f"{said}."

    # -- each outcome ---------------------------------------------------------------------------------------
    # One sentence per outcome kind, from its data (BomView marks each with @says).
    def withdraw(self, d: dict[str, Any]) -> str:
        return f"{self.who(d.get('seat', 0))} has no CHARACTER card to play and sits out battle {d.get('battle')}."

    def too_many_powers(self, d: dict[str, Any]) -> str:
        return (f"{self.who(d['seat'])} has too many POWER cards: two go to the discard pile, and two are drawn "
                f"from the ARMY.")

    def no_character(self, d: dict[str, Any]) -> str:
        return f"{self.who(d['seat'])} has no CHARACTER card: two POWER cards go to the discard pile, two are drawn."

    def face_down(self, d: dict[str, Any]) -> str:
        return f"{self.who(d['seat'])} lays a POWER card face down."

    def surrender(self, d: dict[str, Any]) -> str:
        return f"{self.who(d['seat'])} cannot play the tie and surrenders all {d['cards']} remaining cards."

    def trivia_tie(self, d: dict[str, Any]) -> str:
        return f"{self.names(d['tied'], ' and ')} guessed together. {TIE_QUESTION}"

    def trivia_ask(self, d: dict[str, Any]) -> str:
        return f"Everyone may answer: {QUESTION}"

    @kept
    def battle(self, d: dict[str, Any]) -> str:
        if d["battle"] == "after the timer":
            return self.won(d, last=True)
        if "by" in d and "given" in d:  # surrendered by command: the one tied seat left wins
            say = (f"{self.who(d['by'])} cannot play the tie and surrenders all {d['given']} remaining cards. "
                   f"{self.who(d['winner'])} wins the battle.")
        elif d.get("unable"):
            best = self._deciding(d)
            assert best is not None, "the highest single card decides"
            say = (f"{self.tie(d)}, and no tied player has the cards to mount the battle: the highest single "
                   f"CHARACTER card, {card_text(best)}, wins it for {self.who(d['winner'])}.")
        elif "gave_up" in d:
            note = self._gave_up(d["gave_up"])
            say = f"{self.tie(d)}. {note} {self.who(d['winner'])} wins the battle."
        else:
            say = self.won(d)
        if d.get("spoils"):
            say += " " + " ".join(f"{self.who(int(s))} is done: the winner takes the {n} card(s) left as the spoils "
                                  f"of war." for s, n in d["spoils"].items())
        return say

    def _gave_up(self, gave_up: dict[str, int]) -> str:
        return " ".join(f"{self.who(int(s))} has not enough cards for the tie and surrenders all {n} remaining cards."
                        for s, n in gave_up.items())

    @kept
    def mount(self, d: dict[str, Any]) -> str:
        note = self._gave_up(d["surrendered"])
        return (f"{self.tie(d, 'level')}: the battle mounts. {self.names(d['tied'], ' and ')} each put the top three "
                f"cards of their ARMY face down and play a new CHARACTER card.{' ' + note if note else ''}")

    @kept
    def tiebreak(self, d: dict[str, Any]) -> str:
        return f"{self.tie(d)}: each draws another CHARACTER card at random."

    def time_up(self, d: dict[str, Any]) -> str:
        if "tied" not in d:
            return "Time is up! Finish this mounting battle; then the player with the most cards wins."
        best = d["cards"][str(d["tied"][0])]
        return (f"Time is up: {self.names(d['tied'], ' and ')} tie with {best} cards each. Each shuffles his "
                f"CHARACTER cards and draws one at random for a last battle.")

    def game_over(self, d: dict[str, Any]) -> str:
        why = d.get("why")
        if why is None:
            if "deck" in d:
                return f"{self.who(d['winner'])} holds all {d['deck']} cards and wins the game."
            return f"{self.who(d['winner'])} wins the game."
        winners = d.get("winners") or [d["winner"]]
        best = d["cards"][str(winners[0])]
        opening = {"time_up": "Time is up", "stop": "Play stops", "all_read": "All the cards have been read"}[why]
        if len(winners) > 1:
            return f"{opening}: {' and '.join(self.who(s) for s in winners)} share the win with {best} cards each."
        if why == "all_read":
            return f"{opening}: {self.who(winners[0])} is the best spy with {best} cards."
        return f"{opening}: {self.who(winners[0])} wins with {best} cards."

    def trivia_clue(self, d: dict[str, Any]) -> str:
        clue = f"Clue {d['clue']} of {d['of']}: {d['text']}"
        return f"{self.who(d['reader'])} reads a new character. {clue}" if "reader" in d else clue

    def trivia(self, d: dict[str, Any]) -> str:
        named = f"{d['name']} ({d['pronunciation']}), {d['reference']}"
        if d["kept_by_reader"]:
            return f"Nobody knew: it was {named}. The reader, {self.who(d['reader'])}, keeps the card."
        how = "named the book and chapter" if d["asked"] else "knew it"
        return f"{self.who(d['winner'])} {how}: {named}. {self.who(d['winner'])} wins the card."

    # -- terms ----------------------------------------------------------------------------------------------
    @kept
    def terms(self, o: Outcome) -> tuple[Term, ...]:
        d = o.data
        if o.kind in ("battle", "mount", "tiebreak"):
            terms = self._verdict_terms(d) if "plays" in d else ()
            if o.kind == "battle" and d["battle"] != "after the timer":
                terms += tuple(Term("out of turn", None, self.flag(f["seat"], f["flag"], f["other"]))
                               for f in d["flags"])
                terms += (Term("cards taken", d["cards_taken"], f"{self.who(d['winner'])} puts them in their discard "
                                                                f"pile"),)
            return terms
        if o.kind in ("time_up", "game_over") and isinstance(d.get("cards"), dict) and d.get("why") != "all_read":
            return tuple(Term(self.who(int(s)), n, "cards")
                         for s, n in sorted(d["cards"].items(), key=lambda kv: (-kv[1], int(kv[0]))))
        return ()

    def _verdict_terms(self, d: dict[str, Any]) -> tuple[Term, ...]:
        plays = self.plays(d)
        by = d.get("by", "points")
        terms: list[Term]
        if by == "famine":
            terms = []
            for seat, p in plays.items():
                best = p.best_printed
                cancelled = f"; its {p.power.replace('_', ' ').title()} cancelled" \
                    if p.power not in (None, "famine") else ""
                terms.append(Term(self.who(seat), best.value, f"highest single card {card_text(best)}{cancelled}"))
            return tuple(terms)
        if by == "stripling":
            terms = []
            for seat, p in plays.items():
                golds = [f for f in p.fighters if f.color == "gold"]
                low = min(golds, key=lambda f: f.rank) if golds else None
                terms.append(Term(self.who(seat), low.value if low else None,
                                  f"lowest gold card {card_text(low)}" if low else "no gold card"))
            return tuple(terms)
        terms = [Term(self.who(seat), p.points, detail(p)) for seat, p in plays.items()]
        if d.get("no_gold"):
            terms.append(Term("Stripling Warriors", None, "no gold card in the battle, so the highest value wins as usual"))
        return tuple(terms)
