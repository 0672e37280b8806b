"""The end of a battle (who keeps the BATTLECARD, what happens to the remaining forces, who is
eliminated), the end of a turn, and the end of the war."""
from __future__ import annotations

from ..base import Outcome
from . import regroup
from .cards import Deck
from .state import PacificState, Stage, forget

STANDARD_VP = 40   # "For this set, the number would be 40 to win."
COMBINED_VP = 78   # "To win the combined game by points, you must attain 78 VPs."


def finish(deck: Deck, state: PacificState, winner_side: str, how: str, out: list[Outcome]) -> None:
    """"The winner of the battle keeps the BATTLECARD face up on his side of the table, and receives the
    number of Victory Points indicated on the BATTLECARD.\""""
    battle = state.battle
    if battle.raid:
        _raid_over(deck, state, winner_side, how, out)
        return
    if battle.liberates is not None:
        from . import liberation
        liberation.over(deck, state, winner_side, how, out)
        return
    card = deck.card(battle.card)
    winners, losers = battle.army(winner_side), battle.army("defender" if winner_side == "aggressor" else "aggressor")
    theatre = deck.theatre(battle.card)
    holder = next((s for s in winners if state.armies[s].theatre == theatre), winners[0])
    state.armies[holder].won.append(battle.card)
    state.armies[holder].vp += card["vp"]
    out.append(Outcome("battle_won", data={"card": battle.card, "seat": holder, "side": winner_side, "vp": card["vp"],
                                           "how": how, "losers": losers}))
    if winner_side == "aggressor" and "Reserve Hand" in card.get("remaining", ""):
        _survivors_to_hand(deck, state, card.get("must_destroy", []), out)
    eliminated = card.get("eliminates")
    loser = next((s for s in losers if state.armies[s].side == eliminated), None)
    state.battle = None
    if loser is not None:
        eliminate(deck, state, holder, loser, out)
        state.armies[loser].eliminated_by = battle.card
    state.stage = Stage.DRAW
    if not state.over:
        check_victory(deck, state, out)
    if not state.over and not regroup.begin(deck, state, battle, out):
        end_turn(state, out)


def _raid_over(deck: Deck, state: PacificState, winner_side: str, how: str, out: list[Outcome]) -> None:
    """"No victory points are awarded in such a raid": the BATTLECARD goes to the discard pile."""
    battle = state.battle
    state.conflict_discard[deck.theatre(battle.card)].append(battle.card)
    out.append(Outcome("raid_over", data={"card": battle.card, "side": winner_side, "how": how,
                                          "seats": battle.army(winner_side)}))
    state.battle, state.stage = None, Stage.DRAW
    if not regroup.begin(deck, state, battle, out):
        end_turn(state, out)


def _survivors_to_hand(deck: Deck, state: PacificState, must: list[str], out: list[Outcome]) -> None:
    """The Invasion of the Philippines: "surviving Air and Sea units of the defender return to its Reserve Hand"."""
    battle = state.battle
    for key in battle.units:
        seat = battle.owner[key]
        if seat in battle.defenders and key not in battle.destroyed and deck.unit_type(key) not in must:
            state.armies[seat].stacks[deck.unit_type(key)].remove(key)
            state.armies[seat].hand.append(key)
            forget(state, key)
            out.append(Outcome("to_reserve", data={"seat": seat, "unit": key}))


def eliminate(deck: Deck, state: PacificState, winner: int, loser: int, out: list[Outcome]) -> None:
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
    out.append(Outcome("eliminated", data={"seat": loser, "by": winner, "captured": len(captured)}))
    if len(state.seats) == 2:
        finish_war(state, [winner], "total", out)
    else:
        _combined_total_victory(state, out)


def _combined_total_victory(state: PacificState, out: list[Outcome]) -> None:
    """"To win a TOTAL VICTORY, the Allies must invade Germany and Japan, and the Axis must invade Britain and Australia.\""""
    for enemies, allies in ((("germany", "japan"), ("britain", "us")), (("britain", "us"), ("germany", "japan"))):
        fallen = [s for s, a in state.armies.items() if a.side in enemies and a.eliminated]
        if len(fallen) == 2:
            finish_war(state, [s for s, a in state.armies.items() if a.side in allies], "total", out)


def check_victory(deck: Deck, state: PacificState, out: list[Outcome]) -> None:
    """"A player can win the game with a STANDARD VICTORY if he has collected at least half of the available
    victory points in the deck. For this set, the number would be 40 to win." The war also ends where the
    rulebook's "2 ways to win the game" are both closed to everyone: no one can reach the VP any more and no
    one can still win a Total Victory; then "the player at the end of the game with the most victory points"
    wins (THE GAME CONCEPT)."""
    target = COMBINED_VP if len(state.seats) == 4 else STANDARD_VP
    for seat, army in state.armies.items():
        if army.vp >= target:
            finish_war(state, [seat], "standard", out)
            return
    open_cards = winnable(deck, state)
    open_vp = sum(deck.card(k)["vp"] for k in open_cards)
    if any(army.vp + open_vp >= target for army in state.armies.values()):
        return
    if total_victory_open(deck, state, open_cards):
        return
    best = max(a.vp for a in state.armies.values())
    finish_war(state, [s for s, a in state.armies.items() if a.vp == best], "points", out)


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


def finish_war(state: PacificState, winners: list[int], how: str, out: list[Outcome]) -> None:
    state.over, state.stage, state.victory = True, Stage.OVER, how
    state.winners, state.winner = winners, winners[0]
    out.append(Outcome("game_over", data={"winners": winners, "how": how,
                                          "vp": {str(s): state.armies[s].vp for s in winners}}))


def takes_turns(state: PacificState, seat: int) -> bool:
    """An eliminated player "no longer gets a turn" (EXCEPTION: the US after the Invasion of Australia)."""
    army = state.armies[seat]
    return not army.eliminated or army.side == "us"


def end_turn(state: PacificState, out: list[Outcome]) -> None:
    """"Starting with the Japanese Player, alternate between players.\""""
    order = state.order
    i = order.index(state.turn)
    for step in range(1, len(order) + 1):
        seat = order[(i + step) % len(order)]
        if takes_turns(state, seat):
            break
    state.turn, state.turn_number = seat, state.turn_number + 1
    state.stage, state.task, state.pending, state.convoy_played = Stage.DRAW, None, None, False
    state.aided, state.transferred = False, 0
    out.append(Outcome("turn", data={"seat": seat, "turn": state.turn_number}))
