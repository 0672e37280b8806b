"""Stratego: the companion as the neutral third person who sees both pieces of a combat.

A player shows a piece's tag to the camera (in the scan tray) or taps it on their own reader; a QR
code or RFID tag tells the companion the rank without telling the opponent. The companion never
sees the board: it knows each army (scanned once at setup), whose turn it is, every combat and
its result, and who has lost what. It tells the table only what the chosen reveal rule allows.

The rulebook (stratego.txt) mixes two editions; the classic rules are the default and every
sentence that differs is an option and a variant (variants.py; docs/referee/stratego.md).

The package: ``ranks`` (the rank table, the rulebook's sentences, the classic combat), ``variants``
(the other edition's sentences, one unit each), ``combat`` (a fight decided under the variants),
``state`` (the typed state), ``army`` (setup), ``turns`` (play and the end), ``view`` and ``words``
(everything players read). This module declares the game: its options, its input table, and one
handler per input.
"""
from __future__ import annotations

from typing import Any

from card_tags.games.stratego import ARMY

from card_tags.catalog import Catalog
from companion.rules.base import Option, Outcome, Seat, SetupError
from companion.rules.contract import CARD, SEAT, SEAT_ACTS, Field, Game, Input, Refused, card_inputs, zone_seat

from . import army, turns
from .combat import defender_revealed, fight, variants_in
from .ranks import RANK_NAME, Quote, Verdict
from .state import BLUE, PLAY, RED, SETUP, StrategoState
from .variants import VARIANTS, RescueFromTheBackRow, StrategoVariant
from .view import NoSuchSeat, StrategoView

# Options that earlier versions recorded and that no longer choose anything; old logs keep replaying.
# spy_vs_spy: both editions say "the attacking Spy wins" a Spy Vs. Spy match up, so it is no variant.
RETIRED_OPTIONS = {"spy_vs_spy": ("tie", "attacker_wins")}


