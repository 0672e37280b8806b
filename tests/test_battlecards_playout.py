"""The simulation's play-outs compiled (companion/rules/battlecards/playout.c) give the very figures of the
Python ones (simulate.Moves): the same shuffles, the same policy, so the odds a table shows never depend on
whether a C compiler was there. And without one, the odds still come, from Python."""
from __future__ import annotations

import logging
import random

import pytest

from card_tags.catalog import load_game
from companion.bench import battlecards_odds as bench
from companion.rules.battlecards import Pacific, compiled, odds, simulate
from companion.rules.battlecards.odds import AGGRESSOR, DEFENDER, Cards, Fighter

TYPES = ("ground", "air", "sea")
NUMBERS = tuple(range(1, 10))



def test_the_compiled_play_outs_are_built_here():
    """scripts/setup.sh installs gcc and builds them: a build that breaks fails here, not silently slower."""
    assert compiled.library() is not None, "the compiled play-outs did not build (see the warning logged)"


def random_battle(rng: random.Random) -> tuple[tuple[Fighter, ...], tuple[str, ...]]:
    """Up to nine units a side with random values, supporters, guards, phases and Kept Card bonuses (so the
    first round differs from the rest), and sometimes a type the aggressor must destroy. Nearly every unit
    fires and can hit (a battle settled before its first card would compare nothing)."""
    found = []
    for side in (AGGRESSOR, DEFENDER):
        for i in range(rng.randint(1, 9)):
            supports = tuple(rng.sample(TYPES, rng.choice((0, 0, 1, 2))))
            found.append(Fighter(
                f"{side[0]}{i}", side, rng.choice(TYPES),
                tuple((t, rng.choice((None, 3, 4, 5, 6, 7, 8, 9))) for t in TYPES),
                tuple((t, rng.choice((None, 0, 1, 2, 3, 4, 5))) for t in TYPES),
                tuple(sorted(rng.sample((1, 2, 3, 4), rng.randint(1, 2)))),
                rng.randint(0, 2) if supports else 0, rng.randint(0, 2) if supports else 0, supports,
                rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1))))
    return tuple(found), rng.choice(((), (), ("sea",), ("ground", "air")))


def random_deck(rng: random.Random) -> Cards:
    """A deck as a table meets it: some cards seen, some held face down, a discard pile to reshuffle."""
    unseen = [rng.choice(NUMBERS) for _ in range(rng.randint(1, 40))]
    keepable = sorted(set(rng.sample(unseen, min(len(unseen), rng.randint(0, 3)))))
    hidden = rng.randint(0, min(2, len(keepable), len(unseen) - 1))
    discard = [rng.choice(NUMBERS) for _ in range(rng.randint(0, 20))]
    return Cards(odds.counts(unseen), hidden, odds.counts(keepable), odds.counts(discard))


@pytest.mark.parametrize("example", range(40))
def test_the_compiled_play_outs_give_the_python_ones_figures(example):
    """Random battles and decks (seeded by the example's number), from a random alive set and step."""
    rng = random.Random(example)
    (fighters, must), cards = random_battle(rng), random_deck(rng)
    mask = sum(1 << i for i in range(len(fighters)) if rng.random() < 0.85)     # a few units already destroyed
    if {f.side for i, f in enumerate(fighters) if mask >> i & 1} != {AGGRESSOR, DEFENDER}:
        mask = (1 << len(fighters)) - 1
    asked = dict(numbers=NUMBERS, next_step=rng.randint(0, 30), runs=300, seed=rng.randint(1, 5))
    simulate.table.cache_clear()
    python = odds.simulate(fighters, cards, must, mask, compiled=False, **asked)
    simulate.table.cache_clear()
    assert odds.simulate(fighters, cards, must, mask, compiled=True, **asked) == python


def test_an_eighteen_unit_battle_of_the_combined_sets_is_the_same_compiled():
    """The largest battles of the benchmark (both armies grown, the allies fighting beside them), the first
    question and the next (a card later, the states kept), as the table asks them."""
    deck = bench.Deck(bench.load_game("battlecards-pacific"))
    conflict = deck.copies(("battle", "keep", "draw", "intel"))
    fighters = bench.forces(deck, "PHILIPP#1", "grown", True)
    rest = [k for k in conflict if k != "PHILIPP#1"]
    first = Cards(odds.counts(deck.action(k) for k in rest))
    second = Cards(odds.counts(deck.action(k) for k in rest[1:]), discard=odds.counts([deck.action(rest[0])]))
    asked = dict(numbers=tuple(deck.action_numbers()), reference=bench.printed(deck))
    assert len(fighters) == 18
    found = {}
    for way in (False, True):
        simulate.table.cache_clear()
        found[way] = [odds.simulate(fighters, first, (), (1 << 18) - 1, compiled=way, **asked),
                      odds.simulate(fighters, second, (), (1 << 18) - 1, next_step=1, compiled=way, **asked)]
    assert found[True] == found[False]
    assert found[True][0].method == "simulation" and found[True][0].runs > simulate.LARGE_RUNS - 10


