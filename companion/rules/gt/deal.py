"""The deal: a new game's state, a new round, identity cards shown privately, the first discard
flipped, and who plays first ("What happens if" the flipped card is an action or the BATTLE card).

The players deal with real cards; the companion only follows. A round starts in the ``deal``
phase and leaves it once every player has shown their identity card (to their own reader, or to
the covered scan tray) and the first discard is flipped, in either order.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card, Catalog
from card_tags.games.gt_battle import count_by, deal_plan

from ..base import Outcome, Seat, SetupError
from ..contract import Refused, zone_seat
from . import action_cards, composition, seats, turns
from .cards import Deck
from .state import LEFT, RIGHT, BattleState, Deal, Identity, Phase, Team


def new_game(catalog: Catalog, players: list[Seat], options: dict[str, Any]) -> BattleState:
    """The state of a game about to deal its first round; the options are already resolved."""
    n = len(players)
    if not 1 <= options["first_dealer"] <= n:
        raise SetupError(f"option 'first_dealer' must be a seat 1-{n}, not {options['first_dealer']}")
    if options["target"] < 1:
        raise SetupError(f"option 'target' must be at least 1 point, not {options['target']}")
    state = BattleState(seats=list(players), options=options, deal=_deal(catalog, n),
                        points={s.number: 0 for s in players})
    new_round(state, options["first_dealer"])
    return state


def _deal(catalog: Catalog, players: int) -> Deal:
    """The deal table's row, and how many of each counted action card the table plays with."""
    try:
        plan = deal_plan(catalog, players)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    actions = count_by(catalog)["action"]
    limits = {action: actions[action] - plan.removed.count(action) for action in composition.LIMITED}
    limits["expose"] = plan.expose
    return Deal(players=players, per_player=plan.per_player, deck=plan.deck, dealt=plan.dealt,
                remaining=plan.remaining, removed=list(plan.removed), limits=limits)


def new_round(state: BattleState, dealer: int) -> None:
    """Steps 1-6 as far as the companion is concerned: a fresh round waits for identities and the flip."""
    numbers = state.seat_numbers()
    state.round += 1
    state.dealer, state.phase, state.turn, state.direction = dealer, Phase.DEAL, None, LEFT
    state.identity = {}
    state.exposed = {s: False for s in numbers}
    state.eliminated = {s: False for s in numbers}
    state.hands = {s: state.deal.per_player for s in numbers}
    state.deck = state.deal.remaining + 1  # step 5 shuffles the BATTLE card into what the deal left
    state.pile, state.flipped, state.may_take_flipped, state.step = [], None, False, None
    state.top, state.pending, state.passed, state.awaiting, state.count_check = None, None, [], None, None
    state.expect_save_card, state.conflicts, state.in_play = 0, [], {}
    state.lying = {}  # every card was gathered and shuffled: nothing lies on the table


# -- identities ------------------------------------------------------------------------------------
def shown_privately(deck: Deck, state: BattleState, key: str, card: Card, zone: str,
                    data: dict[str, Any]) -> tuple[Outcome, ...]:
    """An identity card shown to a seat's reader or to the tray: the companion learns that seat's team."""
    if card.kind != "identity":
        raise Refused("only_identities_shown")
    seat = _identity_seat(state, zone, data)
    known = state.identity.get(seat)
    if known and known.card == key:
        return ()  # a player checking their own card again
    if state.phase != Phase.DEAL:
        raise Refused("identity_after_deal")
    _check_not_shown_elsewhere(state, seat, key)
    team = Team(card["team"])
    _check_team_size(state, seat, team)
    via = "tray" if zone == "tray" else "reader"
    state.identity[seat] = Identity(card=key, team=team, via=via)
    if via not in state.shown_via:
        state.shown_via.append(via)
    shown = Outcome("identity", data={"seat": seat, "replaced": known is not None, "shown": len(state.identity),
                                      "of": len(state.seats)})
    return (shown, *_maybe_begin(deck, state))


