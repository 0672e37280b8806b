"""A BATTLECARDS table for tests: the referee folded as the session folds it, with the moves players
make (cards drawn into the hand, deployed, kept, turned onto the discard pile) named as they are."""
from __future__ import annotations

from companion.rules import Seat, make
from companion.rules.battlecards.state import Stage
from tests.rules_harness import RulesTable

RULES = make("battlecards-pacific")
JAPAN, US = 1, 2

# Every CONFLICT card by its Action Number, for turning a chosen number onto the pile.
BY_ACTION: dict[int, list[str]] = {}
for _key in RULES.deck.copies(("battle", "keep", "draw", "intel")):
    _card = RULES.deck.card(_key)
    if _card.kind in ("draw", "intel", "keep"):
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


def turn(table: "Table", hit: bool) -> str:
    """Turn a card from the deck that makes the current shot hit (or miss)."""
    from companion.rules.battlecards import combat

    battle = table.state.battle
    shooter = battle.queue[0]
    target = battle.aim or combat.legal_targets(RULES.deck, battle, shooter)[0]
    support = battle.support if battle.aim else (combat.attack_supporters(RULES.deck, battle, shooter) or [None])[0]
    attack, defense, _, _ = combat.values(RULES.deck, battle, shooter, target, support)
    number = next(n for n in range(1, 10) if combat.hits(n, attack, defense) is hit and any(
        k in table.state.conflict_pool["pacific"] for k in BY_ACTION[n]))
    return table.turn_action(number)


def armies(table: Table, japan: list[str], us: list[str]) -> None:
    """Deployed forces as a test needs them (as if drawn and deployed in earlier turns)."""
    for seat, keys in ((JAPAN, japan), (US, us)):
        army = table.state.armies[seat]
        army.stacks = {t: [] for t in army.stacks}
        army.hand = [k for k in army.hand if k not in keys]
        for key in keys:
            army.stacks[RULES.deck.unit_type(key)].append(key)


def fight(card: str, japan: list[str], us: list[str], **options) -> Table:
    """A table at the start of a battle: the BATTLECARD turned on Japan's first turn and fought."""
    table = Table(**options)
    table.set_up()
    armies(table, japan, us)
    table.pile(card)
    aggressor = JAPAN if RULES.deck.card(card)["aggressor"] == "japan" else US
    table.ok("decide", seat=aggressor, fight=True)
    return table
