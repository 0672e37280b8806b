"""The referee of "Battle" by Gather Together Games, one concern per module. The ruleset class
that ties them together is companion.rules.gt_battle.GatherTogetherBattle: its ``apply`` sends
each input through ``gate`` to the handler ``INPUTS`` names (an ``on_<input>`` function here).

An input's way through, from the table to the score:

- ``sightings``    a card seen or lost by the camera or a reader, routed by zone, phase and card
- ``gate``         what the table must settle before anything else moves (a count, a choice, SAVE)
- ``deal``         a new game and round, identity cards shown privately, the first discard, who starts
- ``building``     the building phase: draws, discards, the BATTLE card drawn
- ``battle``       the battle phase: pending plays, ``resolve``, action cards played, going out
- ``action_cards`` EXPOSE, ELIMINATE and SAVE: the choices they wait on, and the SAVE window
- ``turns``        whose turn: left or right, SKIP and REVERSE, a building turn's end, passing, resets
- ``counts``       hand counts: a play the count cannot explain waits for ``confirm_count``
- ``scoring``      points, the next round, the tie-break, the game's winner

What the tablet and the phones show:

- ``view``         the public view (no hidden identity in it) and each seat's own view
- ``prompt``       one sentence for the table: what happens next, or what a choice waits on
- ``buttons``      the tablet's buttons (the ruleset's ``actions``)

Shared by all of them:

- ``plays``        fight cards: how a play is said, what may be played together, what beats what
- ``seats``        seat names in sentences, seat numbers from an input's data, order round the table
- ``cards``        the deck: a physical card's key ("F7#2") to its catalog card
- ``rulebook``     the rulebook's sentences the referee quotes, and the teams' names
- ``report``       how a handler answers an input: raise ``Refuse``, or say outcomes in a ``Report``

Every handler and rule function takes the state (plain JSON, changed in place on ``apply``'s own
copy) and, where it looks cards up, the ``Deck``. No two modules import each other, directly or
round a cycle: ``sightings`` is at the top, ``report`` and ``rulebook`` at the bottom.
"""
