"""Setup and the turn: ARSENAL cards drawn into the Reserve Hand and deployed, the CONFLICT card the
drawing player draws and follows, Kept Cards, emergency deployment, and the decks' reshuffles."""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import battle as battles, ending, rulebook
from .cards import Deck
from .state import Army, PacificState, Stage, Task, forget

SETUP_DRAW, SETUP_DEPLOY = 6, 3


def opponent(state: PacificState, seat: int) -> int:
    """The in-theatre opponent (with two players, the other one)."""
    mine = battles.allies(state, seat)
    enemies = [s for s in state.armies if s not in mine]
    same = [s for s in enemies if state.armies[s].theatre == state.armies[seat].theatre]
    return (same or enemies)[0]


# -- where a card is -----------------------------------------------------------------------------------
def where(state: PacificState, key: str) -> str | None:
    for seat, army in state.armies.items():
        if key in army.hand:
            return f"hand:{seat}"
        if key in army.deployed():
            return f"stack:{seat}"
        if key in army.kept:
            return f"kept:{seat}"
        if key in army.won:
            return f"won:{seat}"
        if key in army.arsenal_discard:
            return f"destroyed:{seat}"
    if any(key in pile for pile in state.conflict_discard.values()):
        return "discard"
    if key == state.pending or (state.battle and key == state.battle.card):
        return "battle"
    return None


# -- the CONFLICT deck ---------------------------------------------------------------------------------
def take_conflict(deck: Deck, state: PacificState, key: str, to_discard: bool, out: list[Outcome],
                  face_up: bool | None = None) -> None:
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
        reshuffle_conflict(state, theatre, out)


def seen_face_up(deck: Deck, state: PacificState, key: str) -> None:
    """A CONFLICT card everyone has now seen leaves the public pool of unseen cards."""
    pool = state.conflict_pool[deck.theatre(key)]
    if key in pool:
        pool.remove(key)


def reshuffle_conflict(state: PacificState, theatre: str, out: list[Outcome]) -> None:
    pile = state.conflict_discard[theatre]
    state.conflict_left[theatre] = len(pile)
    state.conflict_pool[theatre] = list(pile)
    state.conflict_discard[theatre] = []
    for key in pile:  # picked up from the pile: seen there again later is a new card
        forget(state, key)
    out.append(Outcome("reshuffle", data={"deck": "conflict", "theatre": theatre, "cards": len(pile)}))


# -- ARSENAL cards --------------------------------------------------------------------------------------
def draw_arsenal(deck: Deck, state: PacificState, seat: int, key: str, out: list[Outcome]) -> None:
    army = state.armies[seat]
    sent = army.foreign and deck.side(key) in [state.armies[s].side for s in battles.allies(state, seat)]
    if deck.side(key) != army.side and not sent:
        raise Refused(f"That card belongs to the other side's ARSENAL deck, not {state.name(seat)}'s.")
    if deck.side(key) != army.side:
        army.foreign -= 1   # the card an ally sent to the bottom of this deck
    if army.arsenal_left <= 0 and army.arsenal_discard:
        for card in army.arsenal_discard:
            forget(state, card)
        army.arsenal_left = len(army.arsenal_discard)
        army.arsenal_discard = []
        out.append(Outcome("reshuffle", data={"deck": "arsenal", "seat": seat, "cards": army.arsenal_left}))
    place = where(state, key)
    if place is not None or army.arsenal_left <= 0:
        raise Refused(f"That card is not in {state.name(seat)}'s ARSENAL deck"
                      f"{' (it is ' + _place_words(place) + ')' if place else ''}.")
    army.arsenal_left -= 1
    army.hand.append(key)
    out.append(Outcome("drew_arsenal", data={"seat": seat, "hand": len(army.hand)}))


def _place_words(place: str) -> str:
    what, _, seat = place.partition(":")
    return {"hand": "in the Reserve Hand of seat ", "stack": "deployed by seat ", "destroyed": "destroyed, on the "
            "discard pile of seat ", "kept": "kept by seat ", "won": "won by seat "}.get(what, what) + seat


