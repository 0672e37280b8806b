"""The odds are exact: on small decks, every shot's and every battle's chance equals a brute-force enumeration
of every order the cards can come in (every choice of the Kept Cards held face down, every order of the deck,
then every order of each reshuffled discard pile: "When the CONFLICT deck ... has been completely discarded,
flip the corresponding discard stack over and reshuffle the cards to continue to play")."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations
from unittest import mock

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules.battlecards import odds
from companion.rules.battlecards.count import PlayedBattle, estimate, least_states, subsets
from companion.rules.battlecards.odds import AGGRESSOR, DEFENDER, Cards, Fighter

TYPES = ("ground", "air", "sea")
NUMBERS = tuple(range(1, 7))
CYCLES = 400
SIDES = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (1, 3), (3, 2), (2, 3)]   # units a side: up to five in a battle


def orders(cards: list[int]) -> list[tuple[int, ...]]:
    """Every distinct order of a multiset of Action Numbers: all equally likely in a shuffled deck."""
    return sorted(set(permutations(cards)))


def held_back(cards: Cards) -> list[list[int]]:
    """Every deck the public cannot rule out, one per choice of the held Kept Cards (each choice alike)."""
    unseen = [n for n, c in enumerate(cards.unseen) for _ in range(c)]
    keep = [n for n, c in enumerate(cards.keepable) for _ in range(c)]
    decks = []
    for chosen in combinations(range(len(keep)), cards.hidden):
        deck = list(unseen)
        for i in chosen:
            deck.remove(keep[i])
        decks.append(deck)
    return decks


def play(battle: PlayedBattle, mask: int, step: int, cards: tuple[int, ...]):
    """Play the battle from (mask, step) turning these cards in order: ("won", 1.0 or 0.0), or ("out", mask,
    step) when a shot needs a card and none is left."""
    n = len(battle.steps)
    for _ in range(len(cards) * n + n + 1):
        done = battle.outcome(mask)
        if done is not None:
            return ("won", done)
        shot = battle.decision(mask, step % n)
        if shot is not None:
            if not cards:
                return ("out", mask, step % n)
            number, cards = cards[0], cards[1:]
            if shot[2] < number <= shot[1]:
                mask &= ~(1 << shot[0])
        step += 1
    return ("won", 0.0)   # nobody fires at all: no shot is ever turned


def brute_force(fighters: tuple[Fighter, ...], cards: Cards) -> tuple[float, float]:
    """(the aggressor's chance counted so far, the chance still undecided after CYCLES reshuffles)."""
    battle = PlayedBattle(fighters, (), NUMBERS, cards.whole)
    pile = [n for n, c in enumerate(cards.discard) for _ in range(c)]
    won, waiting = 0.0, {}
    first = held_back(cards)
    for deck in first:
        for order in orders(deck):
            weight = 1 / len(first) / len(orders(deck))
            result = play(battle, (1 << len(fighters)) - 1, 0, order)
            if result[0] == "won":
                won += weight * result[1]
            else:
                refill = tuple(sorted(deck + pile))
                waiting[(result[1], result[2], refill)] = waiting.get((result[1], result[2], refill), 0) + weight
    reshuffles = Reshuffles(lambda mask, step, order: play(battle, mask, step, order))
    for _ in range(CYCLES):
        after: dict = {}
        for (mask, step, refill), weight in waiting.items():
            every, results = reshuffles.played(mask, step, refill)
            for result in results:
                if result[0] == "won":
                    won += weight / every * result[1]
                else:
                    key = (result[1], result[2], refill)
                    after[key] = after.get(key, 0) + weight / every
        waiting = after
    return won, sum(waiting.values())


class Reshuffles:
    """Every order of a reshuffled deck played from a position (units alive, step of the round, ...), each
    position's orders played once: the battle is the same in every cycle of the brute force, so a position
    reached again (most are, cycle after cycle, in a battle nobody wins quickly) plays out as it did before."""

    def __init__(self, play_order):
        self.play_order = play_order
        self.seen: dict = {}

    def played(self, *position_and_refill) -> tuple[int, list]:
        """(how many orders the refill has, what each order gives from the position), played the first time."""
        if position_and_refill not in self.seen:
            *position, refill = position_and_refill
            every = orders(list(refill))
            self.seen[position_and_refill] = (len(every), [self.play_order(*position, order) for order in every])
        return self.seen[position_and_refill]


values = st.one_of(st.none(), st.integers(1, 6))


@st.composite
def fighters(draw, fighting: bool = False) -> tuple[Fighter, ...]:
    """Units of two sides with random values; ``fighting``: every unit fires in some phase and can hit every
    type (so the battle is rarely settled before a card is turned)."""
    count = draw(st.sampled_from(SIDES))
    attack = st.integers(3, 6) if fighting else values
    found = []
    for side, n in zip((AGGRESSOR, DEFENDER), count, strict=True):
        for i in range(n):
            supports = draw(st.lists(st.sampled_from(TYPES), max_size=2, unique=True))
            found.append(Fighter(
                f"{side[0]}{i}", side, draw(st.sampled_from(TYPES)),
                tuple((t, draw(attack)) for t in TYPES), tuple((t, draw(st.integers(0, 5 - 2 * fighting))) for t in TYPES),
                tuple(sorted(draw(st.sets(st.integers(1, 4), min_size=int(fighting), max_size=2)))),
                draw(st.integers(0, 2)) if supports else 0, draw(st.integers(0, 1)) if supports else 0,
                tuple(supports)))
    return tuple(found)


@st.composite
def small_decks(draw) -> Cards:
    unseen = draw(st.lists(st.sampled_from(NUMBERS), min_size=1, max_size=4))
    keepable = draw(st.lists(st.sampled_from(unseen), max_size=2))
    keepable = [n for n in set(keepable)]                  # a sub-multiset of the unseen cards
    hidden = draw(st.integers(0, min(1, len(keepable), len(unseen) - 1)))
    discard = draw(st.lists(st.sampled_from(NUMBERS), max_size=2))
    return Cards(odds.counts(unseen), hidden, odds.counts(keepable), odds.counts(discard))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fighters(), small_decks())
