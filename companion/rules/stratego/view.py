"""What Stratego's table and each seat see: the public view (the tablet and every watcher), a seat's
view (its phone, with its own ranks), the buttons' words and the public history's redaction."""
from __future__ import annotations

from typing import Any

from card_tags.games.stratego import ARMY, ARMY_SIZE

from companion.rules.base import Outcome
from companion.rules.contract import Offer, View

from . import words
from .ranks import RANK_NAME
from .state import PLAY, SETUP, StrategoState, other
from .turns import scout_window
from .variants import RescueFromTheBackRow
from .words import rank_label, title


class NoSuchSeat(ValueError):
    """A seat number this game does not have (the web layer turns it into a 404)."""


class StrategoView(View):
    def not_now(self, kind: str, state: StrategoState, phase: str, phases: tuple[str, ...]) -> str:
        if phase == SETUP:
            return "The armies are not both checked yet: each side scans its 40 pieces first."
        return super().not_now(kind, state, phase, phases)

    # -- outcomes, prompt, buttons --------------------------------------------------------------
    def say(self, outcome: Outcome, state: StrategoState) -> str:
        return words.say(outcome, state)

    def terms(self, outcome: Outcome, state: StrategoState) -> tuple:
        """A combat's terms name only the ranks the reveal rule shows the table."""
        if outcome.kind != "combat":
            return outcome.terms
        return tuple(words.combat_terms(state.combats[outcome.data["combat"] - 1], state))

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
    def public(self, state: StrategoState) -> dict[str, Any]:
        return self._view(state, None)

    def seat(self, state: StrategoState, seat: int) -> dict[str, Any]:
        """What one seat's phone shows: the table's view told with its own pieces' ranks, its army
        rank by rank, and what it knows of the enemy (revealed ranks, lost and still in play)."""
        if type(seat) is not int or seat not in state.colours:
            raise NoSuchSeat(f"Stratego has seats 1 and 2; there is no seat {seat!r}")
        colour = state.colours[seat]
        view = self._view(state, colour)
        army = state.army(colour)
        view["you"] = {"seat": seat, "colour": colour}
        view["army"] = [{"rank": rank, "name": name, "of": count,
                         "scanned": sum(1 for p in army if p.rank == rank),
                         "alive": sum(1 for p in army if p.rank == rank and p.alive),
                         "lost": sum(1 for p in army if p.rank == rank and not p.alive)}
                        for rank, (name, count) in ARMY.items()]
        view["missing"] = {row["name"]: row["of"] - row["scanned"] for row in view["army"] if row["scanned"] < row["of"]}
        enemy = next(s for s in view["standings"] if s["colour"] != colour)
        view["enemy_known"] = {"lost": enemy["lost_known"], "lost_unknown": enemy["lost_unknown"],
                               "in_play": enemy["alive_known"]}
        pending = state.pending
        if pending is not None and pending.colour == colour:
            view["pending"]["attacker"] = rank_label(state.pieces[pending.piece].rank)
        view["private"], view["known"] = _seat_page(view)
        return view

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A piece's tag key names its rank (R10#1 is Red's Marshal), so no key, and no RFID UID
        that could be matched to one, ever reaches the public history."""
        return {k: v for k, v in data.items() if k not in ("card", "uid")}

    # -- parts ----------------------------------------------------------------------------------
    def _scout_may_attack(self, state: StrategoState) -> int | None:
        last = state.last_turn
        if last and scout_window(state, self.game.variants_for(state.options), last.colour):
            return state.seat_of(last.colour)
        return None

    def _may_rescue(self, state: StrategoState) -> int | None:
        colour = RescueFromTheBackRow.rescuer(state) if RescueFromTheBackRow.on(state.options) else None
        return None if colour is None else state.seat_of(colour)

    def _view(self, state: StrategoState, viewer: str | None) -> dict[str, Any]:
        pending = state.pending
        playing = state.phase == PLAY
        combats = _combats_for(state, viewer)
        return {
            "phase": state.phase,
            "options": state.options,
            "turn": state.seat_of(state.turn) if playing else None,
            "turn_colour": state.turn if playing else None,
            "turn_number": state.turn_number if playing else None,
            "pending": None if pending is None else {
                "seat": state.seat_of(pending.colour), "colour": pending.colour,
                "say": f"{title(pending.colour)}'s attacker is scanned; scan the defender."},
            "scout_may_attack": self._scout_may_attack(state),
            "may_rescue": self._may_rescue(state),
            "combats": combats,
            "last_outcome": _last_outcome(state, combats),
            "rescues": [{"seat": state.seat_of(r.colour), "colour": r.colour, "turn": r.turn,
                         "name": RANK_NAME[r.rank] if r.shown or r.colour == viewer else None}
                        for r in state.rescues],
            "standings": _sides(state, viewer),
            "winner": state.winner,
            "over": state.over,
            "end": None if state.end is None else {"reason": state.end.reason, "loser": state.end.loser,
                                                   "say": words.end_say(state)},
        }


def _combats_for(state: StrategoState, viewer: str | None) -> list[dict[str, Any]]:
    return [words.tell(record, state, lambda side, r=record: r.side(side).shown or r.side(side).colour == viewer)
            for record in state.combats]


def _known_counts(state: StrategoState, colour: str, alive: bool, viewer: str | None) -> dict[str, int]:
    """Names and counts of ``colour``'s pieces (alive or lost) whose rank ``viewer`` knows."""
    counts: dict[str, int] = {}
    for rank in ARMY:
        n = sum(1 for p in state.army(colour) if p.rank == rank and p.alive == alive
                and (p.revealed or colour == viewer))
        if n:
            counts[RANK_NAME[rank]] = n
    return counts


