"""The end of a battle (who keeps the BATTLECARD, what happens to the remaining forces, who is eliminated; a
raid's and a liberation's end), the regrouping or the next turn after it, and the end of the war."""
from __future__ import annotations

from ..base import Outcome
from .cards import Deck
from .state import Battle, PacificState, Stage, Task, forget
from .table import end_turn
from .variants import in_play

SETUP_DRAW, SETUP_DEPLOY = 6, 3   # a liberated player: "He also immediately draws 6 and deploys 3 arsenal cards."


def finish(deck: Deck, state: PacificState, winner_side: str, how: str) -> list[Outcome]:
    """"The winner of the battle keeps the BATTLECARD face up on his side of the table, and receives the
    number of Victory Points indicated on the BATTLECARD.\""""
    battle = state.fight()
    if battle.raid:
        return _raid_over(deck, state, winner_side, how)
    if battle.liberates is not None:
        return _liberation_over(deck, state, winner_side, how)
    card = deck.card(battle.card)
    winners, losers = battle.army(winner_side), battle.army("defender" if winner_side == "aggressor" else "aggressor")
    theatre = deck.theatre(battle.card)
    holder = next((s for s in winners if state.armies[s].theatre == theatre), winners[0])
    state.armies[holder].won.append(battle.card)
    state.armies[holder].vp += card["vp"]
    out = [Outcome("battle_won", data={"card": battle.card, "seat": holder, "side": winner_side, "vp": card["vp"],
                                       "how": how, "losers": losers})]
    if winner_side == "aggressor" and "Reserve Hand" in card.get("remaining", ""):
        out += _survivors_to_hand(deck, state, card.get("must_destroy", []))
    eliminated = card.get("eliminates")
    loser = next((s for s in losers if state.armies[s].side == eliminated), None)
    state.battle = None
    if loser is not None:
        out += eliminate(deck, state, holder, loser)
        state.armies[loser].eliminated_by = battle.card
    state.stage = Stage.DRAW
    if not state.over:
        out += check_victory(deck, state)
    if not state.over:
        out += after_battle(state, battle)
    return out


def after_battle(state: PacificState, battle: Battle) -> list[Outcome]:
    """Allies who fought together regroup (combined sets, rule 3); otherwise the next turn."""
    regroup = in_play(state).regroup_after(state, battle)
    if regroup is None:
        return end_turn(state)
    state.regroup, state.stage = regroup, Stage.REGROUP
    return [Outcome("regroup", data={"card": battle.card, "seats": sorted(regroup.ally), "units": len(regroup.units)})]


def _raid_over(deck: Deck, state: PacificState, winner_side: str, how: str) -> list[Outcome]:
    """"No victory points are awarded in such a raid": the BATTLECARD goes to the discard pile."""
    battle = state.fight()
    state.conflict_discard[deck.theatre(battle.card)].append(battle.card)
    out = [Outcome("raid_over", data={"card": battle.card, "side": winner_side, "how": how,
                                      "seats": battle.army(winner_side)})]
    state.battle, state.stage = None, Stage.DRAW
    return out + after_battle(state, battle)


def _liberation_over(deck: Deck, state: PacificState, winner_side: str, how: str) -> list[Outcome]:
    """The re-fought battle's end (combined sets, rule 7): won by the liberators, the ally is back and they take
    the BATTLECARD (its VP leave its holder); held by the defenders, nothing changes."""
    battle = state.fight()
    ally, card = battle.liberates, battle.card
    assert ally is not None
    state.battle, state.stage = None, Stage.DRAW
    if winner_side != "aggressor":
        return [Outcome("liberation_failed", data={"card": card, "ally": ally, "how": how}), *end_turn(state)]
    vp = deck.card(card)["vp"]
    for army in state.armies.values():
        if card in army.won:
            army.won.remove(card)
            army.vp -= vp
    liberator = state.turn
    state.armies[liberator].won.append(card)
    state.armies[liberator].vp += vp
    army = state.armies[ally]
    army.eliminated, army.eliminated_by = False, ""
    out = [Outcome("liberated", data={"card": card, "ally": ally, "seat": liberator, "vp": vp, "how": how})]
    out += check_victory(deck, state)
    if state.over:
        return out
    if army.side == "us":
        # "EXCEPTION: US player never stopped taking turns, and so he does not get to draw and deploy when
        # Australia is liberated."
        return out + end_turn(state)
    state.task, state.stage = Task(seat=ally, card=card, draw=SETUP_DRAW, deploy=SETUP_DEPLOY, exact=True), Stage.ARSENAL
    army.handless = False
    return out


