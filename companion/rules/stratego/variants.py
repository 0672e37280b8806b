"""Stratego's variants, one unit each: the sentences of the other edition that disagree with the
classic rules (stratego.txt mixes two editions; the classic rules are the default).

Each variant is switched on by its option's value and holds its rule as a hook the game calls:
``fight`` (decide a combat before the classic rules), ``defender_shown`` (what a combat reveals),
``attack_after_move`` (the Scout's move and attack), and the rescue as a whole.
"""
from __future__ import annotations

from typing import Any, ClassVar

from companion.rules.base import Outcome, Term
from companion.rules.contract import Refused, Variant

from .ranks import ATTACKER, BOMB, SCOUT, SPY, Quote, Verdict
from .state import Rescue, StrategoState


class StrategoVariant(Variant):
    """A Stratego variant: on when its option has ``value``. Hooks return None where the variant
    has nothing to say, so the classic rule decides."""

    value: ClassVar[Any] = True

    @classmethod
    def on(cls, options: dict[str, Any]) -> bool:
        return bool(options.get(cls.option) == cls.value)

    def fight(self, attacker: str, defender: str) -> Verdict | None:
        return None

    def defender_shown(self, attacker: str, verdict: Verdict) -> bool | None:
        return None

    def attack_after_move(self, rank: str) -> bool:
        return False


class SpyDefeatsAnything(StrategoVariant):
    """"The exceptions are Spys, which defeat anythign on attack (except bombs)" (Bombs and the Flag
    are decided before any variant)."""

    option, value, title = "spy_attack", "anything_but_bombs", "The Spy defeats anything on attack"

    def fight(self, attacker: str, defender: str) -> Verdict | None:
        return Verdict(ATTACKER, Quote.SPY_ANYTHING) if attacker == SPY and defender != BOMB else None


class TieAttackerWins(StrategoVariant):
    """"In the event of a tie, the attacker wins." """

    option, value, title = "ties", "attacker_wins", "A tie: the attacker wins"

    def fight(self, attacker: str, defender: str) -> Verdict | None:
        return Verdict(ATTACKER, Quote.TIE_ATTACKER) if attacker == defender else None


class DefenderRevealsLess(StrategoVariant):
    """"When a piece is attacked, the defender only reveals their piece if it's defeated, or If it
    is attacked by a Scout." The attacker always reveals: the sentence speaks of the defender only."""

    option, value, title = "reveal", "defeated_or_scout", "The defender reveals only when defeated or scouted"

    def defender_shown(self, attacker: str, verdict: Verdict) -> bool | None:
        return verdict.defender_removed or attacker == SCOUT


class ScoutMovesAndAttacks(StrategoVariant):
    """"unless the piece you are using a scout which may move and attack on the same turn." After a
    plain move, and until the opponent acts, the same side may still attack, with a Scout only."""

    option, title = "scout_move_attack", "A Scout may move and attack"

    def attack_after_move(self, rank: str) -> bool:
        if rank != SCOUT:
            raise Refused("only_a_scout")
        return True


class RescueFromTheBackRow(StrategoVariant):
    """"If you move one of your own pieces into the back row of your opponents territory then you may
    rescue one of your defeated pieces and place it on your side of the game board."

    The companion cannot see the board: it takes the player's word that the piece reached the back
    row, right after that side's move (or an attack its piece survived), once per turn."""

    option, title = "rescue", "Rescue from the back row"

    @staticmethod
    def rescuer(state: StrategoState) -> str | None:
        """The colour that may rescue now, if any."""
        last = state.last_turn
        if last is None or state.pending is not None or state.over or last.rescued or last.survivor is None:
            return None
        return last.colour

    def rescue(self, state: StrategoState, seat: int, key: str) -> Outcome:
        colour = state.colours[seat]
        last = state.last_turn
        if last is None or last.colour != colour or state.pending is not None:
            raise Refused("rescue_not_after_move", seat, colour=colour)
        if last.rescued:
            raise Refused("already_rescued", seat, colour=colour)
        if last.survivor is None:
            raise Refused("attacker_removed", seat, colour=colour)
        piece = state.pieces[key]
        if piece.colour != colour:
            raise Refused("not_own_piece", seat, colour=colour, piece_colour=piece.colour)
        if piece.alive:
            raise Refused("still_on_board", seat)
        piece.alive = True
        last.rescued = True
        state.rescues.append(Rescue(colour=colour, piece=key, rank=piece.rank, shown=piece.revealed,
                                    turn=state.turn_number))
        return Outcome("rescue", terms=(Term("rule", Quote.RESCUE),),
                       data={"seat": seat, "colour": colour, "rank": piece.rank if piece.revealed else None})


# In the order their combat hooks are asked (the Spy's sentence before the tie's, as before).
VARIANTS = (SpyDefeatsAnything, TieAttackerWins, DefenderRevealsLess, ScoutMovesAndAttacks, RescueFromTheBackRow)
