"""The odds of a shot and of a battle (companion/rules/battlecards/odds.py), against hand-computed cases,
and the public odds' secrecy: they use only what every player has seen."""
from __future__ import annotations

import copy
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from companion.rules.battlecards import forecast, odds, simulate
from companion.rules.battlecards.odds import AGGRESSOR, DEFENDER, Fighter
from tests.battlecards_support import JAPAN, RULES, US, fight

FULL = odds.counts(n for n in range(1, 10) for _ in range(6))   # 54 cards, six of each Action Number


def unit(key: str, side: str) -> Fighter:
    c = RULES.deck.card(key)
    t = ("ground", "air", "sea")
    return Fighter(key, side, c["unit_type"], tuple((x, c.get(f"attack_{x}")) for x in t),
                   tuple((x, c.get(f"defense_{x}")) for x in t), tuple(c["phases"]), c.get("support_attack", 0) or 0,
                   c.get("support_defense", 0) or 0, tuple(c.get("supports", [])))


def test_a_shot_is_the_cards_in_defense_to_attack_over_the_cards_left():
    """docs/decks/battlecards-pacific.md: "a unit with Attack 7 against a target with Defense 3 hits on 4, 5, 6
    or 7 (4 cards in 9)"."""
    assert odds.shot_chance(FULL, 7, 3) == Fraction(4, 9)
    three_fives_gone = odds.counts([n for n in range(1, 10) for _ in range(6 - 3 * (n == 5))])
    assert odds.shot_chance(three_fives_gone, 7, 3) == Fraction(21, 51)
    assert odds.shot_chance(FULL, 4, 4) == 0


