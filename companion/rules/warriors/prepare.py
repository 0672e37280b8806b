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
DEAL_RULE = "\"Each player now draws 3 cards from his/her Warrior pile and 3 from his/her Armory pile\""


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
        raise Refused(f"{state.name(seat)} already holds the 3 Warrior and 3 Armory cards of the deal: {DEAL_RULE}.")
    card = info(catalog, key)
    if (player.deal_warriors if card.warrior else player.deal_armory) >= DEAL_EACH:
        pile = "Warrior" if card.warrior else "Armory"
        raise Refused(f"{state.name(seat)} already drew 3 {pile} cards: {DEAL_RULE}.")
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
        raise Refused(f"{catalog.cards[key.partition('#')[0]].name} is not in {state.name(seat)}'s hand as scanned: "
                      f"scan every card you draw on your reader or in the covered tray.")
    reason = why_not_primary(info(catalog, key))
    if reason:
        raise Refused(reason)
    player.hand.remove(key)
    player.play.append(Laid(card=key, owner=seat))
    state.drawing = seat
    return (Outcome("primary", data={"seat": seat, "card": key}), *_draw_or_skip(state, seat))


def lay_secondary(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    """A card scanned privately from the seat's hand, then laid face down."""
    player = state.players[seat]
    _their_turn(state, seat)
    reason = why_not_secondary(info(catalog, key), warriors_in_play(catalog, player))
    if reason:
        raise Refused(f"{state.name(seat)}'s card cannot be laid with {state.name(seat)}'s cards in play: {reason}. "
                      f"Keep it and lay another.")
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
        raise Refused(f"{state.name(state.drawing)} draws a card first, then play goes on clockwise.")
    if seat != state.turn:
        raise Refused(f"It is {state.name(state.turn)}'s turn; play proceeds clockwise.")


def legal_cards(catalog: Catalog, state: WarriorsState, seat: int) -> list[str]:
    player = state.players[seat]
    warriors = warriors_in_play(catalog, player)
    return [k for k in player.hand if why_not_secondary(info(catalog, k), warriors) is None]


def pass_turn(catalog: Catalog, state: WarriorsState, seat: int) -> tuple[Outcome, ...]:
    """The rulebook has every player lay a card each turn; one who holds no card that can be laid
    with their cards in play passes (docs/referee/warriors.md)."""
    _their_turn(state, seat)
    if state.step != Step.SECONDARY:
        raise Refused(f"{state.name(seat)} lays a primary Warrior first; a player whose hand has no Warrior with "
                      f"icons surrenders instead.")
    if legal_cards(catalog, state, seat):
        raise Refused(f"{state.name(seat)} holds a card that can be laid: \"All players take turns laying down "
                      f"secondary cards and drawing new cards until someone announces a Call to Battle.\"")
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
        raise Refused(f"\"A player can stop Phase One by saying, 'Call to battle!' at the end of his/her turn\": "
                      f"only {state.name(finished)} can call now." if finished else
                      "\"A player can stop Phase One by saying, 'Call to battle!' at the end of his/her turn\"; "
                      "no turn has ended yet.")
    if state.caller is not None:
        raise Refused(f"{state.name(state.caller)} has already called to battle.")
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
