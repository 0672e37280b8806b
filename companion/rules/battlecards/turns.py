"""Setup and the turn: ARSENAL cards drawn into the Reserve Hand and deployed, the CONFLICT card the
drawing player draws and follows, Kept Cards, emergency deployment, and the decks' reshuffles."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from .battle import drawn, engage
from .cards import Deck
from .state import Army, PacificState, Stage, Task, forget
from .table import allies, end_turn, opponent, where

SETUP_DRAW, SETUP_DEPLOY = 6, 3
STACKS = ("ground", "air", "sea")


# -- the CONFLICT deck ---------------------------------------------------------------------------------
def take_conflict(deck: Deck, state: PacificState, key: str, to_discard: bool,
                  face_up: bool | None = None) -> list[Outcome]:
    """A card leaves the CONFLICT deck (face up when ``to_discard``); an emptied deck is reshuffled.
    "When the CONFLICT deck ... has been completely discarded, flip the corresponding discard stack over
    and reshuffle the cards to continue to play.\""""
    theatre = deck.theatre(key)
    state.conflict_left[theatre] -= 1
    if to_discard:
        state.conflict_discard[theatre].append(key)
    if key in state.conflict_pool[theatre] and (to_discard if face_up is None else face_up):
        state.conflict_pool[theatre].remove(key)
    if state.conflict_left[theatre] <= 0:
        return reshuffle_conflict(state, theatre)
    return []


def seen_face_up(deck: Deck, state: PacificState, key: str) -> None:
    """A CONFLICT card everyone has now seen leaves the public pool of unseen cards."""
    pool = state.conflict_pool[deck.theatre(key)]
    if key in pool:
        pool.remove(key)


def reshuffle_conflict(state: PacificState, theatre: str) -> list[Outcome]:
    pile = state.conflict_discard[theatre]
    state.conflict_left[theatre] = len(pile)
    state.conflict_pool[theatre] = list(pile)
    state.conflict_discard[theatre] = []
    for key in pile:  # picked up from the pile: seen there again later is a new card
        forget(state, key)
    return [Outcome("reshuffle", data={"deck": "conflict", "theatre": theatre, "cards": len(pile)})]


# -- ARSENAL cards --------------------------------------------------------------------------------------
def draw_arsenal(deck: Deck, state: PacificState, seat: int, key: str) -> list[Outcome]:
    army = state.armies[seat]
    sent = army.foreign and deck.side(key) in [state.armies[s].side for s in allies(state, seat)]
    if deck.side(key) != army.side and not sent:
        raise Refused("other_sides_arsenal", seat)
    if deck.side(key) != army.side:
        army.foreign -= 1   # the card an ally sent to the bottom of this deck
    out: list[Outcome] = []
    if army.arsenal_left <= 0 and army.arsenal_discard:
        for card in army.arsenal_discard:
            forget(state, card)
        army.arsenal_left = len(army.arsenal_discard)
        army.arsenal_discard = []
        out.append(Outcome("reshuffle", data={"deck": "arsenal", "seat": seat, "cards": army.arsenal_left}))
    place = where(state, key)
    if place is not None or army.arsenal_left <= 0:
        raise Refused("not_in_arsenal", seat, place=place)
    army.arsenal_left -= 1
    army.hand.append(key)
    out.append(Outcome("drew_arsenal", data={"seat": seat, "hand": len(army.hand)}))
    return out


def deploy(deck: Deck, state: PacificState, seat: int, key: str, stack: str | None) -> list[Outcome]:
    """"To 'Deploy' forces, you simply place them face down in front of you in 3 stacks.\""""
    army = state.armies[seat]
    if key not in army.hand:
        raise Refused("not_in_hand", seat)
    unit_type = deck.unit_type(key)
    if stack is not None and stack != unit_type:
        raise Refused("proper_stack", seat, stack=stack)
    army.hand.remove(key)
    army.stacks[unit_type].append(key)
    return [Outcome("deployed", data={"seat": seat, "stack": unit_type, "hand": len(army.hand)})]