def test_a_battles_odds_equal_every_order_of_the_cards_counted(fs, cards):
    exact = odds.count(fs, cards, numbers=NUMBERS)     # counted whatever it takes (no budget)
    won, undecided = brute_force(fs, cards)
    assert won - 1e-9 <= exact.aggressor <= won + undecided + 1e-9


@st.composite
def nearly_empty_decks(draw) -> Cards:
    """A deck of one or two cards and a pile of two or three: nearly every battle outlasts the deck, and goes on
    through the reshuffled pile (and the cards turned from the deck, back in it)."""
    unseen = draw(st.lists(st.sampled_from(NUMBERS), min_size=1, max_size=2))
    discard = draw(st.lists(st.sampled_from(NUMBERS), min_size=2, max_size=3))
    return Cards(odds.counts(unseen), discard=odds.counts(discard))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fighters(fighting=True), nearly_empty_decks())
def test_a_battle_through_the_reshuffle_equals_every_order_of_every_deck_counted(fs, cards):
    """"When the CONFLICT deck ... has been completely discarded, flip the corresponding discard stack over and
    reshuffle the cards to continue to play": the odds count the refill (the pile and every card turned) as
    the next deck, and the one after."""
    exact = odds.count(fs, cards, numbers=NUMBERS)     # counted whatever it takes (no budget)
    won, undecided = brute_force(fs, cards)
    assert won - 1e-9 <= exact.aggressor <= won + undecided + 1e-9


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(fighters(fighting=True), st.one_of(small_decks(), nearly_empty_decks()))
def test_a_simulated_battle_is_within_its_stated_error_of_the_exact_count(fs, cards):
    """Where a battle is simulated, the error it states is honest: on battles small enough to count, the seeded
    simulation of the same question lands within four times its error of the exact figure (derandomised, so
    the examples, like the simulation, are the same every run)."""
    exact = odds.count(fs, cards, numbers=NUMBERS)
    mask = (1 << len(fs)) - 1
    sim = odds.simulate(fs, cards, (), mask, numbers=NUMBERS)
    assert sim.method == "simulation"
    assert abs(sim.aggressor - exact.aggressor) <= 4 * sim.error + 1e-9


@settings(max_examples=100, deadline=None)
@given(small_decks(), st.integers(0, 7), st.integers(0, 6))
def test_a_shots_chance_equals_every_deck_counted(cards, attack, defense):
    decks = held_back(cards)
    pile = [n for n, c in enumerate(cards.discard) for _ in range(c)]
    expected = Fraction(0)
    for deck in decks:
        now = deck or pile                      # an empty deck is the reshuffled pile
        if now:
            expected += Fraction(sum(defense < n <= attack for n in now), len(now) * len(decks))
    assert odds.shot_chance(cards, attack, defense) == expected


