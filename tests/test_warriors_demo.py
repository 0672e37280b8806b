"""The simulated Warriors players (companion/rules/warriors/demo.py) play whole seeded games through
the real session, as the camera and the seats' readers would report them, to the end."""
from __future__ import annotations

import pytest

from companion import rules
from companion.rules.demo import play_direct
from companion.gamelog.session import Session, open_store


@pytest.mark.parametrize("seats, seed", [(2, 1), (3, 3)])
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
