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
from card_tags.games.gt_battle import deal_plan

from .base import Action, Applied, Option, Refusal, Ruleset, Seat, SetupError, State, Term
from .gt import action_cards, buttons, counts, plays, prompt, seats, turns, view
from .gt.cards import Deck
from .gt.plays import describe
from .gt.report import Refuse, Report
from .gt.rulebook import RULE, TEAM_CARD, TEAM_PLURAL
from .gt.seats import LEFT, RIGHT

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
        n = len(seats)
        try:
            plan = deal_plan(self.catalog, n)
        except ValueError as exc:
            raise SetupError(str(exc)) from None
        if not 1 <= options["first_dealer"] <= n:
            raise SetupError(f"option 'first_dealer' must be a seat 1-{n}, not {options['first_dealer']}")
        if options["target"] < 1:
            raise SetupError(f"option 'target' must be at least 1 point, not {options['target']}")
        state: State = {
            "seats": [s.as_dict() for s in seats], "options": options, "deal": plan.as_dict(),
            "points": [0] * n, "round": 0, "rounds": [], "winner": None, "over": False, "tiebreak": None,
            "last_outcome": None,
        }
        self._new_round(state, options["first_dealer"])
        return state

    def _new_round(self, state: State, dealer: int) -> None:
        """Steps 1-6 as far as the companion is concerned: a fresh round waits for identities and the flip."""
        n = len(state["seats"])
        state.update({
            "round": state["round"] + 1, "dealer": dealer, "phase": "deal", "turn": None, "direction": LEFT,
            "identity": [None] * n, "exposed": [False] * n, "eliminated": [False] * n,
            "hands": [state["deal"]["per_player"]] * n,
            # Step 5 shuffles the BATTLE card into what the deal left; step 6 flips one of them.
            "deck": state["deal"]["remaining"] + 1,
            "pile": [], "flipped": None, "may_take_flipped": False, "step": None,
            "top": None, "pending": None, "passed": [], "awaiting": None, "count_check": None,
            "expect_save_card": 0, "visible": {}, "conflicts": [],
        })

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
            self._shown_privately(state, key, card, zone, action.data, report)
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
            self._flip_first(state, key, card, report)
        elif phase in ("round_over", "tiebreak"):
            return  # cards being gathered for the next round
        elif action_cards.save_window_open(state) and card.get("action") == "save":
            action_cards.save_card_seen(self.deck, state, key, data, report)
        elif card.kind == "identity":
            self._identity_played(state, key, data, report)
        elif phase == "building":
            self._discarded(state, key, card, data, report)
        else:
            self._added_to_play(state, key, card, data, report)

    # == the deal =================================================================================
    def _shown_privately(self, state: State, key: str, card: Card, zone: str, data: dict, report: Report) -> None:
        if card.kind != "identity":
            raise Refuse("In Battle only identity cards are shown to a reader or the tray; fight and action cards "
                         "are played on the centre pile.")
        seat = self._identity_seat(state, zone, data)
        if state["phase"] != "deal":
            if state["identity"][seat - 1] and state["identity"][seat - 1]["card"] == key:
                return  # a player checking their own card again
            raise Refuse("Identity cards are shown at the start of a round, before the first discard is played; "
                         "each player keeps the same identity card for the whole round.")
        for other, known in enumerate(state["identity"], 1):
            if known and known["card"] == key and other != seat:
                raise Refuse(f"That identity card was already shown for {seats.name(state, other)} this round: "
                             f"two cards carry the same tag, or the cards were mixed up.")
        team = card["team"]
        n = len(state["seats"])
        same_team = sum(1 for s, known in enumerate(state["identity"], 1)
                        if known and known["team"] == team and s != seat)
        if same_team + 1 > (n + 1) // 2:
            # Never name the team here: the reason is public.
            raise Refuse(f"With {n} players, {n} identity cards are dealt, half of each team "
                         f"(\"with 6 players ... deal 3 SUPERHERO cards and 3 VILLAIN cards\"); this card would make "
                         f"one team too large. Check the identity cards that were dealt.")
        replaced = state["identity"][seat - 1] is not None
        state["identity"][seat - 1] = {"card": key, "team": team}
        shown = sum(1 for known in state["identity"] if known)
        report.say("identity", f"{seats.name(state, seat)} has {'shown another' if replaced else 'shown their'} identity "
                               f"card privately ({shown} of {n} players).", seat=seat)
        self._maybe_begin(state, report)

    def _identity_seat(self, state: State, zone: str, data: dict) -> int:
        if zone.startswith("reader:"):
            return seats.seat_number(state, zone.partition(":")[2], f"zone {zone!r}")
        if "seat" in data:
            return seats.data_seat(state, data, "seat")
        waiting = seats.identities_missing(state)
        if not waiting:
            raise Refuse("Every player has already shown their identity card for this round.")
        return waiting[0]  # the tray serves the players in turn, from the left of the dealer

    def _on_first_discard(self, state: State, action: Action, report: Report) -> None:
        """The tablet's way to enter the flipped card when the camera missed it."""
        if state["phase"] != "deal":
            raise Refuse("The first discard is flipped during the deal, before the first turn.")
        key = action.data.get("card")
        self._flip_first(state, key, self.deck.card(key), report)

    def _flip_first(self, state: State, key: str, card: Card, report: Report) -> None:
        if card.kind == "identity":
            raise Refuse("Identity cards are dealt one to each player and are not part of the deck; the first "
                         "discard is the top card of the deck.")
        if state["flipped"]:
            raise Refuse(f"The first discard is already flipped ({self.deck.name(state['flipped'])}). The next card "
                         f"on the pile is a player's discard, once every player has shown their identity card.")
        state["flipped"] = key
        state["pile"] = [key]
        state["deck"] -= 1
        report.say("flip", f"Step 6: the first card flipped is {card.name}.", card=key)
        self._maybe_begin(state, report)

    def _maybe_begin(self, state: State, report: Report) -> None:
        if state["flipped"] and not seats.identities_missing(state):
            self._begin_play(state, report)

    def _begin_play(self, state: State, report: Report) -> None:
        """The player left of the dealer is first, except as the "What happens if" cases say."""
        dealer = state["dealer"]
        left = seats.left_of(state, dealer)
        card = self.deck.card(state["flipped"])
        state.update(phase="building", direction=LEFT, turn=left)
        if card.kind == "battle":
            report.say("first_card", f"The BATTLE card is the first card flipped: \"The player left of the dealer "
                                     f"begins the battle by playing a fight card(s).\" {seats.name(state, left)} starts.")
            turns.start_battle(state, left)
            return
        what = card.get("action")
        if what == "skip":
            state["turn"] = seats.left_of(state, left)
            report.say("first_card", f"SKIP first: \"The player left of the dealer is skipped, and play begins with "
                                     f"the next player.\" {seats.name(state, state['turn'])} plays first.")
        elif what == "reverse":
            state.update(turn=dealer, direction=RIGHT)
            report.say("first_card", f"REVERSE first: \"The dealer is the first to play, and play moves to the right.\" "
                                     f"{seats.name(state, dealer)} plays first.")
        elif what in ("new_battle", "eliminate", "save"):
            state["may_take_flipped"] = True
            report.say("first_card", f"{card.name} first: \"The player left of the dealer has the option to draw the "
                                     f"card.\" {seats.name(state, left)} may take it from the discard pile.")
        else:
            report.say("first_card", f"{seats.name(state, state['turn'])} plays first: draw from the deck or take "
                                     f"the top discard.")
        turns.begin_turn(state)
        if what == "expose":
            report.say("first_card", "EXPOSE first: \"The dealer chooses a player to expose his/her Identity card.\"")
            action_cards.ask_expose(self.deck, state, dealer, "nothing", report)

    # == the building phase =======================================================================
    def _on_draw(self, state: State, action: Action, report: Report) -> None:
        seat = seats.data_seat(state, action.data, "seat")
        if state["phase"] != "building":
            raise Refuse(prompt.not_now(self.deck, state, "Drawing happens in the building phase"))
        turns.check_turn(self.deck, state, seat)
        step = state["step"]
        if step["drew"]:
            raise Refuse(f"{seats.name(state, seat)} has already drawn this turn; next they discard one card or pass.")
        source = action.data.get("from")
        if source == "discard":
            self._take_top_discard(state, seat, report)
        elif source == "deck":
            state["deck"] = max(0, state["deck"] - 1)
            report.say("draw", f"{seats.name(state, seat)} draws from the deck.", seat=seat)
        else:
            raise Refuse(f"A draw comes \"from\": \"deck\" or \"discard\", not {source!r}. {RULE['draw_or_take']}")
        state["hands"][seat - 1] += 1
        state["may_take_flipped"] = False
        step["drew"] = source
        turns.maybe_finish_turn(self.deck, state, report)

    def _take_top_discard(self, state: State, seat: int, report: Report) -> None:
        top = state["step"]["top"]
        if top is None:
            raise Refuse("The discard pile is empty: draw from the deck.")
        card = self.deck.card(top)
        flipped_exception = state["may_take_flipped"] and top == state["flipped"]
        if card.kind == "action" and not flipped_exception:
            raise Refuse(f"The top discard is {card.name}, an action card: {RULE['no_action_from_discard']} "
                         f"Draw from the deck instead.")
        state["pile"].remove(top)
        state["visible"].pop(top, None)
        report.say("draw", f"{seats.name(state, seat)} takes the top discard, {card.name}.", seat=seat, card=top)

    def _discarded(self, state: State, key: str, card: Card, data: dict, report: Report) -> None:
        seat = turns.player_of(self.deck, state, data)
        step = state["step"]
        if card.kind == "battle":
            self._battle_card_drawn(state, seat, key, report)
            return
        if step["discard"] or step["passed"]:
            raise Refuse(f"{RULE['discard_one']} {seats.name(state, seat)} has already "
                         f"{'discarded this turn' if step['discard'] else 'passed on discarding'}: take that card back.")
        if state["hands"][seat - 1] < 1:
            counts.hold_for_count(state, seat, 1, {"kind": "card_seen", "data": {**data, "card": key}}, report)
            return
        state["hands"][seat - 1] -= 1
        state["pile"].append(key)
        step["discard"] = key
        report.say("discard", f"{seats.name(state, seat)} discards {card.name}.", seat=seat, card=key)
        what = card.get("action")
        if what == "expose":
            action_cards.ask_expose(self.deck, state, seat, "finish_turn", report)
        elif what == "eliminate":
            action_cards.ask_eliminate(self.deck, state, seat, "finish_turn", report)
        elif what in ("new_battle", "save"):
            report.say("no_effect", f"{card.name} has no effect when discarded in the building phase.")
        turns.maybe_finish_turn(self.deck, state, report)

    def _battle_card_drawn(self, state: State, seat: int, key: str, report: Report) -> None:
        """"The player to draw the BATTLE card will immediately place it on top of the discard pile"."""
        step = state["step"]
        if step["drew"] == "discard" or step["discard"] or step["passed"]:
            raise Refuse(f"The BATTLE card comes from the deck, but {seats.name(state, seat)} has already "
                         f"{'taken the top discard' if step['drew'] == 'discard' else 'finished drawing and discarding'} "
                         f"this turn. If the draw was entered wrongly, undo it first.")
        if step["drew"] is None:  # the camera saw it before the tablet's tap: the deck draw is implied
            state["deck"] = max(0, state["deck"] - 1)
            state["hands"][seat - 1] += 1
        state["hands"][seat - 1] -= 1
        state["pile"].append(key)
        report.say("battle_begins", f"{seats.name(state, seat)} draws the BATTLE card: the battle begins, and they "
                                    f"start it by playing fight card(s).", seat=seat)
        turns.start_battle(state, seat)

    # == the battle phase =========================================================================
    def _added_to_play(self, state: State, key: str, card: Card, data: dict, report: Report) -> None:
        """A card joins the current player's pending play; ``resolve`` makes it final."""
        seat = turns.player_of(self.deck, state, data)
        if card.kind == "battle":
            raise Refuse("There is one BATTLE card and it is already on the pile.")
        cards = (state["pending"]["cards"] if state["pending"] else []) + [key]
        problem = plays.composition_problem(self.deck, cards)
        if problem:
            raise Refuse(problem)
        state["pending"] = {"seat": seat, "cards": cards}

    def _on_resolve(self, state: State, action: Action, report: Report) -> None:
        pending = state["pending"]
        if state["phase"] != "battle" or not pending:
            raise Refuse("Nothing to resolve: no play is waiting on the centre pile.")
        problem = plays.play_problem(self.deck, state, pending)
        if problem:
            raise Refuse(problem)
        seat, count = pending["seat"], len(pending["cards"])
        if state["hands"][seat - 1] < count:
            counts.hold_for_count(state, seat, count, {"kind": "resolve", "data": {}}, report)
            return
        self._commit_play(state, report)

    def _commit_play(self, state: State, report: Report) -> None:
        pending = state["pending"]
        seat, keys = pending["seat"], pending["cards"]
        cards = [self.deck.card(k) for k in keys]
        state["pending"] = None
        state["hands"][seat - 1] -= len(keys)
        state["pile"].extend(keys)
        who = seats.name(state, seat)
        if any(c.get("action") == "new_battle" for c in cards):
            state.update(top=None, passed=[])
            report.say("new_battle", f"{who} plays NEW BATTLE: \"the player of this card resets the battle, and gets "
                                     f"to start a new battle with any fight card(s).\"", seat=seat)
        fights = [c for c in cards if c.kind == "fight"]
        if fights:
            self._fight_played(state, seat, [k for k, c in zip(keys, cards) if c.kind == "fight"], fights[0]["rank"],
                               report)
        elif cards[0].kind == "action" and cards[0]["action"] != "new_battle":
            self._action_played(state, seat, cards[0], report)

    def _fight_played(self, state: State, seat: int, keys: list[str], rank: int, report: Report) -> None:
        previous, count = state["top"], len(keys)
        state.update(top={"seat": seat, "count": count, "rank": rank, "cards": keys}, passed=[])
        play = describe(count, rank)
        if previous:
            terms = (Term("play", play, f"{count} card(s) of rank {rank}"),
                     Term("to beat", describe(previous["count"], previous["rank"]), "count first, then rank"))
            report.say("play", f"{seats.name(state, seat)} plays {play}, beating {describe(previous['count'], previous['rank'])}.",
                       terms, seat=seat, count=count, rank=rank)
        else:
            report.say("play", f"{seats.name(state, seat)} starts the battle with {play}.", seat=seat, count=count, rank=rank)
        if state["hands"][seat - 1] == 0:
            report.say("last_card", f"{seats.name(state, seat)} has no cards left: {RULE['identity']}", seat=seat)
        turns.advance(state, report)

    def _action_played(self, state: State, seat: int, card: Card, report: Report) -> None:
        """SKIP, REVERSE, EXPOSE, ELIMINATE or SAVE played on a turn: the next player must still beat the top."""
        state["passed"].append(seat)
        what = card["action"]
        report.say("action", f"{seats.name(state, seat)} plays {card.name}. {RULE['action_in_battle']}", seat=seat,
                   action=what)
        if what == "reverse":
            turns.reverse(state, report)
        if what == "expose":
            action_cards.ask_expose(self.deck, state, seat, "advance", report)
        elif what == "eliminate":
            action_cards.ask_eliminate(self.deck, state, seat, "advance", report)
        else:
            if what == "save":
                report.say("no_effect", "No player is being eliminated, so SAVE has no effect.")
            turns.advance(state, report, skip=what == "skip")

    def _identity_played(self, state: State, key: str, data: dict, report: Report) -> None:
        if state["phase"] != "battle":
            raise Refuse(f"Identity cards are played in the battle phase: {RULE['identity']}")
        seat = turns.player_of(self.deck, state, data)
        if state["pending"]:
            raise Refuse("An identity card is played on its own, on a turn of its own; take back the other cards first.")
        if state["identity"][seat - 1]["card"] != key:
            raise Refuse(f"That is not the identity card {seats.name(state, seat)} showed at the start of the round; "
                         f"each player plays their own identity card.")
        left = state["hands"][seat - 1]
        if left:
            report.say("note", f"The companion counted {left} card(s) still in {seats.name(state, seat)}'s hand: they "
                               f"go out with them, so they must all be action cards ({RULE['identity']}).", seat=seat)
        self._win_round(state, seat, report)

    # == turn order: SKIP, REVERSE, passing ======================================================
    def _on_pass(self, state: State, action: Action, report: Report) -> None:
        turns.on_pass(self.deck, state, action.data, report)

    # == EXPOSE, ELIMINATE, SAVE ==================================================================
    def _on_expose(self, state: State, action: Action, report: Report) -> None:
        self._commit_pending_action(state, "expose", report)
        action_cards.on_expose(self.deck, state, action.data, report)

    def _on_eliminate(self, state: State, action: Action, report: Report) -> None:
        self._commit_pending_action(state, "eliminate", report)
        action_cards.on_eliminate(self.deck, state, action.data, report)

    def _on_save(self, state: State, action: Action, report: Report) -> None:
        action_cards.on_save(self.deck, state, action.data, report)

    def _on_no_save(self, state: State, action: Action, report: Report) -> None:
        action_cards.on_no_save(self.deck, state, action.data, report)

    def _commit_pending_action(self, state: State, what: str, report: Report) -> None:
        """A target chosen on the tablet before the session resolved the card: resolve it now."""
        pending = state["pending"]
        if state["awaiting"] is None and pending and len(pending["cards"]) == 1 \
                and self.deck.card(pending["cards"][0]).get("action") == what:
            self._on_resolve(state, Action("resolve"), report)
            if state["count_check"]:
                raise Refuse(f"First confirm the hand count: {counts.question(state, state['count_check'])}")

    # == hand counts ==============================================================================
    def _on_confirm_count(self, state: State, action: Action, report: Report) -> None:
        counts.confirm_count(self.deck, state, action.data, report, self._dispatch)

    # == scoring and the end ======================================================================
    def _win_round(self, state: State, seat: int, report: Report) -> None:
        team = state["identity"][seat - 1]["team"]
        teams = [known["team"] for known in state["identity"]]
        for s, member in enumerate(teams, 1):
            if member == team:
                state["points"][s - 1] += 1
        terms = tuple(Term(seats.name(state, s), TEAM_CARD[member],
                           f"{state['points'][s - 1]} point(s)" + (" (+1)" if member == team else ""))
                      for s, member in enumerate(teams, 1))
        report.say("round", f"{seats.name(state, seat)} plays their {TEAM_CARD[team]} card: the {TEAM_PLURAL[team]} "
                            f"{'save the world' if team == 'superhero' else 'achieve world domination'}! A point to "
                            f"every {TEAM_CARD[team]}.", terms, seat=seat, team=team, teams=teams,
                   points=list(state["points"]))
        report.reveals = True
        state["rounds"].append({"round": state["round"], "went_out": seat, "team": team, "teams": teams,
                                "points": list(state["points"])})
        state.update(phase="round_over", turn=None, pending=None, top=None, awaiting=None, step=None)
        self._check_game_end(state, report)

    def _check_game_end(self, state: State, report: Report) -> None:
        target = state["options"]["target"]
        best = max(state["points"])
        if best < target:
            report.say("next_round", f"Round {state['round']} is over. Shuffle, deal new identity cards and tap "
                                     f"New round.")
            return
        leaders = [s for s, p in enumerate(state["points"], 1) if p == best]
        if len(leaders) == 1:
            self._game_over(state, leaders[0], report)
            return
        state.update(phase="tiebreak", tiebreak={"players": leaders, "drawn": [], "pass": 1})
        report.say("tie", f"A tie for game winner at {best} points: {seats.names(state, leaders)}. \"Randomly place "
                          f"one SAVE card and one ELIMINATE card face down. A tying player will draw one of the two "
                          f"cards. This is repeated with each tying player.\"", players=leaders)

    def _on_tiebreak_draw(self, state: State, action: Action, report: Report) -> None:
        tie = state["tiebreak"]
        if state["phase"] != "tiebreak":
            raise Refuse("There is no tie-break: it happens when players tie for game winner.")
        seat = seats.data_seat(state, action.data, "seat")
        if seat not in tie["players"]:
            raise Refuse(f"Only the tying players draw: {seats.names(state, tie['players'])}.")
        if any(d["seat"] == seat for d in tie["drawn"]):
            raise Refuse(f"{seats.name(state, seat)} has already drawn in this tie-break round.")
        card = str(action.data.get("card", "")).lower()
        if card not in ("save", "eliminate"):
            raise Refuse(f"A tie-break draw is \"card\": \"save\" or \"eliminate\", not {action.data.get('card')!r}.")
        tie["drawn"].append({"seat": seat, "card": card})
        report.say("tiebreak_draw", f"{seats.name(state, seat)} draws {card.upper()}"
                                    f"{': they are out' if card == 'eliminate' else ''}.", seat=seat, card=card)
        if len(tie["drawn"]) < len(tie["players"]):
            return
        survivors = [d["seat"] for d in tie["drawn"] if d["card"] == "save"]
        if len(survivors) == 1:
            self._game_over(state, survivors[0], report)
            return
        if not survivors:
            report.say("tiebreak_again", "\"If all tying players draw the ELIMINATE card in the same round, start the "
                                         "process over.\"")
        else:
            report.say("tiebreak_again", f"{seats.names(state, survivors)} all drew SAVE and are still tied: they draw "
                                         f"again.")
            tie["players"] = survivors
        tie.update(drawn=[], **{"pass": tie["pass"] + 1})

    def _game_over(self, state: State, seat: int, report: Report) -> None:
        state.update(phase="over", over=True, winner=seat, tiebreak=None)
        report.say("game_over", f"{seats.name(state, seat)} wins the game with {state['points'][seat - 1]} points!",
                   winner=seat)

    def _on_new_round(self, state: State, action: Action, report: Report) -> None:
        if state["phase"] != "round_over":
            raise Refuse("A new round starts once a round is won (a player plays their identity card).")
        dealer = seats.data_seat(state, action.data, "dealer") if "dealer" in action.data \
            else seats.left_of(state, state["dealer"])
        self._new_round(state, dealer)
        report.say("new_round", f"Round {state['round']}: {seats.name(state, dealer)} deals "
                                f"{state['deal']['per_player']} cards each and a new identity card to everyone. Show "
                                f"your identity card privately, then flip the first discard.", dealer=dealer)

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
