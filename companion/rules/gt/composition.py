"""The cards a table of this size plays with (Setup and Deal, steps 2-4).

"Step 3: ... The number of players playing should equal the number of EXPOSE cards being used."
"*remove 1 SAVE card and 1 ELIMINATE card when playing with 4 or 5 players". So a round at 6
players has six EXPOSE cards in it, and one at 4 players one ELIMINATE and one SAVE fewer than the
deck holds. ``state.deal.limits`` holds those numbers; ``state.in_play`` the distinct copies seen
on the pile this round. A copy beyond the limit is not in this round's deck: refused, so that a
card left out at setup (or a duplicated tag) cannot be played.
"""
from __future__ import annotations

from ..contract import Refused
from .cards import Deck
from .state import BattleState

LIMITED = ("eliminate", "save")  # removed at small tables; EXPOSE is limited to one per player



def check_in_deck(deck: Deck, state: BattleState, key: str) -> None:
    """Refuse a copy of EXPOSE, ELIMINATE or SAVE beyond what this table plays with; else note it."""
    action = deck.action(key)
    limit = state.deal.limits.get(action or "")
    if limit is None or action is None:
        return
    seen = state.in_play.setdefault(action, [])
    if key in seen:
        return
    if len(seen) >= limit:
        raise Refused("not_in_this_rounds_deck", card=key, action=action, players=state.deal.players, limit=limit,
                      seen=list(seen))
    seen.append(key)
