"""The Book of Mormon "Battle" referee (bom-battle.txt) on the referee contract, one concern per
module:

- ``game``      the ``Game``: options, the input table and its handlers (``GAME`` below)
- ``state``     the typed state (dataclasses)
- ``cards``     the deck: a physical card's key to its catalog card
- ``plays``     one seat's play: is it legal under the POWER cards' wording, and what is it worth
- ``judge``     who wins a battle (Famine, Stripling Warriors, ties), as a ``Verdict``
- ``piles``     each seat's ARMY / BATTALION / discard counts: dealing, drawing, reshuffling
- ``table``     which cards the camera sees where: plays, flickers, conflicts, cards being collected
- ``battle``    resolving a battle: refusals, the counts afterwards, the end of the game
- ``hooks``     the hooks a variant changes (``BomVariant``), the basic rules, how variants combine
                (``Rules``), and ``Referee``: what the rule modules ask of the game
- ``variants``  the small variants and the list of all; the big ones: ``mounting`` (Mounting
                Battles), ``turns`` (Secret Weapon), ``trivia`` (Spy's Trivia)
- ``words``     every sentence told about an outcome;  ``announce``: "Helpful notes"
- ``refusals``  the words of every reason a rule refuses an input for (codes and data from the rules)
- ``view``      the public and seat views, the prompt and the tablet's buttons
- ``settle``    when every play is complete (the quick settle)
- ``players``, ``demo``  the demo's simulated players (seeded; never used by the referee)
"""
from .demo import BomDemo
from .game import BomBattle

GAME = BomBattle
DEMO = BomDemo  # the simulated players of `companion demo --game bom-battle` (players.py, demo.py)

__all__ = ["DEMO", "GAME", "BomBattle", "BomDemo"]