def _sides(state: StrategoState, viewer: str | None) -> list[dict[str, Any]]:
    sides = []
    for seat in state.seats:
        colour = state.colours[seat.number]
        army = state.army(colour)
        lost = [p for p in army if not p.alive]
        enemy_lost = sum(1 for p in state.army(other(colour)) if not p.alive)
        known_lost = _known_counts(state, colour, False, viewer)
        side = {"seat": seat.number, "name": seat.name, "colour": colour,
                "scanned": len(army), "army_checked": len(army) == ARMY_SIZE,
                "pieces": len(army) - len(lost), "lost": len(lost),
                "lost_known": known_lost, "lost_unknown": len(lost) - sum(known_lost.values()),
                "alive_known": _known_counts(state, colour, True, viewer),
                # what the dashboard's seat box shows
                "counts": {"army": len(army) - len(lost), "captured": enemy_lost}}
        side["say"] = _side_summary(state, side)
        sides.append(side)
    return sides


def _side_summary(state: StrategoState, side: dict[str, Any]) -> str:
    if state.phase == SETUP:
        return "army checked" if side["army_checked"] else f"{side['scanned']} of {ARMY_SIZE} pieces scanned"
    if not side["lost"]:
        return f"{title(side['colour'])}: no losses"
    known = ", ".join(f"{name} x{n}" for name, n in side["lost_known"].items())
    unknown = f"{side['lost_unknown']} unknown" if side["lost_unknown"] else ""
    return f"{title(side['colour'])} lost " + "; ".join(part for part in (known, unknown) if part)


def _last_outcome(state: StrategoState, combats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The line the table shows in big letters: the end, an attack in progress, or the last combat."""
    if state.end is not None:
        return {"say": words.end_say(state), "terms": []}
    if state.pending is not None:
        colour = state.pending.colour
        return {"say": f"{title(colour)}'s attacker is scanned; scan the {title(other(colour))} defender.",
                "terms": []}
    if combats:
        return {"say": combats[-1]["say"], "terms": combats[-1]["terms"]}
    return None


def _seat_page(view: dict[str, Any]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The same facts as text for the dashboard's seat page: a ``private`` list of labels and
    values, and ``known`` lists by heading."""
    def counted(counts: dict[str, int]) -> list[str]:
        return [f"{name} x{n}" for name, n in counts.items()]

    private = {"colour": title(view["you"]["colour"]),
               "in play": ", ".join(f"{r['name']} x{r['alive']}" for r in view["army"] if r["alive"]) or "none"}
    if view["missing"]:
        private["not yet scanned"] = ", ".join(counted(view["missing"]))
    if view["pending"] and "attacker" in view["pending"]:
        private["your attacker in the tray"] = view["pending"]["attacker"]
    enemy = view["enemy_known"]
    known = {"enemy pieces seen and still in play": counted(enemy["in_play"]),
             "enemy losses": counted(enemy["lost"]) + ([f"{enemy['lost_unknown']} unknown"] if enemy["lost_unknown"] else []),
             "your losses": [f"{r['name']} x{r['lost']}" for r in view["army"] if r["lost"]],
             "combats": [f"{c['n']}. {c['say']}" for c in view["combats"]]}
    return private, known