def test_a_duel_by_hand():
    # Zero hits the Wildcat on 4-7, the Wildcat hits the Zero on 4-5, both in phase 1, the Zero first. The deck:
    # 4, 6, 8, 9. The Zero hits at once on the 4 or the 6 (1/2). Else (an 8 or 9 gone) the Wildcat hits on the 4
    # (1/3); turns the 6 (1/3), and then the Zero hits on the 4 (1/2) or misses and the Wildcat turns the 4; or
    # turns the other high card (1/3), and the Zero hits on either card left. 1/2 + 1/2 (1/3 x 1/2 + 1/3) = 3/4,
    # not the 4/5 of drawing at fixed odds (p = 1/2, q = 1/4: p / (1 - (1-p)(1-q))).
    deck = odds.counts([4, 6, 8, 9])
    result = odds.battle_odds([unit("JZERO#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER)], deck)
    assert result.method == "exact" and result.aggressor == pytest.approx(3 / 4, abs=1e-12)
    assert result.defender == pytest.approx(1 / 4, abs=1e-12)


def test_a_kept_card_counts_for_this_round_only():
    # Air Superiority: the Zero hits on 4-8 this round: 3/4 with the deck 4, 6, 8, 9. Else the 9 is gone; the
    # Wildcat hits on the 4 (1/3), or turns the 6 (then, the bonus gone, the Zero hits on the 4 or the Wildcat
    # turns it: 1/2), or the 8 (the Zero hits on either card left: 1). 3/4 + 1/4 (1/3 x 1/2 + 1/3) = 7/8.
    zero = Fighter(**{**unit("JZERO#1", AGGRESSOR).__dict__, "bonus_attack": 1})
    result = odds.battle_odds([zero, unit("UWILDCAT#1", DEFENDER)], odds.counts([4, 6, 8, 9]))
    assert result.aggressor == pytest.approx(7 / 8, abs=1e-12)


def test_a_stalemate_gives_the_defender_the_battle():
    result = odds.battle_odds([unit("JAA#1", AGGRESSOR), unit("UAA90#1", DEFENDER)], FULL)
    assert result.aggressor == 0.0 and result.defender == 1.0


def test_the_simulation_agrees_with_the_exact_count_and_states_its_error():
    fighters = (unit("JZERO#1", AGGRESSOR), unit("JAKAGI#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER),
                unit("UENTERP#1", DEFENDER))
    small = odds.Cards(odds.counts([1, 3, 4, 5, 5, 6, 7, 8, 9]), discard=odds.counts([2, 6]))
    exact = odds.battle_odds(fighters, small)
    sim = odds.simulate(fighters, small, (), 0b1111, runs=3000)
    assert exact.method == "exact" and sim.method == "simulation" and 0 < sim.error < 0.02
    assert abs(sim.aggressor - exact.aggressor) < 4 * sim.error


@pytest.mark.parametrize("deck, pile", [([4, 8], [5, 6, 9]), ([9], [4, 5, 7, 8])])
def test_the_simulation_plays_on_through_the_reshuffle_as_the_count_does(deck, pile):
    """A deck of one or two cards: nearly every play-out goes on through the reshuffled pile ("flip the
    corresponding discard stack over and reshuffle the cards to continue to play"), the cards turned with it."""
    fighters = (unit("JZERO#1", AGGRESSOR), unit("JAKAGI#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER),
                unit("UENTERP#1", DEFENDER), unit("UFLETCH#1", DEFENDER))
    cards = odds.Cards(odds.counts(deck), discard=odds.counts(pile))
    exact = odds.battle_odds(fighters, cards)
    sim = odds.simulate(fighters, cards, (), 0b11111)
    assert exact.method == "exact" and 0.1 < exact.aggressor < 0.9
    assert sim.error < 0.02 and abs(sim.aggressor - exact.aggressor) < 4 * sim.error


def test_the_simulation_counts_a_kept_card_for_its_round_only():
    # The hand count of test_a_kept_card_counts_for_this_round_only: 7/8 with Air Superiority this round. Were the
    # bonus counted in every round, the Zero would hit on 4-8 after the reshuffle too (a higher figure).
    zero = Fighter(**{**unit("JZERO#1", AGGRESSOR).__dict__, "bonus_attack": 1})
    sim = odds.simulate((zero, unit("UWILDCAT#1", DEFENDER)), odds.counts([4, 6, 8, 9]), (), 0b11, runs=20_000)
    assert abs(sim.aggressor - 7 / 8) < 4 * sim.error and sim.runs <= 20_000


def test_the_simulation_starts_from_the_unit_that_fires_next():
    # The Wildcat fires first (step 1 of the round): it hits on 4-5, the Zero on 4-7. Deck 4, 6, 9: the Wildcat
    # turns the 4 (1/3) and wins; or the 6 (1/3), and the Zero hits on the 4 of the two left (1/2) or the Wildcat
    # turns it; or the 9 (1/3), and the Zero hits on either card left. 1/3 x 1/2 + 1/3 = 1/2 (the Zero first:
    # 5/6).
    duel = (unit("JZERO#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER))
    exact = odds.battle_odds(duel, odds.counts([4, 6, 9]), next_step=1)
    sim = odds.simulate(duel, odds.counts([4, 6, 9]), (), 0b11, runs=20_000, next_step=1)
    assert exact.aggressor == pytest.approx(1 / 2) and abs(sim.aggressor - exact.aggressor) < 4 * sim.error


def test_a_simulated_battle_with_no_card_to_turn_goes_to_the_defender():
    duel = (unit("JZERO#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER))
    assert odds.simulate(duel, odds.Cards((0,) * 10), (), 0b11).aggressor == 0.0


def test_the_table_shows_the_odds_of_the_battle_from_the_cards_left():
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    # Pearl Harbor (Action Number 1) is face up: 53 cards are left, 24 of them in 4-7.
    shown = RULES.public_view(t.state)["odds"]
    assert shown["cards_left"] == 53 and shown["method"] == "exact" and shown["held"] == 0
    left = odds.counts(n for n in range(1, 10) for _ in range(6 - (n == 1)))
    duel = odds.battle_odds([unit("JZERO#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER)], left)
    assert shown["aggressor"] == round(duel.aggressor, 4)
    assert shown["shots"] == [{"unit": "JZERO#1", "target": "UWILDCAT#1", "attack": 7, "defense": 3, "attack_bonus": 0,
                               "defense_bonus": 0, "hits": 24, "cards": 53, "chance": 24 / 53, "exact": "24/53",
                               "aimed": False}]
    assert shown["withdraw"]["aggressor"] == {"winner": "defender", "vp": 5, "keeps": 1}


def test_a_shot_aimed_with_a_weaker_supporter_shows_the_targets_it_can_reach():
    """A player may name the supporter of a shot (not the best one): the odds show the shot as aimed, and a
    target only the best supporter could reach ("If the Attack Value is ... lower than the selected target's
    defense, then the target may not be attacked") is left out, never a failure of the whole view."""
    t = fight("WAKE#1", ["JGUARDS#1", "JYAMASHI#1", "JHOMMA#1"], ["UWILDCAT#1", "UMAR1#1"])
    # The Guards' Attack 2 against Air reaches the Wildcat's Defense 4 with Yamashita (+2), not with Homma (+1).
    t.ok("aim", seat=JAPAN, target="UMAR1#1", support="JHOMMA#1")
    shots = RULES.public_view(t.state)["odds"]["shots"]
    assert [(s["target"], s["attack"], s["defense"], s["aimed"]) for s in shots] == [("UMAR1#1", 7, 4, True)]


def test_the_public_odds_do_not_change_when_a_hidden_card_changes():
    """The public tablet's odds never use a face-down stack, a Reserve Hand or a Kept Card."""
    t = fight("PEARL#1", ["JZERO#1", "JGUARDS#1"], ["UWILDCAT#1", "UMAR1#1"])
    t.state.armies[US].kept = ["AIRSUP2#1"]
    before = RULES.public_view(t.state)["odds"]
    other = copy.deepcopy(t.state)
    other.armies[US].kept = ["TORPEDO1#1"]                 # another Kept Card
    other.armies[US].hand = ["UB29#1"]                     # another Reserve Hand
    other.armies[JAPAN].stacks["ground"] = ["JDIV38#1"]    # another face-down stack, not in this battle
    assert RULES.public_view(other)["odds"] == before
    # The seat's phone knows its own Kept Card is not in the deck: its odds differ.
    seat = RULES.seat_view(t.state, US)["odds"]
    assert seat["cards_left"] == 52 and seat != before


def test_a_battle_too_large_to_count_is_simulated_seeded_with_its_error():
    six = [unit(k, AGGRESSOR) for k in ("JZERO#1", "JAKAGI#1", "JYAMAMOT#1")] + \
          [unit(k, DEFENDER) for k in ("UWILDCAT#1", "UENTERP#1", "UFLETCH#1")]
    result = odds.battle_odds(six, FULL)
    assert result.method == "simulation" and 0 < result.error < 0.05 and result.runs > 0
    odds.forget()
    assert odds.battle_odds(six, FULL) == result          # seeded: the same figure every time


def test_a_large_battle_down_to_one_unit_a_side_is_counted_exactly_as_the_duel_alone():
    """Late in a battle too large to count, its odds are counted again once few units are left fighting: with
    only the Zero and the Wildcat left of eight units, the duel by hand above (3/4 on the deck 4, 6, 8, 9)."""
    eight = [unit(k, AGGRESSOR) for k in ("JZERO#1", "JAKAGI#1", "JYAMAMOT#1", "JVAL#1")] + \
            [unit(k, DEFENDER) for k in ("UWILDCAT#1", "UENTERP#1", "UFLETCH#1", "UDAUNTL#1")]
    deck = odds.counts([4, 6, 8, 9])
    assert odds.battle_odds(eight, deck).method == "simulation"     # all eight fighting: too many to count
    late = odds.battle_odds(eight, deck, alive=["JZERO#1", "UWILDCAT#1"])
    assert late.method == "exact" and late.aggressor == pytest.approx(3 / 4, abs=1e-12)


def test_a_duel_left_of_a_twelve_unit_battle_costs_the_count_what_the_duel_alone_does():
    """The count's states are an alive set's shooters' steps, not the battle's: a duel left of twelve units, on
    a full deck, is counted (as the duel alone is), with the duel's odds."""
    twelve = [unit(k, AGGRESSOR) for k in ("JZERO#1", "JAKAGI#1", "JYAMAMOT#1", "JVAL#1", "JKATE#1", "JBETTY#1")] + \
             [unit(k, DEFENDER) for k in ("UWILDCAT#1", "UENTERP#1", "UFLETCH#1", "UDAUNTL#1", "UHELLCAT#1", "UAVENGER#1")]
    alone = odds.battle_odds([unit("JZERO#1", AGGRESSOR), unit("UWILDCAT#1", DEFENDER)], FULL)
    late = odds.battle_odds(twelve, FULL, alive=["JZERO#1", "UWILDCAT#1"])
    assert alone.method == late.method == "exact"
    assert late.aggressor == pytest.approx(alone.aggressor, abs=1e-12)


def test_the_first_simulated_battle_of_a_service_imports_nothing_while_the_table_waits():
    """The first shot of the evening's first large battle waited 60-75 ms for numpy to load the modules it loads
    lazily (numpy.ma for np.unique, numpy.random): those are loaded with the odds, at the service's start."""
    script = ("import sys\n"
              "from tests.test_battlecards_odds import FULL, unit, AGGRESSOR, DEFENDER\n"
              "from companion.rules.battlecards import odds\n"
              "six = [unit(k, AGGRESSOR) for k in ('JZERO#1', 'JAKAGI#1', 'JYAMAMOT#1')] + "
              "[unit(k, DEFENDER) for k in ('UWILDCAT#1', 'UENTERP#1', 'UFLETCH#1')]\n"
              "before = set(sys.modules)\n"
              "assert odds.battle_odds(six, FULL).method == 'simulation'\n"
              "print(sorted(m for m in set(sys.modules) - before if m.startswith('numpy')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_simulated_battles_figures_do_not_depend_on_the_questions_asked_before():
    """The simulation numbers the states it meets as it meets them and keeps them per battle: a question asked
    after others (a card later, a unit fewer) gives the figures it gives asked first, so a replay or an undo
    records the same odds as the table did."""
    six = tuple([unit(k, AGGRESSOR) for k in ("JZERO#1", "JAKAGI#1", "JYAMAMOT#1")] +
                [unit(k, DEFENDER) for k in ("UWILDCAT#1", "UENTERP#1", "UFLETCH#1")])
    later = odds.Cards(odds.counts(n for n in range(1, 10) for _ in range(6 - (n == 4))), discard=odds.counts([4]))
    simulate.table.cache_clear()
    fresh = odds.simulate(six, later, (), 0b101111, next_step=2)
    simulate.table.cache_clear()
    odds.simulate(six, FULL, (), 0b111111)
    odds.simulate(six, FULL, (), 0b011111, next_step=1)
    assert odds.simulate(six, later, (), 0b101111, next_step=2) == fresh
    simulate.table.cache_clear()


def test_a_shots_outcome_carries_the_odds_it_had_before_its_card_was_turned():
    """The odds are data in the outcomes (so `companion replay` prints them and a log can assert them)."""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    before = RULES.public_view(t.state)["odds"]
    t.turn_action(9)                                     # the Zero misses
    shot = next(o for o in t.last.outcomes if o.kind == "shot")
    assert shot.data["odds"]["exact"] == "24/53" and shot.data["odds"]["chance"] == 24 / 53
    assert shot.data["odds"]["aggressor"] == before["aggressor"] and shot.data["odds"]["method"] == "exact"
    begins = next(o for o in t.outcomes if o.kind == "battle_begins")
    assert begins.data["odds"]["aggressor"] == before["aggressor"]


def test_a_shots_recorded_odds_do_not_change_when_a_hidden_card_changes():
    """The odds in the outcomes are the public ones: another Reserve Hand or Kept Card gives the same record."""
    records = []
    for kept, hand in ((["AIRSUP2#1"], ["UB29#1"]), (["TORPEDO1#1"], ["UB17#1"])):
        t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
        t.state.armies[US].kept, t.state.armies[US].hand = kept, hand
        t.turn_action(9)
        records.append(next(o for o in t.last.outcomes if o.kind == "shot").data["odds"])
    assert records[0] == records[1]


def test_one_state_is_forecast_once_whoever_asks(monkeypatch):
    """The tablet, each phone, each aim button and the shot's outcome ask the odds of one state: it is worked out
    once. A phone whose seat holds no Kept Card asks the public's question; one that holds one asks its own (it
    knows that card is not in the deck); a card turned is a new state, asked afresh."""
    t = fight("PEARL#1", ["JZERO#1", "JGUARDS#1"], ["UWILDCAT#1", "UMAR1#1"])
    asked = []
    real = odds.battle_odds
    monkeypatch.setattr(odds, "battle_odds", lambda *a, **k: asked.append(a) or real(*a, **k))
    forecast.forget()
    public = RULES.public_view(t.state)["odds"]
    for _ in range(3):
        assert RULES.public_view(t.state)["odds"] == public
        assert RULES.seat_view(t.state, JAPAN)["odds"] == public
        assert RULES.seat_view(t.state, US)["odds"] == public
        RULES.actions(t.state)
    assert len(asked) == 1
    t.state.armies[US].kept = ["AIRSUP2#1"]          # held face down: the US phone knows it is not in the deck
    assert RULES.seat_view(t.state, US)["odds"]["cards_left"] == public["cards_left"] - 1
    assert RULES.public_view(t.state)["odds"] == public and len(asked) == 2
    t.turn_action(9)
    after = RULES.public_view(t.state)["odds"]
    assert after["cards_left"] == public["cards_left"] - 1 and len(asked) >= 3


def test_a_forecast_changed_by_its_reader_is_not_the_next_readers():
    """Each reader of a memoised forecast gets its own copy: one that adds to it or changes it (a view, an
    outcome) leaves the next reader's as it was worked out."""
    t = fight("PEARL#1", ["JZERO#1"], ["UWILDCAT#1"])
    forecast.forget()
    first = forecast.battle_forecast(RULES.deck, t.state)
    kept = copy.deepcopy(first)
    first["aggressor"], first["shots"][0]["chance"], first["withdraw"]["aggressor"]["vp"] = 2.0, 2.0, 99
    assert forecast.battle_forecast(RULES.deck, t.state) == kept
