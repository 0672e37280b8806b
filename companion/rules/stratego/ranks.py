"""Stratego's ranks and the classic combat table: who a fight removes, decided from two ranks.

Everything here is rulebook data (stratego.txt): the rank names, their strength, the rules
that decide a combat (``Quote``, by code: words.py quotes them), and the classic rules as a pure
function. Variants that change a combat are units in variants.py; ``combat.fight`` combines them.
"""
from __future__ import annotations

from dataclasses import dataclass

from card_tags.games.stratego import ARMY

RANK_NAME = {rank: name for rank, (name, _) in ARMY.items()}
# Strength for "higher ranked pieces always defeat lower ranked pieces"; the Spy is the weakest
# (its exceptions are decided before strength is compared). Bombs and the Flag never attack.
STRENGTH = {"10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2, "S": 1}
IMMOBILE = ("B", "F")  # "There are also seven non-moving pieces" (6 Bombs, 1 Flag)
MINER, SCOUT, SPY, MARSHAL, BOMB, FLAG = "3", "2", "S", "10", "B", "F"
ATTACKER, DEFENDER, BOTH = "attacker", "defender", "both"  # who wins a combat ("both": both removed)


class Quote:
    """The rulebook's rules that decide things, by code: an outcome's "rule" term and a combat's
    ``rule`` hold the code, and the view quotes the sentence (words.RULEBOOK, from stratego.txt)."""

    HIGHER = "higher"
    TIE_BOTH = "tie_both"
    TIE_ATTACKER = "tie_attacker"
    SPY_VS_SPY = "spy_vs_spy"
    SPY_VS_SPY_OTHER = "spy_vs_spy_other"
    SPY_ANYTHING = "spy_anything"
    SPY_CLASSIC = "spy_classic"
    SPY_ATTACKED = "spy_attacked"
    BOMB = "bomb"
    MINER = "miner"
    FLAG = "flag"
    REVEAL_BOTH = "reveal_both"
    REVEAL_DEFENDER = "reveal_defender"
    IMMOBILE = "immobile"
    TURN = "turn"
    RED_FIRST = "red_first"
    SCOUT_MOVE_ATTACK = "scout_move_attack"
    RESCUE = "rescue"
    FORFEIT = "forfeit"
    RESIGN = "resign"  # the companion's ruling: the rulebook is silent


@dataclass(frozen=True)
class Verdict:
    """Who a combat removes: ``winner`` is "attacker", "defender" or "both" (both removed); ``rule``
    is the code of the rulebook's sentence that decides it (a ``Quote``)."""

    winner: str
    rule: str

    @property
    def attacker_removed(self) -> bool:
        return self.winner in (DEFENDER, BOTH)

    @property
    def defender_removed(self) -> bool:
        return self.winner in (ATTACKER, BOTH)


def decisive(attacker: str, defender: str) -> Verdict | None:
    """The rules no variant changes, decided first: the Flag is captured by anyone, a Bomb stops
    everyone but a Miner."""
    if defender == FLAG:
        return Verdict(ATTACKER, Quote.FLAG)
    if defender == BOMB:
        return Verdict(ATTACKER, Quote.MINER) if attacker == MINER else Verdict(DEFENDER, Quote.BOMB)
    return None


def classic(attacker: str, defender: str) -> Verdict:
    """The classic rules for two ranks once the Flag and Bombs are decided (``decisive``)."""
    if attacker == SPY and defender == MARSHAL:
        return Verdict(ATTACKER, Quote.SPY_CLASSIC)
    if attacker == defender:
        # Both editions: "the attacking Spy wins" a Spy Vs. Spy match up; every other tie removes both.
        return Verdict(ATTACKER, Quote.SPY_VS_SPY) if attacker == SPY else Verdict(BOTH, Quote.TIE_BOTH)
    if defender == SPY:
        return Verdict(ATTACKER, Quote.SPY_ATTACKED)
    if attacker == SPY:
        return Verdict(DEFENDER, Quote.SPY_CLASSIC)
    return Verdict(ATTACKER if STRENGTH[attacker] > STRENGTH[defender] else DEFENDER, Quote.HIGHER)
