"""The session's automatic resolve: undo sticks until the table changes, and a complete play (or
any play, once a watching camera has seen the table still) resolves after a short stillness
while a play that may still grow waits the long one."""
from __future__ import annotations

import pytest

from companion.gamelog.session import Session, open_store
from tests.test_gt_battle_support import NAMES, identity_keys
from tests.timing import ManualClock

# The toy game is in the registry for every test here (its one line: conftest.py, toy_game).
pytestmark = pytest.mark.usefixtures("toy_game")

SETTLE, QUICK = 1.5, 0.5


@pytest.fixture
def clock():
    return ManualClock(0.0)


@pytest.fixture
def war_table(tmp_path, clock):
    return Session.start(open_store(tmp_path), "toy-war",
                         [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], clock=clock)


def lay(session, seat, key):
    return session.submit("card_seen", {"zone": f"seat:{seat}", "card": key}, "camera")


def battles(session) -> int:
    return sum(1 for e in session.derived.entries if e.status == "applied" and e.event.kind == "resolve")


def test_an_undone_automatic_resolve_is_not_resolved_again_while_the_cards_lie_as_they_did(war_table, clock):
    lay(war_table, 1, "N7#1")
    lay(war_table, 2, "N3#1")
    clock.now = 5.0
    assert war_table.maybe_auto_resolve(SETTLE, QUICK).ok
    assert war_table.submit("undo").ok
    assert war_table.ruleset.ready_to_resolve(war_table.state), "the cards still lie there"
    clock.now = 60.0
    assert war_table.maybe_auto_resolve(SETTLE, QUICK) is None, "the players took that result back"
    assert battles(war_table) == 0


def test_after_an_undone_resolve_the_next_change_on_the_table_resolves_again(war_table, clock):
    lay(war_table, 1, "N7#1")
    lay(war_table, 2, "N3#1")
    clock.now = 5.0
    war_table.maybe_auto_resolve(SETTLE, QUICK)
    war_table.submit("undo")
    war_table.submit("card_gone", {"zone": "seat:2", "card": "N3#1"}, "camera")  # the misread card, laid again
    clock.now = 6.0
    lay(war_table, 2, "N5#1")
    clock.now = 10.0
    resolved = war_table.maybe_auto_resolve(SETTLE, QUICK)
    assert resolved is not None and resolved.ok and resolved.entry.outcomes[0]["data"]["value"] == 7


def test_undo_before_any_command_says_sightings_are_taken_back_by_lifting_the_card(war_table):
    lay(war_table, 1, "N7#1")
    refused = war_table.submit("undo")
    assert not refused.ok
    assert "nothing to undo yet" in refused.entry.reason and "take the card away" in refused.entry.reason


def test_a_complete_play_resolves_after_the_short_stillness(war_table, clock):
    lay(war_table, 1, "N7#1")
    lay(war_table, 2, "N3#1")  # War: one card is a whole play, a second is refused
    assert war_table.ruleset.plays_complete(war_table.state)
    clock.now = QUICK - 0.1
    assert war_table.maybe_auto_resolve(SETTLE, QUICK) is None
    clock.now = QUICK + 0.1
    assert war_table.maybe_auto_resolve(SETTLE, QUICK).ok


@pytest.fixture
def gt_battle(tmp_path, clock):
    """Gather Together, 4 players, in the battle phase with Ben to start (BATTLE flipped first)."""
    session = Session.start(open_store(tmp_path), "gt-battle",
                            [{"seat": n, "name": NAMES[n - 1]} for n in range(1, 5)], clock=clock)
    for seat, key in enumerate(identity_keys("HVHV"), 1):
        session.submit("card_seen", {"zone": f"reader:{seat}", "card": key}, "rfid")
    session.submit("card_seen", {"zone": "center", "card": "BATTLE#1"}, "camera")
    return session


def test_a_pair_that_may_become_three_waits_the_long_stillness(gt_battle, clock):
    """"Fight cards of similar rank are played together": Ben may still add a third 8."""
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#1"}, "camera")
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#2"}, "camera")
    assert gt_battle.ruleset.ready_to_resolve(gt_battle.state)
    assert not gt_battle.ruleset.plays_complete(gt_battle.state)
    clock.now = 1.0
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK) is None
    clock.now = 1.6
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK).ok


def test_with_the_camera_watching_a_still_table_settles_a_play_that_may_still_grow(gt_battle, clock):
    """A third 8 would be carried to the pile by a hand the camera sees: once it has seen nothing
    move for the short stillness, Ben's pair is all he plays."""
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#1"}, "camera")
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#2"}, "camera")
    assert not gt_battle.ruleset.plays_complete(gt_battle.state)
    clock.now = 0.4
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=False) is None, "a hand moved a frame ago"
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=True).ok


def test_a_hand_moving_over_the_table_holds_the_settle_until_the_long_stillness(gt_battle, clock):
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#1"}, "camera")
    clock.now = 1.0
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=False) is None
    clock.now = 1.6  # the long stillness since the last card still resolves, as without a camera
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=False).ok


