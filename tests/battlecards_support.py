"""A BATTLECARDS table for tests: the referee folded as the session folds it, with the moves players
make (cards drawn into the hand, deployed, kept, turned onto the discard pile) named as they are."""
from __future__ import annotations

from companion.rules import Seat, make
from companion.rules.battlecards.state import Battle, Stage
from tests.rules_harness import RulesTable

RULES = make("battlecards-pacific")
JAPAN, US = 1, 2

# Every CONFLICT card by its Action Number, for turning a chosen number onto the pile.
BY_ACTION: dict[int, list[str]] = {}
for _key in RULES.deck.copies(("battle", "keep", "draw", "intel")):
    _card = RULES.deck.card(_key)
    if _card.kind in ("draw", "intel"):
        BY_ACTION.setdefault(_card["action"], []).append(_key)


class Table(RulesTable):
    def __init__(self, **options):
        super().__init__(RULES, [Seat(1, "Aiko"), Seat(2, "Bill")], options)

    def draw(self, seat: int, *keys: str):
        for key in keys:
            self.ok("card_seen", zone=f"reader:{seat}", card=key)

    def deploy(self, seat: int, *keys: str):
        for key in keys:
            self.ok("card_seen", zone=f"seat:{seat}", card=key, face_down=True)

    def pile(self, key: str):
        return self.send("card_seen", zone="center", card=key)

    def set_up(self, japan=("JZERO#1", "JAKAGI#1", "JGUARDS#1", "JVAL#1", "JKATE#1", "JDIV2#1"),
               us=("UWILDCAT#1", "UENTERP#1", "UMAR1#1", "UDAUNTL#1", "UAVENGER#1", "UMAR2#1")):
        for seat, keys in ((JAPAN, japan), (US, us)):
            self.draw(seat, *keys)
            self.deploy(seat, *keys[:3])
        assert self.state.stage == Stage.DRAW

    def turn_action(self, number: int) -> str:
        """A non-battle, non-kept CONFLICT card with this Action Number still in the deck, turned for a shot."""
        key = next(k for k in BY_ACTION[number] if k in self.state.conflict_pool["pacific"])
        self.ok("card_seen", zone="center", card=key)
        return key


def force_battle(table: Table, card: str, japan: list[str], us: list[str]) -> Battle:
    """Put units straight into the stacks (as if deployed) for a battle test."""
    for seat, keys in ((JAPAN, japan), (US, us)):
        army = table.state.armies[seat]
        for key in keys:
            for stack in army.stacks.values():
                if key in stack:
                    stack.remove(key)
            if key in army.hand:
                army.hand.remove(key)
            army.stacks[RULES.deck.unit_type(key)].append(key)
    return table.state.battle
