"""The tablet's buttons are the inputs that would be taken now, tried on a copy of the state: the copy
(companion/rules/statecopy.py) must be deep enough that trying a button never changes the game, the
buttons must be the ones the old deepcopy dry run offered, and the offers kept for one state must
not outlive it (a button offered before an input and not after disappears; an undo brings it back).

Every game is checked over the states of its own seeded demo game, played straight into a session."""
from __future__ import annotations

import copy
import dataclasses

import pytest

from companion import rules
from companion.gamelog.session import Session, open_store
from companion.rules import Action, Applied
from companion.rules import contract
from companion.rules.demo import play_direct
from companion.rules.statecopy import copy_state
from tests.fold_support import folds_alike

pytestmark = pytest.mark.slow  # a seeded demo game of every game, played into a session (about 20 s here)

SEATS = {"bom-battle": 3, "stratego": 2, "gt-battle": 4, "warriors": 2, "battlecards-pacific": 2}
ROUNDS = {"stratego": 60}  # its armies are scanned first: combats start after about 35 rounds


def test_every_game_is_checked():
    assert set(SEATS) == set(rules.GAMES) - {"toy-war"}


@pytest.fixture(scope="module", params=sorted(SEATS))
def demo_states(request, tmp_path_factory):
    """(game, the states after each round of its seeded demo game's moves, its log)."""
    game = request.param
    players = rules.demo_players(game)(SEATS[game], 3)
    seats, options = players.start()
    session = Session.start(open_store(tmp_path_factory.mktemp(game)), game, seats, options)
    states = [session.state]
    try:
        play_direct(players, session, max_rounds=ROUNDS.get(game, 40), after=lambda s: states.append(s.state))
    except RuntimeError:  # not over yet in that many rounds: enough states to check
        pass
    return session.ruleset, states, session.events()


def mutable_parts(value, found=None):
    """id -> object of every list, dict, set and dataclass instance reachable from ``value``, except
    objects that say they are shared as they are (``__deepcopy__``, Book of Mormon's frozen Told)."""
    found = {} if found is None else found
    if hasattr(type(value), "__deepcopy__") or isinstance(value, (str, bytes, int, float, type(None))):
        return found
    if isinstance(value, (list, dict, set)) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        found[id(value)] = value
    items = value.values() if isinstance(value, dict) else vars(value).values() \
        if dataclasses.is_dataclass(value) else value if isinstance(value, (list, tuple, set, frozenset)) else ()
    for item in items:
        mutable_parts(item, found)
    return found


def old_offers(game, state):
    """The offers as they were found before: every candidate dry-run through ``apply`` on a deepcopy."""
    found = []
    for spec in game.inputs:
        if spec.button and not (spec.phases and game.phase(state) not in spec.phases):
            found += [(spec.kind, data) for data in game._candidates(state, spec)
                      if isinstance(game.apply(copy.deepcopy(state), Action(spec.kind, data, "offer")), Applied)]
    return found


def test_the_copy_equals_the_state_and_shares_nothing_a_rule_could_change(demo_states):
    game, states, _ = demo_states
    for state in states:
        copied = copy_state(state)
        assert copied == state and type(copied) is type(state)
        shared = mutable_parts(copied).keys() & mutable_parts(state).keys()
        assert not shared, [type(mutable_parts(state)[i]).__name__ for i in shared]


def test_trying_every_button_leaves_the_state_as_it_was(demo_states):
    game, states, _ = demo_states
    tried = 0
    for state in states:
        before = copy.deepcopy(state)
        game.forget_offers()
        offered = game.offers(state)
        for offer in offered:  # and each one taken, on a copy
            tried += isinstance(game.apply(copy_state(state), Action(offer.kind, offer.data, "offer")), Applied)
        assert state == before, f"finding the buttons changed the state of {game.title}"
    assert tried, f"the demo game of {game.title} offered no button to try"


def test_the_buttons_are_those_the_deepcopy_dry_run_offered(demo_states):
    game, states, _ = demo_states
    for state in states:
        game.forget_offers()
        new = [(o.kind, o.data) for o in contract.Game.offers(game, state)]
        assert new == old_offers(game, state)


# Not Stratego: its demo's buttons, move and resign, set only the state's own fields, so a shallow copy
# changes nothing there; the copy's own check above (which shares no part) catches it for Stratego.
@pytest.mark.parametrize("demo_states", sorted(set(SEATS) - {"stratego"}), indirect=True, scope="module")
def test_a_shallow_copy_would_be_caught(demo_states, monkeypatch):
    """The check above can fail: with a shallow copy, trying the buttons changes the game's state."""
    game, states, _ = demo_states
    monkeypatch.setattr(contract, "copy_state", copy.copy)
    changed = 0
    for state in states:
        before = copy.deepcopy(state)
        game.forget_offers()
        game.offers(state)
        changed += state != before
    game.forget_offers()
    assert changed, f"a shallow copy went unnoticed in {game.title}"


def test_the_demo_game_folds_to_the_same_states_as_with_deepcopy(demo_states, monkeypatch):
    """The session's fold copies the state as the buttons' dry runs do (tests/test_fold_copy.py)."""
    _, _, events = demo_states
    assert folds_alike(events, monkeypatch) == len(events) - 1


def kinds(session):
    return [a["kind"] for a in session.public_view()["actions"]]


def test_a_button_offered_before_an_input_and_not_after_disappears(tmp_path, toy_game):
    session = Session.start(open_store(tmp_path), toy_game, [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    session.submit("card_seen", {"card": "N9#1", "zone": "seat:1"}, "camera")
    session.submit("card_seen", {"card": "N1#1", "zone": "seat:2"}, "camera")
    assert "resolve" in kinds(session)
    session.submit("resolve")
    assert "resolve" not in kinds(session)
    session.submit("undo")
    assert "resolve" in kinds(session), "the undo brings the battle back, and its button"
    assert "resolve" in kinds(Session.resume(session.store)), "so does a restart"


def test_the_offers_kept_for_a_state_are_not_given_once_it_has_changed(toy_game):
    """An input applied to the very state object the buttons were found for (as a test or a
    benchmark does, without the session's copy) gives new buttons, not the kept ones."""
    game = rules.make(toy_game)
    state = game.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {})
    for key, seat in (("N9#1", 1), ("N1#1", 2)):
        game.apply(state, Action("card_seen", {"card": key, "zone": f"seat:{seat}"}, "camera"))
    assert "resolve" in [o.kind for o in game.offers(state)]
    assert game.apply(state, Action("resolve", {}, "dashboard")).state is state
    assert "resolve" not in [o.kind for o in game.offers(state)]