def test_the_reshuffle_gives_chances_the_deck_left_does_not():
    """The Zero hits the Wildcat on 4-7, the Wildcat the Zero on 4-5, the Zero first. The deck holds an 8 and a 9
    and the pile a 5: both miss, the pile and those two are reshuffled, and the Zero hits on the 5 (1/3), or
    misses and the Wildcat hits on it (2/3 x 1/2), or misses too and the Zero turns the 5 last: 1/3 + 2/3 x 1/2
    = 2/3. Without the reshuffle the Zero could never win."""
    zero = Fighter("JZERO#1", AGGRESSOR, "air", (("ground", 2), ("air", 7), ("sea", 2)),
                   (("ground", 4), ("air", 3), ("sea", 4)), (1,))
    wildcat = Fighter("UWILDCAT#1", DEFENDER, "air", (("ground", 2), ("air", 5), ("sea", 2)),
                      (("ground", 4), ("air", 3), ("sea", 4)), (1,))
    result = odds.battle_odds([zero, wildcat], Cards(odds.counts([8, 9]), discard=odds.counts([5])))
    assert result.method == "exact" and abs(result.aggressor - 2 / 3) < 1e-12
    assert odds.shot_chance(Cards(odds.counts([8, 9]), discard=odds.counts([5])), 7, 3) == 0


def test_a_held_kept_card_is_any_of_the_unseen_keep_cards_alike():
    """Cards "kept face down" are out of the deck, and the public knows only that they are "Keep this card"
    cards. Unseen: a 4 and two 8s; one card is held, a keepable 4 or 8 (one of each is a keep card): the deck is
    {8, 8} or {4, 8} alike, so a shot hitting on 4 hits with (0 + 1/2) / 2 = 1/4."""
    cards = Cards(odds.counts([4, 8, 8]), 1, odds.counts([4, 8]))
    assert odds.shot_chance(cards, 4, 3) == Fraction(1, 4)


@settings(max_examples=60, deadline=None)
@given(fighters(fighting=True), st.randoms(use_true_random=False))
def test_the_policy_is_the_same_whichever_alive_set_is_asked_first(fs, rng):
    """Each shooter's shot is memoised on the units it depends on (its targets, their guards, its supporters, the
    shooters before it in the volley): asked in any order, one battle gives every alive set and step the shot a
    battle asked nothing before gives it, so the count and the simulation play the policy the docs describe."""
    deck = (0, 1, 3, 2, 1, 3, 2)        # uneven, so that a guard's point or a supporter's changes the likeliest target
    steps = len(PlayedBattle(fs, (), NUMBERS, deck).steps)
    shared = PlayedBattle(fs, (), NUMBERS, deck)
    questions = [(mask, step) for mask in range(1 << len(fs)) for step in range(steps)]
    rng.shuffle(questions)
    for mask, step in questions:
        assert shared.decision(mask, step) == PlayedBattle(fs, (), NUMBERS, deck).decision(mask, step)


@settings(max_examples=80, deadline=None)
@given(fighters(fighting=True), st.lists(st.integers(0, 4), min_size=7, max_size=7), st.data())
def test_the_quick_floor_of_a_counts_states_never_exceeds_its_estimate(fs, refill, data):
    """A battle is simulated without walking every smaller alive set when even a floor of the states its count
    may need is beyond the budget: the floor must never exceed the estimate, or a battle the count fits would
    be simulated (its odds no longer exact)."""
    battle = PlayedBattle(fs, (), NUMBERS, (0, 1, 3, 2, 1, 3, 2))
    mask = data.draw(st.integers(1, (1 << len(fs)) - 1))
    floor, states = least_states(battle, mask, tuple(refill)), estimate(battle, mask, tuple(refill))
    assert floor <= states


@given(st.integers(0, (1 << 12) - 1))
def test_the_alive_sets_under_a_mask_are_every_subset_largest_first(mask):
    assert list(subsets(mask)) == [m for m in range(mask, -1, -1) if m & mask == m]


def test_two_units_left_of_eighteen_are_four_alive_sets_not_every_number_below():
    """The estimate and the compiled count walk the alive sets under the units still fighting: the last two of
    an 18-unit battle (its 17th and 18th) are 4 sets, where walking the numbers below meant 2^17 (18 ms)."""
    assert list(subsets(1 << 17 | 1 << 16)) == [1 << 17 | 1 << 16, 1 << 17, 1 << 16, 0]


