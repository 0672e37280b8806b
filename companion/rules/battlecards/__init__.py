"""BATTLECARDS World Conflict, Pacific Theater, WWII: the referee on the contract (docs/referee/
battlecards-pacific.md).

The package, laid out as Stratego's (docs/referee/contract.md):

- ``state``    the typed state: each seat's army, the CONFLICT deck, the turn, the battle
- ``cards``    the deck as the rules read it (a key to its Attack Values, phases, support...)
- ``table``    who stands where: allies, who takes turns and fights in a theatre, where a card is, the turn
- the rules per phase: ``turns`` (setup, the drawing player's CONFLICT card, ARSENAL draws and deployment,
  Kept Cards, emergency deployment, reshuffles), ``battle`` (a BATTLECARD's prerequisites and decision, the
  forces called in, the flip, withdrawal), ``combat`` (the four firing phases, legal targets, the hit rule,
  casualties, stalemate), ``ending`` (who keeps the BATTLECARD, elimination, the war's end); ``aid``,
  ``regroup``, ``raid``, ``liberation`` (combined sets, rules 2, 3, 6 and 7)
- ``variants`` the rules a game is played under, as hook units: the two-player game, the combined sets
- ``odds``     the chance of a shot (exact) and of a battle (exact within the budget, else simulated with its
               error), from what the table can know of the CONFLICT deck (pure); ``question`` its parts,
               ``count`` the exact count, ``simulate`` the simulation, ``forecast`` its questions from the state
- ``words``, ``refusals``, ``view``   every word players read: outcome sentences (``@says``), the words of
               each reason code, the prompt, the buttons, the public and seat views
- ``demo``     simulated players

This module declares the game: its options, its input table, one handler per input.

Cards arrive from the table: a CONFLICT card turned face up lands on the discard pile (zone
``center``), where the camera reads its Action Number; an ARSENAL card drawn is shown to the
seat's reader (``reader:N``, secret); a card laid face down in a seat's area (``seat:N``) is
deployed (a unit) or kept (a "Keep this card" card).
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Catalog

from ..base import Action, Applied, Option, Outcome, Refusal, Seat, SetupError
from ..contract import BOOL, CARD, SEAT, SEAT_ACTS, STR, Field, Game, Input, Refused, card_inputs, zone_seat
from . import aid, battle as battles, combat, forecast, liberation, raid, regroup, simulate, turns
from .cards import SIDE_NAMES, THEATRE_OF, Deck
from .state import Army, PacificState, Stage
from .table import aggressor_seat, where
from .variants import VARIANTS, combined_options, rules_for
from .view import PacificView

SEAT_FIELD = Field("seat", SEAT)


class Pacific(Game[PacificState]):
    game = "battlecards-pacific"
    title = "BATTLECARDS WWII Pacific"
    min_seats, max_seats = 2, 4   # 4: combined with a Western European set (COMBINING SETS, variants.CombinedSets)
    uses_resolve = False
    options = (
        Option("japan_seat", 1, "The seat that plays Japan (the other plays the US). Japan starts.", choices=(1, 2),
               label="Japan plays at seat", choice_labels=("seat 1", "seat 2"), seat=True),
    )
    state_type = PacificState
    view_type = PacificView
    variants = VARIANTS
    zones = ("seat", "center")   # center: the CONFLICT discard pile, where every Action Number is read
    # A unit read face down (deployed, by a seat's reader) is seen anew when its stack is flipped face up in the
    # same area: the flip is how the aggressor says he fights.
    face_down_lies = False
    # Every code the rules refuse with, written out (its words in refusals.py; tests/test_contract_words.py
    # checks each is raised somewhere and worded).
    reasons = frozenset({
        "aid_once", "all_drawn", "ally_not_eliminated", "arsenal_empty", "cannot_support", "convoy_at_turn_start",
        "deploy_three_more", "deployed_three", "discard_face_up", "draw_first", "draw_not_deploy", "draw_six_first",
        "drawn_six", "illegal_target", "keep_from_own_theatre", "kept_not_discarded", "kept_played_in_battle",
        "liberate_first", "liberate_on_own_turn", "no_ally", "no_arsenal_now", "no_draw_now", "no_enemy_eliminated",
        "no_reserve_hand", "no_such_stack", "no_turn_now", "no_unit_firing", "no_unit_left",
        "not_a_battlecards_zone", "not_a_combat_card", "not_a_participant", "not_an_enemy_unit", "not_deciding",
        "not_deployed", "not_in_arsenal", "not_in_conflict_deck", "not_in_hand", "not_in_the_fight",
        "not_in_this_battle", "not_involved", "not_start_of_turn", "not_the_aggressor", "not_the_drawing_player",
        "not_the_looker", "not_the_remaining_player", "not_your_shooter", "not_your_turn", "not_yours_to_lay",
        "only_the_invaded", "other_sides_arsenal", "own_theatre_deck", "pile_holds_conflict_cards", "proper_stack",
        "raid_forces", "regrouped_already", "shot_from_other_theatre", "still_to_draw", "take_or_raid",
        "told_another", "trade_hand_cards"})
    # Every kind the rules decide, written out (each a @says method of words.py; tests/test_contract_words.py
    # checks each is decided somewhere and has its sentence).
    outcome_kinds = frozenset({
        "aim", "aim_lost", "battle_begins", "battle_declined", "battle_drawn", "battle_ignored", "battle_won",
        "casualties", "conflict_drawn", "convoy", "deploy_done", "deployed", "drew_arsenal", "eliminated",
        "emergency_deploy", "fight_on", "game_over", "homeland", "instructed", "intel", "kept", "kept_played",
        "liberated", "liberation", "liberation_failed", "looked", "no_forces", "no_target", "prerequisites_unmet",
        "raid", "raid_offered", "raid_over", "regroup", "regroup_done", "regrouped", "reshuffle", "round", "send",
        "setup_done", "shot", "stalemate", "to_reserve", "trade", "transfer", "turn", "withdraw", "withdrawal_phase"})
    recent_kept = 12                                  # told outcomes the tablet keeps showing (state.recent)
    inputs = (
        *card_inputs(extra=(Field("stack", STR, optional=True),)),
        Input("aim", "on_aim", (SEAT_FIELD, Field("target", CARD), Field("support", CARD, optional=True)),
              ("combat",), SEAT_ACTS, button=True, choices="aim_choices"),
        Input("decide", "on_decide", (SEAT_FIELD, Field("fight", BOOL)), ("decision",), SEAT_ACTS, button=True,
              choices="decide_choices"),
        # Rule 6: a battle of a theatre whose enemy is eliminated: taken without a fight, or a raid instead.
        Input("take", "on_take", (SEAT_FIELD,), ("decision",), SEAT_ACTS, button=True, choices="take_choices"),
        Input("raid", "on_raid", (SEAT_FIELD, Field("forces", STR)), ("decision",), SEAT_ACTS, button=True,
              choices="raid_choices"),
        # Rule 7: instead of the draw, re-fight the battle that eliminated one's ally.
        Input("liberate", "on_liberate", (SEAT_FIELD,), ("draw",), SEAT_ACTS, button=True, confirm=True),
        Input("hold", "on_hold", (SEAT_FIELD,), ("homeland",), SEAT_ACTS, button=True),
        Input("emergency_deploy", "on_emergency", (SEAT_FIELD,), ("draw", "homeland"), SEAT_ACTS, button=True,
              confirm=True),
        Input("withdraw", "on_withdraw", (SEAT_FIELD, Field("unit", CARD, optional=True)), ("withdrawal",), SEAT_ACTS,
              button=True, choices="withdraw_choices"),
        Input("fight_on", "on_fight_on", (SEAT_FIELD,), ("withdrawal",), SEAT_ACTS, button=True),
        Input("look", "on_look", (SEAT_FIELD, Field("stack", STR)), ("look",), SEAT_ACTS, button=True,
              choices="look_choices"),
        Input("done", "on_done", (SEAT_FIELD,), ("arsenal", "aid", "regroup"), SEAT_ACTS, button=True,
              choices="done_choices"),
        # Combining sets, rule 2: from the seat's phone (the cards are secret: never buttons on the tablet).
        Input("transfer", "on_transfer", (SEAT_FIELD, Field("unit", CARD)), ("draw", "aid"), SEAT_ACTS),
        Input("trade", "on_trade", (SEAT_FIELD, Field("give", CARD), Field("take", CARD)), ("draw",), SEAT_ACTS),
        Input("send", "on_send", (SEAT_FIELD,), ("draw",), SEAT_ACTS),
        # Rule 3: the involved forces (seen face up in the battle) to either ally's stacks, after the battle.
        Input("regroup", "on_regroup", (SEAT_FIELD, Field("unit", CARD)), ("regroup",), SEAT_ACTS, button=True,
              choices="regroup_choices"),
    )

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.deck = Deck(catalog)
        simulate.warm_up()      # the odds' shuffles and compiled play-outs, before the first battle asks them

    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> PacificState:
        options = combined_options(seats, options)
        sides, order = rules_for(options).seating(seats, options)
        armies = {n: Army(side=side, theatre=THEATRE_OF[side], arsenal_left=len(self.deck.copies(("unit",), side=side)))
                  for n, side in sides.items()}
        missing = [SIDE_NAMES[a.side] for a in armies.values() if a.arsenal_left == 0]
        theatres = sorted({a.theatre for a in armies.values()})
        decks = {t: self.deck.copies(("battle", "keep", "draw", "intel"), theatre=t) for t in theatres}
        if missing or not all(decks.values()):
            raise SetupError(f"this deck has no ARSENAL cards for {', '.join(missing) or 'every side'} or no CONFLICT "
                             f"deck for every theatre: describe the Western European set as a custom deck "
                             f"(docs/decks/README.md)")
        return PacificState(seats=seats, options=options, armies=armies, order=order,
                            conflict_left={t: len(d) for t, d in decks.items()},
                            conflict_discard={t: [] for t in theatres}, conflict_pool={t: list(d) for t, d in decks.items()})

    def apply(self, state: PacificState, action: Action) -> Applied | Refusal:
        result = super().apply(state, action)
        if isinstance(result, Applied):
            self._tidy_pile(result.state)
            forecast.note_battle_odds(self.deck, result.state, result.outcomes)
        return result

    def _tidy_pile(self, state: PacificState) -> None:
        """A card lies on the discard pile only while it is in it: a pile reshuffled into the deck (even
        the card that emptied the deck) or a BATTLECARD taken by its winner is seen there again as new. A unit
        lies face up in a seat's area only while its battle is fought: after it, the stacks are turned face
        down, and the unit flipped again for the next battle is news (it may say the aggressor fights)."""
        on_pile = {k for pile in state.conflict_discard.values() for k in pile} | \
            ({state.pending} if state.pending else set()) | ({state.battle.card} if state.battle else set())
        fighting = set(state.battle.units) if state.battle and state.stage != Stage.HOMELAND else set()
        for key, zones in list(state.lying.items()):
            if "center" in zones and key not in on_pile:
                state.lift(key, "center")
            if key not in fighting and self.deck.is_unit(key):
                for zone in [z for z in zones if z.startswith("seat:")]:
                    state.lift(key, zone)

    def phase(self, state: PacificState) -> str:
        return Stage.OVER.value if state.over else state.stage.value

    # -- cards from the table ----------------------------------------------------------------------
    def on_card_seen(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...] | None:
        if state.over:
            return None
        key, zone = data["card"], data["zone"]
        if zone == "center":
            return tuple(self._on_pile(state, key))
        seat = self._zone_seat(state, zone)
        face_down = zone.startswith("seat:") and bool(data.get("face_down"))
        if self.deck.is_unit(key):
            return tuple(self._arsenal_card(state, seat, key, zone, face_down, data.get("stack")))
        place = where(state, key)
        if place in (f"kept:{seat}", f"won:{seat}"):
            return None   # a card the seat holds, seen where it holds it
        if place is not None:
            raise Refused("not_yours_to_lay", seat)
        if state.stage != Stage.DRAW:
            raise Refused("no_draw_now")
        return tuple(turns.kept(self.deck, state, seat, key))

    def on_card_gone(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...] | None:
        """Cards are picked up all the time (a stack turned back after a battle, the pile squared). In the
        withdrawal phase, a unit still fighting picked up from its seat's area is withdrawn ("the aggressor and
        then the defender have an opportunity to withdraw any or all of their deployed forces")."""
        key, zone = data["card"], data["zone"]
        battle = state.battle
        if state.stage != Stage.WITHDRAWAL or battle is None or key not in battle.units:
            return None
        seat = battle.owner[key]
        if zone != f"seat:{seat}" or key not in battle.fighting(battle.side_of(seat)):
            return None
        return battles.on_withdraw(self.deck, state, seat, key)

    def _zone_seat(self, state: PacificState, zone: str) -> int:
        seat = zone_seat(zone)
        if seat is not None and seat in state.armies:
            return seat
        raise Refused("not_a_battlecards_zone", zone=zone)

    def _arsenal_card(self, state: PacificState, seat: int, key: str, zone: str, face_down: bool,
                      stack: str | None) -> list[Outcome]:
        if zone.startswith("seat:") and not face_down:
            # A unit face up in its seat's area: a stack flipped for a battle (by the aggressor: he fights it).
            if state.stage == Stage.DECISION and battles.flipped_to_fight(self.deck, state, seat, key):
                return list(battles.on_decide(self.deck, state, seat, True))
            return []
        if face_down and key in state.armies[seat].deployed():
            return []
        if state.stage == Stage.SETUP:
            return turns.setup_card(self.deck, state, seat, key, face_down, stack)
        if state.stage == Stage.ARSENAL:
            return turns.task_card(self.deck, state, seat, key, face_down, stack)
        raise Refused("no_arsenal_now")

    def _on_pile(self, state: PacificState, key: str) -> list[Outcome]:
        deck = self.deck
        if not deck.is_conflict(key):
            raise Refused("pile_holds_conflict_cards")
        place = where(state, key)
        if place == "discard":
            return []   # seen again on the pile
        if place and place.startswith("kept:"):
            return self._play_kept(state, int(place.partition(":")[2]), key)
        if place is not None:
            raise Refused("not_in_conflict_deck", card=key, place=place)
        if state.stage in (Stage.COMBAT, Stage.WITHDRAWAL):
            if deck.theatre(key) != deck.theatre(state.fight().card):
                raise Refused("shot_from_other_theatre")
            fought_on = battles.fight_on_by_the_card(deck, state) if state.stage == Stage.WITHDRAWAL else []
            if state.stage != Stage.COMBAT:
                raise Refused("no_turn_now")
            before = forecast.odds_before_shot(deck, state)
            outcomes = combat.fire(deck, state, key)
            forecast.note_shot_odds(outcomes, before)
            return fought_on + outcomes + turns.take_conflict(deck, state, key, to_discard=True)
        if state.stage == Stage.DRAW:
            return turns.conflict_drawn(deck, state, key)
        raise Refused("no_turn_now")

    def _play_kept(self, state: PacificState, seat: int, key: str) -> list[Outcome]:
        if self.deck.card(key).get("draw"):
            return turns.play_convoy(self.deck, state, seat, key)
        if state.stage not in (Stage.COMBAT, Stage.WITHDRAWAL):
            raise Refused("kept_played_in_battle", seat, card=key)
        out = combat.play_bonus(self.deck, state, seat, key)
        state.conflict_discard[self.deck.theatre(key)].append(key)
        turns.seen_face_up(self.deck, state, key)
        return out

    # -- commands ------------------------------------------------------------------------------------------
    def on_aim(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return combat.on_aim(self.deck, state, data["seat"], data["target"], data.get("support"))

    def on_decide(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battles.on_decide(self.deck, state, data["seat"], data["fight"])

    def on_take(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return raid.on_take(self.deck, state, data["seat"])

    def on_raid(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return raid.on_raid(self.deck, state, data["seat"], data["forces"])

    def on_liberate(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return liberation.on_liberate(self.deck, state, data["seat"])

    def on_hold(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battles.on_hold(self.deck, state, data["seat"])

    def on_emergency(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return turns.on_emergency(self.deck, state, data["seat"])

    def on_withdraw(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return battles.on_withdraw(self.deck, state, data["seat"], data.get("unit"))

    def on_fight_on(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return tuple(battles.on_fight_on(self.deck, state, data["seat"]))

    def on_look(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return turns.on_look(state, data["seat"], data["stack"])

    def on_done(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        if state.stage == Stage.REGROUP:
            return regroup.on_done(state, data["seat"])
        return turns.on_done(state, data["seat"])

    def on_regroup(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return regroup.on_regroup(self.deck, state, data["seat"], data["unit"])

    def on_transfer(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return aid.on_transfer(self.deck, state, data["seat"], data["unit"])

    def on_trade(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return aid.on_trade(state, data["seat"], data["give"], data["take"])

    def on_send(self, state: PacificState, data: dict[str, Any]) -> tuple[Outcome, ...]:
        return aid.on_send(state, data["seat"])

    # -- button candidates ---------------------------------------------------------------------------------
    def aim_choices(self, state: PacificState) -> list[dict[str, Any]]:
        battle = state.battle
        if battle is None or not battle.queue:
            return []
        shooter = battle.queue[0]
        return [{"seat": battle.owner[shooter], "target": t} for t in combat.legal_targets(self.deck, battle, shooter)]

    def decide_choices(self, state: PacificState) -> list[dict[str, Any]]:
        if state.pending is None:
            return []
        seat = aggressor_seat(self.deck, state, state.pending)
        return [{"seat": seat, "fight": True}, {"seat": seat, "fight": False}]

    def withdraw_choices(self, state: PacificState) -> list[dict[str, Any]]:
        battle = state.battle
        if battle is None:
            return []
        found: list[dict[str, Any]] = [{"seat": s} for s in battle.army(battle.deciding)]
        found += [{"seat": battle.owner[k], "unit": k} for k in battle.fighting(battle.deciding)]
        return found

    def take_choices(self, state: PacificState) -> list[dict[str, Any]]:
        return [{"seat": c["seat"]} for c in raid.choices(self.deck, state)][:1]

    def raid_choices(self, state: PacificState) -> list[dict[str, Any]]:
        return raid.choices(self.deck, state)

    def regroup_choices(self, state: PacificState) -> list[dict[str, Any]]:
        return regroup.choices(state)

    def done_choices(self, state: PacificState) -> list[dict[str, Any]]:
        if state.stage == Stage.REGROUP and state.regroup is not None:
            return [{"seat": s} for s in sorted(state.regroup.ally) if s not in state.regroup.done]
        if state.stage == Stage.AID:
            return [{"seat": state.turn}]
        return [{"seat": state.task.seat}] if state.task else []

    def look_choices(self, state: PacificState) -> list[dict[str, Any]]:
        return [{"seat": state.task.seat, "stack": t} for t in turns.STACKS] if state.task else []

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        return self.view.redact(kind, data)


GAME = Pacific

__all__ = ["GAME", "Pacific"]


def __getattr__(name: str) -> Any:
    # The demo players load lazily: the referee does not need them.
    if name == "DEMO":
        from .demo import DEMO
        return DEMO
    raise AttributeError(name)
