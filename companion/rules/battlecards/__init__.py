"""BATTLECARDS World Conflict, Pacific Theater, WWII: the referee on the contract (docs/referee/
battlecards-pacific.md). One concern per module:

- ``state``    the typed state: each seat's army, the CONFLICT deck, the turn, the battle
- ``cards``    the deck as the rules read it (a key to its Attack Values, phases, support...)
- ``turns``    setup, the drawing player's CONFLICT card, ARSENAL draws and deployment, Kept Cards,
               emergency deployment, reshuffles
- ``battle``   a BATTLECARD's prerequisites and decision, the forces called in, the flip, withdrawal
- ``combat``   the four firing phases, legal targets, the hit rule, casualties, stalemate
- ``ending``   who keeps the BATTLECARD, elimination, the next turn, the war's end
- ``aid``, ``regroup``, ``raid``, ``liberation``   combined sets (four players): rules 2, 3, 6 and 7
- ``odds``     the chance of a shot (exact) and of a battle (exact within the budget, else simulated with its
               error), from what the table can know of the CONFLICT deck (pure); ``question`` its parts,
               ``count`` the exact count, ``simulate`` the simulation, ``forecast`` its questions from the state
- ``view``     every word players read, the public and seat views
- ``demo``     simulated players

Cards arrive from the table: a CONFLICT card turned face up lands on the discard pile (zone
``center``), where the camera reads its Action Number; an ARSENAL card drawn is shown to the
seat's reader (``reader:N``, secret); a card laid face down in a seat's area (``seat:N``) is
deployed (a unit) or kept (a "Keep this card" card).
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Catalog

from ..base import Action, Applied, Option, Outcome, Refusal, Seat, SetupError
from ..contract import BOOL, CARD, SEAT, SEAT_ACTS, STR, Field, Game, Input, Refused, card_inputs
from . import aid, battle as battles, combat, forecast, liberation, raid, regroup, turns
from .cards import SIDE_NAMES, THEATRE_OF, Deck
from .state import Army, PacificState, Said, Stage, Told
from .view import PacificView

COMBINED_SIDES = ("germany", "britain", "japan", "us")
RECENT = 12   # outcomes the tablet keeps showing

SEAT_FIELD = Field("seat", SEAT)


class Pacific(Game):
    game = "battlecards-pacific"
    title = "BATTLECARDS WWII Pacific"
    min_seats, max_seats = 2, 4   # 4: combined with a Western European set (COMBINING SETS)
    uses_resolve = False
    options = (
        Option("japan_seat", 1, "The seat that plays Japan (the other plays the US). Japan starts.", choices=(1, 2),
            label="Japan plays at seat", choice_labels=("seat 1", "seat 2")),
    )
    view_type = PacificView
    zones = ("seat", "center")   # center: the CONFLICT discard pile, where every Action Number is read
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

    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> PacificState:
        if len(seats) == 4:
            # "Turn order goes German, British, Japanese, and US."
            sides, order = dict(zip((1, 2, 3, 4), COMBINED_SIDES, strict=True)), [1, 2, 3, 4]
        elif len(seats) == 2:
            japan = options["japan_seat"]
            sides = {s.number: ("japan" if s.number == japan else "us") for s in seats}
            order = [japan] + [n for n in sides if n != japan]
        else:
            raise SetupError("BATTLECARDS is played by two players, or four with the Western European set combined")
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
        if isinstance(result, Applied) and result.outcomes:
            result.state.recent += [Told(kind=o.kind, say=o.say, terms=[Said(label=t.label, value=str(t.value), detail=t.detail)
                                                                       for t in o.terms]) for o in result.outcomes]
            del result.state.recent[:-RECENT]
        return result

    @staticmethod
    def _tidy_pile(state: PacificState) -> None:
        """A card lies on the discard pile only while it is in it: a pile reshuffled into the deck (even
        the card that emptied the deck) or a BATTLECARD taken by its winner is seen there again as new."""
        on_pile = {k for pile in state.conflict_discard.values() for k in pile} | {state.pending} | \
            ({state.battle.card} if state.battle else set())
        for key, zones in list(state.lying.items()):
            if "center" in zones and key not in on_pile:
                state.lift(key, "center")

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
        place = turns.where(state, key)
        if place in (f"kept:{seat}", f"won:{seat}"):
            return None   # a card the seat holds, seen where it holds it
        if place is not None:
            raise Refused(f"That card is not {state.name(seat)}'s to lay there.")
        if state.stage != Stage.DRAW:
            raise Refused(f"No CONFLICT card is drawn now: {self.view.waiting(state)}")
        return tuple(turns.kept(self.deck, state, seat, key))

    def on_card_gone(self, state: PacificState, data: dict[str, Any]) -> None:
        return None   # cards are picked up all the time (a stack flipped back, the pile squared)

    def _zone_seat(self, state: PacificState, zone: str) -> int:
        kind, _, number = zone.partition(":")
        if kind in ("seat", "reader") and number.isdigit() and int(number) in state.armies:
            return int(number)
        raise Refused(f"BATTLECARDS reads the CONFLICT discard pile (center), each seat's area (seat:N) and each "
                      f"seat's reader (reader:N), not {zone!r}.")

    def _arsenal_card(self, state: PacificState, seat: int, key: str, zone: str, face_down: bool,
                      stack: str | None) -> list[Outcome]:
        if zone.startswith("seat:") and not face_down:
            return []   # a unit face up in its seat's area: a stack flipped for a battle
        if face_down and key in state.armies[seat].deployed():
            return []
        if state.stage == Stage.SETUP:
            return turns.setup_card(self.deck, state, seat, key, face_down, stack)
        if state.stage == Stage.ARSENAL:
            return turns.task_card(self.deck, state, seat, key, face_down, stack)
        raise Refused(f"No ARSENAL card is drawn or deployed now: {self.view.waiting(state)}")

    def _on_pile(self, state: PacificState, key: str) -> list[Outcome]:
        deck = self.deck
        if not deck.is_conflict(key):
            raise Refused("\"Destroyed units must be discarded face up into a discard pile next to the player's "
                          "ARSENAL deck\": the CONFLICT discard pile holds CONFLICT cards only.")
        place = turns.where(state, key)
        if place == "discard":
            return []   # seen again on the pile
        if place and place.startswith("kept:"):
            return self._play_kept(state, int(place.partition(":")[2]), key)
        if place is not None:
            raise Refused(f"{deck.card(key).name} is not in the CONFLICT deck: it is {place.replace(':', ' of seat ')}.")
        if state.stage == Stage.COMBAT:
            if deck.theatre(key) != deck.theatre(state.battle.card):
                raise Refused("\"each player will draw from their own theatre's conflict deck at all times\": this "
                              "battle's shots are turned from its own theatre's CONFLICT deck.")
            before = forecast.odds_before_shot(deck, state)
            outcomes = list(combat.fire(deck, state, key))
            forecast.note_shot_odds(outcomes, before)
            out: list[Outcome] = []
            turns.take_conflict(deck, state, key, to_discard=True, out=out)
            return outcomes + out
        if state.stage == Stage.DRAW:
            return turns.conflict_drawn(deck, state, key)
        raise Refused(f"No CONFLICT card is turned now: {self.view.waiting(state)}")

    def _play_kept(self, state: PacificState, seat: int, key: str) -> list[Outcome]:
        if self.deck.card(key).get("draw"):
            return turns.play_convoy(self.deck, state, seat, key)
        if state.stage not in (Stage.COMBAT, Stage.WITHDRAWAL):
            raise Refused(f"{self.deck.card(key).name} is played in a battle.")
        out = list(combat.play_bonus(self.deck, state, seat, key))
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
        seat = battles.aggressor_seat(self.deck, state, state.pending)
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
        if state.stage == Stage.REGROUP:
            return [{"seat": s} for s in sorted(state.regroup.ally) if s not in state.regroup.done]
        if state.stage == Stage.AID:
            return [{"seat": state.turn}]
        return [{"seat": state.task.seat}] if state.task else []

    def look_choices(self, state: PacificState) -> list[dict[str, Any]]:
        return [{"seat": state.task.seat, "stack": t} for t in ("ground", "air", "sea")] if state.task else []

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        return self.view.redact(kind, data)


GAME = Pacific

__all__ = ["GAME", "Pacific"]


def __getattr__(name: str):
    # The demo players load lazily: the referee does not need them.
    if name == "DEMO":
        from .demo import DEMO
        return DEMO
    raise AttributeError(name)
