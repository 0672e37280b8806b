"""Book of Mormon "Battle"'s demo players on the demo protocol (companion/rules/demo.py): ``BomDemo`` (the
game's ``DEMO``), an adapter over ``SimulatedTable``, a seeded simulation of real players at the table.

A battle: the taps the players make first ("too many POWER cards", "withdraw"), then each seat's
cards laid in its area; the session resolves once the table is still; the players read the result
from the view, move their true cards as it says, and the winner gathers the battlefield.

``SimulatedTable`` holds what the companion never sees -- every seat's true ARMY, BATTALION and discard
pile, card by card -- and plays the way a reasonable player does: usually its best CHARACTER card, sometimes a
POWER card combination, always a legal play from its own BATTALION. The demo drives a virtual
camera with it; tests fold its plays through the ruleset and check that the companion's card counts
equal the true counts after every battle.

    table = SimulatedTable(seats=3, seed=7)
    for kind, data in table.commands_before_battle():   # e.g. ("too_many_powers", {"seat": 2}), after
        submit(kind, data)                               # the seat has shown its POWER cards (card_seen)
    for seat, cards in table.next_plays().items():      # {seat: ["GD500#1", "FAITH#2"]}
        for card in cards:
            camera_sees(f"seat:{seat}", card)
    outcome = submit("resolve", {})
    table.battle_resolved(outcome["data"])              # winner takes the battlefield, spoils, refills

Supported variants: the basic rules, Power Play, and the Rules for Young Players.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Callable

from card_tags.catalog import Card, Catalog, load_game
from companion.rules.demo import Command, Lay, Lift, Move

from .piles import BATTALION
from .plays import Play, evaluate

SUPPORTED = {"power_play", "young_players", "first_seat"}


class SimulatedTable:
    def __init__(self, seats: int = 3, seed: int = 0, options: dict[str, Any] | None = None,
                 catalog: Catalog | None = None):
        self.options = {"first_seat": 1, "power_play": False, "young_players": False, **(options or {})}
        unsupported = sorted(k for k, v in self.options.items() if k not in SUPPORTED and v)
        if unsupported:
            raise ValueError(f"the simulated players do not play {unsupported}")
        self.rng = random.Random(seed)
        self.catalog = catalog or load_game("bom-battle")
        self.young = bool(self.options["young_players"])
        keys = [ref.key for ref in self.catalog.refs()
                if not self.young or self.catalog[ref.card].kind == "character"]
        self.rng.shuffle(keys)
        self.seats = list(range(1, seats + 1))
        self.army: dict[int, list[str]] = {s: [] for s in self.seats}  # index 0 is the top card
        order = [(self.options["first_seat"] - 1 + i) % seats + 1 for i in range(seats)]
        for i, key in enumerate(keys):  # one at a time, clockwise from the dealer's left
            self.army[order[i % seats]].append(key)
        self.battalion: dict[int, list[str]] = {s: [] for s in self.seats}
        self.discard: dict[int, list[str]] = {s: [] for s in self.seats}
        self.out: set[int] = set()
        self.withdrawn: set[int] = set()
        self.played: dict[int, list[str]] = {}
        self.last_plays: dict[int, list[str]] = {}  # the battle just resolved, for the camera
        if not self.young:
            for s in self.seats:
                self._draw(s, BATTALION)
                if self.options["power_play"]:  # "Before each battle", the first one too
                    self._new_battalion(s)

    # -- the true piles ------------------------------------------------------------------------------
    def _card(self, key: str) -> Card:
        return self.catalog[key.partition("#")[0]]

    def _reshuffle_if_empty(self, seat: int) -> None:
        """"When a player's ARMY runs out, he shuffles his discard pile ... It now becomes his ARMY.\""""
        if not self.army[seat] and self.discard[seat]:
            self.army[seat] = self.discard[seat]
            self.discard[seat] = []
            self.rng.shuffle(self.army[seat])

    def _take(self, seat: int, n: int) -> list[str]:
        taken = []
        for _ in range(n):
            self._reshuffle_if_empty(seat)
            if not self.army[seat]:
                break
            taken.append(self.army[seat].pop(0))
        self._reshuffle_if_empty(seat)
        return taken

    def _draw(self, seat: int, n: int) -> None:
        self.battalion[seat] += self._take(seat, n)

    def _new_battalion(self, seat: int) -> None:
        """Power Play: the rest of the BATTALION to the discard pile, five new cards drawn."""
        self.discard[seat] += self.battalion[seat]
        self.battalion[seat] = []
        self._draw(seat, BATTALION)

    def _only_battalion(self, seat: int) -> bool:
        return not self.army[seat] and not self.discard[seat]

    def counts(self) -> dict[int, dict[str, int]]:
        """The true counts, to compare with the companion's."""
        return {s: {"army": len(self.army[s]), "battalion": len(self.battalion[s]), "discard": len(self.discard[s])}
                for s in self.seats}

    def active(self) -> list[int]:
        return [s for s in self.seats if s not in self.out]

    # -- what the players do -------------------------------------------------------------------------
    def commands_before_battle(self) -> list[tuple[str, dict[str, Any]]]:
        """What the players do before laying cards: a seat with 4 or more POWER cards shows them in
        its area (``card_seen``), taps "too many POWER cards" and takes them back (``card_gone``) (at
        most twice a battle, so a seat whose piles are all POWER cards does not loop); then a seat
        left with no CHARACTER card taps "withdraw", unless it has only its BATTALION left: it
        "must play", so it lays its POWER cards down and loses them (see ``next_plays``)."""
        commands: list[tuple[str, dict[str, Any]]] = []
        self.withdrawn = set()
        if self.young:
            return commands
        for seat in self.active():
            for _ in range(2):
                powers = [k for k in self.battalion[seat] if self._card(k).kind == "power"]
                if len(powers) < 4:
                    break
                zone = f"seat:{seat}"
                commands += [("card_seen", {"zone": zone, "card": key}) for key in powers]
                commands.append(("too_many_powers", {"seat": seat}))
                commands += [("card_gone", {"zone": zone, "card": key}) for key in powers]
                for key in self.rng.sample(powers, 2):
                    self.battalion[seat].remove(key)
                    self.discard[seat].append(key)
                self._draw(seat, 2)
            if not any(self._card(k).kind == "character" for k in self.battalion[seat]) \
                    and not self._only_battalion(seat):
                self.withdrawn.add(seat)
                commands.append(("withdraw", {"seat": seat}))
        return commands

    def next_plays(self) -> dict[int, list[str]]:
        """Each active seat's play for this battle, from the cards it truly holds."""
        self.played = {}
        for seat in self.active():
            if seat in self.withdrawn:
                continue
            if self.young:
                self._reshuffle_if_empty(seat)
                self.played[seat] = [self.army[seat][0]]
            else:
                self.played[seat] = self._choose(seat)
        return dict(self.played)

    def _choose(self, seat: int) -> list[str]:
        hand = self.battalion[seat]
        if not any(self._card(k).kind == "character" for k in hand):
            return list(hand)  # only POWER cards and nothing else left: all of them, lost to the winner
        characters = sorted((k for k in hand if self._card(k).kind == "character"),
                            key=lambda k: self._card(k)["value"])
        powers = [k for k in hand if self._card(k).kind == "power"]
        combos = self._combinations(seat, characters, powers)
        if combos and self.rng.random() < 0.45:
            return self.rng.choice(combos)
        if self.rng.random() < 0.6:
            return [characters[-1]]
        return [self.rng.choice(characters)]

    def _combinations(self, seat: int, characters: list[str], powers: list[str]) -> list[list[str]]:
        """Legal plays with one POWER card, a few per POWER card (strongest first)."""
        found = []
        for power in powers:
            kind = self._card(power)["power"]
            if kind == "battle":
                candidates = [characters[-n:] for n in (1, 2, 3) if len(characters) >= n]
            elif kind in ("title_of_liberty", "secret_combination"):
                candidates = [list(pair) for pair in combinations(characters, 2)]
            else:
                candidates = [[c] for c in characters]
            for cards in candidates:
                play = cards + [power]
                if isinstance(evaluate(seat, [(k, self._card(k)) for k in play]), Play):
                    found.append(play)
        return found

    def battle_resolved(self, data: dict[str, Any]) -> None:
        """Move the true cards as the companion's outcome says: the winner takes the battlefield
        (and any spoils of war), everyone refills, emptied seats are out."""
        winner = data["winner"]
        for seat, cards in self.played.items():
            pile = self.army[seat] if self.young else self.battalion[seat]
            for key in cards:
                pile.remove(key)
            self.discard[winner] += cards
        for seat in map(int, data.get("spoils", {})):
            self.discard[winner] += self.battalion[seat]
            self.battalion[seat] = []
            self.out.add(seat)
        for seat in self.active():
            if not self.young:
                if self.options["power_play"]:
                    self._new_battalion(seat)
                else:
                    self._draw(seat, BATTALION - len(self.battalion[seat]))
            self._reshuffle_if_empty(seat)
            if not (self.army[seat] or self.battalion[seat] or self.discard[seat]):
                self.out.add(seat)
        self.last_plays, self.played = self.played, {}


