"""The Book of Mormon "Battle" referee (bom-battle.txt) on the referee contract, one concern per
module:

- ``state``     the typed state (dataclasses)
- ``cards``     the deck: a physical card's key to its catalog card
- ``plays``     one seat's play: is it legal under the POWER cards' wording, and what is it worth
- ``judge``     who wins a battle (Famine, Stripling Warriors, ties), as a ``Verdict``
- ``piles``     each seat's ARMY / BATTALION / discard counts: dealing, drawing, reshuffling
- ``table``     which cards the camera sees where: plays, flickers, conflicts, cards being collected
- ``battle``    resolving a battle: refusals, the counts afterwards, the end of the game
- ``variants``  the hooks a variant changes (``BomVariant``), the basic rules, how variants combine
                (``Rules``), ``Referee`` (what the rule modules ask of the game), and the small
                variants; the big ones: ``mounting`` (Mounting Battles), ``turns`` (Secret Weapon),
                ``trivia`` (Spy's Trivia)
- ``words``     every sentence told about an outcome;  ``announce``: "Helpful notes"
- ``refusals``  the words of every reason a rule refuses an input for (codes and data from the rules)
- ``view``      the public and seat views, the prompt and the tablet's buttons
- ``settle``    when every play is complete (the quick settle)
- ``demo``      the demo's simulated players (seeded; never used by the referee)

This module declares the game (``BomBattle``, laid out as Stratego's): its options and variants, the
input table and its handlers. Each handler checks what the rulebook asks of the input and hands the work to the module
of its concern (battle, mounting, turns, trivia); variants are asked through ``rules``.
"""
from __future__ import annotations

import functools
from typing import Any

from card_tags.catalog import Card, Catalog

from ..base import Option, Outcome, Seat, SetupError
from ..contract import SEAT, SEAT_ACTS, SEATS, Field, Game, Input, Refused, card_inputs, zone_seat
from . import battle, mounting, piles, settle, table, trivia, turns
from .battle import participants
from .cards import POWER, Deck
from .demo import DEMO, BomDemo
from .mounting import MountingBattles
from .state import BATTLE, MOUNTING, OVER, TIEBREAK, TRIVIA, BomState, Piles
from .trivia import SpysTrivia
from .turns import SecretWeapon
from .variants import BomVariant, PowerPlay, Rules, ShorterGame, YoungPlayers
from .view import BomView

PLAYING = (BATTLE, MOUNTING)

# The start options: a setting (first_seat) and the six variants, by the option that switches each on.
OPTIONS = (
    Option("first_seat", 1, "The seat on the dealer's left: dealt the first card, first to play under Secret "
                            "Weapon, first reader in Spy's Trivia.", label="First player (left of the dealer)",
           seat=True),
    Option("young_players", False, "Rules for Young Players: no POWER cards; each player turns the top card of "
                                   "his ARMY; the most cards when you stop wins.", label="Rules for Young Players"),
    Option("shorter_game_minutes", 0, "Rules for a Shorter Game: minutes on the timer (the rulebook suggests 15); "
                                      "0 plays without a timer. The most cards when it goes off wins.",
           label="Rules for a Shorter Game (minutes)"),
    Option("mounting_battles", False, "Mounting Battles: battles by point value only; tied players add three "
                                      "face-down ARMY cards and play again.", label="Mounting Battles"),
    Option("secret_weapon", False, "Secret Weapon: one player at a time from the dealer's left, POWER cards "
                                   "face down until everyone has played.", label="Secret Weapon"),
    Option("power_play", False, "Power Play: before each battle the rest of each BATTALION goes to the discard "
                                "pile and five new cards are drawn.", label="Power Play"),
    Option("spys_trivia", False, "Spy's Trivia: CHARACTER cards only; name the character from the clues to win "
                                 "the card.", label="Spy's Trivia"),
)
# The variants, in the order their hooks are asked (the first answer decides: variants.Rules).
VARIANTS: tuple[type[BomVariant], ...] = (SpysTrivia, YoungPlayers, MountingBattles, SecretWeapon, PowerPlay, ShorterGame)


