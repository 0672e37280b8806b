"""What Stratego's table and each seat see: the public view (the tablet and every watcher), a seat's
view (its phone, with its own ranks), the buttons' words and the public history's redaction."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from card_tags.games.stratego import ARMY, ARMY_SIZE

from companion.rules.base import Outcome, Result, Standing, Term
from companion.rules.contract import Offer, View, says

from . import refusals as refusal_words, words
from .combat import variants_in
from .ranks import RANK_NAME
from .state import PLAY, SETUP, Combat, StrategoState, other
from .turns import scout_window
from .variants import RescueFromTheBackRow
from .words import RULEBOOK, CombatJSON, rank_label, title


class NoSuchSeat(ValueError):
    """A seat number this game does not have (the web layer turns it into a 404)."""


@dataclass(frozen=True, kw_only=True)
class Side(Standing):
    """A side as ``viewer`` may know it (the shared ``Standing``: seat, name, say, counts)."""

    colour: str
    scanned: int
    army_checked: bool
    pieces: int
    lost: int
    lost_known: dict[str, int]     # rank name -> count, of the lost pieces whose rank the viewer knows
    lost_unknown: int
    alive_known: dict[str, int]


class PendingAttack(TypedDict):
    """An attack in progress (its attacker scanned, the defender not yet): ``attacker`` names the
    attacker's rank in the attacking seat's own view only."""

    seat: int
    colour: str
    say: str
    attacker: NotRequired[str]


class RescueJSON(TypedDict):
    """A rescue (the Rescue from the Back Row variant): the piece's name only where the viewer may know it."""

    seat: int
    colour: str
    turn: int
    name: str | None


class EndJSON(TypedDict):
    """How the game ended: ``reason`` (flag, no_movable_piece, resign), the losing colour, the sentence."""

    reason: str
    loser: str
    say: str


class You(TypedDict):
    """Whose phone this is."""

    seat: int
    colour: str


class ArmyRow(TypedDict):
    """One rank of a seat's own army: how many it has (``of``), scanned, alive and lost."""

    rank: str
    name: str
    of: int
    scanned: int
    alive: int
    lost: int


class EnemyKnown(TypedDict):
    """What a seat knows of the enemy's pieces: rank name -> count, lost and still in play."""

    lost: dict[str, int]
    lost_unknown: int
    in_play: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class StrategoTable:
    """Stratego's own part of the public view."""

    turn: int | None
    turn_colour: str | None
    turn_number: int | None
    pending: PendingAttack | None
    scout_may_attack: int | None
    may_rescue: int | None
    combats: list[CombatJSON]
    rescues: list[RescueJSON]
    end: EndJSON | None


@dataclass(frozen=True, kw_only=True)
class StrategoSeat(StrategoTable):
    """A seat's own part: the table's, told with its own ranks, and its army."""

    you: You
    army: list[ArmyRow]
    missing: dict[str, int]
    enemy_known: EnemyKnown
    private: dict[str, str]
    known: dict[str, list[str]]


