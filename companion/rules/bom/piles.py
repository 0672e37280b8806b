"""Each seat's cards, as counts: ARMY (face down), BATTALION (the hand of five), discard pile.

The companion never sees a face-down card, so it keeps counts, not identities; the counts are the
score. Every card of the deck is always in some seat's three piles (a battle's cards are counted
in their owner's BATTALION until the battle is resolved), so the counts always add up to the deck.
"""
from __future__ import annotations

from .state import Piles

BATTALION = 5
SeatState = Piles


def deal(deck_size: int, seats: int, first: int) -> list[int]:
    """Cards each seat is dealt, in seat order, dealing one at a time from ``first`` clockwise:
    every seat gets deck_size // seats, and the first deck_size % seats seats dealt get one more."""
    counts = [deck_size // seats] * seats
    for i in range(deck_size % seats):
        counts[(first - 1 + i) % seats] += 1
    return counts


def reshuffle_if_empty(s: SeatState) -> None:
    """"When a player's ARMY runs out, he shuffles his discard pile and places it facedown. It now
    becomes his ARMY." The companion applies this as soon as the ARMY is empty."""
    if s.army == 0 and s.discard > 0:
        s.army, s.discard = s.discard, 0


def take_from_army(s: SeatState, n: int) -> int:
    """Take up to n cards off the top of the ARMY (reshuffling the discard pile into it when it
    runs out); returns how many were taken."""
    taken = 0
    while taken < n:
        reshuffle_if_empty(s)
        if s.army == 0:
            break
        step = min(n - taken, s.army)
        s.army -= step
        taken += step
    reshuffle_if_empty(s)
    return taken


def replenish(s: SeatState, size: int = BATTALION) -> None:
    """"Each player then draws enough cards from the top of his ARMY to replenish the number in his
    BATTALION to five.\""""
    s.battalion += take_from_army(s, max(0, size - s.battalion))


def new_battalion(s: SeatState, size: int = BATTALION) -> None:
    """Power Play: "the remaining cards in each BATTALION are placed facedown in the player's discard
    pile ... five new cards are drawn to form a new BATTALION.\""""
    s.discard += s.battalion
    s.battalion = 0
    replenish(s, size)


def swap_two(s: SeatState) -> None:
    """Two cards from the BATTALION to the discard pile, two drawn from the ARMY ("Too many POWER
    cards", and a mounting seat with no CHARACTER card)."""
    s.battalion -= 2
    s.discard += 2
    s.battalion += take_from_army(s, 2)


def only_battalion(s: SeatState) -> bool:
    """"If a player only has a BATTALION (5 cards or fewer) left": no ARMY and no discard pile."""
    return s.army == 0 and s.discard == 0