@functools.lru_cache(maxsize=64)
def _rules(chosen: tuple[tuple[str, Any], ...]) -> Rules:
    options = dict(chosen)
    return Rules([v(options) for v in VARIANTS if v.on(options)])


def rules_for(options: dict[str, Any]) -> Rules:
    """The variants a game's options switch on, combined (the same object for the same options)."""
    return _rules(tuple(sorted(options.items())))


def _seat_input(kind: str, phases: tuple[str, ...], confirm: bool = False, choices: str = "seats_in_play") -> Input:
    """A seat's input; the tablet offers it as one button with a picker of the seats it would take."""
    return Input(kind, f"on_{kind}", (Field("seat", SEAT),), phases, SEAT_ACTS, button=True, confirm=confirm,
                 choices=choices, chooser="seat")


class BomBattle(Game[BomState]):
    game = "bom-battle"
    title = 'Book of Mormon "Battle"'
    min_seats, max_seats = 2, 6
    options = OPTIONS
    zones = ("seat", "reader", "tray")
    state_type = BomState
    view_type = BomView
    face_down_lies = False  # a POWER card read face down (Secret Weapon) is seen anew when turned face up
    variants = VARIANTS
    # What the rules decide (each kind's sentence: a BomView method marked @says) and refuse for.
    outcome_kinds = frozenset({
        "battle", "face_down", "game_over", "mount", "no_character", "surrender", "tiebreak", "time_up",
        "too_many_powers", "trivia", "trivia_ask", "trivia_clue", "trivia_tie", "withdraw"})
    # Every code the rules refuse with, written out (its words in refusals.py).
    reasons = frozenset({
        "already_withdrawn", "cards_on_battlefield", "character_face_down", "face_down_already",
        "face_down_needs_secret_weapon", "face_down_outside_secret_weapon", "finish_mounting_first",
        "last_battle_characters_only", "last_battle_tied_only", "more_shown_than_held", "mounting_tied_only",
        "must_play_battalion", "no_power_while_mounting", "no_such_seat", "no_timer", "not_a_battlefield_zone",
        "not_for_young_players", "not_in_this_battle", "not_ready", "not_seen_there", "not_tied", "out_of_the_game",
        "out_with_a_card", "over_no_new_battle", "power_already", "show_only_powers", "show_the_powers",
        "stop_young_only", "timer_gone_off", "too_few_to_swap", "trivia_all_clues", "trivia_asked_already",
        "trivia_card_being_read", "trivia_characters_only", "trivia_no_card", "trivia_read_already",
        "trivia_reader_guesses", "trivia_tie_of_one", "trivia_tied_only", "trivia_tray_only", "young_no_power"})
    # What the table was told, kept by the contract for the tablet: the last ten outcomes (its recent
    # list; the whole history is the game log), and the latest input's results (its result box).
    recent_kept = 10
    result_kinds = frozenset({"battle", "mount", "tiebreak", "time_up", "trivia", "game_over"})
    # The order of the rows is the order of the tablet's buttons.
    inputs = (
        *card_inputs(),
        Input("resolve", "on_resolve", phases=(BATTLE, MOUNTING, TIEBREAK)),
        _seat_input("withdraw", (BATTLE,)),
        _seat_input("too_many_powers", PLAYING),
        _seat_input("no_character", (MOUNTING,)),
        _seat_input("surrender", (MOUNTING,), confirm=True),
        _seat_input("face_down", PLAYING, choices="secret_weapon_seats"),
        Input("trivia_clue", "on_trivia_clue", phases=(TRIVIA,), button=True),
        _seat_input("trivia_award", (TRIVIA,)),
        Input("trivia_tie", "on_trivia_tie", (Field("seats", SEATS),), (TRIVIA,), button=True, choices="tie_choices",
              chooser="seats"),
        Input("trivia_ask", "on_trivia_ask", phases=(TRIVIA,), button=True),
        Input("trivia_nobody", "on_trivia_nobody", phases=(TRIVIA,), button=True),
        Input("time_up", "on_time_up", phases=(BATTLE, MOUNTING, TRIVIA, TIEBREAK), button=True, confirm=True,
              choices="with_timer"),
        Input("stop", "on_stop", phases=PLAYING, button=True, confirm=True, choices="young_game"),
    )

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.deck = Deck(catalog)

    def rules(self, state: BomState) -> Rules:
        return rules_for(state.options)

    # -- setup --------------------------------------------------------------------------------------
    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> BomState:
        """"Shuffle the cards and deal out the entire deck facedown. Each player now has an ARMY. All
        players draw five cards from the top of their ARMY. This becomes the BATTALION.\""""
        rules = self.rules_for_start(options, len(seats))
        size = self.deck.size(with_powers=rules.with_powers())
        dealt = piles.deal(size, len(seats), options["first_seat"])
        hand = piles.BATTALION if rules.battalion() else 0
        if hand and min(dealt) < hand:
            raise SetupError(f"this deck deals only {min(dealt)} cards to a seat; each player needs a BATTALION of five")
        state = BomState(seats=seats, options=dict(options), mode=rules.mode(), deck_size=size,
                         piles=[Piles(seat=s.number, name=s.name, army=dealt[i] - hand, battalion=hand)
                                for i, s in enumerate(seats)])
        rules.start(state, self, dealt)
        return state

    @staticmethod
    def rules_for_start(options: dict[str, Any], seats: int) -> Rules:
        problems = [] if 1 <= options["first_seat"] <= seats else \
            [f"first_seat must be a seat of this table (1-{seats}), not {options['first_seat']}."]
        rules = rules_for(options)
        for v in rules.variants:
            problems += v.problems(options, seats)
        if problems:
            raise SetupError(" ".join(problems))
        return rules

    # -- the contract, for this game ------------------------------------------------------------------
    def phase(self, state: BomState) -> str:
        if state.over:
            return OVER
        if state.tiebreak is not None:
            return TIEBREAK
        if state.mount:
            return MOUNTING
        return BATTLE if self.rules(state).battles(state) else TRIVIA

    def ready_to_resolve(self, state: BomState) -> bool:
        if state.over or not self.rules(state).battles(state):
            return False
        return not battle.check(self, state)[1]

    def plays_complete(self, state: BomState) -> bool:
        """Nothing could still join any seat's play: the battle may resolve after a short stillness."""
        return settle.plays_complete(self, state)

    # The candidates the tablet's buttons are tried with (each still goes through apply): a button
    # of a variant that is not in play is not tried at all.
    def tie_choices(self, state: BomState) -> list[dict[str, Any]]:
        return trivia.tie_choices(state)

    def seats_in_play(self, state: BomState) -> list[dict[str, Any]]:
        return [{"seat": s.seat} for s in state.piles if not s.out]

    def secret_weapon_seats(self, state: BomState) -> list[dict[str, Any]]:
        return self.seats_in_play(state) if state.turns else []

    def with_timer(self, state: BomState) -> list[dict[str, Any]]:
        return [{}] if state.options["shorter_game_minutes"] else []

    def young_game(self, state: BomState) -> list[dict[str, Any]]:
        return [{}] if self.rules(state).stops_when_players_stop() else []

    # -- cards on the table ---------------------------------------------------------------------------
    def on_card_seen(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...] | None:
        try:
            return self._card_seen(state, data)
        except Refused as refused:
            raise self._unnamed(state, refused, data) from None

    def on_card_gone(self, state: BomState, data: dict[str, Any]) -> None:
        try:
            self._card_gone(state, data)
        except Refused as refused:
            raise self._unnamed(state, refused, data) from None

    @staticmethod
    def _unnamed(state: BomState, refused: Refused, data: dict[str, Any]) -> Refused:
        """A refusal of a card read face down (Secret Weapon) or in the scan tray (Spy's Trivia's card
        being read): the public view never names such a card, so the table's words leave it out and
        only the seat it concerns reads them in full (the reader's, for the tray)."""
        hidden = "face down" if data.get("face_down") else "in the tray" if data["zone"] == "tray" else ""
        if not hidden:
            return refused
        seat = refused.seat or zone_seat(data["zone"]) or (state.spys_trivia().reader if state.trivia else None)
        if seat is not None and not 1 <= seat <= len(state.piles):
            seat = None
        return Refused(refused.code, seat, hidden=hidden, **refused.data)

    def _card_seen(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...] | None:
        key, zone = data["card"], data["zone"]
        card = self.deck.card(key)
        if state.over:
            raise Refused("over_no_new_battle", card=key)
        if not self.rules(state).battles(state):
            return trivia.scan(self, state, key, zone)
        seat = self._zone_seat(state, zone)
        if key in state.collecting:
            table.see(state, key, zone)  # the winner is gathering the last battle's cards
            return None
        self._may_play(state, seat, key, card)
        if data.get("face_down"):
            return self._face_down_card(state, seat, key, card)
        before = table.plays(state)
        if table.see(state, key, zone) == "again":
            return None
        state.seat(seat).withdrawn = False  # it found a card to play after all
        if key not in state.battle_keys:  # a flicker (seen, gone, seen) is one play, checked once
            state.battle_keys.append(key)
            if key in table.plays(state).get(seat, []):
                self.rules(state).on_card(state, seat, key, card.kind == POWER, before)
        return None

    def _card_gone(self, state: BomState, data: dict[str, Any]) -> None:
        key, zone = data["card"], data["zone"]
        if data.get("face_down") and state.turns:
            for seat, hidden in list(state.secret_weapon().face_down.items()):
                if hidden == key:
                    del state.secret_weapon().face_down[seat]
            return
        if zone == "tray" and self.rules(state).reads_in_tray():
            return  # the reader took the card out of the tray
        if not table.gone(state, key, zone):
            raise Refused("not_seen_there", card=key, zone=zone)
        if key not in state.table:
            state.flags = [f for f in state.flags if f.card != key]

    def _zone_seat(self, state: BomState, zone: str) -> int:
        seat = zone_seat(zone)
        if seat is None:
            raise Refused("not_a_battlefield_zone", zone=zone)
        if not 1 <= seat <= len(state.piles):
            raise Refused("no_such_seat", number=seat, seats=len(state.piles))
        return seat

    def _may_play(self, state: BomState, seat: int, key: str, card: Card) -> None:
        if state.seat(seat).out:
            raise Refused("out_with_a_card", player=seat, card=key)
        refused = self.rules(state).refuse_card(state, seat, key, card)
        if refused:
            raise refused

    def _face_down_card(self, state: BomState, seat: int, key: str, card: Card) -> tuple[Outcome, ...]:
        if not state.turns:
            raise Refused("face_down_outside_secret_weapon")
        if card.kind != POWER:
            raise Refused("character_face_down")
        return self._lay_face_down(state, seat, key)

    def _lay_face_down(self, state: BomState, seat: int, key: str) -> tuple[Outcome, ...]:
        if state.mount:
            raise Refused("no_power_while_mounting")
        if seat not in participants(state, self.rules(state)):
            raise Refused("not_in_this_battle", player=seat)
        if seat in state.secret_weapon().face_down:
            raise Refused("face_down_already", player=seat)
        plays = table.plays(state)
        if any(self.deck.is_power(k) for k in plays.get(seat, [])):
            raise Refused("power_already", player=seat)
        turns.lay_face_down(state, seat, key, participants(state, self.rules(state)), plays)
        return (Outcome("face_down", data={"seat": seat}),)

    # -- commands ---------------------------------------------------------------------------------------
    def _battle_only(self, state: BomState, what: str, seat: int) -> Piles:
        if not self.rules(state).battalion():
            raise Refused("not_for_young_players", input=what)
        s = state.seat(seat)
        if s.out:
            raise Refused("out_of_the_game", player=seat)
        return s

    def on_resolve(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battle.resolve(self, state)

    def on_withdraw(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        seat = data["seat"]
        s = self._battle_only(state, "withdraw", seat)
        if s.withdrawn:
            raise Refused("already_withdrawn", player=seat)
        if table.plays(state).get(seat) or (state.turns and seat in state.secret_weapon().face_down):
            raise Refused("cards_on_battlefield", player=seat)
        if piles.only_battalion(s):
            raise Refused("must_play_battalion", player=seat)
        s.withdrawn = True
        return (Outcome("withdraw", data={"seat": seat, "battle": state.battle}),)

    def on_too_many_powers(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        """"If a player has 4 or more POWER cards in his hand, he must choose 2 and place them in his
        discard pile, then draw 2 more cards from the top of his ARMY." The companion cannot see a
        hand, so the player shows his POWER cards in his area (or on his reader) and then taps."""
        seat = data["seat"]
        s = self._battle_only(state, "too_many_powers", seat)
        shown = table.plays(state).get(seat, [])
        characters = [k for k in shown if not self.deck.is_power(k)]
        if characters:
            raise Refused("show_only_powers", characters=characters)
        if len(shown) < 4:
            raise Refused("show_the_powers", player=seat, shown=len(shown))
        if len(shown) > s.battalion:
            raise Refused("more_shown_than_held", player=seat, battalion=s.battalion, shown=len(shown))
        piles.swap_two(s)
        table.set_aside(state, shown)
        state.flags = [f for f in state.flags if f.card not in shown]
        state.battle_keys = [k for k in state.battle_keys if k not in shown]
        return (Outcome("too_many_powers", data={"seat": seat, "cards": list(shown)}),)

    def _tied_seat(self, state: BomState, seat: int) -> None:
        if seat not in state.mounting().seats:
            raise Refused("not_tied", player=seat)

    def on_no_character(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        """"If a player has no CHARACTER cards in his BATTALION, he must put two POWER cards in his
        discard pile and draw two new cards from his ARMY.\""""
        seat = data["seat"]
        self._tied_seat(state, seat)
        s = state.seat(seat)
        if s.battalion - len(table.plays(state).get(seat, [])) < 2:
            raise Refused("too_few_to_swap", player=seat)
        piles.swap_two(s)
        return (Outcome("no_character", data={"seat": seat}),)

    def on_surrender(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        self._tied_seat(state, data["seat"])
        return mounting.surrender(self, state, data["seat"])

    def on_face_down(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if not state.turns:
            raise Refused("face_down_needs_secret_weapon")
        self._battle_only(state, "face_down", data["seat"])
        return self._lay_face_down(state, data["seat"], "")

    def on_time_up(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if not state.options["shorter_game_minutes"]:
            raise Refused("no_timer")
        if state.time_up:
            raise Refused("timer_gone_off")
        return battle.time_up(self, state)

    def on_stop(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if not self.rules(state).stops_when_players_stop():
            raise Refused("stop_young_only")
        if state.mount:
            raise Refused("finish_mounting_first")
        return battle.stop(state)

    def on_trivia_clue(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return trivia.clue(self, state)

    def on_trivia_tie(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return trivia.tie(state, data["seats"])

    def on_trivia_ask(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return trivia.ask(state)

    def on_trivia_award(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return trivia.award(self, state, data["seat"])

    def on_trivia_nobody(self, state: BomState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return trivia.nobody(self, state)


GAME = BomBattle

__all__ = ["DEMO", "GAME", "OPTIONS", "VARIANTS", "BomBattle", "BomDemo", "rules_for"]
