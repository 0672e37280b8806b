"""Stratego's demo players (the demo protocol, companion/rules/demo.py): two seeded players who
scan their armies at setup and then take turns, each a move told on the tablet or an attack whose
two pieces are shown in the scan tray, until a Flag is captured or a side has nothing left to move.

The board itself is never seen by the companion, so the players keep it abstract: each holds its
own 40 pieces and knows which of them are still in play (from the combats the table tells). An
attack picks one of its movable pieces and one enemy piece still in play, as if they met.
"""
from __future__ import annotations

import random
from typing import Any

from card_tags.games.stratego import ARMY, COLOUR_INITIAL

from companion.rules.demo import Command, Lay, Lift, Move

from .ranks import IMMOBILE

NAMES = ("Ann", "Ben")
ATTACK = 0.7  # how often a player attacks rather than moves (keeps a demo game to a few minutes)


def army(colour: str) -> list[str]:
    """The tag keys of one side's 40 pieces: R10#1, R9#1, R8#1, R8#2, ..."""
    return [f"{COLOUR_INITIAL[colour]}{rank}#{copy}" for rank, (_, count) in ARMY.items()
            for copy in range(1, count + 1)]


def rank_of(key: str) -> str:
    return key.partition("#")[0][1:]


class StrategoDemo:
    def __init__(self, seats: int = 2, seed: int = 0):
        self.rng = random.Random(seed)
        self.colours: dict[int, str] = {}
        self.alive: dict[str, list[str]] = {}     # colour -> its pieces still in play
        self.unscanned: dict[int, list[str]] = {}  # seat -> pieces still to show at setup
        self.laid: list[str] = []                  # pieces lying in a zone now
        self.combats_known = 0
        self.attack: tuple[str, str] | None = None  # the last attack's (attacker, defender)

    def start(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [{"seat": n, "name": NAMES[n - 1]} for n in (1, 2)], {}

    def next_moves(self, view: dict[str, Any], seat_views: dict[int, dict[str, Any]]) -> list[Move]:
        if not self.colours:
            self._sit_down(seat_views)
        moves: list[Move] = [Lift(key) for key in self.laid]  # a shown piece goes back at once
        self.laid = []
        if view["over"]:
            return moves
        if view["phase"] == "setup":
            return moves + self._scan_armies(view)
        self.learn(view)
        if view["pending"] is not None:  # an attack this player cannot finish (a restart): call it off
            return moves + [Command("cancel", {"seat": view["pending"]["seat"]})]
        return moves + self._turn(view["turn"])

    def _sit_down(self, seat_views: dict[int, dict[str, Any]]) -> None:
        self.colours = {seat: v["you"]["colour"] for seat, v in seat_views.items()}
        for seat, colour in self.colours.items():
            self.alive[colour] = army(colour)
            self.unscanned[seat] = self.rng.sample(army(colour), len(army(colour)))  # as they come to hand

    def _scan_armies(self, view: dict[str, Any]) -> list[Move]:
        """Each side lays the next pieces of its army in its own area, as many as the area holds."""
        moves: list[Move] = []
        checked = {s["seat"] for s in view["standings"] if s["army_checked"]}
        for seat, pieces in self.unscanned.items():
            if seat in checked:
                continue
            batch, self.unscanned[seat] = pieces[:14], pieces[14:]
            moves += [Lay(seat, key, f"seat:{seat}") for key in batch]
            self.laid += batch
        return moves

    def learn(self, view: dict[str, Any]) -> None:
        """The combat just told: the pieces it removed are out of play."""
        for combat in view["combats"][self.combats_known:]:
            if self.attack is not None:
                attacker, defender = self.attack
                if combat["winner"] in ("defender", "both"):
                    self._remove(attacker)
                if combat["winner"] in ("attacker", "both"):
                    self._remove(defender)
            self.attack = None
        self.combats_known = len(view["combats"])

    def _remove(self, key: str) -> None:
        for pieces in self.alive.values():
            if key in pieces:
                pieces.remove(key)

    def _turn(self, seat: int) -> list[Move]:
        colour = self.colours[seat]
        enemy = next(c for c in self.alive if c != colour)
        movable = [k for k in self.alive[colour] if rank_of(k) not in IMMOBILE]
        if not movable or not self.alive[enemy]:
            return []  # the referee ends the game after the combat that left nothing to move
        if self.rng.random() >= ATTACK:
            return [Command("move", {"seat": seat})]
        attacker, defender = self.rng.choice(movable), self.rng.choice(self.alive[enemy])
        self.attack = (attacker, defender)
        return [Lay(seat, attacker, "tray"), Lift(attacker), Lay(3 - seat, defender, "tray"), Lift(defender)]


DEMO = StrategoDemo