Submit = Callable[[str, dict[str, Any], str], list[dict[str, Any]]]


def play(table: SimulatedTable, submit: Submit, max_battles: int = 2000, flicker: float = 0.0,
         after_battle: Callable[[SimulatedTable, dict[str, Any]], None] | None = None) -> int:
    """Play the simulated table through a referee until the game is over (or ``max_battles``).

    ``submit(kind, data, source)`` applies one event and returns its outcomes as dicts (raising if
    it was refused). Cards are shown to the camera one by one; with ``flicker`` > 0 some are lost
    and seen again, as a real tracker sometimes reports. After each battle the winner's gathering
    is seen as every battlefield card leaving its zone. Returns the number of battles fought.
    """
    for number in range(1, max_battles + 1):
        for kind, data in table.commands_before_battle():
            submit(kind, data, "camera" if kind.startswith("card_") else "dashboard")
        for seat, cards in table.next_plays().items():
            for key in cards:
                zone = {"zone": f"seat:{seat}", "card": key}
                submit("card_seen", zone, "camera")
                if table.rng.random() < flicker:
                    submit("card_gone", zone, "camera")
                    submit("card_seen", zone, "camera")
        outcomes = submit("resolve", {}, "auto")
        battle = next(o for o in outcomes if o["kind"] == "battle")
        table.battle_resolved(battle["data"])
        for key in battle["data"]["cards"]:
            seat = next(s for s, cards in table.last_plays.items() if key in cards)
            submit("card_gone", {"zone": f"seat:{seat}", "card": key}, "camera")
        if after_battle:
            after_battle(table, battle["data"])
        if any(o["kind"] == "game_over" for o in outcomes):
            return number
    return max_battles