def test_a_card_only_a_reader_saw_waits_the_short_stillness_after_it(gt_battle, clock):
    """The camera cannot see a reader's card come to rest: its stillness does not vouch for it."""
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#1"}, "rfid")
    clock.now = 0.2
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=True) is None
    clock.now = QUICK + 0.1
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=True).ok


def test_with_the_camera_watching_a_complete_play_waits_for_the_camera_not_the_clock(gt_battle, clock):
    """SKIP is a whole play, but the camera has not yet seen the table still (the card may be on its
    way back to the hand): the quick settle's clock does not overrule it."""
    gt_battle.submit("card_seen", {"zone": "center", "card": "SKIP#1"}, "camera")
    assert gt_battle.ruleset.plays_complete(gt_battle.state)
    clock.now = QUICK + 0.1
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=False) is None
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK, camera_still=True).ok


def test_an_action_card_played_on_its_own_is_complete(gt_battle, clock):
    """"SKIP is an action card and is played on its own": nothing can join it."""
    gt_battle.submit("card_seen", {"zone": "center", "card": "SKIP#1"}, "camera")
    assert gt_battle.ruleset.plays_complete(gt_battle.state)
    clock.now = 0.6
    assert gt_battle.maybe_auto_resolve(SETTLE, QUICK).ok


def test_new_battle_waits_for_the_fight_cards_that_follow_it(gt_battle):
    """"When played, the player of the card will follow it by playing any fight card(s) from his/her
    hand" (gather-together-battle.txt): NEW BATTLE alone is never a complete play."""
    gt_battle.submit("card_seen", {"zone": "center", "card": "NEWBTL#1"}, "camera")
    assert not gt_battle.ruleset.plays_complete(gt_battle.state)


def test_every_copy_of_a_rank_is_a_complete_play(gt_battle):
    """"Fight cards of similar rank are played together": once every copy of the rank is on the pile
    or in the play, no card could join it, so the short stillness will do."""
    for copy in range(1, 7):  # the deck has six 8s
        gt_battle.submit("card_seen", {"zone": "center", "card": f"F8#{copy}"}, "camera")
    gt_battle.submit("confirm_count", {"seat": 2, "cards": 12})
    assert gt_battle.ruleset.plays_complete(gt_battle.state)


def test_the_last_cards_of_a_counted_hand_are_a_complete_play(gt_battle):
    """A play that empties the hand the companion counted can grow no more ("Once players are able to
    get rid of their fight cards, they can play their identity card on their next turn")."""
    gt_battle.submit("confirm_count", {"seat": 2, "cards": 2})
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#1"}, "camera")
    assert not gt_battle.ruleset.plays_complete(gt_battle.state)
    gt_battle.submit("card_seen", {"zone": "center", "card": "F8#2"}, "camera")
    assert gt_battle.ruleset.plays_complete(gt_battle.state)


# -- Book of Mormon (companion/rules/bom/settle.py) ------------------------------------------------
def bom_session(tmp_path, clock, **options):
    return Session.start(open_store(tmp_path), "bom-battle",
                         [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], options, clock=clock)


def test_bom_a_character_card_alone_may_still_get_its_power_card(tmp_path, clock):
    from companion.rules.bom.settle import plays_complete

    session = bom_session(tmp_path, clock)
    lay(session, 1, "GD500#1")
    lay(session, 2, "BO300#1")
    assert session.ruleset.ready_to_resolve(session.state)
    assert not plays_complete(session.ruleset, session.state)


def test_bom_faith_with_its_one_gold_card_is_complete(tmp_path, clock):
    """"Faith only multiplies a gold CHARACTER card under 1000": one card, and it is there."""
    from companion.rules.bom.settle import plays_complete

    session = bom_session(tmp_path, clock)
    lay(session, 1, "GD500#1")
    lay(session, 1, "FAITH#1")
    lay(session, 2, "GD400#1")
    lay(session, 2, "FAITH#2")
    assert plays_complete(session.ruleset, session.state)
    lay(session, 2, "GD300#1")  # a second card where Faith takes one: no longer a legal play
    assert not plays_complete(session.ruleset, session.state)


def test_bom_young_players_play_one_card_each(tmp_path, clock):
    from companion.rules.bom.settle import plays_complete

    session = bom_session(tmp_path, clock, young_players=True)
    lay(session, 1, "GD500#1")
    assert not plays_complete(session.ruleset, session.state)
    lay(session, 2, "BO300#1")
    assert plays_complete(session.ruleset, session.state)


def test_after_a_restart_nothing_resolves_on_its_own_until_the_table_is_seen_again(war_table, clock, tmp_path):
    """The log remembers both cards, but the power may have been off while someone took one back."""
    lay(war_table, 1, "N7#1")
    lay(war_table, 2, "N3#1")
    restarted = Session.resume(war_table.store, clock=clock)
    clock.now = 60.0
    assert restarted.ruleset.ready_to_resolve(restarted.state)
    assert restarted.maybe_auto_resolve(SETTLE, QUICK) is None
    lay(restarted, 2, "N3#1")  # the camera reads the table again: the same card where it lay
    clock.now = 61.0
    assert restarted.maybe_auto_resolve(SETTLE, QUICK).ok
