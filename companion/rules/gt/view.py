"""Battle's view layer: what the tablet shows (the public view), what one player's phone shows (a
seat view), the sentences outcomes are told in, the prompt and the buttons' words.

The public view never holds an identity that is not face up: a team shows in the standings only
once EXPOSE turned it up or the round is over, a conflict over an identity card's tag does not name
the card, and ``redact`` takes identity card keys out of the public history. A seat view adds that
seat's own identity and hand count.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from ..base import CardFace, Conflict, Outcome, Result, Standing, Term
from ..contract import Offer, Told
from . import seats, words
from . import refusals as refusal_words
from .plays import describe, play_problem
from .prompt import awaiting, prompt, where_identities_go
from .state import LEFT, BattleState, Phase
from .turns import only_the_deck
from .words import TEAM_CARD

REVEALED = (Phase.ROUND_OVER, Phase.TIEBREAK, Phase.OVER)


# Why an input is not taken in this phase (the prompt follows, saying what to do instead).
NOT_NOW = {
    "first_discard": "The first discard is flipped during the deal, before the first turn",
    "draw": "Drawing happens in the building phase",
    "pass": "Passing happens in the building and battle phases",
    "resolve": "Nothing to resolve: no play is waiting on the centre pile",
    "expose": "No EXPOSE card is waiting for a choice",
    "eliminate": "No ELIMINATE card is waiting for a choice",
    "save": "No player is being eliminated right now",
    "no_save": "No player is waiting to be saved",
    "new_round": "A new round starts once a round is won (a player plays their identity card)",
    "tiebreak_draw": "There is no tie-break: it happens when players tie for game winner",
}
PHASE_NOW = {"deal": "the deal is not finished", "building": "this is the building phase",
             "battle": "this is the battle phase", "round_over": "the round is over",
             "tiebreak": "a tie-break is under way", "over": "the game is over"}


class DiscardTop(TypedDict):
    """The face-up top card of the discard pile."""

    card: str
    name: str


class DealJSON(TypedDict):
    """The deal (rulebook's table by player count): cards each, the deck, dealt so far, left, removed."""

    players: int
    per_player: int
    deck: int
    dealt: int
    remaining: int
    removed: list[str]


class FightTop(TypedDict):
    """The play to beat on the centre pile: its count and rank, its cards, and how it is told."""

    seat: int
    count: int
    rank: int
    cards: list[str]
    says: str


class FightPending(TypedDict):
    """The play being put down, and why it may not stand (``problem``, the same as ``say``)."""

    seat: int
    cards: list[str]
    names: list[str]
    problem: str | None
    say: str | None


class FightJSON(TypedDict):
    """The battle phase's centre pile."""

    top: FightTop | None
    pending: FightPending | None


class GatherConflict(Conflict):
    """A duplicated tag: the card (none for an identity card, a secret) and the zones it is seen in."""

    card: str | None
    zones: list[str]


class AwaitingJSON(TypedDict):
    """A choice the table waits for (an EXPOSE or ELIMINATE target, a save), by whom, and its sentence."""

    what: str
    by: int
    target: NotRequired[int]
    say: str


class CountCheckJSON(TypedDict):
    """A held play waiting for the count of a seat's hand."""

    seat: int
    counted: int
    needs: int
    say: str


class TiebreakDrawJSON(TypedDict):
    seat: int
    card: str


# "pass" is a keyword, so the functional form (the key the tablet reads is "pass", the attempt).
TiebreakJSON = TypedDict("TiebreakJSON", {"players": list[int], "drawn": list[TiebreakDrawJSON], "pass": int})


class RoundJSON(TypedDict):
    """A round won: who went out, the winning team, each seat's team and points (seat order)."""

    round: int
    went_out: int
    team: str
    teams: list[str]
    points: list[int]


class GatherYou(TypedDict):
    """Whose phone this is: their identity (once shown to the table's camera), hand size and turn."""

    seat: int
    name: str
    identity: str | None
    identity_card: str | None
    hand: int
    your_turn: bool


@dataclass(frozen=True, kw_only=True)
class BattleSeat(Standing):
    """A seat as everyone may know it (the shared ``Standing``: seat, name, say, counts): a team
    only once that identity card is face up."""

    points: int
    hand: int
    identity: str | None
    shown_identity: bool
    eliminated: bool
    turn: bool
    play: list[CardFace]
    problem: str | None = None
    out_words: str = "out of this round"  # the badge of an eliminated seat: "out for the round" (rulebook)



@dataclass(frozen=True, kw_only=True)
class GatherTable:
    """Gather Together's own part of the public view (docs/referee/gt-battle.md lists each field);
    its phase and options are the shared part's (contract.TableView)."""

    round: int
    dealer: int
    turn: int | None
    direction: str
    deck: int
    discard_top: DiscardTop | None
    draw_tap: bool
    deal: DealJSON
    fight: FightJSON | None
    awaiting: AwaitingJSON | None
    count_check: CountCheckJSON | None
    tiebreak: TiebreakJSON | None
    conflicts: list[GatherConflict]
    problems: list[str]
    rounds: list[RoundJSON]
    identities_missing: list[int]


@dataclass(frozen=True, kw_only=True)
class GatherWatcher(GatherTable):
    """A seat view's own part for a seat number the table does not have: the table's, with the prompt."""

    prompt: str
    you: GatherYou | None


@dataclass(frozen=True, kw_only=True)
class GatherSeat(GatherWatcher):
    """A player's own part: the table's, and their identity and hand (``you``), with what the phone
    page shows: ``secret`` (the identity, big), ``private`` (a short list) and ``seats`` (the standings)."""

    name: str
    seats: list[BattleSeat]   # the standings' rows (turned into JSON by contract.plain like every part)
    secret: str
    private: dict[str, str | int]   # label -> value, as the phone page lists it

class BattleView(words.Sayings):
    """Battle's view: the sentences of outcomes (``words.Sayings``, one ``@says`` method per kind),
    refusals' words (refusals.py), the prompt, the buttons and the views."""

    refusals = refusal_words.WORDS
    public_refusals = refusal_words.PUBLIC

    def refusal_facts(self, code: str, data: dict[str, Any], state: BattleState) -> dict[str, Any]:
        return refusal_words.facts(code, data, state, self.deck)

    # -- words ------------------------------------------------------------------------------------
    def not_now(self, kind: str, state: BattleState, phase: str, phases: tuple[str, ...]) -> str:
        return f"{NOT_NOW[kind]}; {PHASE_NOW[phase]}. {self.prompt(state, [])}"

    def game_over(self, state: BattleState) -> str:
        return f"The game is over: {seats.name(state, state.winner)} won."

    def terms(self, outcome: Outcome, state: BattleState) -> tuple[Term, ...]:
        return words.terms(outcome, state)

    def told(self, told: Told, state: BattleState) -> str:
        """An outcome kept in the state (what the last input did), in the sentence the table heard."""
        return self.say(Outcome(told.kind, data=told.data), state)

    def prompt(self, state: BattleState, offers: list[Offer]) -> str:
        return prompt(self.deck, state)

    # -- buttons: the contract offers what would be taken, a chooser input's candidates in one picker.
    # Only what the camera cannot see needs one: draws, passes, choices, hand counts, a new round
    # and the tie-break's draws.
    def button(self, offer: Offer, state: BattleState) -> str:
        """A button's label; for a picker, what the choice is for ("Ann exposes")."""
        if offer.kind in ("expose", "eliminate"):
            return f"{state.name(state.awaiting.by if state.awaiting else 0)} {offer.kind}s"
        if offer.kind == "save":
            return "SAVE played by"
        if offer.kind == "confirm_count":
            return f"{state.name(offer.data['seat'])} holds this many cards now"
        if offer.kind == "tiebreak_draw":
            return f"{state.name(offer.data['seat'])} drew"
        if offer.kind == "draw":
            who = state.name(offer.data["seat"])
            if offer.data["from"] == "deck":
                return f"{who} drew from the deck"
            top = state.step.top if state.step else None
            return f"{who} took the top discard ({self.deck.name(top) if top else 'the discard pile is empty'})"
        if offer.kind == "pass":
            keeps = state.phase == Phase.BUILDING
            return f"{state.name(offer.data['seat'])} {'keeps all cards (no discard)' if keeps else 'passes'}"
        return {"no_save": "No save", "new_round": "New round (cards shuffled and dealt)"}.get(
            offer.kind, offer.kind.replace("_", " "))

    def choice(self, offer: Offer, field: str, state: BattleState) -> str:
        """One choice of a picker: a seat by name, a card drawn in capitals, a count."""
        value = offer.data[field]
        if field in ("target", "by"):
            return state.name(value)
        return value.upper() if isinstance(value, str) else str(value)

    # -- views ------------------------------------------------------------------------------------
    def public(self, state: BattleState) -> GatherTable:
        fight = self._fight(state)
        check = self._count_check(state)
        pending = fight["pending"] if fight else None
        problems = [say for say in (check["say"] if check else None, pending["say"] if pending else None) if say]
        return GatherTable(
            round=state.round, dealer=state.dealer, turn=state.turn,
            direction="left" if state.direction == LEFT else "right", deck=state.deck,
            discard_top=self._discard_top(state), draw_tap=self._draw_tap(state), deal=self._deal(state),
            fight=fight, awaiting=self._awaiting(state),
            count_check=check, tiebreak=self._tiebreak(state),
            conflicts=[self._conflict(c.card, c.zones) for c in state.conflicts], problems=problems,
            rounds=[{"round": r.round, "went_out": r.went_out, "team": r.team.value,
                     "teams": [TEAM_CARD[r.teams[s]] for s in state.seat_numbers()],
                     "points": [r.points[s] for s in state.seat_numbers()]} for r in state.rounds],
            identities_missing=seats.identities_missing(state) if state.phase == Phase.DEAL else [],
        )

    # -- the shared part of the views (contract.TableView) -------------------------------------------
    def standings(self, state: BattleState, viewer: int | None) -> tuple[Standing, ...]:
        return tuple(self._standings(state, self._fight(state)))

    def winners(self, state: BattleState) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def result(self, state: BattleState, viewer: int | None) -> Result | None:
        if not state.last:
            return None
        story = " ".join(self.told(t, state) for t in state.last)
        went_out = next((t for t in state.last if t.kind == "round"), None)
        if went_out is not None:  # a round's end: one line per seat, the whole story behind a tap
            return Result(words.round_headline(went_out.data, state, state.last), words.round_lines(went_out.data, state),
                          details=story)
        return Result(story, tuple(term for t in state.last for term in self.terms(Outcome(t.kind, data=t.data), state)))

    def seat(self, state: BattleState, seat: int) -> GatherWatcher:
        """What one player's phone shows: the table, plus their own identity and hand."""
        table = vars(self.public(state))
        prompt_ = self.prompt(state, [])
        if seat not in state.seat_numbers():
            return GatherWatcher(**table, prompt=prompt_, you=None)
        known = state.identity.get(seat)
        identity = TEAM_CARD[known.team] if known else None
        you: GatherYou = {"seat": seat, "name": state.name(seat), "identity": identity,
               "identity_card": known.card if known else None, "hand": state.hands[seat],
               "your_turn": state.turn == seat}
        # What the phone page shows: the identity big, the rest as a short list, its own seat's row.
        secret = identity or f"Show your identity card privately: {where_identities_go(state)}."
        return GatherSeat(**table, prompt=prompt_, you=you, name=state.name(seat),
                          seats=self._standings(state, self._fight(state)), secret=secret,
                          private={"identity": identity or "not shown yet", "cards in hand": state.hands[seat],
                                   "your turn": "yes" if state.turn == seat else "no"})

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Identity card keys never reach the public history, whatever zone they were seen in."""
        data = super().redact(kind, data)
        if self.deck.is_identity(data.get("card")):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data

    # -- parts ------------------------------------------------------------------------------------
    def _standings(self, state: BattleState, fight: FightJSON | None) -> list[BattleSeat]:
        """One row per seat: points, hand size, and a team only once it is face up."""
        rows = []
        for s in state.seat_numbers():
            known = state.identity.get(s)
            show = known is not None and (state.phase in REVEALED or state.exposed[s])
            identity = TEAM_CARD[known.team] if known is not None and show else None
            play, problem = self._play_of(s, fight)
            rows.append(BattleSeat(seat=s, name=state.name(s), say=identity or "", points=state.points[s],
                                   hand=state.hands[s], identity=identity, shown_identity=known is not None,
                                   eliminated=state.eliminated[s], turn=state.turn == s, play=play, problem=problem))
        return rows

    def _play_of(self, s: int, fight: FightJSON | None) -> tuple[list[CardFace], str | None]:
        """The cards on the pile that are this seat's (the play to beat, or the play being put down),
        and why the play being put down may not stand."""
        play: list[CardFace] = []
        problem = None
        top, pending = (fight["top"], fight["pending"]) if fight else (None, None)
        if top and top["seat"] == s:
            play = self._faces(top["cards"])
        if pending and pending["seat"] == s:
            play = self._faces(pending["cards"])
            problem = pending["problem"] or None
        return play, problem

    def _faces(self, keys: list[str]) -> list[CardFace]:
        return [{"key": k, "name": self.deck.name(k), "kind": self.deck.card(k).kind} for k in keys]

    def _draw_tap(self, state: BattleState) -> bool:
        """The table needs a tap to know where this building turn's draw came from (the top discard
        could have been taken); with only the deck to draw from, the discard or Pass implies it."""
        return (state.phase == Phase.BUILDING and state.step is not None and state.step.drew is None
                and not only_the_deck(self.deck, state))

    def _discard_top(self, state: BattleState) -> DiscardTop | None:
        if not state.pile:
            return None
        return {"card": state.pile[-1], "name": self.deck.name(state.pile[-1])}

    def _deal(self, state: BattleState) -> DealJSON:
        d = state.deal
        return {"players": d.players, "per_player": d.per_player, "deck": d.deck, "dealt": d.dealt,
                "remaining": d.remaining, "removed": list(d.removed)}

    def _fight(self, state: BattleState) -> FightJSON | None:
        if state.phase != Phase.BATTLE:
            return None
        top, pending = state.top, state.pending
        view: FightJSON = {"top": None, "pending": None}
        if top:
            view["top"] = {"seat": top.seat, "count": top.count, "rank": top.rank, "cards": list(top.cards),
                           "says": describe(top.count, top.rank)}
        if pending:
            found = play_problem(self.deck, state, pending)
            problem = refusal_words.word(*found, state, self.deck) if found else None
            view["pending"] = {"seat": pending.seat, "cards": list(pending.cards),
                               "names": [self.deck.name(k) for k in pending.cards], "problem": problem, "say": problem}
        return view

    def _conflict(self, card: str, zones: list[str]) -> GatherConflict:
        secret = self.deck.is_identity(card)
        label = "An identity card" if secret else card
        return {"card": None if secret else card, "zones": list(zones),
                "say": f"{label} is seen in {' and '.join(zones)} at once: a duplicated tag."}

    def _awaiting(self, state: BattleState) -> AwaitingJSON | None:
        asked = state.awaiting
        if asked is None:
            return None
        say = awaiting(state, asked)
        if asked.target:
            return {"what": asked.what, "by": asked.by, "target": asked.target, "say": say}
        return {"what": asked.what, "by": asked.by, "say": say}

    def _count_check(self, state: BattleState) -> CountCheckJSON | None:
        check = state.count_check
        if check is None:
            return None
        return {"seat": check.seat, "counted": check.counted, "needs": check.needs,
                "say": words.count_question(state, check.seat)}

    def _tiebreak(self, state: BattleState) -> TiebreakJSON | None:
        tie = state.tiebreak
        if tie is None:
            return None
        return {"players": list(tie.players), "drawn": [{"seat": d.seat, "card": d.card} for d in tie.drawn],
                "pass": tie.attempt}
