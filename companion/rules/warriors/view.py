"""Warriors: every word the table and the phones read, and what each may see.

The public view never holds a face-down card or a card in a hand: a face-down card is shown as
its place in the row, a hand as its count. A seat's own view adds its hand (each card marked
whether it can be laid now, and why not), its face-down cards, and what its Prophecy showed it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Required, TypedDict

from companion.rules.base import PlayedCard, Result, SeatBox, Standing, Term, TermJSON
from companion.rules.contract import Offer, scoreboard

from . import refusals as refusal_words
from .cards import info, why_not_primary, why_not_secondary
from .points import score
from .prepare import tray_owner
from .refusals import COMBINATION, names
from .state import Laid, Player, Step, WarriorsState
from .words import Sayings, ordinal, side_terms

STEP_NAMES = {
    Step.DEAL: "the deal", Step.PRIMARY: "Phase One: primary Warriors", Step.SECONDARY: "Phase One: Prepare for Battle",
    Step.CHALLENGE: "Phase Two: Call to Battle", Step.REVEAL: "Phase Two: a Challenge",
    Step.DUEL: "the special battle of Coriantumr and Shiz", Step.REDRAW: "the special battle's new hands",
    Step.REFILL: "the end of the Battle round", Step.OVER: "the game is over",
}
# Where a card is scanned privately: its face, where the tag is, is shown to the camera alone (docs/referee/warriors.md)
PRIVATELY = "(on your reader, or face up in the covered scan tray)"


def held(p: Player) -> int:
    """The cards a player holds: hand, row, Discard pile and both draw piles (the game's score)."""
    return len(p.hand) + len(p.play) + len(p.discard) + p.warrior_deck + p.armory_deck


def who(state: WarriorsState, seat: int | None) -> str:
    """A seat's name in a prompt or a button (the seat the table waits for may be none)."""
    return state.name(seat) if seat is not None else "nobody"


class NamedCard(TypedDict):
    """A card named on the tablet: its tag key and name."""

    key: str
    name: str


class FaceDownCard(NamedCard):
    """One of a seat's own face-down cards, with its place in the row."""

    position: int


class HandCard(NamedCard):
    """A card of a seat's hand: what it is, and whether it can be laid now (``why`` not, when not)."""

    kind: str
    side: str | None
    icons: list[str]
    points: int
    legal: bool
    why: str


class OrderJSON(TypedDict):
    """The round's Challenges: the challenger, the seats battled so far and those still to battle."""

    challenger: int | None
    battled: list[int]
    to_battle: list[int]


class ChallengeResultJSON(TypedDict):
    """A decided Challenge: its two seats, the winner, points by seat (as text keys) and cards captured."""

    challenger: int
    defender: int
    winner: int
    points: dict[str, int]
    captured: int


class LaidCard(PlayedCard, total=False):
    """A card of a seat's row (its ``play``) as the tablet draws it: its place in the row, and when face
    up what it is (``PlayedCard``: key, name, kind: ``warrior`` or its Armory kind), whether an Escape
    disabled it, how it came there, whose it was, its side and icons. A face-down card shows only its
    place (named "face down", with no key)."""

    position: Required[int]
    place: Required[str]            # "primary", "2nd secondary"
    face_down: bool
    disabled: bool
    how: str                        # laid, taken, deception, duel
    owner: int
    side: str | None
    icons: list[str]


class SideJSON(TypedDict):
    """One side's points in a Challenge: the total, and each term in words."""

    total: int
    terms: list[TermJSON]


class ChallengeJSON(TypedDict):
    """The Challenge being fought: its two seats, whose card is turned next (``turns_next``: only while
    a card is still face down), the cards turned so far, the special battle (``duel``), the seat laying
    its Deception card, and each side's points by seat (its number as text)."""

    challenger: int
    defender: int
    next: int
    turns_next: int | None
    reveals: int
    duel: bool
    deception: int | None
    points: dict[str, SideJSON]


class WarriorsSeatRow(SeatBox, total=False):
    """A seat's row (``seats``): the seat box's keys (``total``: the cards it holds; ``counts``: hand and
    discard pile), and what warriors.js reads besides."""

    warrior_deck: int
    armory_deck: int
    discard_top: NamedCard | None
    face_down: int                  # how many of its row's cards lie face down


@dataclass(frozen=True, kw_only=True)
class WarriorsTable:
    """Warriors' own part of the public view (docs/referee/warriors.md lists each field); the phase,
    standings, winners and the result box are the shared part's (``WarriorsView.standings``, ...)."""

    game: str
    step: str
    phase_name: str
    turn: int | None
    drawing: int | None
    leader: int
    caller: int | None
    battle_round: int
    seats: list[WarriorsSeatRow]
    challenge: ChallengeJSON | None
    order: OrderJSON
    results: list[ChallengeResultJSON]
    tray_for: int | None
    tied: list[int]


class WarriorsYou(TypedDict):
    """What only this seat sees (drawn by warriors.js)."""

    hand: list[HandCard]             # each card: key, name, kind, side, icons, points, legal, why (when not legal)
    face_down: list[FaceDownCard]    # its own face-down cards in its row: key, name, position
    prophecy: list[NamedCard]        # the cards its Prophecy showed it: key, name


@dataclass(frozen=True, kw_only=True)
class WarriorsSeat(WarriorsTable):
    """A seat's own part: the table's, and ``you``: its hand (each card marked whether it can be laid
    now, and why not), its face-down cards and what its Prophecy showed it."""

    you: WarriorsYou


class WarriorsView(Sayings):
    """Every word of Warriors: the outcome sentences (@says, words.py), the refusals' words
    (refusals.py), the prompt, the buttons and the views."""

    refusals = refusal_words.WORDS
    public_refusals = refusal_words.PUBLIC

    def refusal_facts(self, code: str, data: dict[str, Any], state: WarriorsState) -> dict[str, Any]:
        return refusal_words.facts(code, data, state, self.card, self.step_name(state))

    def step_name(self, state: WarriorsState) -> str:
        return STEP_NAMES[state.step]

    # -- the prompt and the buttons -----------------------------------------------------------------
    def prompt(self, state: WarriorsState, offers: list[Offer]) -> str:
        n = partial(who, state)
        step = state.step
        if state.over:
            return "The game is over."
        if step == Step.DEAL:
            seat = tray_owner(state)
            return (f"The deal: {n(seat)}, draw 3 Warrior and 3 Armory cards and scan each privately "
                    f"{PRIVATELY}.")
        if step in (Step.PRIMARY, Step.SECONDARY):
            if state.drawing is not None:
                return f"{n(state.drawing)}: draw a Warrior or Armory card and scan it privately {PRIVATELY}."
            if step == Step.PRIMARY:
                return f"{n(state.turn)}: lay a Warrior with icons face up as your primary card."
            call = f" {n(state.caller)} has called to battle." if state.caller else ""
            return (f"{n(state.turn)}: scan a secondary card privately {PRIVATELY}, "
                    f"then lay it face down to the right of your Warrior.{call}")
        if step == Step.CHALLENGE:
            return self._choose_prompt(state)
        if step == Step.REVEAL:
            ch = state.fight
            if ch.deception is not None:
                return f"{n(ch.deception)}: lay the card from your hand face up (Deception)."
            if any(c.face_down for s in (ch.challenger, ch.defender) for c in state.players[s].play):
                return f"{n(ch.next)}: turn over your next facedown card."
            return self._decide_prompt(state, offers, "Every card is turned over")
        if step == Step.DUEL:
            holding = [s for s in (state.fight.challenger, state.fight.defender) if state.players[s].hand]
            return f"{names(state, holding)}: lay down every card in your hand face up." if holding else \
                self._decide_prompt(state, offers, "Both hands are down")
        if step == Step.REDRAW:
            return (f"{n(tray_owner(state))}: draw six new cards (3 Warrior and 3 Armory) and scan each privately "
                    f"{PRIVATELY}.")
        if step == Step.REFILL:
            return f"{n(tray_owner(state))}: draw back up to six cards and scan each privately {PRIVATELY}."
        return ""

    def _choose_prompt(self, state: WarriorsState) -> str:
        """Nobody challenged yet: the challenger turns first, and the first card another player
        who may be challenged turns over names them (a tap names them too)."""
        a = state.challenger
        if a is None:
            return ""
        left = [state.name(s) for s in state.seat_numbers() if not state.players[s].out and s not in state.battled and s != a]
        either = " or ".join(left) if len(left) < 3 else ", ".join(left[:-1]) + " or " + left[-1]
        me = state.name(a)
        if state.opened is None and any(c.face_down for c in state.players[a].play):
            return (f"{me}: turn over your first facedown card; then the player you challenge ({either}) turns theirs, "
                    f"or tap whom you challenge.")
        return f"{either}: the player {me} challenges turns over their first facedown card, or tap whom {me} challenges."

    def _decide_prompt(self, state: WarriorsState, offers: list[Offer], done: str) -> str:
        """Nothing left to turn: the Challenge decides itself once the table is still, unless a card
        could still be used (then using it, or declining with a tap, is the players' choice)."""
        if self.game.ready_to_resolve(state):
            return f"{done}: the Challenge is decided as soon as the table is still."
        usable = sorted({self.card(o.data["card"]) for o in offers if o.kind == "use"})
        if usable:
            return f"{done}: use {' or '.join(usable)} now, or tap \u201cDecide the Challenge\u201d to go without."
        return f"{done}: decide the Challenge."

    def button(self, offer: Offer, state: WarriorsState) -> str:
        d, n = offer.data, partial(who, state)
        if offer.kind == "call":
            return f"{n(d['seat'])}: \u201cCall to battle!\u201d"
        if offer.kind == "pass":
            return f"{n(d['seat'])} has no card to lay"
        if offer.kind == "prophecy":
            return f"{n(d['seat'])} uses Prophecy on {names(state, d['targets'])}"
        if offer.kind == "challenge":
            return f"{n(state.challenger)} challenges {n(d['target'])}"
        if offer.kind == "reveal":
            return f"{n(d['seat'])} turned a card (not seen)"
        if offer.kind == "use":
            what = self.card(d["card"])
            return f"{n(d['seat'])}: {what} on {self.card(d['target'])}" if d.get("target") else f"{n(d['seat'])}: {what}"
        if offer.kind == "resolve":
            return "Decide the Challenge"
        if offer.kind == "stop":
            return "Stop the game and count Warriors"
        return offer.kind

    # -- what the table sees ------------------------------------------------------------------------
    def laid(self, c: Laid, index: int, seat: int) -> LaidCard:
        where_ = "primary" if index == 0 else f"{ordinal(index)} secondary"
        if c.face_down:
            return {"key": "", "name": "face down", "face_down": True, "position": index, "place": where_}
        card = info(self.game.catalog, c.card)
        return {"key": c.card, "name": card.name, "position": index, "place": where_, "disabled": c.disabled,
                "how": c.how, "owner": c.owner, "side": card.side, "icons": list(card.icons),
                "kind": "warrior" if card.warrior else card.armory}

    def seat_row(self, state: WarriorsState, seat: int) -> WarriorsSeatRow:
        p = state.players[seat]
        top = p.discard[-1] if p.discard else None
        return {"seat": seat, "name": state.name(seat), "total": held(p), "eliminated": p.out,
                "counts": {"hand": len(p.hand), "discard": len(p.discard)},
                "warrior_deck": p.warrior_deck, "armory_deck": p.armory_deck,
                "discard_top": {"key": top, "name": self.card(top)} if top else None,
                "play": [self.laid(c, i, seat) for i, c in enumerate(p.play)],
                "face_down": sum(1 for c in p.play if c.face_down)}

    def running(self, state: WarriorsState) -> ChallengeJSON | None:
        ch = state.challenge
        if ch is None:
            return None
        a, b = state.players[ch.challenger].play, state.players[ch.defender].play
        # who turns a card next, while a card is still face down (never once every card is up)
        turns_next = ch.next if any(c.face_down for c in a + b) else None
        return {"challenger": ch.challenger, "defender": ch.defender, "next": ch.next, "turns_next": turns_next,
                "reveals": ch.reveals,
                "duel": ch.duel, "deception": ch.deception,
                "points": {str(ch.challenger): self.side(a, b), str(ch.defender): self.side(b, a)}}

    def side(self, mine: list[Laid], theirs: list[Laid]) -> SideJSON:
        """One side's points as the tablet reads them: the total and each term in words."""
        points = score(self.game.catalog, mine, theirs)
        return {"total": points.total, "terms": [t.as_dict() for t in side_terms(points.as_dict())]}

    # -- the shared part of the views (contract.TableView) -------------------------------------------
    def standings(self, state: WarriorsState, viewer: int | None) -> tuple[Standing, ...]:
        """The cards each seat holds (hand, row, discard pile and both draw piles), most first; a seat
        with none left is out."""
        return scoreboard(state.seats, {n: held(p) for n, p in state.players.items()}, "cards",
                          out={n for n, p in state.players.items() if p.out})

    def winners(self, state: WarriorsState) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def result(self, state: WarriorsState, viewer: int | None) -> Result | None:
        """The result box: the game's end (naming the game's winner, never the last Challenge's), the
        points of the Challenge being fought, or the last Challenge decided."""
        def terms(seat_terms: dict[str, list[TermJSON]], seats: list[int]) -> tuple[Term, ...]:
            return tuple(Term(f"{state.name(s)}: {t['label']}", t["value"], t["detail"])
                         for s in seats for t in seat_terms[str(s)])

        running = self.running(state)
        if state.over:
            return Result(self.game_end(state))
        if running is not None:
            seats = [running["challenger"], running["defender"]]
            points = running["points"]
            say = "Points so far: " + ", ".join(f"{state.name(s)} {points[str(s)]['total']}" for s in seats) + "."
            return Result(say, terms({k: v["terms"] for k, v in points.items()}, seats))
        if state.results:
            r = state.results[-1]
            loser = r.defender if r.winner == r.challenger else r.challenger
            seats = [r.challenger, r.defender]
            rows = {str(s): self.side(r.rows.get(s, []), r.rows.get(o, []))["terms"]
                    for s, o in ((r.challenger, r.defender), (r.defender, r.challenger))}
            return Result(f"{state.name(r.winner)} won the Challenge against {state.name(loser)}, "
                          f"{r.points[r.winner]} to {r.points[loser]}.", terms(rows, seats))
        return None

    def game_end(self, state: WarriorsState) -> str:
        """How the game ended and who won it: "holds all the cards", or the count of Warrior cards."""
        if state.ended == "all_cards":
            return f"{state.name(state.winner)} holds all the cards and wins the game." if state.winner \
                else "The game is over."
        why = "The game is stopped" if state.ended == "stopped" else "Nobody can bring the hand back up to six"
        if state.winner is not None:
            return f"{why}: {state.name(state.winner)} has the most Warrior cards and wins the game."
        return f"{why}: a draw between {names(state, state.tied)}."

    def acting(self, state: WarriorsState) -> int | None:
        """The seat the table waits for now (the tablet rings its box)."""
        if state.over:
            return None
        if state.step in (Step.PRIMARY, Step.SECONDARY):
            return state.drawing or state.turn
        if state.step == Step.CHALLENGE:   # the challenger turns first; then any of the players left may
            a = state.challenger
            return a if a is not None and state.opened is None and any(c.face_down for c in state.players[a].play) else None
        if state.step == Step.REVEAL:
            ch = state.fight
            if ch.deception is not None:
                return ch.deception
            face_down = any(c.face_down for s in (ch.challenger, ch.defender) for c in state.players[s].play)
            return ch.next if face_down else None   # every card is up: nobody turns a card next
        return tray_owner(state)

    def public(self, state: WarriorsState) -> WarriorsTable:
        running = self.running(state)
        battled = list(state.battled)
        fighting = state.step in (Step.CHALLENGE, Step.REVEAL, Step.DUEL, Step.REDRAW)
        to_battle = [n for n in state.seat_numbers() if not state.players[n].out and n not in battled
                     and n != state.challenger] if fighting else []
        rows = [self.seat_row(state, n) for n in state.seat_numbers()]
        return WarriorsTable(
            game=self.game.game, step=state.step.value,
            phase_name=self.step_name(state),
            turn=self.acting(state),
            drawing=state.drawing, leader=state.leader, caller=state.caller, battle_round=state.battle_round,
            seats=rows,
            challenge=running,
            order={"challenger": state.challenger, "battled": battled, "to_battle": to_battle},
            results=[{"challenger": r.challenger, "defender": r.defender, "winner": r.winner,
                      "points": {str(k): v for k, v in r.points.items()}, "captured": r.captured} for r in state.results],
            tray_for=tray_owner(state),
            tied=state.tied,
        )

    def seat(self, state: WarriorsState, seat: int) -> WarriorsSeat:
        p = state.players[seat]
        cat = self.game.catalog
        warriors = [info(cat, c.card) for c in p.play if info(cat, c.card).warrior]
        hand: list[HandCard] = []
        for key in p.hand:
            card = info(cat, key)
            rule = why_not_primary(card) if not p.play else why_not_secondary(card, warriors)
            why = COMBINATION[rule].format(card_name=card.name) if rule else None
            hand.append({"key": key, "name": card.name, "kind": "warrior" if card.warrior else card.armory,
                         "side": card.side, "icons": list(card.icons), "points": card.points, "legal": why is None,
                         "why": why or ""})
        mine: list[FaceDownCard] = [{"key": c.card, "name": self.card(c.card), "position": i} for i, c in enumerate(p.play) if c.face_down]
        peeks: list[NamedCard] = [{"key": k, "name": self.card(k)} for k in state.peeks.get(seat, [])]
        # drawn by web/static/games/warriors.js
        return WarriorsSeat(**vars(self.public(state)), you={"hand": hand, "face_down": mine, "prophecy": peeks})

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A private scan (a seat's reader, the covered tray, a card read face down) never shows
        its card in the public history, whatever became of it."""
        zone = str(data.get("zone", ""))
        if kind in ("card_seen", "card_gone") and (zone.startswith(("reader:", "tray")) or data.get("face_down")
                                                   or data.get("hidden")):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data
