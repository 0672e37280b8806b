"""The rulebook's sentences the referee quotes when it refuses (battlecards-wwii-pacific.txt)."""

DEPLOY = ("\"Each player deals himself 6 cards from the ARSENAL Deck into their Reserve Hand. Secretly look at "
          "your hands, and 'Deploy' 3 of your 6 cards.\"")
PROPER_STACK = "\"units may only be deployed in their proper stacks.\""
DRAWING = "\"On each turn, the Drawing Player will draw 1 card from the CONFLICT deck and follow its instructions.\""
KEEP = ("\"If the card says, 'Keep this card...' the Drawing Player keeps the card, face down beside his 3 "
        "deployed stacks.\"")
EMERGENCY = ("\"You may emergency deploy your reserve hand instead of drawing a conflict card at the start of any "
             "turn or when your homeland is invaded.\"")
HANDLESS = ("\"Doing so will leave you without a hand until you draw a card that instructs you to replenish it.\"")
AGGRESSOR = ("\"If there are prerequisites that have not been met, or the aggressor listed on the card does not "
             "wish to conduct the battle at this time, the Drawing Player discards the BATTLECARD and loses his turn.\"")
FIRING = ("\"The aggressor fires first when fighting a battle. ... In each firing phase, the aggressor fires his "
          "units that have the current phase listed on their card.\"")
TARGET = "\"To fire a unit, select a target from the opponent's deployed forces.\""
ILLEGAL_TARGET = ("\"If the Attack Value is N/A, or lower than the selected target's defense, then the target may "
                  "not be attacked.\"")
WITHDRAW = ("\"After phase 4 is complete, the aggressor and then the defender have an opportunity to withdraw any "
            "or all of their deployed forces.\"")
KEPT_IN_COMBAT = ("\"some CONFLICT Cards can be kept and played in combat to give bonuses to friendly forces.\"")
AID = ("\"On your turn, you may aid your ally by either sacrificing your draw to transfer up to 3 deployed cards to "
       "your ally's stacks, trade 1 reserve card for 1 reserve card of your ally (without sacrificing your draw), "
       "or sending the top card of your arsenal deck to the bottom of your ally's arsenal deck\"")