def test_an_eighteen_unit_battle_is_played_out_fewer_times_and_states_the_larger_error():
    """The largest battles are simulated with fewer play-outs (so that their first query keeps within 5 ms,
    measured by ``companion bench battlecards-odds``), and the error the tablet shows says so honestly: the
    figure lies within it of a simulation ten times as long with another seed."""
    deck = bench.Deck(bench.load_game("battlecards-pacific"))
    conflict = deck.copies(("battle", "keep", "draw", "intel"))
    fighters = bench.forces(deck, "SAIPAN#1", "grown", True)
    cards = Cards(odds.counts(deck.action(k) for k in conflict if k != "SAIPAN#1"))
    asked = dict(numbers=tuple(deck.action_numbers()), reference=bench.printed(deck))
    odds.forget()
    shown = odds.battle_odds(fighters, cards, **asked)
    longer = odds.simulate(fighters, cards, (), (1 << 18) - 1, runs=10 * simulate.LARGE_RUNS, seed=7, **asked)
    assert len(fighters) == 18 and shown.method == "simulation"
    assert simulate.LARGE_RUNS - 10 <= shown.runs <= simulate.LARGE_RUNS < simulate.SIM_RUNS
    assert 0.019 < shown.error < 0.026       # one standard error of 600 play-outs, not of 2,000
    assert abs(shown.aggressor - longer.aggressor) < 3 * (shown.error + longer.error)


def test_without_a_c_compiler_the_odds_come_from_python(monkeypatch, tmp_path, caplog):
    """A Pi without gcc: nothing is built, a warning says why, and the simulation runs in Python."""
    monkeypatch.setattr(compiled, "_build_dirs", lambda: [tmp_path / "package", tmp_path / "cache"])
    monkeypatch.setenv("CC", "/bin/false")
    compiled.library.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            assert compiled.build() is None
            assert compiled.library() is None
        assert "did not build" in caplog.text and "run in Python" in caplog.text
        assert not list(tmp_path.rglob("*.so")), "a failed build leaves nothing to load"
        eight = tuple(Fighter(f"{s[0]}{i}", s, "air", (("air", 6),), (("air", 3),), (1,))
                      for s in (AGGRESSOR, DEFENDER) for i in range(4))     # (more than odds.EXACT_UNITS)
        monkeypatch.setattr(compiled, "CompiledMoves", None)     # (asked for, it would fail the query)
        odds.forget()
        result = odds.battle_odds(eight, odds.counts(n for n in NUMBERS for _ in range(6)))
        assert result.method == "simulation" and 0 < result.aggressor < 1
    finally:
        compiled.library.cache_clear()
        simulate.table.cache_clear()
        odds.forget()



def test_a_table_opened_has_drawn_the_shuffles_its_first_battle_needs():
    """Drawing a shuffle of 2,000 decks takes about 4 ms here: a table opening (the referee made) draws those a
    battle goes through, so the evening's first battle does not wait for them."""
    simulate._positions.cache_clear()
    Pacific(load_game("battlecards-pacific"))
    drawn = simulate._positions.cache_info().misses
    eight = tuple(Fighter(f"{s[0]}{i}", s, "air", (("air", 6),), (("air", 3),), (1,))
                  for s in (AGGRESSOR, DEFENDER) for i in range(4))       # (more than odds.EXACT_UNITS)
    odds.forget()
    assert odds.battle_odds(eight, odds.counts(n for n in NUMBERS for _ in range(6))).method == "simulation"
    assert simulate._positions.cache_info().misses == drawn


def test_a_build_removed_before_it_is_loaded_is_built_again(monkeypatch, tmp_path):
    """An update beside a running service: a process building the new source removes the old build, maybe
    between another's finding it and loading it. That one builds it again rather than failing a battle."""
    monkeypatch.setattr(compiled, "_build_dirs", lambda: [tmp_path])
    built, calls = compiled.build, []

    def racing():
        path = built()
        if not calls:
            path.unlink()        # gone between the build and the load
        calls.append(path)
        return path

    monkeypatch.setattr(compiled, "build", racing)
    lib = compiled._load()
    assert lib is not None and len(calls) == 2 and calls[1].is_file()
