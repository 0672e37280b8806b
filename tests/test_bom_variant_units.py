"""Each Book of Mormon variant as a unit (companion/rules/bom/variants.py and friends): its hooks
read and tested alone, on a bare state, without playing a game through the referee; and how the
variants in play are combined ("SPECIAL RULES AND GAMES (These rules can be combined.)")."""
import pytest

from companion.rules import Seat
from companion.rules.bom import VARIANTS
from companion.rules.bom.mounting import MountingBattles
from companion.rules.bom.refusals import WORDS, facts
from companion.rules.bom.state import Mode, Mount, Piles
from companion.rules.bom.trivia import SpysTrivia
from companion.rules.bom.turns import SecretWeapon
from companion.rules.bom.variants import Basic, PowerPlay, Rules, ShorterGame, YoungPlayers
from companion.rules.contract import clashes
from tests.test_bom_support import RULES


def said(refused, state) -> str:
    """A hook's refusal in the words the table reads (the view's wording, cards named by their key)."""
    assert refused is not None
    return WORDS[refused.code].format(**facts(refused.data, state, lambda key: key))

FAITH, SAM = RULES.deck.card("FAITH#1"), RULES.deck.card("GD100#1")


def bare(seats=3, **options):
    """A basic game's state, with no variant's own setup."""
    return RULES.setup([Seat(i + 1, f"P{i + 1}") for i in range(seats)], RULES.resolve_options(options))


def test_the_basic_rules_are_the_defaults():
    """"Each player then draws enough cards from the top of his ARMY to replenish the number in his
    BATTALION to five.\""""
    basic, s = Basic({}), Piles(seat=1, name="Ann", army=10, battalion=2, discard=0)
    assert basic.mode() == Mode.BATTLE and basic.with_powers() and not basic.by_value_only()
    assert basic.battalion() and basic.battles(bare()) and not basic.stops_when_players_stop()
    basic.refill(s)
    assert (s.army, s.battalion, s.discard) == (7, 5, 0)
    assert basic.order(bare(first_seat=2), [1, 2, 3]) == [2, 3, 1]


def test_young_players_alone():
    """"Remove all the POWER cards from the deck ... Each player draws the top card from his ARMY and
    lays it down faceup.\""""
    young, s = YoungPlayers({}), Piles(seat=1, name="Ann", army=3, battalion=0, discard=2)
    assert young.mode() == Mode.YOUNG and young.with_powers() is False and young.spoils() is False
    # "The winner is the one with the most cards when you stop playing": no BATTALION, an end by stopping
    assert young.battalion() is False and young.stops_when_players_stop() is True
    assert "Remove all the POWER cards" in said(young.refuse_card(bare(), 1, "P1#1", FAITH), bare())
    assert young.refuse_card(bare(), 1, "C1#1", SAM) is None
    assert young.hand(bare(), s) == 5 and young.enough_for_tie(s)
    young.commit(s, 1)
    assert s.army == 2, "the top card of the ARMY"


def test_power_play_alone():
    """"Before each battle, the remaining cards in each BATTALION are placed facedown in the player's
    discard pile. Each time a player takes a turn, five new cards are drawn to form a new BATTALION.\""""
    state = bare()
    PowerPlay({}).start(state, RULES, [24, 24, 24])
    assert [(s.army, s.battalion, s.discard) for s in state.piles] == [(14, 5, 5)] * 3
    s = Piles(seat=1, name="Ann", army=7, battalion=3, discard=0)
    PowerPlay({}).refill(s)
    assert (s.army, s.battalion, s.discard) == (2, 5, 3)


def test_a_shorter_game_alone():
    """"Set a timer for 15 minutes (or the desired time of play).\""""
    shorter = ShorterGame({"shorter_game_minutes": 15})
    assert shorter.problems({"shorter_game_minutes": 15}, 3) == []
    assert "must be 0 (no timer) to 1440" in shorter.problems({"shorter_game_minutes": -5}, 3)[0]
    state = bare()
    assert shorter.refuse_card(state, 3, "P1#1", FAITH) is None and shorter.hand(state, state.seat(1)) is None
    state.tiebreak = [1, 2]  # "tied players shuffle their CHARACTER cards and draw one card randomly"
    assert "CHARACTER cards only" in said(shorter.refuse_card(state, 1, "P1#1", FAITH), state)
    assert "Only the tied players" in said(shorter.refuse_card(state, 3, "C1#1", SAM), state)
    assert shorter.hand(state, state.seat(1)) == 1 and shorter.one_card(state) == "tiebreak"


