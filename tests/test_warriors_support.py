"""Warriors of the Promised Land at a test table: the moves players make, as the camera and the
seats' readers report them (folded exactly as the session folds them)."""
from __future__ import annotations

from card_tags.catalog import load_game
from companion import rules
from companion.rules.base import Refusal, Seat
from companion.rules.warriors.state import Laid, Step
from tests.rules_harness import RulesTable

CATALOG = load_game("warriors")


def key_of(name: str, copy: int = 1) -> str:
    """A card's key from its printed name: key_of("Sword", 2) and key_of("Sword#2") are "SWORD#2"."""
    name, _, number = name.partition("#")
    card = CATALOG.cards.get(name) or next(c for c in CATALOG.cards.values() if c.name == name)
    return f"{card.id}#{number or copy}"


def played(owner: int, *names: str, face_down: bool = False) -> list[Laid]:
    """A row of cards in play, the primary Warrior first, all face up unless said."""
    return [Laid(card=key_of(n), owner=owner, face_down=face_down and i > 0)
            for i, n in enumerate(names)]


class WarriorsTable(RulesTable):
    def __init__(self, players: int = 2, **options):
        names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
        super().__init__(rules.make("warriors"), [Seat(i, n) for i, n in enumerate(names, 1)], options)

    def refused_in_secret(self, kind: str, **data) -> tuple[str, str]:
        """An input refused for a reason that concerns a secret card: (what the table reads, what the
        seat's own page reads). The table's words never hold the seat's full ones."""
        public = self.refused(kind, **data)
        assert isinstance(self.last, Refusal)
        full = self.last.private
        assert full and full != public, f"{kind} {data}: refused without a seat-only reason ({public!r})"
        return public, full

    # -- what players do ----------------------------------------------------------------------------
    def scan(self, seat: int, name: str, zone: str | None = None):
        """A card scanned privately on the seat's reader (drawn, or laid face down), then lifted off
        it (the reader reports the card gone, as a real reader does)."""
        zone, key = zone or f"reader:{seat}", key_of(name)
        result = self.send("card_seen", zone=zone, card=key)
        outcomes, last = self.outcomes[:], self.last
        self.send("card_gone", zone=zone, card=key)
        self.outcomes, self.last = outcomes, last
        return result

    def show(self, seat: int, name: str):
        """A card laid face up in the seat's area, where the camera sees it."""
        return self.send("card_seen", zone=f"seat:{seat}", card=key_of(name))

    def deal(self, seat: int, *names: str) -> None:
        for name in names:
            assert not hasattr(self.scan(seat, name), "reason"), f"{name}: {self.last}"

    def hand(self, seat: int) -> list[str]:
        return [CATALOG.cards[k.partition("#")[0]].name for k in self.state.players[seat].hand]

    def say(self) -> list[str]:
        return [o.say for o in self.last.outcomes]


def dealt(table: WarriorsTable, hands: dict[int, list[str]]) -> WarriorsTable:
    for seat, names in hands.items():
        table.deal(seat, *names)
    return table


# Two hands for a quick game: Ann Righteous, Ben Wicked.
ANN = ["Moroni", "Abinadi", "Lehi", "Sword", "Faith: Steadfast", "Arrow"]
BEN = ["Laman", "Lib", "King Noah", "Javelin#1", "Wickedness: Pride", "Shield"]


def _filler(used: set[str], warrior: bool) -> str:
    """A card nobody in the test needs (drawn to keep a hand at six)."""
    for card in CATALOG.cards.values():
        if (card.kind == "warrior") != warrior:
            continue
        if warrior and not card["icons"]:
            continue
        for copy in range(1, card.copies + 1):
            key = f"{card.id}#{copy}"
            if key not in used:
                used.add(key)
                return key
    raise AssertionError("the deck ran out of filler cards")


def prepare_battle(rows: dict[int, list[str]], caller: int = 1, hands: dict[int, list[str]] | None = None,
                   players: int | None = None) -> WarriorsTable:
    """A table through the deal and Phase One, each seat laying its row (the primary first, then its
    secondary cards face down), drawing what it lays next (or a filler), until ``caller`` calls to
    battle in the last round. Every row has the same length. ``hands``: cards that must also be in
    a seat's hand when the battle begins."""
    table = WarriorsTable(players or len(rows))
    hands = hands or {}
    keys = {s: [key_of(n) for n in row] for s, row in rows.items()}
    extra = {s: [key_of(n) for n in hands.get(s, [])] for s in rows}
    used = {k for row in keys.values() for k in row} | {k for row in extra.values() for k in row}
    wanted = {s: keys[s] + extra[s] for s in rows}
    for seat in rows:
        warriors = [k for k in wanted[seat] if CATALOG.cards[k.partition("#")[0]].kind == "warrior"][:3]
        armory = [k for k in wanted[seat] if CATALOG.cards[k.partition("#")[0]].kind == "armory"][:3]
        warriors += [_filler(used, True) for _ in range(3 - len(warriors))]
        armory += [_filler(used, False) for _ in range(3 - len(armory))]
        table.deal(seat, *warriors, *armory)
    length = len(next(iter(rows.values())))
    for turn in range(length):
        for seat in sorted(rows):
            key = keys[seat][turn]
            result = table.show(seat, key) if turn == 0 else table.scan(seat, key)
            assert not hasattr(result, "reason"), f"seat {seat} laying {key}: {result.reason}"
            hand = table.state.players[seat].hand
            if table.state.drawing == seat:
                missing = [k for k in wanted[seat] if k not in hand and
                           all(c.card != k for c in table.state.players[seat].play)]
                draw = missing[0] if missing else _filler(used, True)
                result = table.scan(seat, draw)
                assert not hasattr(result, "reason"), f"seat {seat} drawing {draw}: {result.reason}"
            if turn == length - 1 and seat == caller:
                table.ok("call", seat=seat)
    return table


def challenge(table: WarriorsTable, target: int) -> None:
    """The challenger challenges ``target``: by a tap where more than one player could be challenged;
    where only one could, the Challenge must have started against that one by itself."""
    from companion.rules.warriors.battle import to_battle

    state = table.state
    if state.step == Step.CHALLENGE:
        assert len(to_battle(state)) > 1, "one player left to challenge: the Challenge starts by itself"
        table.ok("challenge", target=target)
        return
    started = [o for o in table.outcomes if o.kind == "challenge"]
    assert started and started[-1].data["defender"] == target, "the Challenge started by itself against the one left"
