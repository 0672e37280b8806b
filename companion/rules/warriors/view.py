"""Warriors: every word the table and the phones read, and what each may see.

The public view never holds a face-down card or a card in a hand: a face-down card is shown as
its place in the row, a hand as its count. A seat's own view adds its hand (each card marked
whether it can be laid now, and why not), its face-down cards, and what its Prophecy showed it.
"""
from __future__ import annotations

from typing import Any

from companion.rules.base import Outcome
from companion.rules.contract import Offer, View

from .cards import info, why_not_primary, why_not_secondary
from .points import score
from .state import Laid, Step, WarriorsState

STEP_NAMES = {
    Step.DEAL: "the deal", Step.PRIMARY: "Phase One: primary Warriors", Step.SECONDARY: "Phase One: Prepare for Battle",
    Step.CHALLENGE: "Phase Two: Call to Battle", Step.REVEAL: "Phase Two: a Challenge",
    Step.DUEL: "the special battle of Coriantumr and Shiz", Step.REDRAW: "the special battle's new hands",
    Step.REFILL: "the end of the Battle round", Step.OVER: "the game is over",
}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


def names(state: WarriorsState, seats: list[int]) -> str:
    words = [state.name(s) for s in seats]
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


class WarriorsView(View):
    def card(self, key: str) -> str:
        return self.game.card_name(key)

    def step_name(self, state: WarriorsState) -> str:
        return STEP_NAMES[state.step]

    # -- outcomes -----------------------------------------------------------------------------------
    def say(self, outcome: Outcome, state: WarriorsState) -> str:
        said = getattr(self, f"_say_{outcome.kind}", None)
        return said(outcome.data, state) if said else outcome.kind.replace("_", " ")

    def _say_drew(self, d, state):
        return f"{state.name(d['seat'])} draws from the {d['deck'].title()} deck ({d['hand']} in hand)."

    def _say_phase_one(self, d, state):
        return f"Phase One: Prepare for Battle. {state.name(d['leader'])} goes first and lays a primary Warrior face up."

    def _say_primary(self, d, state):
        return f"{state.name(d['seat'])} lays {self.card(d['card'])} as the primary Warrior."

    def _say_laid(self, d, state):
        return f"{state.name(d['seat'])}'s {ordinal(d['position'])} card is legal: laid face down."

    def _say_passed(self, d, state):
        return f"{state.name(d['seat'])} holds no card that can be laid and passes."

    def _say_all_passed(self, d, state):
        return (f"Nobody could lay a card this round: the battle begins, as if {state.name(d['caller'])}, the last to "
                f"pass, had called it.")

    def _say_call(self, d, state):
        rest = f" Still to lay a card this round: {names(state, d['to_lay'])}." if d["to_lay"] else ""
        return f"{state.name(d['seat'])}: \u201cCall to battle!\u201d{rest}"

    def _say_phase_two(self, d, state):
        return f"Phase Two: Call to Battle. {state.name(d['caller'])} chooses whom to challenge."

    def _say_challenge(self, d, state):
        return f"{state.name(d['challenger'])} challenges {state.name(d['defender'])}: \u201cTake up the sword!\u201d"

    def _say_prophecy(self, d, state):
        return (f"{state.name(d['seat'])} uses Prophecy and looks privately at {names(state, d['targets'])}'s "
                f"facedown cards.")

    def _points_line(self, points: dict, state: WarriorsState) -> str:
        return ", ".join(f"{state.name(int(s))} {p['total']}" for s, p in points.items())

    def _say_reveal(self, d, state):
        return f"{state.name(d['seat'])} reveals {self.card(d['card'])}. Points: {self._points_line(d['points'], state)}."

    def _say_duel(self, d, state):
        return ("Coriantumr and Shiz face each other: the special battle! "
                f"{names(state, d['seats'])} lay down all the cards in their hands.")

    def _say_escape(self, d, state):
        return (f"{state.name(d['seat'])}'s Escape disables {self.card(d['target'])} (turned 90 degrees). "
                f"Points: {self._points_line(d['points'], state)}.")

    def _say_take(self, d, state):
        kept = "" if d["usable"] else " It cannot be used with those cards in play, but is kept."
        return (f"{state.name(d['seat'])}'s {self.card(d['card'])} takes {self.card(d['target'])}.{kept} "
                f"Points: {self._points_line(d['points'], state)}.")

    def _say_deception(self, d, state):
        return f"{state.name(d['seat'])} uses Deception: lay a card from your hand face up beside your cards."

    def _say_deception_card(self, d, state):
        return (f"{state.name(d['seat'])} adds {self.card(d['card'])} from the hand (Deception). "
                f"Points: {self._points_line(d['points'], state)}.")

    def _say_duel_card(self, d, state):
        return f"{state.name(d['seat'])} lays down {self.card(d['card'])} ({d['left']} left in hand)."

    def _say_decided(self, d, state):
        w, l = d["winner"], d["loser"]
        pw, pl = d["points"][w]["total"], d["points"][l]["total"]
        tie = " A tie: \u201cthe player who made the Challenge has the advantage and wins the battle.\u201d" if d["tie"] else ""
        extra = f" and {len(d['from_discard'])} from the top of the Discard pile" if d["from_discard"] else ""
        return (f"{state.name(w)} wins the Challenge {pw} to {pl} and captures {state.name(l)}'s "
                f"{len(d['captured'])} cards{extra}.{tie}")

    def _say_round_over(self, d, state):
        return (f"Every player has battled: Battle round {d['battle_round']} is over; {state.name(d['winner'])} won the last "
                f"Challenge. Cards still in play go to their Discard piles; hands come back up to six.")

    def _say_surrender(self, d, state):
        why = "cannot bring the hand back up to six" if d["reason"] == "short" else "cannot play the cards that remain"
        to = f" to {state.name(d['to'])}" if d["to"] is not None else ""
        return f"{state.name(d['seat'])} {why} and surrenders the remaining cards{to}."

    def _say_game_over(self, d, state):
        return f"{state.name(d['winner'])} holds all the cards and wins the game." if d["winner"] else "The game is over."

    def _say_stopped(self, d, state):
        counts = ", ".join(f"{state.name(int(s))} {c['warriors']}" for s, c in d["counts"].items())
        why = "The game is stopped" if d["how"] == "stopped" else "Nobody can bring the hand back up to six"
        if d["winner"] is not None:
            return f"{why}. Warrior cards: {counts}. {state.name(d['winner'])} wins."
        return f"{why}. Warrior cards: {counts}. A draw between {names(state, d['tied'])}."

    # -- the prompt and the buttons -----------------------------------------------------------------
    def prompt(self, state: WarriorsState, offers: list[Offer]) -> str:
        n, g = state.name, self.game
        step = state.step
        if state.over:
            return "The game is over."
        if step == Step.DEAL:
            seat = g.tray_owner(state)
            return (f"The deal: {n(seat)}, draw 3 Warrior and 3 Armory cards and scan each privately "
                    f"(your reader, or the covered tray).")
        if step in (Step.PRIMARY, Step.SECONDARY):
            if state.drawing is not None:
                return f"{n(state.drawing)}: draw a Warrior or Armory card and scan it privately."
            if step == Step.PRIMARY:
                return f"{n(state.turn)}: lay a Warrior with icons face up as your primary card."
            call = f" {n(state.caller)} has called to battle." if state.caller else ""
            return (f"{n(state.turn)}: scan a secondary card privately, then lay it face down to the right of your "
                    f"Warrior.{call}")
        if step == Step.CHALLENGE:
            return f"{n(state.challenger)}: choose a player to challenge."
        if step == Step.REVEAL:
            ch = state.challenge
            if ch.deception is not None:
                return f"{n(ch.deception)}: lay the card from your hand face up (Deception)."
            if g.ready_to_resolve(state) or any(o.kind == "resolve" for o in offers):
                return "Every card is revealed: decide the Challenge."
            return f"{n(ch.next)}: turn over your next facedown card."
        if step == Step.DUEL:
            holding = [s for s in (state.challenge.challenger, state.challenge.defender) if state.players[s].hand]
            return f"{names(state, holding)}: lay down every card in your hand face up." if holding else \
                "Both hands are down: decide the special battle."
        if step == Step.REDRAW:
            return f"{n(g.tray_owner(state))}: draw six new cards (3 Warrior and 3 Armory) and scan each privately."
        if step == Step.REFILL:
            return f"{n(g.tray_owner(state))}: draw back up to six cards and scan each privately."
        return ""

    def button(self, offer: Offer, state: WarriorsState) -> str:
        d, n = offer.data, state.name
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
    def laid(self, c: Laid, index: int, seat: int) -> dict[str, Any]:
        where_ = "primary" if index == 0 else f"{ordinal(index)} secondary"
        if c.face_down:
            return {"key": "", "name": "face down", "face_down": True, "position": index, "place": where_}
        card = info(self.game.catalog, c.card)
        return {"key": c.card, "name": card.name, "position": index, "place": where_, "disabled": c.disabled,
                "how": c.how, "owner": c.owner, "side": card.side, "icons": list(card.icons),
                "kind": "warrior" if card.warrior else card.armory}

    def seat_row(self, state: WarriorsState, seat: int) -> dict[str, Any]:
        p = state.players[seat]
        top = p.discard[-1] if p.discard else None
        held = len(p.hand) + len(p.play) + len(p.discard) + p.warrior_deck + p.armory_deck
        return {"seat": seat, "name": state.name(seat), "total": held, "eliminated": p.out,
                "counts": {"hand": len(p.hand), "discard": len(p.discard)},
                "warrior_deck": p.warrior_deck, "armory_deck": p.armory_deck,
                "discard_top": {"key": top, "name": self.card(top)} if top else None,
                "play": [self.laid(c, i, seat) for i, c in enumerate(p.play)],
                "face_down": sum(1 for c in p.play if c.face_down)}

    def running(self, state: WarriorsState) -> dict[str, Any] | None:
        ch = state.challenge
        if ch is None:
            return None
        a, b = state.players[ch.challenger].play, state.players[ch.defender].play
        cat = self.game.catalog
        # who turns a card next, while a card is still face down (never once every card is up)
        turns_next = ch.next if any(c.face_down for c in a + b) else None
        return {"challenger": ch.challenger, "defender": ch.defender, "next": ch.next, "turns_next": turns_next,
                "reveals": ch.reveals,
                "duel": ch.duel, "deception": ch.deception,
                "points": {str(ch.challenger): score(cat, a, b).as_dict(), str(ch.defender): score(cat, b, a).as_dict()}}

    def last_outcome(self, state: WarriorsState, running: dict | None) -> dict[str, Any] | None:
        def terms(seat_terms: dict[str, list], seats: list[int]) -> list[dict]:
            return [{**t, "label": f"{state.name(s)}: {t['label']}"} for s in seats for t in seat_terms[str(s)]]

        if state.over:  # the end box names the game's winner, never the last Challenge's
            return {"say": self.game_end(state), "terms": []}
        if running is not None:
            seats = [running["challenger"], running["defender"]]
            points = running["points"]
            say = "Points so far: " + ", ".join(f"{state.name(s)} {points[str(s)]['total']}" for s in seats) + "."
            return {"say": say, "terms": terms({k: v["terms"] for k, v in points.items()}, seats)}
        if state.results:
            r = state.results[-1]
            loser = r.defender if r.winner == r.challenger else r.challenger
            seats = [r.challenger, r.defender]
            rows = {str(s): [{"label": t.label, "value": t.value, "detail": t.detail} for t in r.terms.get(s, [])] for s in seats}
            return {"say": f"{state.name(r.winner)} won the Challenge against {state.name(loser)}, "
                           f"{r.points[r.winner]} to {r.points[loser]}.", "terms": terms(rows, seats)}
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
        if state.step == Step.CHALLENGE:
            return state.challenger
        if state.step == Step.REVEAL:
            ch = state.challenge
            return ch.deception if ch.deception is not None else ch.next
        return self.game.tray_owner(state)

    def public(self, state: WarriorsState) -> dict[str, Any]:
        running = self.running(state)
        battled = list(state.battled)
        rows = [self.seat_row(state, n) for n in state.seat_numbers()]
        return {
            "game": self.game.game, "step": state.step.value, "phase": state.step.value,
            "phase_name": self.step_name(state),
            "turn": self.acting(state),
            "drawing": state.drawing, "leader": state.leader, "caller": state.caller, "battle_round": state.battle_round,
            "seats": rows,
            "challenge": running,
            "order": {"challenger": state.challenger, "battled": battled,
                      "to_battle": [n for n in state.seat_numbers() if not state.players[n].out and n not in battled
                                    and n != state.challenger] if state.step in (Step.CHALLENGE, Step.REVEAL, Step.DUEL, Step.REDRAW) else []},
            "results": [{"challenger": r.challenger, "defender": r.defender, "winner": r.winner,
                         "points": {str(k): v for k, v in r.points.items()}, "captured": r.captured} for r in state.results],
            "tray_for": self.game.tray_owner(state),
            "last_outcome": self.last_outcome(state, running),
            "over": state.over, "winner": state.winner, "tied": state.tied,
            "standings": sorted(({"seat": r["seat"], "name": r["name"], "cards": r["total"], "out": r["eliminated"]}
                                 for r in rows), key=lambda r: -r["cards"]),
        }

    def seat(self, state: WarriorsState, seat: int) -> dict[str, Any]:
        view = self.public(state)
        p = state.players[seat]
        cat = self.game.catalog
        warriors = [info(cat, c.card) for c in p.play if info(cat, c.card).warrior]
        hand = []
        for key in p.hand:
            card = info(cat, key)
            why = why_not_primary(card) if not p.play else why_not_secondary(card, warriors)
            hand.append({"key": key, "name": card.name, "kind": "warrior" if card.warrior else card.armory,
                         "side": card.side, "icons": list(card.icons), "points": card.points, "legal": why is None,
                         "why": why or ""})
        mine = [{"key": c.card, "name": self.card(c.card), "position": i} for i, c in enumerate(p.play) if c.face_down]
        peeks = [{"key": k, "name": self.card(k)} for k in state.peeks.get(seat, [])]
        view["you"] = {"hand": hand, "face_down": mine, "prophecy": peeks}   # drawn by web/static/games/warriors.js
        return view

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A private scan (a seat's reader, the covered tray, a card read face down) never shows
        its card in the public history, whatever became of it."""
        zone = str(data.get("zone", ""))
        if kind in ("card_seen", "card_gone") and (zone.startswith(("reader:", "tray")) or data.get("face_down")
                                                   or data.get("hidden")):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data