def deploy(deck: Deck, state: PacificState, seat: int, key: str, stack: str | None, out: list[Outcome]) -> None:
    """"To 'Deploy' forces, you simply place them face down in front of you in 3 stacks.\""""
    army = state.armies[seat]
    if key not in army.hand:
        raise Refused(f"Deploy from your Reserve Hand: that card is not in {state.name(seat)}'s hand.")
    unit_type = deck.unit_type(key)
    if stack is not None and stack != unit_type:
        raise Refused(f"{rulebook.PROPER_STACK} That unit does not belong in the {stack.title()} stack.")
    army.hand.remove(key)
    army.stacks[unit_type].append(key)
    out.append(Outcome("deployed", data={"seat": seat, "stack": unit_type, "hand": len(army.hand)}))


# -- setup ------------------------------------------------------------------------------------------------
def setup_card(deck: Deck, state: PacificState, seat: int, key: str, face_down: bool, stack: str | None) -> list[Outcome]:
    army, out = state.armies[seat], []
    if face_down:
        if army.setup_drawn < SETUP_DRAW:
            raise Refused(f"{rulebook.DEPLOY} {state.name(seat)} has drawn {army.setup_drawn} of 6.")
        if len(army.deployed()) >= SETUP_DEPLOY:
            raise Refused(f"{rulebook.DEPLOY} {state.name(seat)} has deployed 3 already.")
        deploy(deck, state, seat, key, stack, out)
    else:
        if army.setup_drawn >= SETUP_DRAW:
            raise Refused(f"{rulebook.DEPLOY} {state.name(seat)} has drawn 6 already.")
        draw_arsenal(deck, state, seat, key, out)
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
        raise Refused("\"Conflict decks will not be combined from different sets, and each player will draw from "
                      "their own theatre's conflict deck at all times.\"")
    if card.kind == "keep":
        raise Refused(f"{rulebook.KEEP} Take it back: it is kept, not discarded.")
    out: list[Outcome] = []
    take_conflict(deck, state, key, to_discard=card.kind != "battle", out=out, face_up=True)
    out.insert(0, Outcome("conflict_drawn", data={"seat": seat, "card": key, "kind": card.kind}))
    if card.kind == "battle":
        out += battles.drawn(deck, state, key)
    elif card.kind == "draw":
        out += instructed(deck, state, seat, key, card.get("draw", 0), card.get("deploy", 0), card.get("replenish", 0))
    else:
        out += intel(state, seat, key, card["look"])
    return out


def kept(deck: Deck, state: PacificState, seat: int, key: str) -> list[Outcome]:
    """A "Keep this card" card drawn and laid face down beside the stacks (its face is the drawer's secret)."""
    if seat != state.turn:
        raise Refused(f"{rulebook.DRAWING} It is {state.name(state.turn)}'s turn.")
    if deck.theatre(key) != state.armies[seat].theatre:
        raise Refused("\"each player will draw from their own theatre's conflict deck at all times.\"")
    if deck.card(key).kind != "keep":
        raise Refused(f"{rulebook.DRAWING} Unless the card says \"Keep this card\", it is discarded face up onto the "
                      f"discard pile, where the camera reads it.")
    out: list[Outcome] = []
    take_conflict(deck, state, key, to_discard=False, out=out)
    state.armies[seat].kept.append(key)
    out.insert(0, Outcome("kept", data={"seat": seat, "kept": len(state.armies[seat].kept)}))
    ending.end_turn(state, out)
    return out


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
    else:
        ending.end_turn(state, out)
    return out


def intel(state: PacificState, seat: int, key: str, look: str) -> list[Outcome]:
    """A card to "learn about their opponent": the drawer's phone shows what the card lets him see."""
    enemy = state.armies[opponent(state, seat)]
    out = [Outcome("intel", data={"seat": seat, "card": key, "look": look, "of": opponent(state, seat)})]
    if look == "deployed":
        state.task, state.stage = Task(seat=seat, card=key, look=look), Stage.LOOK
        return out
    state.armies[seat].seen = list(enemy.hand if look == "reserve" else enemy.kept)
    ending.end_turn(state, out)
    return out


