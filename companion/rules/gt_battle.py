"""\"Battle\" by Gather Together Games: the referee, hidden identities and all.

4 to 10 players, each secretly a SUPERHERO or a VILLAIN. A round has four phases:

- ``deal``: the players deal identity cards and the deal table's cards with real cards. Each player
  shows their identity card privately (to their own RFID reader, zone ``reader:N``, or to the
  covered scan tray, zone ``tray``); the first discard is flipped onto the centre pile.
- ``building``: in turn, a player draws (the tablet's ``draw`` command: the draw is hidden) and
  discards one card onto the centre pile (seen by the camera) or passes. It ends when someone draws
  the BATTLE card and places it on the pile.
- ``battle``: in turn, a player plays fight cards of one rank (gathered as a *pending* play until
  ``resolve``, which the session sends once the table is still), an action card, or passes. A play
  must match or beat the last by count first, then by rank. A player whose fight cards are gone
  plays their identity card on their next turn: their whole team scores.
- ``round_over`` (then ``new_round``), ``tiebreak`` and ``over``.

The companion cannot see hands. It counts each hand from the deal, draws, discards and plays; a
play the count cannot explain is held with a question (``count_check``) until the table answers
with ``confirm_count``. Identities are kept out of the public view (and, by ``redact``, out of the
public history) until EXPOSE shows one or the round ends.

All inputs and their data are documented in docs/referee/gt-battle.md. Seats are numbered 1..N
clockwise; "left" is the next seat number. State is plain JSON; per-seat lists are indexed seat-1.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card

from .base import Action, Applied, Option, Refusal, Ruleset, Seat, State
from .gt import action_cards, battle, building, buttons, counts, deal, plays, prompt, scoring, seats, turns, view
from .gt.cards import Deck
from .gt.report import Refuse, Report


class GatherTogetherBattle(Ruleset):
    game = "gt-battle"
    title = "Battle (Gather Together Games)"
    min_seats = 4
    max_seats = 10
    zones = ("center", "reader", "tray", "seat")
    options = (
        Option("target", 5, "points that win the game (\"an agreed amount of points, such as 5\")"),
        Option("first_dealer", 1, "seat of the first round's dealer; the deal passes left each round"),
    )

    def __init__(self, catalog):
        super().__init__(catalog)
        self.deck = Deck(catalog, self.game)

    # == setup ====================================================================================
    def setup(self, seats: list[Seat], options: dict[str, Any]) -> State:
        self.check_seats(seats)
        options = self.resolve_options(options)
        return deal.new_game(self.catalog, seats, options)

    # == the dispatcher ===========================================================================
    def apply(self, state: State, action: Action) -> Applied | Refusal:
        if state["over"]:
            return Refusal(f"The game is over: {seats.name(state, state['winner'])} won.")
        handler = getattr(self, f"_on_{action.kind}", None)
        if handler is None:
            return Refusal(f"Battle has no input {action.kind!r}; see docs/referee/gt-battle.md for its commands.")
        report = Report()
        try:
            self._gate(state, action, report)
            handler(state, action, report)
        except Refuse as exc:
            return Refusal(str(exc))
        if report.outcomes:  # what the table page shows big: everything this input did
            state["last_outcome"] = {"say": " ".join(o.say for o in report.outcomes),
                                     "terms": [t.as_dict() for o in report.outcomes for t in o.terms]}
        return Applied(state, tuple(report.outcomes), report.reveals)

    def _dispatch(self, state: State, kind: str, data: dict[str, Any], report: Report) -> None:
        """Re-run a held input (after confirm_count) through the same gate and handler."""
        action = Action(kind, data, "replay")
        self._gate(state, action, report)
        getattr(self, f"_on_{kind}")(state, action, report)

    def _gate(self, state: State, action: Action, report: Report) -> None:
        """Inputs the table must settle first: a hand-count question, a choice, the SAVE window."""
        if action.kind in ("confirm_count", "card_gone") or not self._moves_the_game(state, action):
            return
        check = state["count_check"]
        if check:
            raise Refuse(f"First confirm {seats.name(state, check['seat'])}'s hand on the tablet: "
                         f"{counts.question(state, check)}")
        asked = state["awaiting"]
        if asked is None:
            return
        if asked["what"] == "save":
            if not self._is_save_input(state, action):
                action_cards.close_save_window(self.deck, state, report)  # "unless immediately saved": the moment has passed
            return
        answers = {"expose": "expose", "eliminate": "eliminate", "save_by": "save"}[asked["what"]]
        if action.kind == answers:
            return
        step = state["step"]
        own_draw = (action.kind == "draw" and step is not None and step["drew"] is None
                    and asked["by"] == state["turn"] and seats.data_seat(state, action.data, "seat") == state["turn"])
        if not own_draw:
            raise Refuse(f"First: {prompt.awaiting(state, asked)}")

    def _moves_the_game(self, state: State, action: Action) -> bool:
        """False for inputs that never wait on anything: sightings away from the centre, re-sightings."""
        if action.kind != "card_seen":
            return True
        return action.data.get("zone") == "center" and action.data.get("card") not in state["pile"]

    def _is_save_input(self, state: State, action: Action) -> bool:
        if action.kind in ("save", "no_save"):
            return True
        if action.kind == "card_seen" and action.data.get("zone") == "center":
            card = self.deck.card(action.data.get("card"))
            return card.get("action") == "save"
        return False

    # == table events =============================================================================
    def _on_card_seen(self, state: State, action: Action, report: Report) -> None:
        key, zone = action.data.get("card"), action.data.get("zone")
        card = self.deck.card(key)
        if not isinstance(zone, str):
            raise Refuse("A card sighting must name its zone (center, tray, reader:N or seat:N).")
        self._note_visible(state, key, zone, card, report)
        if zone == "center":
            self._seen_on_pile(state, key, card, action.data, report)
        elif zone == "tray" or zone.startswith("reader:"):
            deal.shown_privately(self.deck, state, key, card, zone, action.data, report)
        elif zone.startswith("seat:"):
            pass  # a card lying in front of a player (an exposed identity, a hand placed down): no play
        else:
            raise Refuse(f"Battle does not use the zone {zone!r}: cards are played on the centre pile, and "
                         f"identity cards are shown to a reader or the tray.")

    def _on_card_gone(self, state: State, action: Action, report: Report) -> None:
        key, zone = action.data.get("card"), action.data.get("zone")
        if state["visible"].get(key) == zone:
            del state["visible"][key]
        state["conflicts"] = [c for c in state["conflicts"] if c["card"] != key]
        pending = state["pending"]
        if zone == "center" and pending and key in pending["cards"]:
            pending["cards"].remove(key)  # a card taken back before the play was resolved
            if not pending["cards"]:
                state["pending"] = None
        counts.drop_stale_check(state, key)

    def _note_visible(self, state: State, key: str, zone: str, card: Card, report: Report) -> None:
        """One physical card in two camera zones at once is a duplicated tag: flag it, keep playing."""
        if zone.startswith("reader:"):
            return  # a tap on a reader is a moment, not a place
        where = state["visible"].get(key)
        if where and where != zone:
            label = "An identity card" if card.kind == "identity" else f"{card.name} ({key})"
            state["conflicts"].append({"card": key, "zones": [where, zone]})
            report.say("conflict", f"{label} is seen in {where} and in {zone} at once: two cards carry the same tag. "
                                   f"Take one away and re-tag it.", zones=[where, zone])
        state["visible"][key] = zone

    def _seen_on_pile(self, state: State, key: str, card: Card, data: dict, report: Report) -> None:
        if key in state["pile"]:
            return  # seen again: the card above it was taken, or the camera lost it for a moment
        if card.get("action") == "save" and state["expect_save_card"] and not action_cards.save_window_open(state):
            state["expect_save_card"] -= 1  # the SAVE the tablet already recorded
            state["pile"].append(key)
            return
        phase = state["phase"]
        if phase == "deal":
            deal.flip_first(self.deck, state, key, card, report)
        elif phase in ("round_over", "tiebreak"):
            return  # cards being gathered for the next round
        elif action_cards.save_window_open(state) and card.get("action") == "save":
            action_cards.save_card_seen(self.deck, state, key, data, report)
        elif card.kind == "identity":
            battle.identity_played(self.deck, state, key, data, report)
        elif phase == "building":
            building.discarded(self.deck, state, key, card, data, report)
        else:
            battle.added_to_play(self.deck, state, key, card, data, report)

    # == the deal, the building phase, the battle ==============================================
    def _on_first_discard(self, state: State, action: Action, report: Report) -> None:
        deal.on_first_discard(self.deck, state, action.data, report)

    def _on_draw(self, state: State, action: Action, report: Report) -> None:
        building.on_draw(self.deck, state, action.data, report)

    def _on_resolve(self, state: State, action: Action, report: Report) -> None:
        battle.on_resolve(self.deck, state, action.data, report)

    # == turn order: SKIP, REVERSE, passing ======================================================
    def _on_pass(self, state: State, action: Action, report: Report) -> None:
        turns.on_pass(self.deck, state, action.data, report)

    # == EXPOSE, ELIMINATE, SAVE ==================================================================
    def _on_expose(self, state: State, action: Action, report: Report) -> None:
        battle.resolve_chosen_card(self.deck, state, "expose", report)
        action_cards.on_expose(self.deck, state, action.data, report)

    def _on_eliminate(self, state: State, action: Action, report: Report) -> None:
        battle.resolve_chosen_card(self.deck, state, "eliminate", report)
        action_cards.on_eliminate(self.deck, state, action.data, report)

    def _on_save(self, state: State, action: Action, report: Report) -> None:
        action_cards.on_save(self.deck, state, action.data, report)

    def _on_no_save(self, state: State, action: Action, report: Report) -> None:
        action_cards.on_no_save(self.deck, state, action.data, report)

    # == hand counts ==============================================================================
    def _on_confirm_count(self, state: State, action: Action, report: Report) -> None:
        counts.confirm_count(self.deck, state, action.data, report, self._dispatch)

    # == scoring and the end ======================================================================
    def _on_tiebreak_draw(self, state: State, action: Action, report: Report) -> None:
        scoring.on_tiebreak_draw(self.deck, state, action.data, report)

    def _on_new_round(self, state: State, action: Action, report: Report) -> None:
        scoring.on_new_round(self.deck, state, action.data, report)

    # == views and the tablet's buttons ==========================================================
    def public_view(self, state: State) -> dict[str, Any]:
        return view.public_view(self.deck, state)

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        """What one player's phone shows: the table, plus their own identity and hand."""
        return view.seat_view(self.deck, state, seat)

    def actions(self, state: State) -> list[dict[str, Any]]:
        """The commands that make sense now; the dashboard shows them as buttons and pickers."""
        return buttons.offer(self.deck, state)

    # == the session's questions ==================================================================
    def ready_to_resolve(self, state: State) -> bool:
        pending = state.get("pending")
        return bool(state.get("phase") == "battle" and pending and not state["count_check"]
                    and not state["awaiting"] and plays.play_problem(self.deck, state, pending) is None)

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Identity card keys never reach the public history, whatever zone they were seen in."""
        data = super().redact(kind, data)
        key = data.get("card")
        if isinstance(key, str) and self.deck.is_identity(key):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data
