"""What the referee decided, in words: the sentence of each kind of outcome BATTLECARDS' rules decide (a
method marked ``@says``), made from the outcome's data; and a shot's terms. The rules write no sentence."""
from __future__ import annotations

from typing import Any

from ..base import Outcome, Term
from ..contract import Game, View, says
from .cards import SIDE_NAMES, Deck
from .state import PacificState

# What an Intelligence card lets a player look at, in words.
LOOKS = {"deployed": "deployed stacks (choose one)", "reserve": "Reserve Hand", "kept": "Kept Cards"}
# Why a shot hit or missed (combat.why's codes).
WHY = {"in_range": "{action} is above {defense} and at most {attack}",
       "above_attack": "{action} is above the Attack of {attack}",
       "not_above_defense": "{action} is not above the Defense of {defense}"}
WHY_SHORT = {"in_range": "in range", "above_attack": "above attack", "not_above_defense": "not above defense"}
HOW_WON = {"stalemate": " (stalemate).", "no_forces": " without a fight.", "taken": " without a fight (rule 6).",
           "special": ": every defending Ground unit is destroyed."}
VICTORY = {"total": "TOTAL VICTORY.", "standard": "STANDARD VICTORY on points.",
           "points": "no one can reach the VP to win any more; the most VP wins."}


def plural(n: int, word: str) -> str:
    return f"{word}{'s' if n != 1 else ''}"


