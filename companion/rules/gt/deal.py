"""The deal: a new game's state, a new round, identity cards shown privately, the first discard
flipped, and who plays first ("What happens if" the flipped card is an action or the BATTLE card).

The players deal with real cards; the companion only follows. A round starts in the ``deal``
phase and leaves it once every player has shown their identity card (to their own reader, or to
the covered scan tray) and the first discard is flipped, in either order.
"""
from __future__ import annotations

from typing import Any

from card_tags.catalog import Card, Catalog
from card_tags.games.gt_battle import deal_plan

from ..base import Seat, SetupError, State
from . import action_cards, seats, turns
from .cards import Deck
from .report import Refuse, Report
from .seats import LEFT, RIGHT


def new_game(catalog: Catalog, players: list[Seat], options: dict[str, Any]) -> State:
    """The state of a game about to deal its first round; the options are already resolved."""
    n = len(players)
    try:
        plan = deal_plan(catalog, n)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    if not 1 <= options["first_dealer"] <= n:
        raise SetupError(f"option 'first_dealer' must be a seat 1-{n}, not {options['first_dealer']}")
    if options["target"] < 1:
        raise SetupError(f"option 'target' must be at least 1 point, not {options['target']}")
    state: State = {
        "seats": [s.as_dict() for s in players], "options": options, "deal": plan.as_dict(),
        "points": [0] * n, "round": 0, "rounds": [], "winner": None, "over": False, "tiebreak": None,
        "last_outcome": None,
    }
    new_round(state, options["first_dealer"])
    return state


def new_round(state: State, dealer: int) -> None:
    """Steps 1-6 as far as the companion is concerned: a fresh round waits for identities and the flip."""
    n = len(state["seats"])
    state.update({
        "round": state["round"] + 1, "dealer": dealer, "phase": "deal", "turn": None, "direction": LEFT,
        "identity": [None] * n, "exposed": [False] * n, "eliminated": [False] * n,
        "hands": [state["deal"]["per_player"]] * n,
        # Step 5 shuffles the BATTLE card into what the deal left; step 6 flips one of them.
        "deck": state["deal"]["remaining"] + 1,
        "pile": [], "flipped": None, "may_take_flipped": False, "step": None,
        "top": None, "pending": None, "passed": [], "awaiting": None, "count_check": None,
        "expect_save_card": 0, "visible": {}, "conflicts": [],
    })


# -- identities ------------------------------------------------------------------------------------
def shown_privately(deck: Deck, state: State, key: str, card: Card, zone: str, data: dict, report: Report) -> None:
    """An identity card shown to a seat's reader or to the tray: the companion learns that seat's team."""
    if card.kind != "identity":
        raise Refuse("In Battle only identity cards are shown to a reader or the tray; fight and action cards "
                     "are played on the centre pile.")
    seat = _identity_seat(state, zone, data)
    if state["phase"] != "deal":
        if state["identity"][seat - 1] and state["identity"][seat - 1]["card"] == key:
            return  # a player checking their own card again
        raise Refuse("Identity cards are shown at the start of a round, before the first discard is played; "
                     "each player keeps the same identity card for the whole round.")
    _check_not_shown_elsewhere(state, seat, key)
    team = card["team"]
    _check_team_size(state, seat, team)
    n = len(state["seats"])
    replaced = state["identity"][seat - 1] is not None
    state["identity"][seat - 1] = {"card": key, "team": team}
    shown = sum(1 for known in state["identity"] if known)
    report.say("identity", f"{seats.name(state, seat)} has {'shown another' if replaced else 'shown their'} identity "
                           f"card privately ({shown} of {n} players).", seat=seat)
    _maybe_begin(deck, state, report)


def _check_not_shown_elsewhere(state: State, seat: int, key: str) -> None:
    for other, known in enumerate(state["identity"], 1):
        if known and known["card"] == key and other != seat:
            raise Refuse(f"That identity card was already shown for {seats.name(state, other)} this round: "
                         f"two cards carry the same tag, or the cards were mixed up.")