# -- setup ------------------------------------------------------------------------------------------------
def setup_card(deck: Deck, state: PacificState, seat: int, key: str, face_down: bool, stack: str | None) -> list[Outcome]:
    army = state.armies[seat]
    if face_down:
        if army.setup_drawn < SETUP_DRAW:
            raise Refused("draw_six_first", seat, drawn=army.setup_drawn)
        if len(army.deployed()) >= SETUP_DEPLOY:
            raise Refused("deployed_three", seat)
        out = deploy(deck, state, seat, key, stack)
    else:
        if army.setup_drawn >= SETUP_DRAW:
            raise Refused("drawn_six", seat)
        out = draw_arsenal(deck, state, seat, key)
        army.setup_drawn += 1
    if all(a.setup_drawn == SETUP_DRAW and len(a.deployed()) == SETUP_DEPLOY for a in state.armies.values()):
        state.stage, state.turn, state.turn_number = Stage.DRAW, state.order[0], 1
        out.append(Outcome("setup_done", data={"seat": state.turn}))
    return out


# -- the turn ----------------------------------------------------------------------------------------------
def conflict_drawn(deck: Deck, state: PacificState, key: str) -> list[Outcome]:
    """The drawing player's CONFLICT card, turned face up onto the discard pile (or aside: a BATTLECARD)."""
    card = deck.card(key)
    seat = state.turn
    if deck.theatre(key) != state.armies[seat].theatre:
        raise Refused("own_theatre_deck", seat)
    if card.kind == "keep":
        raise Refused("kept_not_discarded", seat)
    out = [Outcome("conflict_drawn", data={"seat": seat, "card": key, "kind": card.kind})]
    out += take_conflict(deck, state, key, to_discard=card.kind != "battle", face_up=True)
    if card.kind == "battle":
        return out + drawn(deck, state, key)
    if card.kind == "draw":
        return out + instructed(deck, state, seat, key, card.get("draw", 0), card.get("deploy", 0),
                                card.get("replenish", 0))
    return out + intel(state, seat, key, card["look"])


def kept(deck: Deck, state: PacificState, seat: int, key: str) -> list[Outcome]:
    """A "Keep this card" card drawn and laid face down beside the stacks (its face is the drawer's secret)."""
    if seat != state.turn:
        raise Refused("not_the_drawing_player", seat, turn=state.turn)
    if deck.theatre(key) != state.armies[seat].theatre:
        raise Refused("keep_from_own_theatre", seat)
    if deck.card(key).kind != "keep":
        raise Refused("discard_face_up", seat)
    reshuffled = take_conflict(deck, state, key, to_discard=False)
    state.armies[seat].kept.append(key)
    return [Outcome("kept", data={"seat": seat, "kept": len(state.armies[seat].kept)}), *reshuffled, *end_turn(state)]


def instructed(deck: Deck, state: PacificState, seat: int, key: str, draw: int, deploy_up_to: int,
               replenish: int) -> list[Outcome]:
    """"Some cards in the CONFLICT deck instruct the drawing player to build up his hand by drawing more
    cards from the ARSENAL deck." Without a hand (after an emergency deployment) only a card that
    replenishes it gives cards."""
    army = state.armies[seat]
    if replenish:
        army.handless = False
        draw = max(0, replenish - len(army.hand))
    elif army.handless:
        draw = deploy_up_to = 0
    draw = min(draw, army.arsenal_left + len(army.arsenal_discard))
    out = [Outcome("instructed", data={"seat": seat, "card": key, "draw": draw, "deploy": deploy_up_to,
                                       "handless": army.handless})]
    if draw or deploy_up_to:
        state.task, state.stage = Task(seat=seat, card=key, draw=draw, deploy=deploy_up_to), Stage.ARSENAL
        return out
    return out + end_turn(state)


def intel(state: PacificState, seat: int, key: str, look: str) -> list[Outcome]:
    """A card to "learn about their opponent": the drawer's phone shows what the card lets him see."""
    enemy = state.armies[opponent(state, seat)]
    out = [Outcome("intel", data={"seat": seat, "card": key, "look": look, "of": opponent(state, seat)})]
    if look == "deployed":
        state.task, state.stage = Task(seat=seat, card=key, look=look), Stage.LOOK
        return out
    state.armies[seat].seen = list(enemy.hand if look == "reserve" else enemy.kept)
    return out + end_turn(state)


