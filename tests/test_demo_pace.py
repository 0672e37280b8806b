"""The demo is slow enough to read: each result stays 6 s at the default pace before the simulated
players look at the table again (`companion demo --pace` scales it)."""
from __future__ import annotations

import companion.demo.driver as driver
from companion.cli import build_parser


def test_a_new_result_holds_the_players_six_seconds_at_the_default_pace():
    now = [100.0]
    pace = build_parser().parse_args(["demo"]).pace
    shown = driver.Shown(pace * driver.RESULT_SECONDS, clock=lambda: now[0])
    assert not shown.fresh({"last_outcome": None}), "nothing to read yet"
    assert shown.fresh({"last_outcome": {"say": "Seat 1 (Ann) wins with Korihor, black diamond 800."}})
    assert shown.left() == 6.0
    now[0] += 5.9
    assert shown.fresh({"last_outcome": {"say": "Seat 1 (Ann) wins with Korihor, black diamond 800."}})
    now[0] += 0.2
    assert not shown.fresh({"last_outcome": {"say": "Seat 1 (Ann) wins with Korihor, black diamond 800."}})
    assert shown.fresh({"last_outcome": {"say": "Seat 2 (Ben) wins with Moroni, gold oval 4000."}}), "the next result"
