"""The exact count compiled (companion/rules/battlecards/exact.c) gives the very figures of the Python count
(count.Exact), to the last bit, from every position the table can ask: the same recursion, the same sums in
the same order. (Against every order of the cards it is checked by tests/test_battlecards_odds_exact.py,
whose counts run compiled wherever the library is built, as here.)"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules.battlecards import compiled, odds
from companion.rules.battlecards.odds import AGGRESSOR, DEFENDER
from tests.test_battlecards_odds import FULL, unit
from tests.test_battlecards_odds_exact import NUMBERS, mixed, nearly_empty_decks, positions, small_decks


def counted(fs, cards, must_destroy=(), step=0, alive=None, numbers=NUMBERS) -> dict[bool, float]:
    """The aggressor's chance counted compiled (True) and in Python (False), each asked afresh."""
    found = {}
    for way in (True, False):
        odds.forget()
        result = odds.count(fs, cards, must_destroy, step, alive, numbers, compiled=way)
        assert result is not None and result.method == "exact"
        found[way] = result.aggressor
    odds.forget()
    return found


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(positions(), st.one_of(small_decks(), nearly_empty_decks()).filter(mixed))
def test_the_compiled_count_gives_the_python_counts_figures(position, cards):
    """Any units still fighting, any step next, Kept Cards played this round, a type the aggressor must destroy,
    held cards, a pile reshuffled: the same float, not merely a close one."""
    fs, mask, step, must_destroy = position
    alive = [f.key for i, f in enumerate(fs) if mask >> i & 1]
    for asked in (step, 10 ** 6):     # (10 ** 6: a question between rounds, as the forecast asks outside combat)
        found = counted(fs, cards, must_destroy, asked, alive)
        assert found[True] == found[False]


TWO_A_SIDE = [unit("JZERO#1", AGGRESSOR), unit("JVAL#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER),
              unit("UDAUNTL#1", DEFENDER)]


def test_two_units_a_side_on_a_full_deck_count_alike():
    """A battle of the size the compiled count was made for: tens of thousands of states on 54 cards."""
    found = counted(TWO_A_SIDE, FULL, numbers=tuple(range(1, 10)))
    assert found[True] == found[False] and 0 < found[True] < 1


def test_a_battle_asked_between_rounds_is_counted_alike():
    """Outside combat the table asks from the step after the round's last (the next round's first): the count
    starts there, not from a step of another alive set's (as a first build of exact.c read past a row)."""
    deck, numbers = odds.counts([n for n in range(1, 10) for _ in range(2)]), tuple(range(1, 10))
    for step in (4, 10 ** 6):     # 4: the round's four steps over; 10 ** 6: what the forecast asks outside combat
        found = counted(TWO_A_SIDE, deck, step=step, numbers=numbers)
        assert found[True] == found[False] == counted(TWO_A_SIDE, deck, step=0, numbers=numbers)[False]


def test_a_larger_alive_set_asked_after_a_smaller_one_is_counted_alike():
    """The compiled count holds the alive sets under those asked: one outside them (the whole battle after a
    duel of it) makes a new engine for both, and both questions keep the Python count's figures."""
    deck, numbers = odds.counts([n for n in range(1, 10) for _ in range(2)]), tuple(range(1, 10))
    duel = ["JZERO#1", "UWILDCAT#1"]
    odds.forget()
    asked = [odds.count(TWO_A_SIDE, deck, alive=duel, numbers=numbers, compiled=True),
             odds.count(TWO_A_SIDE, deck, numbers=numbers, compiled=True)]
    odds.forget()
    expected = [odds.count(TWO_A_SIDE, deck, alive=duel, numbers=numbers, compiled=False),
                odds.count(TWO_A_SIDE, deck, numbers=numbers, compiled=False)]
    odds.forget()
    assert [a.aggressor for a in asked] == [e.aggressor for e in expected]


def test_a_battle_the_compiled_count_cannot_hold_is_counted_in_python(monkeypatch):
    """exact.c packs a state's cards in one word (at most 10 kinds of at most 63 cards): a battle telling more
    kinds apart is handed to the Python count, with its figures."""
    monkeypatch.setattr(compiled, "MOST_KINDS", 1)
    engines: list[compiled.CompiledExact] = []
    made = compiled.CompiledExact.__init__

    def kept(self, *args):
        made(self, *args)
        engines.append(self)
    monkeypatch.setattr(compiled.CompiledExact, "__init__", kept)
    found = counted(TWO_A_SIDE[:1] + TWO_A_SIDE[2:3], FULL, numbers=tuple(range(1, 10)))
    assert engines and all(engine.beyond and engine.handle is None for engine in engines)
    assert found[True] == found[False]
