"""Every word the table reads: outcome sentences, the prompt, button labels, and the public and
seat views. The public view holds no Reserve Hand, no face-down stack and no Kept Card."""
from __future__ import annotations

from typing import Any

from ..base import Outcome
from ..contract import Offer, View
from . import combat, forecast, raid, regroup
from .cards import SIDE_NAMES
from .state import PacificState, Stage, TYPES

THEATRE_NAMES = {"pacific": "Pacific", "western": "Western European"}
PHASE_WORDS = {1: "phase 1", 2: "phase 2", 3: "phase 3", 4: "phase 4"}


def pct(p: float) -> str:
    return f"{round(p * 100)}%"


# What an Intelligence card lets a player look at, in words.
LOOKS = {"deployed": "deployed stacks (choose one)", "reserve": "Reserve Hand", "kept": "Kept Cards"}


class PacificView(View):
    @property
    def deck(self):
        return self.game.deck

    def name(self, key: str) -> str:
        return self.deck.card(key).name

    def who(self, state: PacificState, seat: int) -> str:
        return f"{state.name(seat)} ({SIDE_NAMES[state.armies[seat].side]})"

    def army_words(self, state: PacificState, seats: list[int]) -> str:
        return " and ".join(state.name(s) for s in seats)

    # -- outcomes ----------------------------------------------------------------------------------
    def say(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        n = lambda s: state.name(s)  # noqa: E731
        said = {
            "drew_arsenal": lambda: f"{n(d['seat'])} draws an ARSENAL card ({d['hand']} in the Reserve Hand).",
            "deployed": lambda: f"{n(d['seat'])} deploys a unit face down in the {d['stack'].title()} stack.",
            "setup_done": lambda: f"Both armies are deployed. {self.who(state, d['seat'])} draws first.",
            "turn": lambda: f"Turn {d['turn']}: {self.who(state, d['seat'])} is the drawing player.",
            "conflict_drawn": lambda: f"{n(d['seat'])} draws {self.name(d['card'])}.",
            "kept": lambda: f"{n(d['seat'])} keeps the card face down ({d['kept']} Kept Card{'s' if d['kept'] != 1 else ''}).",
            "instructed": lambda: self._instructed(state, d),
            "intel": lambda: f"{n(d['seat'])} looks at {n(d['of'])}'s " + LOOKS[d["look"]] + ".",
            "looked": lambda: f"{n(d['seat'])} looks at {n(d['of'])}'s {d['stack'].title()} stack.",
            "deploy_done": lambda: f"{n(d['seat'])} is done deploying.",
            "emergency_deploy": lambda: f"{n(d['seat'])} emergency-deploys the whole Reserve Hand ({d['cards']} "
                                        f"card{'s' if d['cards'] != 1 else ''}) and has no hand until told to replenish it.",
            "convoy": lambda: f"{n(d['seat'])} plays {self.name(d['card'])}: draw {d['draw']} ARSENAL cards, then the turn goes on.",
            "reshuffle": lambda: (f"The CONFLICT deck is used up: the discard pile ({d['cards']} cards) is reshuffled into a new deck."
                                  if d["deck"] == "conflict" else f"{n(d['seat'])}'s ARSENAL deck is used up: its "
                                  f"discard pile ({d['cards']} cards) is reshuffled."),
            "prerequisites_unmet": lambda: f"{self.name(d['card'])} needs {', '.join(self.name(m + '#1') for m in d['missing'])} "
                                           f"won by {n(d['seat'])} first: it is discarded and the turn is lost.",
            "battle_drawn": lambda: f"{self.name(d['card'])}! {self.who(state, d['aggressor'])} is the aggressor: fight or not?",
            "battle_declined": lambda: f"{n(d['seat'])} does not fight {self.name(d['card'])}: it is discarded and the turn is lost.",
            "battle_ignored": lambda: (f"Neither side has the forces {self.name(d['card'])} calls for: "
                                      "the battle is ignored and the turn is lost."),
            "no_forces": lambda: f"The {d['side']} has none of the forces {self.name(d['card'])} calls for.",
            "homeland": lambda: (f"{self.army_words(state, d['seats'])}: your homeland is invaded. "
                                "Deploy your Reserve Hand now, or hold it."),
            "battle_begins": lambda: f"{self.name(d['card'])}: the stacks are flipped, {len(d['units'])} units fight. "
                                     f"{self.army_words(state, d['aggressors'])} fire{'s' if len(d['aggressors']) == 1 else ''} first.",
            "no_target": lambda: f"{self.name(d['unit'])} has no target it may attack.",
            "transfer": lambda: f"{n(d['seat'])} transfers a deployed card to {n(d['ally'])}'s {d['stack'].title()} stack "
                                f"({d['count']} of 3, instead of the draw).",
            "trade": lambda: f"{n(d['seat'])} trades a Reserve Hand card with {n(d['ally'])}.",
            "send": lambda: f"{n(d['seat'])} sends the top ARSENAL card to the bottom of {n(d['ally'])}'s ARSENAL deck.",
            "aim_lost": lambda: f"{self.name(d['unit'])} may no longer attack its target: choose again.",
            "aim": lambda: f"{self.name(d['unit'])} aims at {self.name(d['target'])}"
                           + (f", supported by {self.name(d['support'])}." if d.get("support") else "."),
            "shot": lambda: self._shot(d),
            "casualties": lambda: "Casualties removed: " + ", ".join(self.name(k) for k in d["units"]) + ".",
            "kept_played": lambda: f"{n(d['seat'])} plays {self.name(d['card'])} for the rest of round {d['round']}.",
            "withdrawal_phase": lambda: f"Round {d['round']} is fought: the aggressor, then the defender, may withdraw.",
            "withdraw": lambda: f"{n(d['seat'])} withdraws " + ("everything" if d["all"] else self.name(d["units"][0])) + ".",
            "fight_on": lambda: f"The {d['side']} fights on.",
            "round": lambda: f"Round {d['round']} begins at phase 1.",
            "stalemate": lambda: "Stalemate: no unit on either side can hit, whatever Action Number is pulled. "
                                 "The aggressor must withdraw.",
            "battle_won": lambda: f"{n(d['seat'])} wins {self.name(d['card'])} and {d['vp']} VP" + {
                "stalemate": " (stalemate).", "no forces": " without a fight.", "taken": " without a fight (rule 6).",
                "special": ": every defending Ground unit is destroyed.",
            }.get(d["how"], "."),
            "regroup": lambda: f"{self.army_words(state, d['seats'])} fought {self.name(d['card'])} together: send any of "
                               f"the {d['units']} involved unit{'s' if d['units'] != 1 else ''} to either one's stacks, then tap Done.",
            "regrouped": lambda: f"{n(d['seat'])} sends {self.name(d['unit'])} to {n(d['ally'])}'s {d['stack'].title()} stack.",
            "regroup_done": lambda: f"{n(d['seat'])}'s forces are where they stay.",
            "raid_offered": lambda: f"{self.name(d['card'])}: {self.who(state, d['seat'])} is the player remaining in "
                                    f"the theatre: take it without a fight, or discard it and raid the enemy in the other theatre.",
            "raid": lambda: f"{n(d['seat'])} discards {self.name(d['card'])} and raids {self.army_words(state, d['defenders'])} "
                            f"with {' and '.join(t.title() for t in d['types'])} forces (no VP).",
            "raid_over": lambda: f"The raid is over: the {d['side']} holds the field"
                                 + {"stalemate": " (stalemate).", "no forces": " without a fight."}.get(d["how"], ".")
                                 + " No victory points are awarded.",
            "liberation": lambda: f"{n(d['seat'])} counterattacks to liberate {n(d['ally'])}: {self.name(d['card'])} "
                                  f"is fought again.",
            "liberation_failed": lambda: f"{n(d['ally'])} is not liberated: {self.name(d['card'])} stays where it is.",
            "liberated": lambda: f"{n(d['ally'])} is liberated! {n(d['seat'])} takes {self.name(d['card'])} and "
                                 f"{d['vp']} VP; {n(d['ally'])} takes turns again.",
            "to_reserve": lambda: f"{self.name(d['unit'])} returns to {n(d['seat'])}'s Reserve Hand.",
            "eliminated": lambda: f"{n(d['seat'])} is eliminated; {n(d['by'])} captures {d['captured']} deployed units.",
            "game_over": lambda: f"{self.army_words(state, d['winners'])} win{'s' if len(d['winners']) == 1 else ''} the war: "
                                 + {"total": "TOTAL VICTORY.", "standard": "STANDARD VICTORY on points.",
                                    "points": "no one can reach the VP to win any more; the most VP wins."}[d["how"]],
        }
        return said[o.kind]() if o.kind in said else o.kind.replace("_", " ")

    def _instructed(self, state: PacificState, d: dict[str, Any]) -> str:
        who = state.name(d["seat"])
        if d["handless"] and not d["draw"]:
            return f"{who} has no hand since the emergency deployment: {self.name(d['card'])} gives nothing."
        parts = [f"draw {d['draw']} ARSENAL card{'s' if d['draw'] != 1 else ''}"] if d["draw"] else []
        if d["deploy"]:
            parts.append(f"deploy up to {d['deploy']}")
        return f"{self.name(d['card'])}: {who} " + (", then ".join(parts) if parts else "draws nothing") + "."

    def _shot(self, d: dict[str, Any]) -> str:
        because = {"in range": f"{d['action']} is above {d['defense']} and at most {d['attack']}",
                   "above attack": f"{d['action']} is above the Attack of {d['attack']}",
                   "not above defense": f"{d['action']} is not above the Defense of {d['defense']}"}[d["why"]]
        return (f"Shot {d['number']}: {self.name(d['unit'])} fires at {self.name(d['target'])}, Action Number "
                f"{d['action']}: {'HIT, destroyed' if d['hit'] else 'miss'} ({because}).")

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
            t = state.task
            if t.draw:
                return f"{state.name(t.seat)}: draw {t.draw} more ARSENAL card{'s' if t.draw != 1 else ''} (show each to your reader)."
            if t.exact:
                return f"{state.name(t.seat)}: deploy {t.deploy} more card{'s' if t.deploy != 1 else ''} face down."
            return f"{state.name(t.seat)}: deploy up to {t.deploy} card{'s' if t.deploy != 1 else ''} face down, or tap Done."
        if stage == Stage.AID:
            return f"{state.name(turn)}: transfer up to {3 - state.transferred} more deployed cards to your ally, or tap Done."
        if stage == Stage.LOOK:
            return f"{state.name(state.task.seat)}: choose the stack to look at, on your phone or here."
        if stage == Stage.DECISION and raid.raider(self.deck, state, state.pending) is not None:
            seat = raid.raider(self.deck, state, state.pending)
            return (f"{self.name(state.pending)}: {self.who(state, seat)}, take it without a fight, or discard it and "
                    f"raid the enemy in the other theatre (Ground and Air, or Air and Sea).")
        if stage == Stage.DECISION:
            from .battle import aggressor_seat
            return (f"{self.name(state.pending)}: {self.who(state, aggressor_seat(self.deck, state, state.pending))}, "
                    f"fight this battle or not?")
        if stage == Stage.REGROUP:
            waiting = [s for s in sorted(state.regroup.ally) if s not in state.regroup.done]
            return (f"After {self.name(state.regroup.card)}: {self.army_words(state, waiting)}, send the involved forces to "
                    f"either ally's stacks, or tap Done.")
        battle = state.battle
        if stage == Stage.HOMELAND:
            return f"{self.army_words(state, battle.defenders)}: your homeland is invaded. Deploy your Reserve Hand, or hold it."
        if stage == Stage.COMBAT:
            shooter = battle.queue[0]
            head = (f"Round {battle.round}, {PHASE_WORDS[battle.phase]}: {self.army_words(state, battle.army(battle.firing))} "
                    f"fire{'s' if len(battle.army(battle.firing)) == 1 else ''}. {self.name(shooter)}")
            if battle.aim:
                return f"{head} fires at {self.name(battle.aim)}: turn a CONFLICT card onto the discard pile."
            if len(combat.legal_targets(self.deck, battle, shooter)) == 1:
                target = combat.legal_targets(self.deck, battle, shooter)[0]
                return f"{head} fires at {self.name(target)} (the only target): turn a CONFLICT card onto the discard pile."
            return f"{head}: {state.name(battle.owner[shooter])}, choose its target."
        if stage == Stage.WITHDRAWAL:
            return (f"Withdrawal phase: {self.army_words(state, battle.army(battle.deciding))}, withdraw any or all of "
                    f"your units, or fight on.")
        return ""

    # -- buttons ----------------------------------------------------------------------------------------
    def button(self, offer: Offer, state: PacificState) -> str:
        d, name = offer.data, state.name(offer.data.get("seat", 0)) if "seat" in offer.data else ""
        if offer.kind == "aim":
            shot = next((s for s in (forecast.battle_forecast(self.deck, state) or {}).get("shots", [])
                         if s["target"] == d["target"]), None)
            chance = f" ({pct(shot['chance'])} to hit)" if shot else ""
            return f"{self.name(state.battle.queue[0])} fires at {self.name(d['target'])}{chance}"
        if offer.kind == "decide":
            return f"{name}: fight {self.name(state.pending)}" if d["fight"] else f"{name}: do not fight"
        if offer.kind == "liberate":
            from .liberation import fallen_ally
            return f"{name}: counterattack to liberate {state.name(fallen_ally(state, d['seat']))}"
        if offer.kind == "take":
            return f"{name}: take {self.name(state.pending)} without a fight"
        if offer.kind == "raid":
            return f"{name}: raid with " + {"ground_air": "Ground and Air", "air_sea": "Air and Sea"}[d["forces"]]
        if offer.kind == "regroup":
            return f"{name} sends {self.name(d['unit'])} to {state.name(state.regroup.ally[d['seat']])}"
        if offer.kind == "done" and state.stage == Stage.REGROUP:
            return f"{name}: done"
        if offer.kind == "withdraw":
            return f"{name} withdraws {self.name(d['unit'])}" if d.get("unit") else f"{name} withdraws everything"
        return {"hold": f"{name}: hold the Reserve Hand", "emergency_deploy": f"{name}: emergency-deploy the Reserve Hand",
                "fight_on": f"{name} fights on", "look": f"{name} looks at the {str(d.get('stack', '')).title()} stack",
                "done": f"{name}: done deploying"}.get(offer.kind, offer.kind.replace("_", " "))

    # -- views ------------------------------------------------------------------------------------------
    def card(self, key: str) -> dict[str, Any]:
        c = self.deck.card(key)
        out = {"key": key, "name": c.name, "kind": c.kind}
        if c.kind == "unit":
            out.update({"type": c["unit_type"], "rank": c["rank"], "phases": c["phases"],
                        "attack": {t: c.get(f"attack_{t}") for t in TYPES}, "defense": {t: c.get(f"defense_{t}") for t in TYPES}})
            if c.get("supports"):
                out["support"] = {"attack": c.get("support_attack", 0), "defense": c.get("support_defense", 0),
                                  "types": c["supports"]}
        else:
            out["action"] = c["action"]
            for f in ("vp", "aggressor", "units", "text"):
                if c.get(f) is not None:
                    out[f] = c[f]
        return out

    def public(self, state: PacificState) -> dict[str, Any]:
        target = 78 if len(state.seats) == 4 else 40
        seats = [{"seat": s.number, "name": s.name, "side": a.side, "side_name": SIDE_NAMES[a.side], "vp": a.vp,
                  "total": a.vp, "total_label": "VP", "eliminated": a.eliminated, "handless": a.handless,
                  "counts": {"hand": len(a.hand), "kept": len(a.kept), "discard": len(a.arsenal_discard),
                             "arsenal": a.arsenal_left, **{t: len(a.stacks[t]) for t in TYPES}},
                  "won": [self.card(k) for k in a.won]}
                 for s, a in ((s, state.armies[s.number]) for s in state.seats)]
        theatre = state.armies[state.turn].theatre if state.turn else "pacific"
        return {"game": self.game.game, "stage": state.stage.value, "turn": state.turn, "turn_number": state.turn_number,
                "over": state.over, "winner": state.winner, "winners": state.winners, "victory": state.victory,
                "vp_target": target, "seats": seats,
                "standings": sorted(({"seat": r["seat"], "name": r["name"], "points": r["vp"]} for r in seats),
                                    key=lambda r: -r["points"]),
                "conflict": self.pile(state, theatre),
                # Combined sets: the other theatre's pile too, face up on the table like this one.
                "other_piles": [self.pile(state, t) for t in sorted(state.conflict_left) if t != theatre],
                "pending": self.card(state.pending) if state.pending else None,
                "regroup": ({"card": self.card(state.regroup.card), "units": [
                    {**self.card(k), "seat": regroup.holder(state, k)}
                    for k in state.regroup.units], "seats": sorted(state.regroup.ally),
                    "done": state.regroup.done} if state.regroup else None),
                "task": ({"seat": state.task.seat, "card": self.card(state.task.card), "draw": state.task.draw,
                          "deploy": state.task.deploy, "look": state.task.look} if state.task else None),
                "fight": self.battle(state), "odds": forecast.battle_forecast(self.deck, state),
                "recent": [{"kind": t.kind, "say": t.say, "terms": [r.__dict__ for r in t.terms]} for t in state.recent],
                "last_outcome": ({"say": state.recent[-1].say, "terms": [r.__dict__ for r in state.recent[-1].terms]}
                                 if state.recent else None)}

    def pile(self, state: PacificState, theatre: str) -> dict[str, Any]:
        """One theatre's CONFLICT deck and discard pile (public: every card on the pile is face up)."""
        discard = state.conflict_discard.get(theatre, [])
        return {"theatre": theatre, "theatre_name": THEATRE_NAMES.get(theatre, theatre),
                "left": state.conflict_left.get(theatre, 0), "discard": len(discard),
                "top": self.card(discard[-1]) if discard else None, "pile": list(discard),
                "unseen": len(state.conflict_pool.get(theatre, []))}

    def battle(self, state: PacificState) -> dict[str, Any] | None:
        battle = state.battle
        if battle is None or state.stage == Stage.HOMELAND:
            return None if battle is None else {"card": self.card(battle.card), "aggressors": battle.aggressors,
                                                "defenders": battle.defenders, "units": []}

        def status(k: str) -> str:
            return ("destroyed" if k in battle.destroyed else "withdrawn" if k in battle.withdrawn
                    else "hit" if k in battle.casualties else "fighting")
        return {"card": self.card(battle.card), "aggressors": battle.aggressors, "defenders": battle.defenders,
                "raid": battle.raid, "liberates": battle.liberates, "round": battle.round, "phase": battle.phase,
                "firing": battle.firing, "deciding": battle.deciding,
                "shooter": battle.queue[0] if state.stage == Stage.COMBAT and battle.queue else None,
                "aim": battle.aim, "bonuses": [self.card(k) for k in battle.bonuses],
                "units": [{**self.card(k), "seat": battle.owner[k], "side": battle.side_of(battle.owner[k]),
                           "status": status(k)} for k in battle.units],
                "shots": [{**s.__dict__, "unit_name": self.name(s.unit), "target_name": self.name(s.target),
                           "say": self._shot(s.__dict__)} for s in battle.shots[-30:]]}

    def seat(self, state: PacificState, seat: int) -> dict[str, Any]:
        view = self.public(state)
        army = state.armies[seat]
        view.update({"seat": seat, "name": state.name(seat), "side": army.side,
                     "hand": [self.card(k) for k in army.hand], "kept": [self.card(k) for k in army.kept],
                     "stacks": {t: [self.card(k) for k in army.stacks[t]] for t in TYPES},
                     "seen": [self.card(k) for k in army.seen],
                     "odds": forecast.battle_forecast(self.deck, state, seat)})
        return view

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Only the CONFLICT discard pile is face up: every other card input loses its card."""
        if kind in ("card_seen", "card_gone") and data.get("zone") != "center":
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        if kind in ("transfer", "trade"):   # an ally's secret cards
            return {k: v for k, v in data.items() if k not in ("unit", "give", "take")}
        return data