def _check_team_size(state: State, seat: int, team: str) -> None:
    """No team holds more than half the identity cards dealt (rounded up at an odd table)."""
    n = len(state["seats"])
    same_team = sum(1 for s, known in enumerate(state["identity"], 1)
                    if known and known["team"] == team and s != seat)
    if same_team + 1 > (n + 1) // 2:
        # Never name the team here: the reason is public.
        raise Refuse(f"With {n} players, {n} identity cards are dealt, half of each team "
                     f"(\"with 6 players ... deal 3 SUPERHERO cards and 3 VILLAIN cards\"); this card would make "
                     f"one team too large. Check the identity cards that were dealt.")


def _identity_seat(state: State, zone: str, data: dict) -> int:
    """Whose identity card it is: the reader's seat, the seat the tablet names, or the tray's next seat."""
    if zone.startswith("reader:"):
        return seats.seat_number(state, zone.partition(":")[2], f"zone {zone!r}")
    if "seat" in data:
        return seats.data_seat(state, data, "seat")
    waiting = seats.identities_missing(state)
    if not waiting:
        raise Refuse("Every player has already shown their identity card for this round.")
    return waiting[0]  # the tray serves the players in turn, from the left of the dealer


# -- the first discard -----------------------------------------------------------------------------
def on_first_discard(deck: Deck, state: State, data: dict, report: Report) -> None:
    """The tablet's way to enter the flipped card when the camera missed it."""
    if state["phase"] != "deal":
        raise Refuse("The first discard is flipped during the deal, before the first turn.")
    key = data.get("card")
    flip_first(deck, state, key, deck.card(key), report)


def flip_first(deck: Deck, state: State, key: str, card: Card, report: Report) -> None:
    """Step 6: the top card of the deck is flipped onto the centre pile."""
    if card.kind == "identity":
        raise Refuse("Identity cards are dealt one to each player and are not part of the deck; the first "
                     "discard is the top card of the deck.")
    if state["flipped"]:
        raise Refuse(f"The first discard is already flipped ({deck.name(state['flipped'])}). The next card "
                     f"on the pile is a player's discard, once every player has shown their identity card.")
    state["flipped"] = key
    state["pile"] = [key]
    state["deck"] -= 1
    report.say("flip", f"Step 6: the first card flipped is {card.name}.", card=key)
    _maybe_begin(deck, state, report)


def _maybe_begin(deck: Deck, state: State, report: Report) -> None:
    if state["flipped"] and not seats.identities_missing(state):
        _begin_play(deck, state, report)


def _begin_play(deck: Deck, state: State, report: Report) -> None:
    """The player left of the dealer is first, except as the "What happens if" cases say."""
    dealer = state["dealer"]
    left = seats.left_of(state, dealer)
    card = deck.card(state["flipped"])
    state.update(phase="building", direction=LEFT, turn=left)
    if card.kind == "battle":
        report.say("first_card", f"The BATTLE card is the first card flipped: \"The player left of the dealer "
                                 f"begins the battle by playing a fight card(s).\" {seats.name(state, left)} starts.")
        turns.start_battle(state, left)
        return
    what = card.get("action")
    _first_player(state, card, what, dealer, left, report)
    turns.begin_turn(state)
    if what == "expose":
        report.say("first_card", "EXPOSE first: \"The dealer chooses a player to expose his/her Identity card.\"")
        action_cards.ask_expose(deck, state, dealer, "nothing", report)


def _first_player(state: State, card: Card, what: str | None, dealer: int, left: int, report: Report) -> None:
    """Who plays first after a flipped SKIP, REVERSE, NEW BATTLE, ELIMINATE or SAVE (or a fight card)."""
    if what == "skip":
        state["turn"] = seats.left_of(state, left)
        report.say("first_card", f"SKIP first: \"The player left of the dealer is skipped, and play begins with "
                                 f"the next player.\" {seats.name(state, state['turn'])} plays first.")
    elif what == "reverse":
        state.update(turn=dealer, direction=RIGHT)
        report.say("first_card", f"REVERSE first: \"The dealer is the first to play, and play moves to the right.\" "
                                 f"{seats.name(state, dealer)} plays first.")
    elif what in ("new_battle", "eliminate", "save"):
        state["may_take_flipped"] = True
        report.say("first_card", f"{card.name} first: \"The player left of the dealer has the option to draw the "
                                 f"card.\" {seats.name(state, left)} may take it from the discard pile.")
    else:
        report.say("first_card", f"{seats.name(state, state['turn'])} plays first: draw from the deck or take "
                                 f"the top discard.")