NAMES = ["Ann", "Ben", "Cal", "Dee", "Eli", "Fay"]


class BomDemo:
    def __init__(self, seats: int = 3, seed: int = 0):
        self.players = SimulatedTable(seats, seed)
        self.seats = seats
        self.resolved = 0                 # battle results the players have acted on
        self.laid: list[str] = []         # the cards of the battle in play, as laid
        self.playing = False              # cards are down, waiting for the result
        self.skip: list[tuple[str, Any]] = []  # commands already in the log for this battle (after a restart)
        self.tidy = False                 # after a restart: cards the log says still lie on the table
        self.results: list[dict[str, Any]] = []  # battle results announced and not yet acted on

    def start(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [{"seat": n, "name": NAMES[n - 1]} for n in range(1, self.seats + 1)], {}

    def told(self, outcome: dict[str, Any]) -> None:
        if outcome["kind"] == "battle":
            self.results.append(outcome["data"])

    def resume(self, outcomes: list[dict[str, Any]]) -> bool:
        """Rebuild the true piles from the battles already resolved (the shuffles are seeded)."""
        since_last: list[dict[str, Any]] = []
        for outcome in outcomes:
            if outcome["kind"] == "battle":
                self._replay(outcome["data"])
                since_last = []
            else:
                since_last.append(outcome)
        self.skip = [(o["kind"], o["data"].get("seat")) for o in since_last]
        self.tidy = True
        return True

    def _replay(self, data: dict[str, Any]) -> None:
        self.players.commands_before_battle()
        self.players.next_plays()
        self.players.battle_resolved(data)
        self.resolved += 1

    def next_moves(self, view: dict[str, Any], seat_views: dict[int, dict[str, Any]]) -> list[Move]:
        if self.tidy:
            self.tidy = False
            moves = self._tidy(view)
            if moves:
                return moves
        if view.get("over"):
            return []
        if self.playing:
            return self._after_result(view)
        return self._battle()

    def _tidy(self, view: dict[str, Any]) -> list[Move]:
        """After a restart the virtual table is empty, but the log says which cards still lie on it:
        put each back where it lay and gather them, so the camera reports them gone and the next
        battle starts clean."""
        where = {key: seat for seat, keys in self.players.last_plays.items() for key in keys}
        lying = [(where.get(key, 1), key) for key in view.get("collecting") or []]
        lying += [(s["seat"], c["key"]) for s in view.get("seats", []) for c in s.get("play", [])
                  if c["key"] not in where]
        moves: list[Move] = [Lay(seat, key, f"seat:{seat}") for seat, key in lying]
        return moves + [Lift(key) for _, key in lying]

    def _battle(self) -> list[Move]:
        moves: list[Move] = []
        for kind, data in self.players.commands_before_battle():
            if kind == "card_seen":  # a seat shows its POWER cards for "too many POWER cards"
                moves.append(Lay(int(data["zone"].partition(":")[2]), data["card"], data["zone"]))
                continue
            if kind == "card_gone":
                moves.append(Lift(data["card"]))
                continue
            if (kind, data.get("seat")) in self.skip:
                self.skip.remove((kind, data.get("seat")))
                continue
            moves.append(Command(kind, data))
        self.skip = []
        self.laid = []
        for seat, cards in sorted(self.players.next_plays().items()):
            for key in cards:
                moves.append(Lay(seat, key, f"seat:{seat}"))
                self.laid.append(key)
        self.playing = True
        return moves

    def _after_result(self, view: dict[str, Any]) -> list[Move]:
        if not self.results:
            return []  # not resolved yet
        self.players.battle_resolved(self.results.pop(0))
        self.resolved += 1
        self.playing = False
        gathered, self.laid = self.laid, []
        return [Lift(key) for key in gathered]  # the winner gathers the battlefield


DEMO = BomDemo