def on_look(state: PacificState, seat: int, stack: str) -> tuple[Outcome, ...]:
    if seat != state.task.seat:
        raise Refused(f"{state.name(state.task.seat)} looks, having drawn the card.")
    if stack not in ("ground", "air", "sea"):
        raise Refused("Look at one of the stacks: ground, air or sea.")
    state.armies[seat].seen = list(state.armies[opponent(state, seat)].stacks[stack])
    out = [Outcome("looked", data={"seat": seat, "stack": stack, "of": opponent(state, seat)})]
    ending.end_turn(state, out)
    return tuple(out)


def task_card(deck: Deck, state: PacificState, seat: int, key: str, face_down: bool, stack: str | None) -> list[Outcome]:
    """An ARSENAL card drawn, or deployed, as the drawing player's card told him."""
    task, out = state.task, []
    if seat != task.seat:
        raise Refused(f"{rulebook.DRAWING} The card told {state.name(task.seat)} to draw, not {state.name(seat)}.")
    if face_down:
        if task.draw:
            raise Refused(f"Draw first: {task.draw} more ARSENAL card{'s' if task.draw > 1 else ''} into the Reserve Hand.")
        if not task.deploy:
            raise Refused(f"{deck.card(task.card).name} lets {state.name(seat)} draw, not deploy.")
        deploy(deck, state, seat, key, stack, out)
        task.deploy -= 1
    else:
        if not task.draw:
            raise Refused(f"{deck.card(task.card).name}: every card it gives is drawn.")
        draw_arsenal(deck, state, seat, key, out)
        task.draw -= 1
    if not task.draw and not task.deploy:
        out += task_done(state)
    return out


def task_done(state: PacificState) -> list[Outcome]:
    out: list[Outcome] = []
    if state.task.then == "draw":
        state.task, state.stage = None, Stage.DRAW
        return out
    ending.end_turn(state, out)
    return out


def on_done(state: PacificState, seat: int) -> tuple[Outcome, ...]:
    if state.stage == Stage.AID:
        if seat != state.turn:
            raise Refused(f"It is {state.name(state.turn)}'s turn.")
        out = [Outcome("deploy_done", data={"seat": seat})]
        ending.end_turn(state, out)
        return tuple(out)
    task = state.task
    if seat != task.seat:
        raise Refused(f"It is {state.name(task.seat)}'s turn.")
    if task.draw:
        raise Refused(f"{deck_words(task.draw)} still to draw into the Reserve Hand.")
    if task.exact and task.deploy and state.armies[seat].hand:
        raise Refused(f"\"He also immediately draws 6 and deploys 3 arsenal cards.\" {task.deploy} more to deploy.")
    return (Outcome("deploy_done", data={"seat": seat}), *task_done(state))


def deck_words(n: int) -> str:
    return f"{n} ARSENAL card{'s' if n != 1 else ''}"


def on_emergency(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    """"You may emergency deploy your reserve hand instead of drawing a conflict card at the start of any
    turn or when your homeland is invaded.\""""
    army: Army = state.armies[seat]
    invaded = state.stage == Stage.HOMELAND and seat in state.battle.defenders
    if not invaded and (state.stage != Stage.DRAW or seat != state.turn or state.convoy_played):
        raise Refused(f"{rulebook.EMERGENCY} It is not the start of {state.name(seat)}'s turn.")
    if not army.hand:
        raise Refused(f"{rulebook.HANDLESS} {state.name(seat)} has no Reserve Hand to deploy.")
    cards = list(army.hand)
    for key in cards:
        army.stacks[deck.unit_type(key)].append(key)
    army.hand, army.handless = [], True
    out = [Outcome("emergency_deploy", data={"seat": seat, "cards": len(cards),
                                             "stacks": {t: len(army.stacks[t]) for t in army.stacks}})]
    if invaded:
        battles.engage(deck, state, out)
    else:
        ending.end_turn(state, out)
    return tuple(out)


def play_convoy(deck: Deck, state: PacificState, seat: int, key: str) -> list[Outcome]:
    """Supply Convoy: "Play it at the start of any of your turns: draw 2 cards from your ARSENAL deck.\""""
    if state.stage != Stage.DRAW or seat != state.turn or state.convoy_played:
        raise Refused(f"{deck.card(key).name} is played at the start of one of {state.name(seat)}'s own turns.")
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