def _survivors_to_hand(deck: Deck, state: PacificState, must: list[str]) -> list[Outcome]:
    """The Invasion of the Philippines: "surviving Air and Sea units of the defender return to its Reserve Hand"."""
    battle = state.fight()
    out = []
    for key in battle.units:
        seat = battle.owner[key]
        if seat in battle.defenders and key not in battle.destroyed and deck.unit_type(key) not in must:
            state.armies[seat].stacks[deck.unit_type(key)].remove(key)
            state.armies[seat].hand.append(key)
            forget(state, key)
            out.append(Outcome("to_reserve", data={"seat": seat, "unit": key}))
    return out


def eliminate(deck: Deck, state: PacificState, winner: int, loser: int) -> list[Outcome]:
    """"you instantly capture all his remaining deployed forces. All of the eliminated player's reserve
    cards are discarded, and all battles won by the eliminated player in his theatre are placed in
    discard stack.\""""
    army, captor = state.armies[loser], state.armies[winner]
    captured = army.deployed()
    for key in captured:
        captor.stacks[deck.unit_type(key)].append(key)
        forget(state, key)
    army.stacks = {t: [] for t in army.stacks}
    army.arsenal_discard += army.hand
    for key in army.hand:   # discarded: drawn again after a reshuffle, it is a new sighting
        forget(state, key)
    army.hand = []
    for key in [k for k in army.won if deck.theatre(k) == army.theatre]:
        army.won.remove(key)
        army.vp -= deck.card(key)["vp"]
        state.conflict_discard[army.theatre].append(key)
    army.eliminated = True
    out = [Outcome("eliminated", data={"seat": loser, "by": winner, "captured": len(captured)})]
    winners = in_play(state).total_victory(state, winner)
    if winners is not None:
        out += finish_war(state, winners, "total")
    return out


def check_victory(deck: Deck, state: PacificState) -> list[Outcome]:
    """"A player can win the game with a STANDARD VICTORY if he has collected at least half of the available
    victory points in the deck. For this set, the number would be 40 to win." The war also ends where the
    rulebook's "2 ways to win the game" are both closed to everyone: no one can reach the VP any more and no
    one can still win a Total Victory; then "the player at the end of the game with the most victory points"
    wins (THE GAME CONCEPT)."""
    target = in_play(state).vp_target
    for seat, army in state.armies.items():
        if army.vp >= target:
            return finish_war(state, [seat], "standard")
    open_cards = winnable(deck, state)
    open_vp = sum(deck.card(k)["vp"] for k in open_cards)
    if any(army.vp + open_vp >= target for army in state.armies.values()):
        return []
    if total_victory_open(deck, state, open_cards):
        return []
    best = max(a.vp for a in state.armies.values())
    return finish_war(state, [s for s, a in state.armies.items() if a.vp == best], "points")


def total_victory_open(deck: Deck, state: PacificState, open_cards: list[str]) -> bool:
    """Whether a side may still eliminate every enemy: each enemy is eliminated already, or a BATTLECARD
    still winnable by this side eliminates it ("the US Player is eliminated when the enemy wins the 'Invasion
    of Australia' BATTLECARD. The Japanese player is eliminated when the enemy wins the 'Invasion of Japan'")."""
    axis = ("germany", "japan")
    open_against = {deck.card(k)["eliminates"]: deck.card(k)["aggressor"] for k in open_cards
                    if deck.card(k).get("eliminates")}
    for side in {a.side in axis for a in state.armies.values()}:
        enemies = [a for a in state.armies.values() if (a.side in axis) != side]
        if all(e.eliminated or (e.side in open_against and (open_against[e.side] in axis) == side) for e in enemies):
            return True
    return False


def winnable(deck: Deck, state: PacificState) -> list[str]:
    """The BATTLECARDs someone may still win: not held by anyone, and their prerequisites held by their
    aggressor or themselves still winnable by him."""
    held = {k.partition("#")[0]: s for s, a in state.armies.items() for k in a.won}
    battles = {k.partition("#")[0]: k for k in deck.copies(("battle",))}
    side_seat = {a.side: s for s, a in state.armies.items()}

    def possible(card_id: str, seen: tuple[str, ...] = ()) -> bool:
        if card_id in held or card_id in seen:
            return False
        aggressor = side_seat.get(deck.card(battles[card_id])["aggressor"])
        return all(held.get(p) == aggressor or (p not in held and possible(p, seen + (card_id,)))
                   for p in deck.card(battles[card_id])["prerequisites"])

    return [key for cid, key in battles.items() if possible(cid)]


def finish_war(state: PacificState, winners: list[int], how: str) -> list[Outcome]:
    state.over, state.stage, state.victory = True, Stage.OVER, how
    state.winners, state.winner = winners, winners[0]
    return [Outcome("game_over", data={"winners": winners, "how": how,
                                       "vp": {str(s): state.armies[s].vp for s in winners}})]
