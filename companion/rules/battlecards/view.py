"""Every word the table reads besides the outcome sentences (words.py) and the refusals' words
(refusals.py): the prompt, button labels, and the public and seat views. The public view holds no Reserve
Hand, no face-down stack and no Kept Card."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Required, TypedDict

from ..base import CardFace, Result, ResultJSON, SeatBox, Standing
from ..contract import Offer, scoreboard
from . import combat, forecast, refusals as refusal_words
from .cards import SIDE_NAMES
from .liberation import fallen_ally
from .regroup import holder
from .forecast import OddsJSON
from .state import TYPES, Battle, PacificState, Shot, Stage
from .table import aggressor_seat, involved
from .variants import in_play
from .words import WHY_SHORT, Sayings

THEATRE_NAMES = {"pacific": "Pacific", "western": "Western European"}
PHASE_WORDS = {1: "phase 1", 2: "phase 2", 3: "phase 3", 4: "phase 4"}
FORCE_WORDS = {"ground_air": "Ground and Air", "air_sea": "Air and Sea"}
# What the table is doing about the card drawn, before and during its combat (over the result box).
STAGE_WORDS = {"decision": "fight or not?", "homeland": "the homeland's defence", "combat": "firing",
               "withdrawal": "withdraw or not?", "regroup": "regrouping"}


def pct(p: float) -> str:
    return f"{round(p * 100)}%"


class Support(TypedDict):
    """What a supporting unit adds, and to which unit types."""

    attack: int
    defense: int
    types: list[str]


class PacificCard(CardFace, total=False):
    """A card face up as the tablet draws it (``CardFace``: key, name, kind); a unit adds its figures
    (unit type, rank, firing phases, Attack and Defense Values by target type, its support), a
    CONFLICT card its action number and, where the card has them, its VP, aggressor, units and text."""

    type: str
    rank: str
    phases: list[int]
    attack: dict[str, int | None]
    defense: dict[str, int | None]
    support: Support
    action: int
    vp: int
    aggressor: str
    units: list[str]
    text: str


class HeldCard(PacificCard, total=False):
    """A unit card with the seat that holds it (a regroup's survivors)."""

    seat: Required[int | None]   # None: deployed by none of the participants


class FightingUnit(PacificCard, total=False):
    """A unit in the battle: its card, the seat that deployed it, its side (``aggressor``, ``defender``)
    and its ``status``: ``fighting``, ``hit`` (in this volley), ``destroyed`` or ``withdrawn``."""

    seat: Required[int]
    side: Required[str]
    status: Required[str]


class ShotJSON(TypedDict):
    """One shot, every term of the ruling (``state.Shot``: the CONFLICT card turned, its Action Number,
    the Attack and Defense with their bonuses, the supporting unit, hit or not), with ``why`` in words
    ("in range"), the two units' names and the shot told in one sentence (``say``)."""

    number: int
    round: int
    phase: int
    seat: int
    unit: str
    target: str
    target_seat: int
    card: str
    action: int
    attack: int
    defense: int
    attack_bonus: int
    defense_bonus: int
    support: str | None
    hit: bool
    why: str
    unit_name: str
    target_name: str
    say: str


class FightJSON(TypedDict, total=False):
    """The battle in play (``fight``): its BATTLECARD, the seats of each army and the units flipped into it.
    While the defenders decide whether to deploy their Reserve Hand (a homeland invaded) that is all, and
    ``units`` is empty; once the fighting begins it adds the raid's force types (combined sets, rule 6),
    the ally it may liberate (rule 7), the round and firing phase, which army fires and which decides in
    the withdrawal phase, the unit firing (``shooter``) and its target (``aim``), the Kept Cards played
    this round (``bonuses``) and the last 30 shots."""

    card: Required[PacificCard]
    aggressors: Required[list[int]]
    defenders: Required[list[int]]
    units: Required[list[FightingUnit]]
    raid: list[str]
    liberates: int | None
    round: int
    phase: int
    firing: str
    deciding: str
    shooter: str | None
    aim: str | None
    bonuses: list[PacificCard]
    shots: list[ShotJSON]


class PileJSON(TypedDict):
    """One theatre's CONFLICT deck and discard pile: cards left, discarded, the top card face up, the
    discard pile's keys and how many cards of the theatre are still unseen."""

    theatre: str
    theatre_name: str
    left: int
    discard: int
    top: PacificCard | None
    pile: list[str]
    unseen: int


class RegroupJSON(TypedDict):
    """A battle's survivors waiting to be sent to an ally (combined sets): the card, the units, the
    seats that send and those done."""

    card: PacificCard
    units: list[HeldCard]
    seats: list[int]
    done: list[int]


class TaskJSON(TypedDict):
    """A card's instruction under way: cards still to draw, to deploy, and what an intel card looks at."""

    seat: int
    card: PacificCard
    draw: int
    deploy: int
    look: str


class PacificSeatRow(SeatBox, total=False):
    """A seat's row (``seats``): the seat box's keys (``total``: its victory points, ``counts``: its
    piles and stacks), and what battlecards-pacific.js reads besides."""

    side: str
    side_name: str
    vp: int
    handless: bool                  # emergency-deployed: no Reserve Hand until it replenishes
    won: list[PacificCard]          # the BATTLECARDS it has won, face up


@dataclass(frozen=True, kw_only=True)
class PacificTable:
    """BATTLECARDS' own part of the public view (docs/referee/battlecards-pacific.md lists each field);
    the standings, winners and the result box are the shared part's (``PacificView.standings``, ...)."""

    game: str
    stage: str
    turn: int
    turn_number: int
    victory: str
    vp_target: int
    seats: list[PacificSeatRow]
    conflict: PileJSON
    other_piles: list[PileJSON]
    pending: PacificCard | None
    regroup: RegroupJSON | None
    task: TaskJSON | None
    fight: FightJSON | None
    odds: OddsJSON | None
    recent: list[ResultJSON]


@dataclass(frozen=True, kw_only=True)
class PacificSeat(PacificTable):
    """A seat's own part: the table's (its ``odds`` as this seat may know them), and its own army: its
    Reserve Hand, kept cards, deployed stacks by type and the cards it has seen."""

    seat: int
    name: str
    side: str
    hand: list[PacificCard]
    kept: list[PacificCard]
    stacks: dict[str, list[PacificCard]]
    seen: list[PacificCard]


class PacificView(Sayings):
    """Every word of BATTLECARDS: the outcome sentences (@says, words.py), the refusals' words (refusals.py),
    the prompt, the buttons and the views."""

    refusals = refusal_words.WORDS

    def refusal_facts(self, code: str, data: dict[str, Any], state: PacificState) -> dict[str, Any]:
        return refusal_words.facts(code, data, state, self.name, lambda: self.waiting(state))

    # -- the prompt ------------------------------------------------------------------------------------
    def prompt(self, state: PacificState, offers: list[Offer]) -> str:
        return self.waiting(state)

    def waiting(self, state: PacificState) -> str:
        if state.over:
            return f"The war is over: {self.army_words(state, state.winners)} won."
        stage, turn = state.stage, state.turn
        if stage == Stage.SETUP:
            left = [f"{state.name(s)} ({a.setup_drawn}/6 drawn, {len(a.deployed())}/3 deployed)"
                    for s, a in state.armies.items() if a.setup_drawn < 6 or len(a.deployed()) < 3]
            return ("Setup: draw 6 ARSENAL cards (show each to your reader), then deploy 3 face down in your Ground, "
                    "Air and Sea stacks. Waiting for " + ", ".join(left) + ".")
        if stage == Stage.DRAW:
            return (f"{self.who(state, turn)}: draw a CONFLICT card and turn it onto the discard pile (a \"Keep this "
                    f"card\" card goes face down beside your stacks), or emergency-deploy your Reserve Hand.")
        if stage == Stage.ARSENAL:
            t = state.drawn_task()
            if t.draw:
                return f"{state.name(t.seat)}: draw {t.draw} more ARSENAL card{'s' if t.draw != 1 else ''} (show each to your reader)."
            if t.exact:
                return f"{state.name(t.seat)}: deploy {t.deploy} more card{'s' if t.deploy != 1 else ''} face down."
            return f"{state.name(t.seat)}: deploy up to {t.deploy} card{'s' if t.deploy != 1 else ''} face down, or tap Done."
        if stage == Stage.AID:
            return f"{state.name(turn)}: transfer up to {3 - state.transferred} more deployed cards to your ally, or tap Done."
        if stage == Stage.LOOK:
            return f"{state.name(state.drawn_task().seat)}: choose the stack to look at, on your phone or here."
        if stage == Stage.DECISION:
            card = state.battlecard()
            seat = in_play(state).raider(self.deck, state, card)
            if seat is not None:
                return (f"{self.name(card)}: {self.who(state, seat)}, take it without a fight, or discard it and "
                        f"raid the enemy in the other theatre (Ground and Air, or Air and Sea).")
            aggressor = aggressor_seat(self.deck, state, card)
            types = " and ".join(t.title() for t in self.deck.card(card)["units"])
            stacks = "stack" if len(self.deck.card(card)["units"]) == 1 else "stacks"
            if not involved(self.deck, state, [aggressor], Battle(card=card, aggressors=[aggressor], defenders=[])):
                return (f"{self.name(card)}: {self.who(state, aggressor)}, you have no {types} forces deployed: tap "
                        f"\"fight\" (and lose it) or \"do not fight\".")
            return (f"{self.name(card)}: {self.who(state, aggressor)}, flip your {types} {stacks} face up to fight this "
                    f"battle, or tap \"do not fight\".")
        if stage == Stage.REGROUP:
            regroup = state.regrouping()
            waiting = [s for s in sorted(regroup.ally) if s not in regroup.done]
            return (f"After {self.name(regroup.card)}: {self.army_words(state, waiting)}, send the involved forces to "
                    f"either ally's stacks, or tap Done.")
        battle = state.fight()
        if stage == Stage.HOMELAND:
            return f"{self.army_words(state, battle.defenders)}: your homeland is invaded. Deploy your Reserve Hand, or hold it."
        if stage == Stage.COMBAT:
            shooter = battle.queue[0]
            head = (f"Round {battle.round}, {PHASE_WORDS[battle.phase]}: {self.army_words(state, battle.army(battle.firing))} "
                    f"fire{'s' if len(battle.army(battle.firing)) == 1 else ''}. {self.name(shooter)}")
            if battle.aim:
                return f"{head} fires at {self.name(battle.aim)}: turn a CONFLICT card onto the discard pile."
            targets = combat.legal_targets(self.deck, battle, shooter)
            if len(targets) == 1:
                return f"{head} fires at {self.name(targets[0])} (the only target): turn a CONFLICT card onto the discard pile."
            target = combat.likeliest_target(self.deck, battle, shooter)
            assert target is not None
            return (f"{head} fires at {self.name(target)} (the likeliest to be destroyed): turn a CONFLICT card onto the "
                    f"discard pile, or {state.name(battle.owner[shooter])} taps another target first.")
        if stage == Stage.WITHDRAWAL:
            deciding = battle.army(battle.deciding)
            then = f", then {self.army_words(state, battle.defenders)}" if battle.deciding == "aggressor" else ""
            return (f"Withdrawal phase: {self.army_words(state, deciding)}{then}, tap to withdraw any or all of your "
                    f"units; or turn the next CONFLICT card onto the discard pile to fight on.")
        return ""

    # -- buttons ----------------------------------------------------------------------------------------
    def button(self, offer: Offer, state: PacificState) -> str:
        d, name = offer.data, state.name(offer.data.get("seat", 0)) if "seat" in offer.data else ""
        if offer.kind == "aim":
            found = forecast.battle_forecast(self.deck, state)
            shot = next((s for s in (found["shots"] if found else []) if s["target"] == d["target"]), None)
            chance = f" ({pct(shot['chance'])} to hit)" if shot else ""
            return f"{self.name(state.fight().queue[0])} fires at {self.name(d['target'])}{chance}"
        if offer.kind == "decide":
            return f"{name}: fight {self.name(state.battlecard())}" if d["fight"] else f"{name}: do not fight"
        if offer.kind == "liberate":
            ally = fallen_ally(state, d["seat"])
            return f"{name}: counterattack to liberate {state.name(ally) if ally is not None else 'an ally'}"
        if offer.kind == "take":
            return f"{name}: take {self.name(state.battlecard())} without a fight"
        if offer.kind == "raid":
            return f"{name}: raid with " + FORCE_WORDS[d["forces"]]
        if offer.kind == "regroup":
            return f"{name} sends {self.name(d['unit'])} to {state.name(state.regrouping().ally[d['seat']])}"
        if offer.kind == "done" and state.stage == Stage.REGROUP:
            return f"{name}: done"
        if offer.kind == "withdraw":
            return f"{name} withdraws {self.name(d['unit'])}" if d.get("unit") else f"{name} withdraws everything"
        return {"hold": f"{name}: hold the Reserve Hand", "emergency_deploy": f"{name}: emergency-deploy the Reserve Hand",
                "fight_on": f"{name} fights on", "look": f"{name} looks at the {str(d.get('stack', '')).title()} stack",
                "done": f"{name}: done deploying"}.get(offer.kind, offer.kind.replace("_", " "))

    # -- views ------------------------------------------------------------------------------------------
    def card(self, key: str) -> PacificCard:
        c = self.deck.card(key)
        out: PacificCard = {"key": key, "name": c.name, "kind": c.kind}
        if c.kind == "unit":
            out.update({"type": c["unit_type"], "rank": c["rank"], "phases": c["phases"],
                        "attack": {t: c.get(f"attack_{t}") for t in TYPES}, "defense": {t: c.get(f"defense_{t}") for t in TYPES}})
            if c.get("supports"):
                out["support"] = {"attack": c.get("support_attack", 0), "defense": c.get("support_defense", 0),
                                  "types": c["supports"]}
        else:
            out["action"] = c["action"]
            if c.get("vp") is not None:
                out["vp"] = c["vp"]
            if c.get("aggressor") is not None:
                out["aggressor"] = c["aggressor"]
            if c.get("units") is not None:
                out["units"] = c["units"]
            if c.get("text") is not None:
                out["text"] = c["text"]
        return out

    # -- the shared part of the views (contract.TableView) -------------------------------------------
    def standings(self, state: PacificState, viewer: int | None) -> tuple[Standing, ...]:
        """Victory points per seat, most first; a seat whose army is destroyed is out."""
        return scoreboard(state.seats, {n: a.vp for n, a in state.armies.items()}, "vp",
                          out={n for n, a in state.armies.items() if a.eliminated})

    def winners(self, state: PacificState) -> tuple[int, ...]:
        return tuple(state.winners)

    def progress(self, state: PacificState) -> tuple[str, ...]:
        """The header line: the turn, then the phase."""
        return (f"Turn {state.turn_number}",) * bool(state.turn_number) + super().progress(state)

    def result_label(self, state: PacificState, result: Result) -> str:
        """While a BATTLECARD drawn is being dealt with, the result box names it and what the table is doing
        about it ("Pearl Harbor: firing"). BATTLECARDS numbers no combats (the tablet said "Combat 1" for
        every battle while the heading was made from Stratego's combat count)."""
        if state.pending:
            return f"{self.deck.card(state.pending).name}: {STAGE_WORDS.get(state.stage.value, 'in progress')}"
        return super().result_label(state, result)

    def result(self, state: PacificState, viewer: int | None) -> Result | None:
        """The last outcome the table was told, worded now (the state keeps its kind and data only)."""
        return self.result_of(state.last[-1].kind, state.last[-1].data, state) if state.last else None

    def public(self, state: PacificState) -> PacificTable:
        target = in_play(state).vp_target
        seats: list[PacificSeatRow] = [
            {"seat": s.number, "name": s.name, "side": a.side, "side_name": SIDE_NAMES[a.side], "vp": a.vp,
             "total": a.vp, "total_label": "VP", "eliminated": a.eliminated, "handless": a.handless,
             "counts": {"hand": len(a.hand), "kept": len(a.kept), "discard": len(a.arsenal_discard),
                        "arsenal": a.arsenal_left, **{t: len(a.stacks[t]) for t in TYPES}},
             "won": [self.card(k) for k in a.won]}
            for s, a in ((s, state.armies[s.number]) for s in state.seats)]
        theatre = state.armies[state.turn].theatre if state.turn else "pacific"
        return PacificTable(
            game=self.game.game, stage=state.stage.value, turn=state.turn, turn_number=state.turn_number,
            victory=state.victory, vp_target=target, seats=seats,
            conflict=self.pile(state, theatre),
            # Combined sets: the other theatre's pile too, face up on the table like this one.
            other_piles=[self.pile(state, t) for t in sorted(state.conflict_left) if t != theatre],
            pending=self.card(state.pending) if state.pending else None,
            regroup=({"card": self.card(state.regroup.card), "units": [
                self.held(k, holder(state, k))
                for k in state.regroup.units], "seats": sorted(state.regroup.ally),
                "done": state.regroup.done} if state.regroup else None),
            task=({"seat": state.task.seat, "card": self.card(state.task.card), "draw": state.task.draw,
                   "deploy": state.task.deploy, "look": state.task.look} if state.task else None),
            fight=self.battle(state), odds=forecast.battle_forecast(self.deck, state),
            recent=[self.result_of(t.kind, t.data, state).as_dict() for t in state.recent])

    def held(self, key: str, seat: int | None) -> HeldCard:
        card: HeldCard = {**self.card(key), "seat": seat}
        return card

    def pile(self, state: PacificState, theatre: str) -> PileJSON:
        """One theatre's CONFLICT deck and discard pile (public: every card on the pile is face up)."""
        discard = state.conflict_discard.get(theatre, [])
        return {"theatre": theatre, "theatre_name": THEATRE_NAMES.get(theatre, theatre),
                "left": state.conflict_left.get(theatre, 0), "discard": len(discard),
                "top": self.card(discard[-1]) if discard else None, "pile": list(discard),
                "unseen": len(state.conflict_pool.get(theatre, []))}

    def battle(self, state: PacificState) -> FightJSON | None:
        battle = state.battle
        if battle is None or state.stage == Stage.HOMELAND:
            return None if battle is None else {"card": self.card(battle.card), "aggressors": battle.aggressors,
                                                "defenders": battle.defenders, "units": []}

        def status(k: str) -> str:
            return ("destroyed" if k in battle.destroyed else "withdrawn" if k in battle.withdrawn
                    else "hit" if k in battle.casualties else "fighting")
        units: list[FightingUnit] = [{**self.card(k), "seat": battle.owner[k], "side": battle.side_of(battle.owner[k]),
                                      "status": status(k)} for k in battle.units]
        return {"card": self.card(battle.card), "aggressors": battle.aggressors, "defenders": battle.defenders,
                "raid": battle.raid, "liberates": battle.liberates, "round": battle.round, "phase": battle.phase,
                "firing": battle.firing, "deciding": battle.deciding,
                "shooter": battle.queue[0] if state.stage == Stage.COMBAT and battle.queue else None,
                "aim": battle.aim, "bonuses": [self.card(k) for k in battle.bonuses],
                "units": units, "shots": [self.shot(s) for s in battle.shots[-30:]]}

    def shot(self, s: Shot) -> ShotJSON:
        """A shot as the tablet lists it: every field of ``Shot``, ``why`` in words, the names and the sentence."""
        return {"number": s.number, "round": s.round, "phase": s.phase, "seat": s.seat, "unit": s.unit,
                "target": s.target, "target_seat": s.target_seat, "card": s.card, "action": s.action,
                "attack": s.attack, "defense": s.defense, "attack_bonus": s.attack_bonus,
                "defense_bonus": s.defense_bonus, "support": s.support, "hit": s.hit, "why": WHY_SHORT[s.why],
                "unit_name": self.name(s.unit), "target_name": self.name(s.target), "say": self.shot_words(vars(s))}

    def seat(self, state: PacificState, seat: int) -> PacificSeat:
        army = state.armies[seat]
        table = {**vars(self.public(state)), "odds": forecast.battle_forecast(self.deck, state, seat)}
        return PacificSeat(**table, seat=seat, name=state.name(seat), side=army.side,
                           hand=[self.card(k) for k in army.hand], kept=[self.card(k) for k in army.kept],
                           stacks={t: [self.card(k) for k in army.stacks[t]] for t in TYPES},
                           seen=[self.card(k) for k in army.seen])

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Only the CONFLICT discard pile is face up: every other card input loses its card."""
        if kind in ("card_seen", "card_gone") and data.get("zone") != "center":
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        if kind in ("transfer", "trade"):   # an ally's secret cards
            return {k: v for k, v in data.items() if k not in ("unit", "give", "take")}
        return data
