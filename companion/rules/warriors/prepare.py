"""Phase One: Prepare for Battle (and the deal before it, and the refill after a Battle round).

"Each player now draws 3 cards from his/her Warrior pile and 3 from his/her Armory pile." "The
first player chooses a Warrior to play as his/her primary card (the chosen Warrior must have
icons) and lays him faceup." "The player chooses another card from either his/her Warrior or
Armory deck to bring the cards in his/her hand back up to six." "The starting player now lays
another card (secondary card) facedown to the right of his/her Warrior, then draws a new Warrior
or Armory card." "At anytime in the course of a Preparation round, a player can stop Phase One by
saying, 'Call to battle!' at the end of his/her turn. Players who haven't laid down cards that
round will do so, and Phase Two: Call to Battle begins."
"""
from __future__ import annotations

from card_tags.catalog import Catalog
from companion.rules.base import Outcome
from companion.rules.contract import Refused

from .cards import info, why_not_primary, why_not_secondary
from .state import Laid, Step, WarriorsState
from .table import HAND, active, can_draw, count_end, draw, end_if_one_left, round_order, surrender, warriors_in_play

DEAL_EACH = 3


def dealing(state: WarriorsState) -> list[int]:
    """Seats still drawing their 3 Warriors and 3 Armory cards (the deal, or after the special battle)."""
    found = []
    for seat in active(state):
        p = state.players[seat]
        if (p.deal_warriors < DEAL_EACH and p.warrior_deck > 0) or (p.deal_armory < DEAL_EACH and p.armory_deck > 0):
            found.append(seat)
    return found


