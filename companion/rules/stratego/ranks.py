"""Stratego's ranks and the classic combat table: who a fight removes, decided from two ranks.

Everything here is rulebook data (stratego.txt): the rank names, their strength, the sentences
that decide a combat (``Quote``, quoted in outcomes and refusals), and the classic rules as a pure
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
    """The rulebook's sentences (stratego.txt) that decide things, quoted in outcomes and refusals."""

    HIGHER = "Higher ranked pieces always defeat lower ranked pieces."
    TIE_BOTH = "In the event of a tie, both pieces are removed"
    TIE_ATTACKER = "In the event of a tie, the attacker wins."
    # Both editions agree on a Spy attacking a Spy (there is no option for it):
    SPY_VS_SPY = "with the only exception being a Spy Vs. Spy match up, in which case the attacking Spy wins."
    SPY_VS_SPY_OTHER = ("in the event of a tie both pieces are defeated unless a spy attacks another spy–in "
                        "which case, the attacking spy would win.")
    SPY_ANYTHING = "The exceptions are Spys, which defeat anythign on attack (except bombs)"
    SPY_CLASSIC = ("classic rules (the text is silent): the Spy defeats the Marshal only when the Spy "
                   "attacks; against anything else it is the weakest piece")
    SPY_ATTACKED = "S = Spies are able to take any pieces on the board, but are destroyed if attacked."
    BOMB = "B = Bombs are able to destroy any piece that attacks it except the miner"
    MINER = "3 = Miners are able to remove enemy bombs from play."
    FLAG = "One side wins when they reveal the enemy flag by moving a piece onto its occupying square."
    REVEAL_BOTH = "each player must reveal the rank of their piece with the winner taking the square being contested."
    REVEAL_DEFENDER = "the defender only reveals their piece if it's defeated, or If it is attacked by a Scout."
    IMMOBILE = "There are also seven non-moving pieces"
    TURN = "You may either attack or move once on your turn"
    RED_FIRST = "red may move his piece first with blue performing their turn at the end of reds."
    SCOUT_MOVE_ATTACK = "unless the piece you are using a scout which may move and attack on the same turn."
    RESCUE = ("If you move one of your own pieces into the back row of your opponents territory then you "
              "may rescue one of your defeated pieces and place it on your side of the game board.")
    FORFEIT = "If you cannot move a piece during your turn then you must forfeit to your opponent."


@dataclass(frozen=True)
class Verdict:
    """Who a combat removes: ``winner`` is "attacker", "defender" or "both" (both removed); ``rule``
    is the rulebook's sentence that decides it."""

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