def test_mounting_battles_alone():
    """"battles are determined strictly by point value, not by color or shape. In case of a tie, tied
    players ... choose a new CHARACTER card from their BATTALION\""""
    mounting, state = MountingBattles({}), bare()
    assert mounting.by_value_only() and mounting.one_card(state) is None
    state.mount = Mount(seats=[1, 2])
    assert mounting.one_card(state) == "mount"
    assert "only Seat 1 (P1) and Seat 2 (P2) play now" in said(mounting.refuse_card(state, 3, "C1#1", SAM), state)
    assert mounting.refuse_card(state, 1, "C1#1", SAM) is None


def test_secret_weapon_alone():
    """"the player to the dealer's left begins the battle ... In each subsequent battle, the next
    player in the circle goes first.\""""
    weapon, state = SecretWeapon({}), bare(first_seat=2)
    weapon.start(state, RULES, [24, 24, 24])
    assert weapon.order(state, [1, 2, 3]) == [2, 3, 1]
    state.seat(3).out = True
    weapon.after_battle(state)
    assert state.turns.leader == 1, "the next player still in the game"


def test_spys_trivia_alone():
    """"Using just the CHARACTER cards, shuffle and divide the deck evenly.\""""
    trivia, state = SpysTrivia({}), bare()
    assert trivia.mode() == Mode.TRIVIA and trivia.with_powers() is False
    # no battles (a card read in the tray is won by naming it), except the last one after the timer
    assert trivia.battles(state) is False and trivia.reads_in_tray() and trivia.battalion() is False
    state.tiebreak = [1, 2]
    assert trivia.battles(state) is None and Rules([trivia]).battles(state) is True
    state.tiebreak = None
    trivia.start(state, RULES, [19, 19, 18])
    assert state.trivia.unread == {1: 19, 2: 19, 3: 18} and state.trivia.reader == 1
    assert all(s.battalion == 0 for s in state.piles)


def test_a_question_goes_to_the_first_variant_that_answers_it_else_to_the_basic_rule():
    state, s = bare(), Piles(seat=1, name="Ann", army=9, battalion=5, discard=0)
    assert Rules([]).hand(state, s) == 5
    assert Rules([ShorterGame({}), YoungPlayers({})]).hand(state, s) == 9, "no tiebreak: the Shorter Game has no answer"
    state.tiebreak = [1, 2]
    assert Rules([ShorterGame({}), YoungPlayers({})]).hand(state, s) == 1


@pytest.mark.parametrize("a, b", [("spys_trivia", "power_play"), ("young_players", "secret_weapon"),
                                  ("spys_trivia", "young_players")])
def test_variants_that_leave_each_other_nothing_to_do_are_not_combined(a, b):
    chosen = [v for v in VARIANTS if v.option in (a, b)]
    assert len(clashes(chosen)) == 1 and clashes(list(reversed(chosen))) == clashes(chosen)


def test_every_variant_has_its_option_and_each_exclusion_a_reason():
    options = {o.name for o in RULES.options}
    for v in VARIANTS:
        assert v.option in options
        for other in v.excludes:
            assert other in options
            partner = next(w for w in VARIANTS if w.option == other)
            assert v.reasons.get(other) or partner.reasons.get(v.option), (v.title, other)


def test_an_army_run_out_takes_up_a_discard_pile_of_a_single_card():
    """"When a player's ARMY runs out, he shuffles his discard pile and places it facedown. It now
    becomes his ARMY." A discard pile of one card is a pile too: it becomes an ARMY of one."""
    from companion.rules.bom import piles

    s = Piles(seat=1, name="Ann", army=0, battalion=4, discard=1)
    piles.replenish(s)
    assert (s.army, s.battalion, s.discard) == (0, 5, 0)


def test_a_young_players_tie_needs_three_face_down_cards_and_one_more_to_turn():
    """Mounting Battles with the Rules for Young Players: "tied players place the top three cards
    from their ARMY—without looking at them—facedown on the battlefield", and a young player then
    turns "the top card from his ARMY": four cards between ARMY and discard pile. "If he doesn't
    have enough cards to play a tie, he surrenders all his remaining cards to the other player." """
    young = YoungPlayers({"young_players": True})
    assert young.enough_for_tie(Piles(seat=1, name="Ann", army=2, battalion=0, discard=2))
    assert not young.enough_for_tie(Piles(seat=1, name="Ann", army=3, battalion=0, discard=0))
    # In the basic game the fourth card is a CHARACTER card chosen from the BATTALION instead.
    basic = Basic({})
    assert basic.enough_for_tie(Piles(seat=1, name="Ann", army=3, battalion=1, discard=0))
    assert not basic.enough_for_tie(Piles(seat=1, name="Ann", army=3, battalion=0, discard=0))
