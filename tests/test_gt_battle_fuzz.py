"""Whatever arrives, in whatever order, the referee answers with Applied or a Refusal, never
crashes, never corrupts its state, and never puts an identity card key in the public view.

Inputs are drawn mostly as a table would send them (the current player, real cards) and partly
as nonsense (seats that do not exist, cards of no deck, commands of no game)."""
from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_gt_battle_support import Table

IDENTITY_KEY = re.compile(r"\b(HERO|VILLAIN)#\d+")
REAL = ([f"F{rank}#{copy}" for rank in (1, 2, 7, 12) for copy in (1, 2, 3)] +
        ["SKIP#1", "REVERSE#1", "EXPOSE#1", "EXPOSE#2", "ELIM#1", "SAVE#1", "SAVE#2", "NEWBTL#1", "BATTLE#1",
         "HERO#1", "HERO#2", "VILLAIN#1", "VILLAIN#2"])
NONSENSE = ["HERO#9", "NOPE#1", "F7", "", None]


@lru_cache(maxsize=None)
def events(turn: int):
    """One input, given whose turn it is."""
    seat = st.one_of(st.just(turn), st.just(turn), st.integers(1, 4), st.sampled_from([0, 7, "2", None]))
    card = st.one_of(st.sampled_from(REAL), st.sampled_from(REAL), st.sampled_from(NONSENSE))
    zone = st.sampled_from(["center"] * 6 + ["tray", "reader:1", "reader:9", "seat:3", "x"])
    with_seat = lambda name: (lambda s: {name: s} if s is not None else {})  # noqa: E731
    return st.one_of(
        st.tuples(st.just("card_seen"), st.builds(lambda c, z, extra: {"zone": z, "card": c, **extra}, card, zone,
                                                  st.one_of(st.just({}), seat.map(with_seat("seat"))))),
        st.tuples(st.just("card_gone"), st.builds(lambda c: {"zone": "center", "card": c}, card)),
        st.tuples(st.just("draw"), st.builds(lambda s, f: {"seat": s, "from": f}, seat,
                                             st.sampled_from(["deck", "deck", "discard", "hand"]))),
        st.tuples(st.just("pass"), seat.map(with_seat("seat"))),
        st.tuples(st.just("resolve"), st.just({})),
        st.tuples(st.sampled_from(["expose", "eliminate"]), seat.map(with_seat("target"))),
        st.tuples(st.just("save"), seat.map(with_seat("by"))),
        st.tuples(st.sampled_from(["no_save", "new_round", "shuffle"]), st.just({})),
        st.tuples(st.just("confirm_count"), st.builds(lambda s, c: {"seat": s, "cards": c}, seat,
                                                      st.one_of(st.integers(-1, 14), st.just("3")))),
        st.tuples(st.just("tiebreak_draw"), st.builds(lambda s, c: {"seat": s, "card": c}, seat,
                                                      st.sampled_from(["save", "eliminate", "x"]))),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_sequence_of_inputs_keeps_the_game_sound(data):
    start = data.draw(st.sampled_from(["deal", "building", "battle"]))
    table = Table(4, teams=None if start == "deal" else "HVHV", flip=None if start == "deal" else "F3#1",
                  target=data.draw(st.integers(1, 2)))
    if start == "battle":
        table.start_battle(2)
    for _ in range(data.draw(st.integers(0, 50))):
        kind, payload = data.draw(events(table.state.turn or 1))
        table.send(kind, **payload)  # asserts Applied or Refusal, and that the given state was not touched
        state = table.state
        assert all(n >= 0 for n in state.hands.values())
        assert state.turn is None or not state.eliminated[state.turn]
        json.dumps(dataclasses.asdict(state))  # still plain data
        assert IDENTITY_KEY.search(json.dumps(table.rules.public_view(state))) is None
