"""Battle's view layer: what the tablet shows (the public view), what one player's phone shows (a
seat view), the sentences outcomes are told in, the prompt and the buttons' words.

The public view never holds an identity that is not face up: a team shows in the standings only
once EXPOSE turned it up or the round is over, a conflict over an identity card's tag does not name
the card, and ``redact`` takes identity card keys out of the public history. A seat view adds that
seat's own identity and hand count.
"""
from __future__ import annotations

from typing import Any

from ..base import Outcome
from ..contract import Offer, View
from . import buttons, seats, words
from .cards import Deck
from .plays import describe, play_problem
from .prompt import awaiting, prompt, where_identities_go
from .rulebook import TEAM_CARD
from .state import LEFT, BattleState, Phase, Told

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


class BattleView(View):
    @property
    def deck(self) -> Deck:
        return self.game.deck

    # -- words ------------------------------------------------------------------------------------
    def not_now(self, kind: str, state: BattleState, phase: str, phases: tuple[str, ...]) -> str:
        return f"{NOT_NOW[kind]}; {PHASE_NOW[phase]}. {self.prompt(state, [])}"

    def game_over(self, state: BattleState) -> str:
        return f"The game is over: {seats.name(state, state.winner)} won."

    def say(self, outcome: Outcome, state: BattleState) -> str:
        return self.told(Told.of_outcome(outcome.kind, outcome.data), state)

    def told(self, told: Told, state: BattleState) -> str:
        return words.say(told, state, self.deck)

    def told_terms(self, told: Told, state: BattleState):
        return words.terms(told, state)

    def prompt(self, state: BattleState, offers: list[Offer]) -> str:
        return prompt(self.deck, state)

    def button(self, offer: Offer, state: BattleState) -> str:
        return buttons.label(offer, state, self.deck)

    def actions(self, offers: list[Offer], state: BattleState) -> list[dict[str, Any]]:
        return buttons.actions(offers, state, self.deck)

    # -- views ------------------------------------------------------------------------------------
    def public(self, state: BattleState) -> dict[str, Any]:
        fight = self._fight(state)
        check = self._count_check(state)
        problems = [p["say"] for p in (check or {}, (fight or {}).get("pending") or {}) if p.get("say")]
        return {
            "phase": state.phase.value, "round": state.round, "dealer": state.dealer, "turn": state.turn,
            "direction": "left" if state.direction == LEFT else "right", "deck": state.deck,
            "discard_top": self._discard_top(state), "options": state.options, "deal": self._deal(state),
            "standings": self._standings(state, fight), "fight": fight, "awaiting": self._awaiting(state),
            "count_check": check, "tiebreak": self._tiebreak(state),
            "conflicts": [self._conflict(c.card, c.zones) for c in state.conflicts], "problems": problems,
            "rounds": [{"round": r.round, "went_out": r.went_out, "team": r.team.value,
                        "teams": [TEAM_CARD[r.teams[s]] for s in state.seat_numbers()],
                        "points": [r.points[s] for s in state.seat_numbers()]} for r in state.rounds],
            "identities_missing": seats.identities_missing(state) if state.phase == Phase.DEAL else [],
            "last_outcome": self._last_outcome(state), "winner": state.winner, "over": state.over,
        }

    def seat(self, state: BattleState, seat: int) -> dict[str, Any]:
        """What one player's phone shows: the table, plus their own identity and hand."""
        view = {**self.public(state), "prompt": self.prompt(state, [])}
        if seat not in state.seat_numbers():
            view["you"] = None
            return view
        known = state.identity.get(seat)
        you = {"seat": seat, "name": state.name(seat), "identity": TEAM_CARD[known.team] if known else None,
               "identity_card": known.card if known else None, "hand": state.hands[seat],
               "your_turn": state.turn == seat}
        # What the phone page shows: the identity big, the rest as a short list, its own seat's row.
        secret = you["identity"] or f"Show your identity card privately: {where_identities_go(state)}."
        view.update(you=you, name=you["name"], seats=view["standings"], secret=secret,
                    private={"identity": you["identity"] or "not shown yet", "cards in hand": you["hand"],
                             "your turn": "yes" if you["your_turn"] else "no"})
        return view

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Identity card keys never reach the public history, whatever zone they were seen in."""
        data = super().redact(kind, data)
        if self.deck.is_identity(data.get("card")):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data

    # -- parts ------------------------------------------------------------------------------------
    def _last_outcome(self, state: BattleState) -> dict[str, Any] | None:
        if not state.last:
            return None
        return {"say": " ".join(self.told(t, state) for t in state.last),
                "terms": [term.as_dict() for t in state.last for term in self.told_terms(t, state)]}

    def _standings(self, state: BattleState, fight: dict | None) -> list[dict[str, Any]]:
        """One row per seat: points, hand size, and a team only once it is face up."""
        rows = []
        for s in state.seat_numbers():
            known = state.identity.get(s)
            show = known is not None and (state.phase in REVEALED or state.exposed[s])
            row = {"seat": s, "name": state.name(s), "points": state.points[s], "hand": state.hands[s],
                   "identity": TEAM_CARD[known.team] if show else None, "shown_identity": known is not None,
                   "eliminated": state.eliminated[s], "out_words": "out of this round",  # back next round
                   "turn": state.turn == s, "play": []}
            if row["identity"]:
                row["say"] = row["identity"]
            self._add_play(row, s, fight)
            rows.append(row)
        return rows

    def _add_play(self, row: dict[str, Any], s: int, fight: dict | None) -> None:
        """The cards on the pile that are this seat's: the play to beat, or the play being put down."""
        for part in ("top", "pending"):
            shown = (fight or {}).get(part)
            if shown and shown["seat"] == s:
                row["play"] = [{"key": k, "name": self.deck.name(k), "kind": self.deck.card(k).kind}
                               for k in shown["cards"]]
                if part == "pending" and shown["problem"]:
                    row["problem"] = shown["problem"]

    def _discard_top(self, state: BattleState) -> dict | None:
        if not state.pile:
            return None
        return {"card": state.pile[-1], "name": self.deck.name(state.pile[-1])}

    def _deal(self, state: BattleState) -> dict[str, Any]:
        d = state.deal
        return {"players": d.players, "per_player": d.per_player, "deck": d.deck, "dealt": d.dealt,
                "remaining": d.remaining, "removed": list(d.removed)}

    def _fight(self, state: BattleState) -> dict | None:
        if state.phase != Phase.BATTLE:
            return None
        top, pending = state.top, state.pending
        view: dict[str, Any] = {"top": None, "pending": None}
        if top:
            view["top"] = {"seat": top.seat, "count": top.count, "rank": top.rank, "cards": list(top.cards),
                           "says": describe(top.count, top.rank)}
        if pending:
            problem = play_problem(self.deck, state, pending)
            view["pending"] = {"seat": pending.seat, "cards": list(pending.cards),
                               "names": [self.deck.name(k) for k in pending.cards], "problem": problem, "say": problem}
        return view

    def _conflict(self, card: str, zones: list[str]) -> dict:
        secret = self.deck.is_identity(card)
        label = "An identity card" if secret else card
        return {"card": None if secret else card, "zones": list(zones),
                "say": f"{label} is seen in {' and '.join(zones)} at once: a duplicated tag."}

    def _awaiting(self, state: BattleState) -> dict | None:
        asked = state.awaiting
        if asked is None:
            return None
        shown = {"what": asked.what, "by": asked.by, **({"target": asked.target} if asked.target else {})}
        return shown | {"say": awaiting(state, asked)}

    def _count_check(self, state: BattleState) -> dict | None:
        check = state.count_check
        if check is None:
            return None
        return {"seat": check.seat, "counted": check.counted, "needs": check.needs,
                "say": words.count_question(state, check.seat)}

    def _tiebreak(self, state: BattleState) -> dict | None:
        tie = state.tiebreak
        if tie is None:
            return None
        return {"players": list(tie.players), "drawn": [{"seat": d.seat, "card": d.card} for d in tie.drawn],
                "pass": tie.attempt}
