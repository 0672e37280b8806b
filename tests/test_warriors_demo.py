"""The simulated Warriors players (companion/rules/warriors/demo.py) play whole seeded games through
the real session, as the camera and the seats' readers would report them, to the end."""
from __future__ import annotations

import pytest

from companion import rules
from companion.rules.demo import play_direct
from companion.gamelog.session import Session, open_store


@pytest.mark.parametrize("seats, seed", [(2, 1), (3, 2)])
def test_a_seeded_demo_game_is_played_to_its_end(tmp_path, seats, seed):
    demo = rules.demo_players("warriors")(seats, seed)
    players, options = demo.start()
    session = Session.start(open_store(tmp_path), "warriors", players, options)
    play_direct(demo, session)
    view = session.public_view()
    assert view["over"] and view["winner"] is not None
    refused = [(e.event.kind, e.reason) for e in session.derived.entries if e.status == "refused"]
    assert refused == [], "the simulated players only do what the rules allow"
    kinds = {o["kind"] for e in session.derived.entries for o in e.outcomes}
    assert {"primary", "laid", "call", "challenge", "reveal", "decided", "round_over"} <= kinds
    if seats > 2:   # the challenger's first card turned before an opponent is named
        assert "opening" in kinds
    assert sum(s["total"] for s in view["seats"]) == 68 + 84, "no card is lost or made on the way"
    winner = next(s for s in view["seats"] if s["seat"] == view["winner"])
    assert winner["total"] == 68 + 84 or "stopped" in kinds


def test_the_same_seed_plays_the_same_game(tmp_path):
    def run(name):
        demo = rules.demo_players("warriors")(2, 7)
        players, options = demo.start()
        session = Session.start(open_store(tmp_path / name), "warriors", players, options)
        play_direct(demo, session)
        return [(e.event.kind, e.event.data) for e in session.derived.entries[1:]]

    assert run("a") == run("b")


def test_the_demo_players_leave_a_challenge_to_decide_itself(tmp_path):
    """Issue 33: a Challenge decides itself where the table can see it. The players tap "Decide the
    Challenge" only to go without a revealed card they could still use; every other Challenge is
    resolved by the session (source ``auto``) once the last card is turned over. Whom the
    challenger challenges is named by the first card that player turns over (or, with one player
    left, by nobody); the players tap it only for an opponent with no facedown card to turn.
    Counted: 4 seats, seed 1, 21 Challenges (docs/referee/warriors.md, Taps)."""
    import collections

    demo = rules.demo_players("warriors")(4, 1)
    players, options = demo.start()
    session = Session.start(open_store(tmp_path), "warriors", players, options)
    play_direct(demo, session)
    sent = collections.Counter((e.event.source, e.event.kind) for e in session.derived.entries
                               if e.status == "applied")
    decided = sum(1 for e in session.derived.entries for o in e.outcomes if o["kind"] == "decided")
    assert sent[("dashboard", "resolve")] + sent[("auto", "resolve")] == decided == 21
    assert sent[("dashboard", "resolve")] <= 1
    assert sent[("dashboard", "challenge")] == 4 < decided
    tapped = None   # the opponent of a Challenge named by a tap: none of their cards may be turned in it
    for e in session.derived.entries:
        for o in e.outcomes:
            if o["kind"] == "challenge":
                tapped = o["data"]["defender"] if e.event.kind == "challenge" else None
            elif o["kind"] == "reveal" and tapped is not None:
                assert o["data"]["seat"] != tapped, "a tap named an opponent whose own card would have named them"
            elif o["kind"] == "decided":
                tapped = None