class StrategoView(View[StrategoState]):
    refusals = refusal_words.WORDS
    public_refusals = refusal_words.PUBLIC

    def refusal_facts(self, code: str, data: dict[str, Any], state: StrategoState) -> dict[str, Any]:
        """Colours as players say them ("Red"), and the other side of the one named."""
        facts = {**data, **{k.capitalize(): title(v) for k, v in data.items()
                            if k in ("colour", "own", "owner", "turn", "piece_colour")}}
        if "colour" in data:
            facts["Other"] = title(other(data["colour"]))
        return facts

    def not_now(self, kind: str, state: StrategoState, phase: str, phases: tuple[str, ...]) -> str:
        if phase == SETUP:
            return "The armies are not both checked yet: each side scans its 40 pieces first."
        return super().not_now(kind, state, phase, phases)

    # -- outcomes -------------------------------------------------------------------------------
    @says("army_checked")
    def army_checked(self, outcome: Outcome, state: StrategoState) -> str:
        return (f"{title(outcome.data['colour'])}'s army is complete: {ARMY_SIZE} pieces in the rulebook's counts, "
                f"none of the other colour.")

    @says("play_starts")
    def play_starts(self, outcome: Outcome, state: StrategoState) -> str:
        return "Both armies are checked. Red moves first."

    @says("attack")
    def attack(self, outcome: Outcome, state: StrategoState) -> str:
        colour = outcome.data["colour"]
        return f"{title(colour)}'s attacker is scanned: now scan the {title(other(colour))} piece it attacks."

    @says("combat")
    def combat(self, outcome: Outcome, state: StrategoState) -> str:
        return str(words.told_publicly(state.combats[outcome.data["combat"] - 1], state)["say"])

    @says("move")
    def move(self, outcome: Outcome, state: StrategoState) -> str:
        return f"{title(outcome.data['colour'])} moved. {title(outcome.data['next'])} to play."

    @says("cancel")
    def cancel(self, outcome: Outcome, state: StrategoState) -> str:
        return f"{title(outcome.data['colour'])}'s attack is called off; nothing was revealed."

    @says("rescue")
    def rescue(self, outcome: Outcome, state: StrategoState) -> str:
        rank = outcome.data["rank"]
        what = f"their {rank_label(rank)}" if rank is not None else "a defeated piece"
        return f"{title(outcome.data['colour'])} rescues {what} and places it on their side of the board."

    @says("game_over")
    def game_over_said(self, outcome: Outcome, state: StrategoState) -> str:
        return words.end_say(state)

    def terms(self, outcome: Outcome, state: StrategoState) -> tuple[Term, ...]:
        """A combat's terms name only the ranks the reveal rule shows the table; a rule is quoted."""
        if outcome.kind == "combat":
            return tuple(words.combat_terms(state.combats[outcome.data["combat"] - 1], state))
        return tuple(Term(t.label, RULEBOOK[t.value], t.detail) if t.label == "rule" else t for t in outcome.terms)

    # -- prompt, buttons ------------------------------------------------------------------------
    def prompt(self, state: StrategoState, offers: list[Offer]) -> str:
        return words.prompt(state, self._scout_may_attack(state), self._may_rescue(state))

    def button(self, offer: Offer, state: StrategoState) -> str:
        name = state.name(offer.data.get("seat", 0))
        return {"move": f"{name} moved (no combat)", "cancel": f"Call off {name}'s attack",
                "rescue": f"{name} rescues a piece", "resign": f"{name} resigns"}.get(offer.kind, offer.kind)

    def confirm(self, offer: Offer, state: StrategoState) -> str:
        return f"Does {state.name(offer.data['seat'])} really resign?"

    def choice(self, offer: Offer, field: str, state: StrategoState) -> str:
        """A rescue's picker names each piece by its rank (its owner's own captured pieces)."""
        return RANK_NAME[state.pieces[offer.data["card"]].rank]

    # -- the views ------------------------------------------------------------------------------
    def standings(self, state: StrategoState, viewer: int | None) -> tuple[Standing, ...]:
        return tuple(_sides(state, self._colour(state, viewer)))

    def winners(self, state: StrategoState) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def result(self, state: StrategoState, viewer: int | None) -> Result | None:
        return _last_outcome(state, _combats_for(state, self._colour(state, viewer)))

    def public(self, state: StrategoState) -> StrategoTable:
        return self._own(state, None)

    def seat(self, state: StrategoState, seat: int) -> StrategoSeat:
        """What one seat's phone shows: the table's view told with its own pieces' ranks, its army
        rank by rank, and what it knows of the enemy (revealed ranks, lost and still in play)."""
        if type(seat) is not int or seat not in state.colours:
            raise NoSuchSeat(f"Stratego has seats 1 and 2; there is no seat {seat!r}")
        colour = state.colours[seat]
        own = self._own(state, colour)
        mine = state.army(colour)
        army: list[ArmyRow] = [{"rank": rank, "name": name, "of": count,
                 "scanned": sum(1 for p in mine if p.rank == rank),
                 "alive": sum(1 for p in mine if p.rank == rank and p.alive),
                 "lost": sum(1 for p in mine if p.rank == rank and not p.alive)}
                for rank, (name, count) in ARMY.items()]
        missing = {row["name"]: row["of"] - row["scanned"] for row in army if row["scanned"] < row["of"]}
        enemy = next(s for s in _sides(state, colour) if s.colour != colour)
        enemy_known: EnemyKnown = {"lost": enemy.lost_known, "lost_unknown": enemy.lost_unknown, "in_play": enemy.alive_known}
        pending = state.pending
        if pending is not None and pending.colour == colour and own.pending is not None:
            own.pending["attacker"] = rank_label(state.pieces[pending.piece].rank)
        private, known = _seat_page(colour, army, missing, enemy_known, own)
        return StrategoSeat(**vars(own), you={"seat": seat, "colour": colour}, army=army, missing=missing,
                            enemy_known=enemy_known, private=private, known=known)

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A piece's tag key names its rank (R10#1 is Red's Marshal), so no key, and no RFID UID
        that could be matched to one, ever reaches the public history."""
        return {k: v for k, v in data.items() if k not in ("card", "uid")}

    # -- parts ----------------------------------------------------------------------------------
    @staticmethod
    def _colour(state: StrategoState, viewer: int | None) -> str | None:
        return None if viewer is None else state.colours.get(viewer)

    def _scout_may_attack(self, state: StrategoState) -> int | None:
        last = state.last_turn
        if last and scout_window(state, variants_in(state.options), last.colour):
            return state.seat_of(last.colour)
        return None

    def _may_rescue(self, state: StrategoState) -> int | None:
        colour = RescueFromTheBackRow.rescuer(state) if RescueFromTheBackRow.on(state.options) else None
        return None if colour is None else state.seat_of(colour)

    def _own(self, state: StrategoState, viewer: str | None) -> StrategoTable:
        pending = state.pending
        playing = state.phase == PLAY
        return StrategoTable(
            turn=state.seat_of(state.turn) if playing else None,
            turn_colour=state.turn if playing else None,
            turn_number=state.turn_number if playing else None,
            pending=None if pending is None else {
                "seat": state.seat_of(pending.colour), "colour": pending.colour,
                "say": f"{title(pending.colour)}'s attacker is scanned; scan the defender."},
            scout_may_attack=self._scout_may_attack(state),
            may_rescue=self._may_rescue(state),
            combats=_combats_for(state, viewer),
            rescues=[{"seat": state.seat_of(r.colour), "colour": r.colour, "turn": r.turn,
                      "name": RANK_NAME[r.rank] if r.shown or r.colour == viewer else None}
                     for r in state.rescues],
            end=None if state.end is None else {"reason": state.end.reason, "loser": state.end.loser,
                                                "say": words.end_say(state)},
        )


def _combats_for(state: StrategoState, viewer: str | None) -> list[CombatJSON]:
    def told(record: Combat) -> CombatJSON:
        return words.tell(record, state, lambda side: record.side(side).shown or record.side(side).colour == viewer)
    return [told(record) for record in state.combats]


def _known_counts(state: StrategoState, colour: str, alive: bool, viewer: str | None) -> dict[str, int]:
    """Names and counts of ``colour``'s pieces (alive or lost) whose rank ``viewer`` knows."""
    counts: dict[str, int] = {}
    for rank in ARMY:
        n = sum(1 for p in state.army(colour) if p.rank == rank and p.alive == alive
                and (p.revealed or colour == viewer))
        if n:
            counts[RANK_NAME[rank]] = n
    return counts


