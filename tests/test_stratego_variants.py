"""Each Stratego variant alone: the other edition's sentence, its hook, and the option that switches
it on (companion/rules/stratego/variants.py). The whole referee under every combination is checked
in test_stratego_combat.py."""
from __future__ import annotations

import pytest

from companion.rules.contract import Refused
from companion.rules.stratego import GAME
from companion.rules.stratego.combat import decide
from companion.rules.stratego.ranks import ATTACKER, BOTH, DEFENDER, Quote, Verdict
from companion.rules.stratego.variants import (VARIANTS, DefenderRevealsLess, RescueFromTheBackRow,
                                               ScoutMovesAndAttacks, SpyDefeatsAnything, TieAttackerWins)

CLASSIC = {o.name: o.default for o in GAME.options}


def test_classic_options_switch_on_no_variant():
    assert [v for v in VARIANTS if v.on(CLASSIC)] == []


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.__name__)
def test_each_variant_is_switched_on_by_its_option(variant):
    option = next(o for o in GAME.options if o.name == variant.option)
    assert variant.value in (option.choices or (True, False)) and variant.value != option.default
    assert variant.on({**CLASSIC, variant.option: variant.value})


def test_spy_defeats_anything_on_attack_except_bombs():
    """"The exceptions are Spys, which defeat anythign on attack (except bombs)" """
    spy = SpyDefeatsAnything(CLASSIC)
    assert spy.fight("S", "9") == Verdict(ATTACKER, Quote.SPY_ANYTHING)
    assert spy.fight("9", "S") is None                     # only on attack
    assert decide("S", "B", [spy]).winner == DEFENDER      # except bombs
    assert decide("S", "9", []).winner == DEFENDER         # the classic Spy loses


def test_tie_attacker_wins():
    """"In the event of a tie, the attacker wins." """
    tie = TieAttackerWins(CLASSIC)
    assert tie.fight("6", "6") == Verdict(ATTACKER, Quote.TIE_ATTACKER)
    assert tie.fight("6", "5") is None
    assert decide("6", "6", []).winner == BOTH             # classic: "both pieces are removed"


def test_defender_reveals_only_when_defeated_or_scouted():
    """"the defender only reveals their piece if it's defeated, or If it is attacked by a Scout." """
    reveal = DefenderRevealsLess(CLASSIC)
    assert reveal.defender_shown("5", Verdict(DEFENDER, Quote.HIGHER)) is False
    assert reveal.defender_shown("8", Verdict(ATTACKER, Quote.HIGHER)) is True
    assert reveal.defender_shown("6", Verdict(BOTH, Quote.TIE_BOTH)) is True
    assert reveal.defender_shown("2", Verdict(DEFENDER, Quote.BOMB)) is True


def test_only_a_scout_moves_and_attacks():
    """"unless the piece you are using a scout which may move and attack on the same turn." """
    scout = ScoutMovesAndAttacks(CLASSIC)
    assert scout.attack_after_move("2") is True
    with pytest.raises(Refused, match="only_a_scout"):
        scout.attack_after_move("9")


def test_rescue_is_offered_to_the_side_that_just_moved_and_survived():
    """"If you move one of your own pieces into the back row ... you may rescue one of your defeated
    pieces": the side that just moved, whose piece survived, once."""
    from tests.test_stratego_support import Table

    table = Table(rescue=True)
    assert RescueFromTheBackRow.rescuer(table.state) is None       # nobody has moved yet
    table.move("red")
    assert RescueFromTheBackRow.rescuer(table.state) == "red"
    table.attack("B4#1", "R9#1")                                    # Blue's attacker is removed
    assert RescueFromTheBackRow.rescuer(table.state) is None
