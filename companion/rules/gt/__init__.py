"""The referee of "Battle" by Gather Together Games, on the referee contract: ``GAME``.

An input's way through, from the table to the score (``game`` holds the input table and sends
each input through ``gate`` to its rule):

- ``sightings``    a card seen or lost by the camera or a reader, routed by zone, phase and card
- ``gate``         what the table must settle before anything else moves (a count, a choice, SAVE)
- ``deal``         a new game and round, identity cards shown privately, the first discard, who starts
- ``composition``  the cards a table of this size plays with (EXPOSE per player; SAVE and ELIMINATE)
- ``building``     the building phase: draws, discards, the BATTLE card drawn
- ``battle``       the battle phase: pending plays, ``resolve``, action cards played, going out
- ``action_cards`` EXPOSE, ELIMINATE and SAVE: the choices they wait on, and the SAVE window
- ``turns``        whose turn: left or right, SKIP and REVERSE, a building turn's end, passing, resets
- ``counts``       hand counts: a play the count cannot explain waits for ``confirm_count``
- ``scoring``      points, the next round, the tie-break, the game's winner

The words (the view layer; the rules above return data and refusal reasons only):

- ``view``         the public view (no hidden identity in it), each seat's own view, ``redact``
- ``words``        the sentence of each outcome (a ``@says`` method per kind) and its terms
- ``refusals``     the words of each reason the rules refuse with (the public ones leave secrets out)
- ``prompt``       one sentence for the table: what happens next and where the cards go
- ``buttons``      the tablet's buttons' labels, and pickers

Shared: ``state`` (the typed state), ``plays`` (what beats what), ``seats`` (names, order round the
table), ``cards`` (card keys to catalog cards), ``rulebook`` (the sentences quoted), ``report``
(what one input did, gathered as data).

``demo`` holds the simulated players of ``companion demo --game gt-battle`` (``DEMO``).
"""
from .demo import DEMO
from .game import GAME, GatherTogetherBattle

__all__ = ["DEMO", "GAME", "GatherTogetherBattle"]