# -- mid-battle: any units still fighting, any unit firing next, Kept Cards played this round, a special victory --
def play_from(now: PlayedBattle, later: PlayedBattle, mask: int, step: int, first: bool, cards: tuple[int, ...]):
    """As ``play``, from a position in a round: while ``first``, the rest of this round is fought with the Kept
    Cards played in it (``now``), the rounds after without them (``later``, from the round's first step)."""
    n = len(later.steps)
    while first:
        if now.outcome(mask) is not None:
            return ("won", now.outcome(mask))
        if step >= n:
            first, step = False, 0
            break
        shot = now.decision(mask, step)
        if shot is not None:
            if not cards:
                return ("out", mask, step, True)
            number, cards = cards[0], cards[1:]
            if shot[2] < number <= shot[1]:
                mask &= ~(1 << shot[0])
        step += 1
    result = play(later, mask, step, cards)
    return result if result[0] == "won" else (*result, False)


def brute_force_from(fighters: tuple[Fighter, ...], cards: Cards, must_destroy: tuple[str, ...], mask: int,
                     step: int) -> tuple[float, float]:
    """``brute_force`` from a position: (the aggressor's chance counted so far, the chance still undecided)."""
    now = PlayedBattle(fighters, must_destroy, NUMBERS, cards.whole)
    later = PlayedBattle(tuple(f.after_this_round() for f in fighters), must_destroy, NUMBERS, cards.whole)
    pile = [n for n, c in enumerate(cards.discard) for _ in range(c)]
    won, waiting = 0.0, {}
    first = held_back(cards)
    for deck in first:
        every = orders(deck)
        for order in every:
            weight = 1 / len(first) / len(every)
            result = play_from(now, later, mask, min(step, len(now.steps)), True, order)
            if result[0] == "won":
                won += weight * result[1]
            else:
                key = (*result[1:], tuple(sorted(deck + pile)))
                waiting[key] = waiting.get(key, 0) + weight
    reshuffles = Reshuffles(lambda m, s, f, order: play_from(now, later, m, s, f, order))
    for _ in range(CYCLES):
        after: dict = {}
        for (m, s, f, refill), weight in waiting.items():
            every, results = reshuffles.played(m, s, f, refill)
            for result in results:
                if result[0] == "won":
                    won += weight / every * result[1]
                else:
                    key = (*result[1:], refill)
                    after[key] = after.get(key, 0) + weight / every
        waiting = after
    return won, sum(waiting.values())


@st.composite
def positions(draw):
    """A battle caught in the middle: some units already gone, any step of the round next, the Kept Cards
    played this round (+attack, +defense), and maybe a special victory condition."""
    fs = list(draw(fighters(fighting=True)))
    for i, f in enumerate(fs):
        fs[i] = Fighter(f.key, f.side, f.type, f.attack, f.defense, f.phases, f.support_attack, f.support_defense,
                        f.supports, draw(st.integers(0, 2)), draw(st.integers(0, 1)))
    mask = 0
    for side in (AGGRESSOR, DEFENDER):      # one unit of each side at least is still fighting
        members = [i for i, f in enumerate(fs) if f.side == side]
        for i in draw(st.lists(st.sampled_from(members), min_size=1, unique=True)):
            mask |= 1 << i
    step = draw(st.integers(0, len(PlayedBattle(tuple(fs), (), NUMBERS, (0,)).steps)))
    defending = sorted({f.type for i, f in enumerate(fs) if f.side == DEFENDER and mask >> i & 1})
    must_destroy = tuple(draw(st.lists(st.sampled_from(defending), max_size=1)))   # a type still defended
    return tuple(fs), mask, step, must_destroy


def mixed(cards: Cards) -> bool:
    """Two Action Numbers at least among the deck and its pile (one alone settles most battles at once)."""
    return sum(1 for c in cards.whole if c) >= 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(positions(), st.one_of(small_decks(), nearly_empty_decks()).filter(mixed))
def test_a_battles_odds_from_any_position_equal_every_order_of_the_cards_counted(position, cards):
    """What the table asks in the middle of a battle (the units still fighting, the one that fires next, the
    Kept Cards played "for the rest of this round", a BATTLECARD won by destroying every enemy unit of a type):
    the odds the table shows (battle_odds, counted) equal every order of the cards. The count's budget is
    lifted for the question: a deck this small can still be over it (5 units, 4 unseen cards and a pile), where
    the table simulates the battle instead (test_a_simulated_battle_is_within_its_stated_error_of_the_exact_count)."""
    fs, mask, step, must_destroy = position
    odds.forget()
    alive = [f.key for i, f in enumerate(fs) if mask >> i & 1]
    with mock.patch.object(odds, "STATE_LIMIT", 1_000_000):
        shown = odds.battle_odds(fs, cards, must_destroy, step, alive, NUMBERS)
    odds.forget()
    won, undecided = brute_force_from(fs, cards, must_destroy, mask, step)
    assert shown.method == "exact"
    assert won - 1e-9 <= shown.aggressor <= won + undecided + 1e-9