def _check_not_shown_elsewhere(state: BattleState, seat: int, key: str) -> None:
    for other, known in state.identity.items():
        if known.card == key and other != seat:
            raise Refused("identity_shown_for_another", other=other)


def _check_team_size(state: BattleState, seat: int, team: Team) -> None:
    """No team holds more than half the identity cards dealt (rounded up at an odd table)."""
    n = len(state.seats)
    same_team = sum(1 for s, known in state.identity.items() if known.team == team and s != seat)
    if same_team + 1 > (n + 1) // 2:
        # A secret: that the seats shown so far hold half of one team. The view words it for the
        # public without it; the whole reason reaches only this seat's page.
        raise Refused("team_too_large", seat, players=n)


def _identity_seat(state: BattleState, zone: str, data: dict[str, Any]) -> int:
    """Whose identity card it is: the reader's seat, the seat the tablet names, or the tray's next seat."""
    if zone.startswith("reader:"):
        reader = zone_seat(zone, ("reader",))
        if reader is None or reader not in state.seat_numbers():
            raise Refused("not_a_seat_reader", zone=zone, last=len(state.seats))
        return reader
    if "seat" in data:
        return int(data["seat"])
    waiting = seats.identities_missing(state)
    if not waiting:
        raise Refused("every_identity_shown")
    return waiting[0]  # the tray serves the players in turn, from the left of the dealer


# -- the first discard -----------------------------------------------------------------------------
def flip_first(deck: Deck, state: BattleState, key: str) -> tuple[Outcome, ...]:
    """Step 6: the top card of the deck is flipped onto the centre pile (seen by the camera, or entered
    on the tablet as ``first_discard`` when the camera missed it)."""
    if deck.card(key).kind == "identity":
        raise Refused("identity_as_first_discard")
    if state.flipped:
        raise Refused("first_discard_flipped", card=state.flipped)
    composition.check_in_deck(deck, state, key)
    state.flipped, state.pile = key, [key]
    state.deck -= 1
    return (Outcome("flip", data={"card": key}), *_maybe_begin(deck, state))


def _maybe_begin(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    if state.flipped and not seats.identities_missing(state):
        return _begin_play(deck, state)
    return ()


def _begin_play(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    """The player left of the dealer is first, except as the "What happens if" cases say."""
    dealer = state.dealer
    left = state.left_of(dealer)
    assert state.flipped is not None, "play begins once the first discard is flipped"
    card = deck.card(state.flipped)
    state.phase, state.direction, state.turn = Phase.BUILDING, LEFT, left
    if card.kind == "battle":
        turns.start_battle(state, left)
        return (Outcome("first_card", data={"first": "battle", "seat": left}),)
    what = card.get("action")
    told = _first_player(state, what, dealer, left)
    turns.begin_turn(state)
    if what == "expose":
        told += (Outcome("first_card", data={"first": "expose", "seat": dealer}),
                 *action_cards.ask_expose(deck, state, dealer, "nothing"))
    return told


def _first_player(state: BattleState, what: str | None, dealer: int, left: int) -> tuple[Outcome, ...]:
    """Who plays first after a flipped SKIP, REVERSE, NEW BATTLE, ELIMINATE or SAVE (or a fight card)."""
    if what == "skip":
        state.turn = state.left_of(left)
        return (Outcome("first_card", data={"first": "skip", "seat": state.turn}),)
    if what == "reverse":
        state.turn, state.direction = dealer, RIGHT
        return (Outcome("first_card", data={"first": "reverse", "seat": dealer}),)
    if what in ("new_battle", "eliminate", "save"):
        state.may_take_flipped = True
        return (Outcome("first_card", data={"first": "take", "seat": left, "card": state.flipped}),)
    return (Outcome("first_card", data={"first": "fight", "seat": state.turn}),)
