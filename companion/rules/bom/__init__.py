"""The Book of Mormon "Battle" referee, one concern per module (the ruleset class that ties them
together is companion.rules.bom_battle.BomBattle):

- ``cards``    the deck: a physical card's key to its catalog card, card views, names and superscripts
- ``plays``    one seat's play: is it legal under the POWER cards' wording, and what is it worth
- ``judge``    who wins a battle (Famine, Stripling Warriors, ties, Mounting Battles)
- ``piles``    each seat's ARMY / BATTALION / discard counts: dealing, drawing, reshuffling
- ``table``    which cards the camera sees where: plays, flickers, conflicts, cards being collected
- ``battle``   resolving a battle: refusals, the verdict, the counts afterwards, the end of the game
- ``turns``    Secret Weapon: whose turn it is, face-down POWER cards, out-of-turn flags
- ``trivia``   Spy's Trivia: clues one at a time, awards, the reader keeping a card
- ``variants`` the options, and which combinations make sense
- ``announce`` "Helpful notes": the sentence a player reads aloud for a play
- ``view``     the public view the dashboard shows
"""
