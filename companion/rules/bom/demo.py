"""Book of Mormon "Battle"'s demo players on the demo protocol (companion/rules/demo.py): an adapter over the
seeded simulation in players.py, which holds every seat's true ARMY, BATTALION and discard pile.

A battle: the taps the players make first ("too many POWER cards", "withdraw"), then each seat's
cards laid in its area; the session resolves once the table is still; the players read the result
from the view, move their true cards as it says, and the winner gathers the battlefield.

Until the Book of Mormon package exposes ``DEMO`` itself (its rewrite), the demo driver finds these
players here (driver.FALLBACK).
"""
from __future__ import annotations

from typing import Any

from companion.rules.demo import Command, Lay, Lift, Move

from .players import SimulatedTable

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