def _sides(state: StrategoState, viewer: str | None) -> list[Side]:
    sides = []
    for seat in state.seats:
        colour = state.colours[seat.number]
        army = state.army(colour)
        lost = [p for p in army if not p.alive]
        enemy_lost = sum(1 for p in state.army(other(colour)) if not p.alive)
        known_lost = _known_counts(state, colour, False, viewer)
        unknown = len(lost) - sum(known_lost.values())
        sides.append(Side(seat=seat.number, name=seat.name, colour=colour,
                          say=_side_summary(state, colour, len(army), len(lost), known_lost, unknown),
                          scanned=len(army), army_checked=len(army) == ARMY_SIZE,
                          pieces=len(army) - len(lost), lost=len(lost), lost_known=known_lost, lost_unknown=unknown,
                          alive_known=_known_counts(state, colour, True, viewer),
                          # what the dashboard's seat box shows
                          counts={"army": len(army) - len(lost), "captured": enemy_lost}))
    return sides


def _side_summary(state: StrategoState, colour: str, scanned: int, lost: int, known_lost: dict[str, int],
                  unknown: int) -> str:
    if state.phase == SETUP:
        return "army checked" if scanned == ARMY_SIZE else f"{scanned} of {ARMY_SIZE} pieces scanned"
    if not lost:
        return f"{title(colour)}: no losses"
    known = ", ".join(f"{name} x{n}" for name, n in known_lost.items())
    unknown_part = f"{unknown} unknown" if unknown else ""
    return f"{title(colour)} lost " + "; ".join(part for part in (known, unknown_part) if part)


def _last_outcome(state: StrategoState, combats: list[CombatJSON]) -> Result | None:
    """The line the table shows in big letters: the end, an attack in progress, or the last combat."""
    if state.end is not None:
        return Result(words.end_say(state))
    if state.pending is not None:
        colour = state.pending.colour
        return Result(f"{title(colour)}'s attacker is scanned; scan the {title(other(colour))} defender.")
    if combats:
        return Result(combats[-1]["say"], tuple(Term(**t) for t in combats[-1]["terms"]))
    return None


def _seat_page(colour: str, army: list[ArmyRow], missing: dict[str, int], enemy: EnemyKnown,
               own: StrategoTable) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The same facts as text for the dashboard's seat page: a ``private`` list of labels and
    values, and ``known`` lists by heading."""
    def counted(counts: dict[str, int]) -> list[str]:
        return [f"{name} x{n}" for name, n in counts.items()]

    private = {"colour": title(colour),
               "in play": ", ".join(f"{r['name']} x{r['alive']}" for r in army if r["alive"]) or "none"}
    if missing:
        private["not yet scanned"] = ", ".join(counted(missing))
    if own.pending and "attacker" in own.pending:
        private["your attacker in the tray"] = own.pending["attacker"]
    known = {"enemy pieces seen and still in play": counted(enemy["in_play"]),
             "enemy losses": counted(enemy["lost"]) + ([f"{enemy['lost_unknown']} unknown"] if enemy["lost_unknown"]
                                                       else []),
             "your losses": [f"{r['name']} x{r['lost']}" for r in army if r["lost"]],
             "combats": [f"{c['n']}. {c['say']}" for c in own.combats]}
    return private, known