def deal_card(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    player = state.players[seat]
    if seat not in dealing(state):
        raise Refused("deal_complete", seat)
    card = info(catalog, key)
    if (player.deal_warriors if card.warrior else player.deal_armory) >= DEAL_EACH:
        raise Refused("deal_pile_full", seat, pile="Warrior" if card.warrior else "Armory")
    outcome = draw(catalog, state, seat, key, need_warrior=False)
    if card.warrior:
        player.deal_warriors += 1
    else:
        player.deal_armory += 1
    return (outcome,)


def finish_deal(state: WarriorsState) -> tuple[Outcome, ...]:
    if dealing(state):
        return ()
    state.step, state.turn, state.laid_round = Step.PRIMARY, state.leader, []
    return (Outcome("phase_one", data={"leader": state.leader, "battle_round": state.battle_round}),)


def lay_primary(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    player = state.players[seat]
    _their_turn(state, seat)
    if key not in player.hand:
        raise Refused("not_in_hand", seat, card=key)
    rule = why_not_primary(info(catalog, key))
    if rule:
        raise Refused("not_a_primary", seat, rule=rule, card=key)
    player.hand.remove(key)
    player.play.append(Laid(card=key, owner=seat))
    state.drawing = seat
    return (Outcome("primary", data={"seat": seat, "card": key}), *_draw_or_skip(state, seat))


def lay_secondary(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    """A card scanned privately from the seat's hand, then laid face down."""
    player = state.players[seat]
    _their_turn(state, seat)
    rule = why_not_secondary(info(catalog, key), warriors_in_play(catalog, player))
    if rule:
        raise Refused("cannot_be_laid", seat, rule=rule)
    player.hand.remove(key)
    player.play.append(Laid(card=key, owner=seat, face_down=True))
    state.drawing = seat
    return (Outcome("laid", data={"seat": seat, "position": len(player.play) - 1}), *_draw_or_skip(state, seat))


def draw_after_lay(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    return (draw(catalog, state, seat, key), *end_turn(state, seat))


def _draw_or_skip(state: WarriorsState, seat: int) -> tuple[Outcome, ...]:
    """Both decks empty: there is nothing to draw; the turn ends (the hand stays short, and the
    player surrenders at the end of the round if it still is)."""
    if can_draw(state.players[seat]) and len(state.players[seat].hand) < HAND:
        return ()
    return end_turn(state, seat)


def _their_turn(state: WarriorsState, seat: int) -> None:
    if state.drawing is not None:
        raise Refused("drawing_first", drawing=state.drawing)
    if seat != state.turn:
        raise Refused("not_your_turn", turn=state.turn)


def legal_cards(catalog: Catalog, state: WarriorsState, seat: int) -> list[str]:
    player = state.players[seat]
    warriors = warriors_in_play(catalog, player)
    return [k for k in player.hand if why_not_secondary(info(catalog, k), warriors) is None]


def pass_turn(catalog: Catalog, state: WarriorsState, seat: int) -> tuple[Outcome, ...]:
    """The rulebook has every player lay a card each turn; one who holds no card that can be laid
    with their cards in play passes (docs/referee/warriors.md)."""
    _their_turn(state, seat)
    if state.step != Step.SECONDARY:
        raise Refused("primary_before_pass", seat)
    if legal_cards(catalog, state, seat):
        raise Refused("can_lay_a_card", seat)
    state.passed.append(seat)
    return (Outcome("passed", data={"seat": seat}), *end_turn(state, seat))


def end_turn(state: WarriorsState, seat: int) -> tuple[Outcome, ...]:
    state.drawing = None
    state.laid_round.append(seat)
    order = round_order(state)
    if len(state.laid_round) < len(order):
        state.turn = order[len(state.laid_round)]
        return ()
    everyone_passed = set(order) <= set(state.passed)
    state.laid_round, state.passed = [], []
    state.turn = state.leader
    if state.step == Step.PRIMARY:
        state.step = Step.SECONDARY
    if state.caller is None and everyone_passed:
        # Nobody could lay a card this round, and nothing would change in the next: the battle
        # begins as if the last to pass had called it (docs/referee/warriors.md).
        state.caller = seat
        return (Outcome("all_passed", data={"caller": seat}), *begin_phase_two(state))
    if state.caller is not None:
        return begin_phase_two(state)
    return ()


def call_to_battle(state: WarriorsState, seat: int) -> tuple[Outcome, ...]:
    finished = state.laid_round[-1] if state.laid_round else (round_order(state)[-1] if state.step == Step.SECONDARY else None)
    if state.drawing is not None or finished != seat:
        if finished:
            raise Refused("call_not_now", finished=finished)
        raise Refused("call_before_any_turn")
    if state.caller is not None:
        raise Refused("already_called", caller=state.caller)
    state.caller = seat
    outcome = Outcome("call", data={"seat": seat, "to_lay": [n for n in round_order(state) if n not in state.laid_round]
                                    if state.laid_round else []})
    if not state.laid_round:   # the round had just ended: everyone has laid a card in it
        return (outcome, *begin_phase_two(state))
    return (outcome,)


def begin_phase_two(state: WarriorsState) -> tuple[Outcome, ...]:
    state.step = Step.CHALLENGE
    state.battle_round += 1
    state.challenger = state.caller
    state.battled, state.results, state.peeks = [], [], {}
    state.challenge = None
    state.prophecy_used = False
    return (Outcome("phase_two", data={"caller": state.caller}),)


def refilling(state: WarriorsState) -> list[int]:
    return [n for n in active(state) if len(state.players[n].hand) < HAND and can_draw(state.players[n])]


def begin_refill(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    state.step = Step.REFILL
    return finish_refill(catalog, state)


def finish_refill(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    """"At the end of a round, if any player can no longer bring the number of cards in his/her
    hand up to six or cannot play the cards that remain, he/she surrenders the remaining cards to
    the winner of the last Challenge of that round." Then Phase One again, the last winner first."""
    if refilling(state):
        return ()
    failing = {}
    for seat in active(state):
        hand = state.players[seat].hand
        if len(hand) < HAND:
            failing[seat] = "short"
        elif not any(why_not_primary(info(catalog, k)) is None for k in hand):
            failing[seat] = "no_primary"
    if failing and len(failing) == len(active(state)):
        # Nobody can go on: the game ends as if the players stopped, counting Warrior cards.
        return (count_end(catalog, state, "nobody_can_go_on"),)
    staying = [n for n in active(state) if n not in failing]
    outcomes = [surrender(state, seat, reason, staying) for seat, reason in failing.items()]
    outcomes += end_if_one_left(state)
    if state.over:
        return tuple(outcomes)
    leader = state.last_winner if state.last_winner in active(state) else active(state)[0]
    state.leader = state.turn = leader
    state.step, state.laid_round, state.passed, state.caller, state.drawing = Step.PRIMARY, [], [], None, None
    state.battled, state.challenger, state.challenge = [], None, None
    outcomes.append(Outcome("phase_one", data={"leader": leader, "battle_round": state.battle_round}))
    return tuple(outcomes)


def tray_owner(state: WarriorsState) -> int | None:
    """Whose card the covered tray reads now: the seat dealing or drawing (the tablet's prompt names them)."""
    if state.step in (Step.DEAL, Step.REDRAW):
        return next(iter(dealing(state)), None)
    if state.step in (Step.PRIMARY, Step.SECONDARY):
        return state.drawing or state.turn
    if state.step == Step.REFILL:
        return next(iter(refilling(state)), None)
    return None