def on_look(state: PacificState, seat: int, stack: str) -> tuple[Outcome, ...]:
    task = state.drawn_task()
    if seat != task.seat:
        raise Refused("not_the_looker", seat, looker=task.seat)
    if stack not in STACKS:
        raise Refused("no_such_stack", seat)
    state.armies[seat].seen = list(state.armies[opponent(state, seat)].stacks[stack])
    return (Outcome("looked", data={"seat": seat, "stack": stack, "of": opponent(state, seat)}), *end_turn(state))


def task_card(deck: Deck, state: PacificState, seat: int, key: str, face_down: bool, stack: str | None) -> list[Outcome]:
    """An ARSENAL card drawn, or deployed, as the drawing player's card told him."""
    task = state.drawn_task()
    if seat != task.seat:
        raise Refused("told_another", seat, told=task.seat)
    if face_down:
        if task.draw:
            raise Refused("draw_first", seat, draw=task.draw)
        if not task.deploy:
            raise Refused("draw_not_deploy", seat, card=task.card)
        out = deploy(deck, state, seat, key, stack)
        task.deploy -= 1
    else:
        if not task.draw:
            raise Refused("all_drawn", seat, card=task.card)
        out = draw_arsenal(deck, state, seat, key)
        task.draw -= 1
    if not task.draw and not task.deploy:
        out += task_done(state)
    return out


def task_done(state: PacificState) -> list[Outcome]:
    if state.drawn_task().then == "draw":
        state.task, state.stage = None, Stage.DRAW
        return []
    return end_turn(state)


def on_done(state: PacificState, seat: int) -> tuple[Outcome, ...]:
    if state.stage == Stage.AID:
        if seat != state.turn:
            raise Refused("not_your_turn", seat, turn=state.turn)
        return (Outcome("deploy_done", data={"seat": seat}), *end_turn(state))
    task = state.drawn_task()
    if seat != task.seat:
        raise Refused("not_your_turn", seat, turn=task.seat)
    if task.draw:
        raise Refused("still_to_draw", seat, draw=task.draw)
    if task.exact and task.deploy and state.armies[seat].hand:
        raise Refused("deploy_three_more", seat, deploy=task.deploy)
    return (Outcome("deploy_done", data={"seat": seat}), *task_done(state))


def on_emergency(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    """"You may emergency deploy your reserve hand instead of drawing a conflict card at the start of any
    turn or when your homeland is invaded.\""""
    army: Army = state.armies[seat]
    invaded = state.stage == Stage.HOMELAND and seat in state.fight().defenders
    if not invaded and (state.stage != Stage.DRAW or seat != state.turn or state.convoy_played):
        raise Refused("not_start_of_turn", seat)
    if not army.hand:
        raise Refused("no_reserve_hand", seat)
    cards = list(army.hand)
    for key in cards:
        army.stacks[deck.unit_type(key)].append(key)
    army.hand, army.handless = [], True
    out = [Outcome("emergency_deploy", data={"seat": seat, "cards": len(cards),
                                             "stacks": {t: len(army.stacks[t]) for t in army.stacks}})]
    return tuple(out + (engage(deck, state) if invaded else end_turn(state)))


def play_convoy(deck: Deck, state: PacificState, seat: int, key: str) -> list[Outcome]:
    """Supply Convoy: "Play it at the start of any of your turns: draw 2 cards from your ARSENAL deck.\""""
    if state.stage != Stage.DRAW or seat != state.turn or state.convoy_played:
        raise Refused("convoy_at_turn_start", seat, card=key)
    army = state.armies[seat]
    army.kept.remove(key)
    forget(state, key)
    state.conflict_discard[deck.theatre(key)].append(key)
    seen_face_up(deck, state, key)
    state.convoy_played = True
    draw = 0 if army.handless else min(deck.card(key)["draw"], army.arsenal_left + len(army.arsenal_discard))
    out = [Outcome("convoy", data={"seat": seat, "card": key, "draw": draw})]
    if draw:
        state.task, state.stage = Task(seat=seat, card=key, draw=draw, then="draw"), Stage.ARSENAL
    return out
