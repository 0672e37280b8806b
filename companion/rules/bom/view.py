"""What the table's tablet shows, and every word it shows: outcome sentences (words.py), the prompt,
button labels, the public and seat views. Nothing in this game is secret except face-down cards,
which the companion never sees (a Secret Weapon card read face down is kept out of it), and in
Spy's Trivia the card being read, whose name appears only once the card is won."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Required, TypedDict, cast

from ..base import Conflict, Outcome, PlayedCard, Result, ResultJSON, SeatBox, Standing, Term
from ..contract import Game, Offer, Told, View, says, scoreboard
from . import refusals as refusal_words
from . import table, turns
from .announce import AnnounceJSON, announce, name_parts
from .battle import participants, seat_problem
from .plays import Play, Problem
from .state import BATTLE, MOUNTING, OVER, TIEBREAK, TRIVIA, BomState, Piles
from .turns import TurnJSON
from .words import QUESTION, TIE_QUESTION, Words, suit

if TYPE_CHECKING:
    from .variants import Referee

VARIANT_NAMES = {"young_players": "Rules for Young Players", "mounting_battles": "Mounting Battles",
                 "secret_weapon": "Secret Weapon", "power_play": "Power Play", "spys_trivia": "Spy's Trivia"}
BUTTONS = {
    "withdraw": "Sits out: no CHARACTER card",
    "too_many_powers": "Too many POWER cards (2 to the discard, draw 2)",
    "no_character": "No CHARACTER card for the tie (swap two POWER cards)",
    "surrender": "Surrenders (not enough cards for the tie)",
    "face_down": "Laid a POWER card face down",
    "trivia_clue": "Next clue",
    "trivia_award": "Guessed it first",
    "trivia_tie": "Tie: ask for the book and chapter",
    "trivia_ask": "Ask for the book and chapter",
    "trivia_nobody": "Nobody knew (the reader keeps it)",
    "time_up": "Time is up",
    "stop": "Stop playing",
}
CONFIRM = {"time_up": "End the game now: the most cards wins?",
           "stop": "Stop now: the player with the most cards wins?",
           "surrender": "Surrender every remaining card?"}


class BomCard(PlayedCard, total=False):
    """A card as the table shows it: everything printed on its face (``PlayedCard``: key, name, kind), its
    catalog id, and its name split for the superscript (Coriantumr³: ``name_base`` "Coriantumr",
    ``name_index`` "3"). A CHARACTER card adds its suit (``value``, ``color``, ``shape``),
    ``pronunciation`` and scripture ``reference``; a POWER card its ``power``. ``text``: the card in
    words (a CHARACTER card's name and suit, a POWER card's printed text)."""

    id: Required[str]
    name_base: Required[str]
    name_index: Required[str]
    text: Required[str]
    reference: str
    power: str


class MountJSON(TypedDict):
    """Mounting Battles: the tied seats, the round, the ARMY cards each put face down and each gave up
    (by seat, its number as text), the pot (every card already in the battle, face-down ones included)
    and the cards of earlier rounds the camera saw."""

    seats: list[int]
    round: int
    face_down: dict[str, int]
    surrendered: dict[str, int]
    pot: int
    cards: list[BomCard]


class TimerJSON(TypedDict):
    """Rules for a Shorter Game: the time chosen (minutes, and in seconds for the tablet's countdown),
    and whether it is up."""

    minutes: int
    seconds: int
    time_up: bool


class ClueJSON(TypedDict):
    """Spy's Trivia: the card being read, never named: the clues shown so far, how many it has, the
    seats tied on a guess, and the question asked (after a tie, or of everyone), if any."""

    clues: list[str]
    clue_count: int
    tie: list[int]
    question: str | None


class WonCard(BomCard, total=False):
    """Spy's Trivia: the last card read, and who won it (the reader, when nobody knew)."""

    winner: Required[int]
    kept_by_reader: Required[bool]


class TriviaJSON(TypedDict):
    """Spy's Trivia: who reads, the cards read and still to read, the card being read (``current``) and
    the last card read (``last``)."""

    reader: int
    read: int
    remaining: int
    current: ClueJSON | None
    last: WonCard | None


class BomSeatRow(SeatBox, total=False):
    """A seat's row (``seats``): the seat box's keys, and what bom-battle.js reads besides."""

    cards: int                      # the cards it holds (in Spy's Trivia: the cards it has won)
    in_battle: bool
    face_down: bool                 # its POWER card lies face down (Secret Weapon)
    status: str                     # waiting, ready, problem, face down, sitting out, withdrawn, out
    announce: AnnounceJSON | None   # its play as the player says it (announce.py)
    unread: int                     # Spy's Trivia: the cards it has still to read


class BomConflict(Conflict):
    """One card seen in two places at once."""

    card: str
    zones: list[str]
    seats: list[int]
    name: str


class FlagJSON(TypedDict):
    """Secret Weapon: something a seat did out of turn (flagged, not refused), and why it is flagged."""

    seat: int
    card: str | None
    why: str


class TiebreakJSON(TypedDict):
    """The seats tied for the win, in a tie-break."""

    seats: list[int]


@dataclass(frozen=True, kw_only=True)
class BomTable:
    """Book of Mormon's own part of the public view (docs/referee/bom-battle.md lists each field);
    the standings, winners and the result box are the shared part's (``BomView.standings``, ...)."""

    mode: str
    battle: int
    deck_size: int
    variants: list[str]
    seats: list[BomSeatRow]
    conflicts: list[BomConflict]
    flags: list[FlagJSON]
    problems: list[str]
    collecting: list[str]
    turn: int | None
    secret_weapon: TurnJSON | None
    mount: MountJSON | None
    tiebreak: TiebreakJSON | None
    timer: TimerJSON | None
    trivia: TriviaJSON | None
    recent: list[ResultJSON]
    ready_to_resolve: bool


@dataclass(frozen=True, kw_only=True)
class BomSeat(BomTable):
    """A seat's own part: the table's, with the prompt, and its own face-down card if its tag was read."""

    prompt: str
    my_face_down: BomCard | None


class BomView(View[BomState]):
    refusals = refusal_words.WORDS

    def __init__(self, game: Game[BomState]):
        super().__init__(game)
        self.referee = cast("Referee", game)  # the game as its rule modules see it (variants.Referee)

    def refusal_facts(self, code: str, data: dict[str, Any], state: BomState) -> dict[str, Any]:
        return refusal_words.facts(data, state, self._card_name)

    def refusal(self, code: str, data: dict[str, Any], state: BomState) -> tuple[str, str]:
        """A card read face down or in the tray is named only on its seat's page (refusals.py)."""
        public, full = super().refusal(code, data, state)
        if data.get("hidden"):
            public = super().refusal(code, {**data, "unnamed": True}, state)[0]
        return public, full

    def not_now(self, kind: str, state: BomState, phase: str, phases: tuple[str, ...]) -> str:
        """This rulebook's reason when an input comes in the wrong phase."""
        if phase == OVER:
            return "The game is over."
        if kind.startswith("trivia_"):
            return "Time is up: the tied players fight a last battle." if phase == TIEBREAK else \
                "This command is for Spy's Trivia."
        if kind == "time_up":
            return "The timer has already gone off."
        if kind == "face_down" and not state.turns:
            return "Only Secret Weapon lays a POWER card face down."
        what = {"withdraw": "Withdrawing from a battle", "too_many_powers": "\"Too many POWER cards\"",
                "face_down": "A face-down POWER card", "stop": "Stopping play", "resolve": "Resolving a battle",
                "no_character": "Swapping two POWER cards for a tie", "surrender": "Surrendering"}[kind]
        if kind in ("no_character", "surrender"):
            return f"{what} happens only while a tie mounts (Mounting Battles)."
        if kind == "withdraw" and phase == MOUNTING:
            return ("The battle is mounting; a tied player with no CHARACTER card swaps two POWER cards "
                    "(no_character) or surrenders.")
        if phase == TRIVIA:
            return "Spy's Trivia has no battles to resolve: award the card being read, or tap 'nobody knew'." \
                if kind == "resolve" else f"{what} is not part of Spy's Trivia."
        return f"{what} is not part of the last battle after the timer."


    # -- outcomes -----------------------------------------------------------------------------------------
    # Each outcome kind's sentence (words.py makes it from the outcome's data).
    @says("battle")
    def said_battle(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).battle(outcome.data)

    @says("mount")
    def said_mount(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).mount(outcome.data)

    @says("tiebreak")
    def said_tiebreak(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).tiebreak(outcome.data)

    @says("time_up")
    def said_time_up(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).time_up(outcome.data)

    @says("game_over")
    def said_game_over(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).game_over(outcome.data)

    @says("withdraw")
    def said_withdraw(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).withdraw(outcome.data)

    @says("too_many_powers")
    def said_too_many_powers(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).too_many_powers(outcome.data)

    @says("no_character")
    def said_no_character(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).no_character(outcome.data)

    @says("face_down")
    def said_face_down(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).face_down(outcome.data)

    @says("surrender")
    def said_surrender(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).surrender(outcome.data)

    @says("trivia_clue")
    def said_trivia_clue(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).trivia_clue(outcome.data)

    @says("trivia_tie")
    def said_trivia_tie(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).trivia_tie(outcome.data)

    @says("trivia_ask")
    def said_trivia_ask(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).trivia_ask(outcome.data)

    @says("trivia")
    def said_trivia(self, outcome: Outcome, state: BomState) -> str:
        return Words(self.referee, state).trivia(outcome.data)

    def terms(self, outcome: Outcome, state: BomState) -> tuple[Term, ...]:
        return Words(self.referee, state).terms(outcome)

    # -- buttons -------------------------------------------------------------------------------------------
    def button(self, offer: Offer, state: BomState) -> str:
        return BUTTONS[offer.kind]

    def confirm(self, offer: Offer, state: BomState) -> str:
        return CONFIRM.get(offer.kind, f"{BUTTONS[offer.kind]}?")

    def choice(self, offer: Offer, field: str, state: BomState) -> str:
        """A picker's entry: the seat's name ("Ann"), or the seats' names ("Bo and Cy")."""
        value = offer.data[field]
        seats = [int(v) for v in value.split(",")] if isinstance(value, str) else [value]
        return " and ".join(state.name(n) for n in seats)

    # -- cards ---------------------------------------------------------------------------------------------
    def card(self, key: str) -> BomCard:
        """A card as the table view shows it (everything printed on its face)."""
        card = self.referee.deck.card(key)
        base, index = name_parts(card.name)
        if card.kind == "character":
            return {"key": key, "id": card.id, "name": card.name, "name_base": base, "name_index": index,
                    "kind": card.kind, "value": card["value"], "color": card["color"], "shape": card["shape"],
                    "pronunciation": card.get("pronunciation", ""), "reference": card.get("reference", ""),
                    "text": f"{card.name}, {suit(card['color'], card['shape'], card['value'])}"}
        return {"key": key, "id": card.id, "name": card.name, "name_base": base, "name_index": index,
                "kind": card.kind, "power": card["power"], "text": card.get("text", "")}

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Cards scanned in the tray (Spy's Trivia: the card being read) and POWER cards read face
        down (Secret Weapon) are not named in the public history."""
        if kind in ("card_seen", "card_gone") and (data.get("zone") == "tray" or data.get("face_down")):
            return {k: v for k, v in data.items() if k != "card"}
        return super().redact(kind, data)

    # -- the prompt ------------------------------------------------------------------------------------------
    def prompt(self, state: BomState, offers: list[Offer]) -> str:
        """What happens next, in one sentence for the table."""
        words = Words(self.referee, state)
        if state.over:
            ends = [t for t in state.recent if t.kind == "game_over"]
            return self.say(Outcome(ends[-1].kind, data=ends[-1].data), state) if ends else "The game is over."
        if not self.referee.rules(state).battles(state):
            return self._trivia_prompt(state, words)
        if self.referee.ready_to_resolve(state):  # the table resolves it by itself: no tap asked for
            return f"Battle {state.battle}: everyone has played; the result shows once the cards lie still."
        current = table.plays(state)
        fighting = participants(state, self.referee.rules(state))
        turn = self._turn(state, fighting, current)
        to_move = turn["seat"] if turn else None   # None once every seat has played and revealed
        if turn and to_move is not None and turn["phase"] == "reveal":
            return f"{words.who(to_move)}: turn your POWER card face up."
        if turn and to_move is not None and turn["phase"] == "play":
            return f"{words.who(to_move)}'s turn to play."
        if state.tiebreak is not None:
            return (f"Last battle after the timer: {words.names(state.tiebreak)} each draw one CHARACTER card at random "
                    f"and play it.")
        mounting = [s for s in state.mounting().seats if not current.get(s)] if state.mount else []
        if mounting:  # only the tied seats that have not laid their new card yet
            each = " each" if len(mounting) > 1 else ","
            return f"The battle mounts: {words.names(mounting)}{each} play a new CHARACTER card."
        waiting = [s for s in fighting if not current.get(s) and not (state.turns and s in state.secret_weapon().face_down)]
        if waiting:  # where the cards go: the seat's own area of the mat, or its reader
            return (f"Battle {state.battle}: {words.names(waiting)}, lay your play in your area of the battlefield "
                    f"(or on your reader).")
        fixing = [s for s in fighting if current.get(s) and not isinstance(seat_problem(self.referee, state, s, current[s]), Play)]
        if fixing:  # who must change what they laid (the problem is shown under their name)
            return f"Battle {state.battle}: {words.names(fixing)}, fix your play (see under your name) before the battle is resolved."
        return f"Battle {state.battle}: fix the plays above before resolving."

    def _trivia_prompt(self, state: BomState, words: Words) -> str:
        current = state.spys_trivia().current
        if current is None:
            return f"{words.who(state.spys_trivia().reader)} reads: put the top card of your pile in the scan tray."
        if current.tie:
            return TIE_QUESTION
        if current.asked:
            return QUESTION
        clues = list(self.referee.deck.card(current.card).get("description") or [])
        return f"Clue {current.clues} of {len(clues)}: {clues[current.clues - 1]}" if clues else "Who is it?"

    @staticmethod
    def _turn(state: BomState, fighting: list[int], current: dict[int, list[str]]) -> TurnJSON | None:
        return turns.whose_turn(state, fighting, current) if state.turns and fighting and not state.over else None

    # -- the public and seat views ---------------------------------------------------------------------------
    def public(self, state: BomState) -> BomTable:
        words = Words(self.referee, state)
        current = table.plays(state)
        fighting = participants(state, self.referee.rules(state)) if not state.over else []
        turn = self._turn(state, fighting, current)
        flags: list[FlagJSON] = [{"seat": f.seat, "card": f.card, "why": words.flag(f.seat, f.kind, f.other)} for f in state.flags]
        return BomTable(
            mode=state.mode.value, battle=state.battle, deck_size=state.deck_size,
            variants=self._variants(state.options),
            seats=[self._seat(state, words, s, current, fighting) for s in state.piles],
            conflicts=[self._conflict(words, key, zones, seats) for key, zones, seats in table.conflicts(state)],
            flags=flags, problems=[words.flag(f.seat, f.kind, f.other) for f in state.flags],
            collecting=sorted(state.collecting),
            turn=turn["seat"] if turn else None, secret_weapon=turn,
            mount=self._mount(state),
            tiebreak={"seats": list(state.tiebreak)} if state.tiebreak is not None else None,
            timer=self._timer(state),
            trivia=self._trivia(state) if state.trivia is not None else None,
            recent=[self._told(t, state).as_dict() for t in state.recent],
            ready_to_resolve=self.referee.ready_to_resolve(state),
        )

    def seat(self, state: BomState, seat: int) -> BomSeat:
        """The table's view, plus the identity of this seat's own face-down card if its tag was read."""
        key = state.secret_weapon().face_down.get(seat) if state.turns else None
        return BomSeat(**vars(self.public(state)), prompt=self.prompt(state, []),
                       my_face_down=self.card(key) if key else None)

    def _told(self, told: Told, state: BomState) -> Result:
        """A told outcome, worded now from its data (the same words the table heard), headed by its battle."""
        return self.result_of(told.kind, told.data, state, battle=told.data.get("battle"))

    # -- the shared part of the views (contract.TableView) -------------------------------------------------
    def standings(self, state: BomState, viewer: int | None) -> tuple[Standing, ...]:
        """The score: cards held per seat, most first; in Spy's Trivia the cards won, and those still
        to read. A seat out of cards is out of the game (never in Spy's Trivia)."""
        if state.trivia is not None:
            trivia = state.spys_trivia()
            return scoreboard(state.seats, trivia.won, "cards", counts={s.seat: {"unread": trivia.unread[s.seat]}
                                                                        for s in state.piles})
        return scoreboard(state.seats, {s.seat: s.total for s in state.piles}, "cards",
                          out={s.seat for s in state.piles if s.out},
                          counts={s.seat: {"army": s.army, "battalion": s.battalion, "discard": s.discard}
                                  for s in state.piles})

    def winners(self, state: BomState) -> tuple[int, ...]:
        return tuple(state.winners)

    def progress(self, state: BomState) -> tuple[str, ...]:
        """The header line: the battle being fought, then the phase unless it is the battle itself (the
        line read "Battle 2 · Battle")."""
        if not state.battle:
            return super().progress(state)
        return (f"Battle {state.battle}",) + (() if self.game.phase(state) == BATTLE else super().progress(state))

    def result_previous(self, state: BomState, result: Result) -> bool:
        """The result box tells of an earlier battle once a card of the next one is down."""
        plays = table.plays(state)
        return isinstance(result.battle, int) and result.battle != state.battle and any(plays.get(s.seat) for s in state.piles)

    def result(self, state: BomState, viewer: int | None) -> Result | None:
        """The latest input's result: a game ended by the clock or by stopping shows its end; otherwise
        the first result (a battle stays on the box when it also ended the game)."""
        if not state.last:
            return None
        ends = [t for t in state.last if t.kind == "game_over" and t.data.get("why") in ("time_up", "stop")]
        return self._told(ends[-1] if ends else state.last[0], state)

    @staticmethod
    def _variants(options: dict[str, Any]) -> list[str]:
        chosen = [label for key, label in VARIANT_NAMES.items() if options[key]]
        if options["shorter_game_minutes"]:
            chosen.append(f"Rules for a Shorter Game ({options['shorter_game_minutes']} minutes)")
        return chosen

    def _conflict(self, words: Words, key: str, zones: list[str], seats: list[int]) -> BomConflict:
        name = self.card(key)["name"]
        places = " and ".join(words.who(s) for s in seats)
        return {"card": key, "zones": zones, "seats": seats, "name": name,
                "say": f"{name} ({key}) is seen at {places} at once: take the duplicate away."}

    def _seat(self, state: BomState, words: Words, s: Piles, current: dict[int, list[str]],
              fighting: list[int]) -> BomSeatRow:
        n = s.seat
        cards = current.get(n, [])
        face_down = bool(state.turns and n in state.secret_weapon().face_down)
        shown: BomSeatRow = {
            "seat": n, "name": s.name, "army": s.army, "battalion": s.battalion, "discard": s.discard,
            "cards": s.total, "total": s.total, "eliminated": s.out, "withdrawn": s.withdrawn,
            "in_battle": n in fighting, "play": [self.card(k) for k in cards], "face_down": face_down,
            "status": "waiting", "problem": None, "points": None, "announce": None, "say": None,
        }
        if state.trivia is not None:
            won = state.spys_trivia().won[n]
            shown.update({"unread": state.spys_trivia().unread[n], "cards": won, "total": won})
        if s.out:
            shown["status"] = "out"
        elif s.withdrawn:
            shown["status"] = "withdrawn"
        elif n not in fighting:
            shown["status"] = "sitting out" if not state.over else "waiting"
        else:
            result = seat_problem(self.referee, state, n, cards)
            if isinstance(result, Play) and not result.fighters:
                shown.update({"status": "ready", "points": 0, "problem": None})
            elif isinstance(result, Play):
                said = announce(result, self.card)
                shown.update({"status": "ready", "points": result.points, "announce": said, "say": said["text"]})
            elif face_down:
                shown.update({"status": "face down", "problem": self._said(result, state)})
            elif cards and result.code != "not_played":
                shown.update({"status": "problem", "problem": self._problem(state, cards, result)})
        return shown

    def _problem(self, state: BomState, cards: list[str], problem: Problem) -> str:
        """A seat showing 4 or more POWER cards is about to tap "Too many POWER cards"."""
        if len(cards) >= 4 and all(self.referee.deck.is_power(k) for k in cards):
            return "4 or more POWER cards shown: tap \"Too many POWER cards\" (2 to the discard pile, draw 2)."
        return self._said(problem, state)

    def _said(self, problem: Problem, state: BomState) -> str:
        return refusal_words.problem(problem.as_data(), state, self._card_name)

    def _card_name(self, key: str) -> str:
        return self.referee.deck.card(key).name

    def _mount(self, state: BomState) -> MountJSON | None:
        """The mounting battle: tied seats, round, face-down counts, the pot (every card already in the
        battle, face-down ones included) and the cards of earlier rounds the camera saw."""
        m = state.mount
        if not m:
            return None
        return {"seats": list(m.seats), "round": m.round, "face_down": {str(k): v for k, v in m.face_down.items()},
                "surrendered": {str(k): v for k, v in m.surrendered.items()}, "pot": state.pot,
                "cards": [self.card(k) for k in state.held]}

    @staticmethod
    def _timer(state: BomState) -> TimerJSON | None:
        minutes = state.options["shorter_game_minutes"]
        if not minutes:
            return None
        return {"minutes": minutes, "seconds": minutes * 60, "time_up": state.time_up}

    def _trivia(self, state: BomState) -> TriviaJSON:
        """Never the card being read: its clues so far, how many there are, and the question."""
        trivia = state.spys_trivia()
        last = trivia.last
        won: WonCard | None = None
        if last:
            won = {**self.card(last.card), "winner": last.winner, "kept_by_reader": last.kept_by_reader}
        return {"reader": trivia.reader, "read": len(trivia.read), "remaining": sum(trivia.unread.values()),
                "current": self._clues(state), "last": won}

    def _clues(self, state: BomState) -> ClueJSON | None:
        current = state.spys_trivia().current
        if current is None:
            return None
        clues = list(self.referee.deck.card(current.card).get("description") or [])
        return {"clues": clues[:current.clues], "clue_count": len(clues), "tie": list(current.tie),
                "question": TIE_QUESTION if current.tie else QUESTION if current.asked else None}


__all__ = ["BomSeat", "BomTable", "BomView"]