class Stratego(Game[StrategoState]):
    game = "stratego"
    title = "Stratego"
    min_seats = 2
    max_seats = 2
    zones = ("seat", "tray", "reader")
    uses_resolve = False  # a combat resolves itself when the defender is scanned
    state_type = StrategoState
    view_type = StrategoView
    variants = VARIANTS
    outcome_kinds = frozenset({
        "army_checked", "attack", "cancel", "combat", "game_over", "move", "play_starts", "rescue"})
    reasons = frozenset({
        "already_rescued", "already_scanned", "army_complete", "attacker_removed", "captured", "combat_under_way",
        "friendly_piece", "never_moves", "no_combat_to_cancel", "no_rescue_rule", "not_a_stratego_zone",
        "not_own_piece", "not_own_reader", "not_your_turn", "not_your_turn_to_attack", "nothing_to_resolve",
        "only_a_scout", "only_attacker_cancels", "play_in_seat_area", "rescue_not_after_move", "same_piece_twice",
        "setup_in_tray", "still_on_board", "wrong_colour", "zone_names_no_seat"})
    options = (
        Option("ties", "both_removed", "Equal ranks: both pieces are removed (classic), or \"in the event "
               "of a tie, the attacker wins\".", ("both_removed", "attacker_wins")),
        Option("spy_attack", "marshal_only", "The attacking Spy defeats only the Marshal (classic), or the other "
               "edition: an attacking Spy defeats any piece except a Bomb.", ("marshal_only", "anything_but_bombs")),
        Option("reveal", "both", "Both ranks are revealed in every combat (classic), or the other edition: the "
               "defender shows its rank only if it is defeated or attacked by a Scout.",
               ("both", "defeated_or_scout")),
        Option("rescue", False, "A piece reaching the enemy's back row may rescue one defeated piece."),
        Option("scout_move_attack", False, "A Scout may move and attack in the same turn."),
        Option("red_seat", 1, "The seat that plays Red (Red moves first).", (1, 2), seat=True),
    )
    inputs = (
        *card_inputs(),  # setup: the armies; play: the combats; a piece leaving changes nothing
        Input("move", "on_move", (Field("seat", SEAT),), (PLAY,), SEAT_ACTS, button=True),
        Input("cancel", "on_cancel", (Field("seat", SEAT, optional=True),), (PLAY,), button=True,
              choices="attacking_seat"),
        Input("rescue", "on_rescue", (Field("seat", SEAT), Field("card", CARD)), (PLAY,), SEAT_ACTS,
              button=True, choices="rescuable", chooser="card"),
        Input("resign", "on_resign", (Field("seat", SEAT),), (SETUP, PLAY), SEAT_ACTS, button=True, confirm=True),
        Input("resolve", "on_resolve"),
    )

    @classmethod
    def check_catalog(cls, catalog: Catalog) -> list[str]:
        missing = [f"{c}{r}" for c in ("R", "B") for r in ARMY if f"{c}{r}" not in catalog]
        return [f"this referee needs cards {missing}"] if missing else []

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        options = dict(options)
        for name, values in RETIRED_OPTIONS.items():
            if name in options and options.pop(name) not in values:
                raise SetupError(f"option {name!r} must be one of {list(values)}")
        return super().resolve_options(options)

    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> StrategoState:
        red = options["red_seat"]
        return StrategoState(seats=seats, options=options,
                             colours={s.number: RED if s.number == red else BLUE for s in seats})

    def phase(self, state: StrategoState) -> str:
        return state.phase

    def rules_in_play(self, state: StrategoState) -> list[StrategoVariant]:
        """The variants this game was started with, as Stratego's hook units."""
        return variants_in(state.options)

    # -- the table's inputs -------------------------------------------------------------------
    def on_card_seen(self, state: StrategoState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if state.over:
            raise Refused("game_over")
        key, zone = data["card"], data["zone"]
        card = self.card(key)
        kind = zone.partition(":")[0]   # a seat's area, a seat's reader or the scan tray
        reader_seat = zone_seat(zone)
        if kind in ("seat", "reader"):
            if reader_seat not in state.colours:
                raise Refused("zone_names_no_seat", zone=zone)
        elif kind != "tray":
            raise Refused("not_a_stratego_zone", zone=zone)
        if state.phase == SETUP:
            if reader_seat is None:
                raise Refused("setup_in_tray")
            return army.scan_piece(state, reader_seat, key, card["colour"], card["rank"])
        if kind == "seat":
            raise Refused("play_in_seat_area")
        owner = state.colours[reader_seat] if reader_seat is not None else None
        if owner is not None and owner != card["colour"]:
            raise Refused("not_own_reader", reader=reader_seat, owner=owner, colour=card["colour"])
        if state.pending is None:
            return turns.scan_attacker(state, self.rules_in_play(state), key, zone)
        return turns.scan_defender(state, self.rules_in_play(state), key)

    def on_card_gone(self, state: StrategoState, data: dict[str, Any]) -> None:
        """Pieces leave the tray or a reader after every scan; only arrivals mean anything."""

    # -- the tablet's commands ----------------------------------------------------------------
    def on_move(self, state: StrategoState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return turns.move(state, data["seat"])

    def on_cancel(self, state: StrategoState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return turns.cancel(state, data.get("seat"))

    def on_rescue(self, state: StrategoState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        rule = next((v for v in self.rules_in_play(state) if isinstance(v, RescueFromTheBackRow)), None)
        if rule is None:
            raise Refused("no_rescue_rule")
        return (rule.rescue(state, data["seat"], data["card"]),)

    def on_resign(self, state: StrategoState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return turns.resign(state, data["seat"])

    def on_resolve(self, state: StrategoState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        raise Refused("nothing_to_resolve")

    # -- the candidates of buttons that carry a value -------------------------------------------
    def attacking_seat(self, state: StrategoState) -> list[dict[str, Any]]:
        return [] if state.pending is None else [{"seat": state.seat_of(state.pending.colour)}]

    def rescuable(self, state: StrategoState) -> list[dict[str, Any]]:
        """The rescuing side's own captured pieces (each was shown when it was captured)."""
        colour = RescueFromTheBackRow.rescuer(state)
        if colour is None or not RescueFromTheBackRow.on(state.options):
            return []
        return [{"seat": state.seat_of(colour), "card": key} for key, p in sorted(state.pieces.items())
                if p.colour == colour and not p.alive]


GAME = Stratego

from .demo import DEMO  # noqa: E402  (the demo players, found through the registry)

__all__ = ["DEMO", "GAME", "NoSuchSeat", "Quote", "RANK_NAME", "Stratego", "StrategoState", "Verdict",
           "defender_revealed", "fight", "variants_in"]
