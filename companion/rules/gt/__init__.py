"""The referee of "Battle" by Gather Together Games, one concern per module (the ruleset class
that ties them together is companion.rules.gt_battle.GatherTogetherBattle):

- ``report``   how a handler answers an input: ``Refuse`` (a refusal) or a ``Report`` of outcomes
- ``rulebook`` the rulebook's sentences the referee quotes, and the teams' names
- ``cards``    the deck: a physical card's key ("F7#2") to its catalog card
- ``seats``    seat names in sentences, seat numbers from an input's data, order round the table
- ``plays``    fight cards: how a play is said, what may be played together, what beats what
- ``deal``     a new game and round, identity cards shown privately, the first discard, who starts
- ``building`` the building phase: draws, discards, the BATTLE card drawn
- ``battle``   the battle phase: pending plays, ``resolve``, action cards played, going out
- ``scoring``  points, the next round, the tie-break, the game's winner
- ``turns``    whose turn: left or right, SKIP and REVERSE, a building turn's end, passing, resets
- ``action_cards`` EXPOSE, ELIMINATE and SAVE: the choices they wait on, and the SAVE window
- ``counts``   hand counts: a play the count cannot explain waits for ``confirm_count``
- ``prompt``   one sentence for the table: what happens next, or what a choice waits on
- ``view``     the public view (no hidden identity in it) and each seat's own view
- ``buttons``  the tablet's buttons (the ruleset's ``actions``)
"""