class Sayings(View[PacificState]):
    """The outcome sentences; ``PacificView`` adds the prompt, the buttons and the views."""

    def __init__(self, game: Game[PacificState]):
        super().__init__(game)
        self.deck = Deck(game.catalog)

    def name(self, key: str) -> str:
        return self.deck.card(key).name

    def who(self, state: PacificState, seat: int) -> str:
        return f"{state.name(seat)} ({SIDE_NAMES[state.armies[seat].side]})"

    def army_words(self, state: PacificState, seats: list[int]) -> str:
        return " and ".join(state.name(s) for s in seats)

    # -- setup and the turn ------------------------------------------------------------------------------
    @says("drew_arsenal")
    def drew_arsenal_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} draws an ARSENAL card ({o.data['hand']} in the Reserve Hand)."

    @says("deployed")
    def deployed_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} deploys a unit face down in the {o.data['stack'].title()} stack."

    @says("setup_done")
    def setup_done_said(self, o: Outcome, state: PacificState) -> str:
        return f"Both armies are deployed. {self.who(state, o.data['seat'])} draws first."

    @says("turn")
    def turn_said(self, o: Outcome, state: PacificState) -> str:
        return f"Turn {o.data['turn']}: {self.who(state, o.data['seat'])} is the drawing player."

    @says("conflict_drawn")
    def conflict_drawn_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} draws {self.name(o.data['card'])}."

    @says("kept")
    def kept_said(self, o: Outcome, state: PacificState) -> str:
        n = o.data["kept"]
        return f"{state.name(o.data['seat'])} keeps the card face down ({n} {plural(n, 'Kept Card')})."

    @says("instructed")
    def instructed_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        who = state.name(d["seat"])
        if d["handless"] and not d["draw"]:
            return f"{who} has no hand since the emergency deployment: {self.name(d['card'])} gives nothing."
        parts = [f"draw {d['draw']} {plural(d['draw'], 'ARSENAL card')}"] if d["draw"] else []
        if d["deploy"]:
            parts.append(f"deploy up to {d['deploy']}")
        return f"{self.name(d['card'])}: {who} " + (", then ".join(parts) if parts else "draws nothing") + "."

    @says("intel")
    def intel_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} looks at {state.name(o.data['of'])}'s {LOOKS[o.data['look']]}."

    @says("looked")
    def looked_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} looks at {state.name(o.data['of'])}'s {o.data['stack'].title()} stack."

    @says("deploy_done")
    def deploy_done_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} is done deploying."

    @says("emergency_deploy")
    def emergency_deploy_said(self, o: Outcome, state: PacificState) -> str:
        n = o.data["cards"]
        return (f"{state.name(o.data['seat'])} emergency-deploys the whole Reserve Hand ({n} {plural(n, 'card')}) and has "
                f"no hand until told to replenish it.")

    @says("convoy")
    def convoy_said(self, o: Outcome, state: PacificState) -> str:
        return (f"{state.name(o.data['seat'])} plays {self.name(o.data['card'])}: draw {o.data['draw']} ARSENAL cards, "
                f"then the turn goes on.")

    @says("reshuffle")
    def reshuffle_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        if d["deck"] == "conflict":
            return f"The CONFLICT deck is used up: the discard pile ({d['cards']} cards) is reshuffled into a new deck."
        return f"{state.name(d['seat'])}'s ARSENAL deck is used up: its discard pile ({d['cards']} cards) is reshuffled."

    # -- a BATTLECARD ---------------------------------------------------------------------------------------
    @says("prerequisites_unmet")
    def prerequisites_unmet_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        needs = ", ".join(self.name(m + "#1") for m in d["missing"])
        return (f"{self.name(d['card'])} needs {needs} won by {state.name(d['seat'])} first: it is discarded and the "
                f"turn is lost.")

    @says("battle_drawn")
    def battle_drawn_said(self, o: Outcome, state: PacificState) -> str:
        return f"{self.name(o.data['card'])}! {self.who(state, o.data['aggressor'])} is the aggressor: fight or not?"

    @says("battle_declined")
    def battle_declined_said(self, o: Outcome, state: PacificState) -> str:
        return (f"{state.name(o.data['seat'])} does not fight {self.name(o.data['card'])}: it is discarded and the turn "
                f"is lost.")

    @says("battle_ignored")
    def battle_ignored_said(self, o: Outcome, state: PacificState) -> str:
        return (f"Neither side has the forces {self.name(o.data['card'])} calls for: the battle is ignored and the turn "
                f"is lost.")

    @says("no_forces")
    def no_forces_said(self, o: Outcome, state: PacificState) -> str:
        return f"The {o.data['side']} has none of the forces {self.name(o.data['card'])} calls for."

    @says("homeland")
    def homeland_said(self, o: Outcome, state: PacificState) -> str:
        return (f"{self.army_words(state, o.data['seats'])}: your homeland is invaded. Deploy your Reserve Hand now, or "
                f"hold it.")

    @says("battle_begins")
    def battle_begins_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        fires = "fires" if len(d["aggressors"]) == 1 else "fire"
        return (f"{self.name(d['card'])}: the stacks are flipped, {len(d['units'])} units fight. "
                f"{self.army_words(state, d['aggressors'])} {fires} first.")

    # -- combat -----------------------------------------------------------------------------------------------
    @says("no_target")
    def no_target_said(self, o: Outcome, state: PacificState) -> str:
        return f"{self.name(o.data['unit'])} has no target it may attack."

    @says("aim")
    def aim_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        support = f", supported by {self.name(d['support'])}." if d.get("support") else "."
        return f"{self.name(d['unit'])} aims at {self.name(d['target'])}{support}"

    @says("aim_lost")
    def aim_lost_said(self, o: Outcome, state: PacificState) -> str:
        return (f"{self.name(o.data['unit'])} may no longer attack its target: it fires at the likeliest one left, "
                f"unless another is tapped.")

    @says("shot")
    def shot_said(self, o: Outcome, state: PacificState) -> str:
        return self.shot_words(o.data)

    def shot_words(self, d: dict[str, Any]) -> str:
        because = WHY[d["why"]].format(**d)
        return (f"Shot {d['number']}: {self.name(d['unit'])} fires at {self.name(d['target'])}, Action Number "
                f"{d['action']}: {'HIT, destroyed' if d['hit'] else 'miss'} ({because}).")

    def terms(self, outcome: Outcome, state: PacificState) -> tuple[Term, ...]:
        """A shot's terms: the Action Number turned, the Attack and the Defense with their bonuses, and why."""
        if outcome.kind != "shot":
            return outcome.terms
        d = outcome.data
        return (Term("Action Number", d["action"], self.name(d["card"])),
                Term("Attack", d["attack"], f"+{d['attack_bonus']} bonus" if d["attack_bonus"] else ""),
                Term("Defense", d["defense"], f"+{d['defense_bonus']} bonus" if d["defense_bonus"] else ""),
                Term("Result", "hit" if d["hit"] else "miss", WHY_SHORT[d["why"]]))

    @says("casualties")
    def casualties_said(self, o: Outcome, state: PacificState) -> str:
        return "Casualties removed: " + ", ".join(self.name(k) for k in o.data["units"]) + "."

    @says("kept_played")
    def kept_played_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} plays {self.name(o.data['card'])} for the rest of round {o.data['round']}."

    @says("withdrawal_phase")
    def withdrawal_phase_said(self, o: Outcome, state: PacificState) -> str:
        return f"Round {o.data['round']} is fought: the aggressor, then the defender, may withdraw."

    @says("withdraw")
    def withdraw_said(self, o: Outcome, state: PacificState) -> str:
        what = "everything" if o.data["all"] else self.name(o.data["units"][0])
        return f"{state.name(o.data['seat'])} withdraws {what}."

    @says("fight_on")
    def fight_on_said(self, o: Outcome, state: PacificState) -> str:
        return f"The {o.data['side']} fights on."

    @says("round")
    def round_said(self, o: Outcome, state: PacificState) -> str:
        return f"Round {o.data['round']} begins at phase 1."

    @says("stalemate")
    def stalemate_said(self, o: Outcome, state: PacificState) -> str:
        return ("Stalemate: no unit on either side can hit, whatever Action Number is pulled. The aggressor must "
                "withdraw.")

    # -- the end of a battle, and of the war --------------------------------------------------------------
    @says("battle_won")
    def battle_won_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return f"{state.name(d['seat'])} wins {self.name(d['card'])} and {d['vp']} VP" + HOW_WON.get(d["how"], ".")

    @says("to_reserve")
    def to_reserve_said(self, o: Outcome, state: PacificState) -> str:
        return f"{self.name(o.data['unit'])} returns to {state.name(o.data['seat'])}'s Reserve Hand."

    @says("eliminated")
    def eliminated_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return f"{state.name(d['seat'])} is eliminated; {state.name(d['by'])} captures {d['captured']} deployed units."

    @says("game_over")
    def game_over_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        wins = "wins" if len(d["winners"]) == 1 else "win"
        return f"{self.army_words(state, d['winners'])} {wins} the war: " + VICTORY[d["how"]]

    # -- combining sets ---------------------------------------------------------------------------------------
    @says("transfer")
    def transfer_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return (f"{state.name(d['seat'])} transfers a deployed card to {state.name(d['ally'])}'s {d['stack'].title()} "
                f"stack ({d['count']} of 3, instead of the draw).")

    @says("trade")
    def trade_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])} trades a Reserve Hand card with {state.name(o.data['ally'])}."

    @says("send")
    def send_said(self, o: Outcome, state: PacificState) -> str:
        return (f"{state.name(o.data['seat'])} sends the top ARSENAL card to the bottom of {state.name(o.data['ally'])}'s "
                f"ARSENAL deck.")

    @says("regroup")
    def regroup_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return (f"{self.army_words(state, d['seats'])} fought {self.name(d['card'])} together: send any of the "
                f"{d['units']} involved {plural(d['units'], 'unit')} to either one's stacks, then tap Done.")

    @says("regrouped")
    def regrouped_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return (f"{state.name(d['seat'])} sends {self.name(d['unit'])} to {state.name(d['ally'])}'s "
                f"{d['stack'].title()} stack.")

    @says("regroup_done")
    def regroup_done_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['seat'])}'s forces are where they stay."

    @says("raid_offered")
    def raid_offered_said(self, o: Outcome, state: PacificState) -> str:
        return (f"{self.name(o.data['card'])}: {self.who(state, o.data['seat'])} is the player remaining in the "
                f"theatre: take it without a fight, or discard it and raid the enemy in the other theatre.")

    @says("raid")
    def raid_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return (f"{state.name(d['seat'])} discards {self.name(d['card'])} and raids {self.army_words(state, d['defenders'])} "
                f"with {' and '.join(t.title() for t in d['types'])} forces (no VP).")

    @says("raid_over")
    def raid_over_said(self, o: Outcome, state: PacificState) -> str:
        how = {"stalemate": " (stalemate).", "no_forces": " without a fight."}.get(o.data["how"], ".")
        return f"The raid is over: the {o.data['side']} holds the field{how} No victory points are awarded."

    @says("liberation")
    def liberation_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return (f"{state.name(d['seat'])} counterattacks to liberate {state.name(d['ally'])}: {self.name(d['card'])} is "
                f"fought again.")

    @says("liberation_failed")
    def liberation_failed_said(self, o: Outcome, state: PacificState) -> str:
        return f"{state.name(o.data['ally'])} is not liberated: {self.name(o.data['card'])} stays where it is."

    @says("liberated")
    def liberated_said(self, o: Outcome, state: PacificState) -> str:
        d = o.data
        return (f"{state.name(d['ally'])} is liberated! {state.name(d['seat'])} takes {self.name(d['card'])} and "
                f"{d['vp']} VP; {state.name(d['ally'])} takes turns again.")
