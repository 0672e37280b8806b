"""Simulated Warriors players for ``companion demo --game warriors`` and the tests (companion/rules/demo.py).

The demo holds what a real table holds and the companion does not: the shuffled decks, split
among the players as the rulebook deals them. Everything else the players decide from what they
could know: the public view (whose turn, the Challenge, the buttons) and each one's own seat view
(the hand as scanned, with each card's verdict). They scan privately on their own reader
(``reader:N``, then lift the card off it), lay primaries and turned cards face up in their area
(``seat:N``), and tap the tablet's buttons. Seeded: the same seed plays the same game.
"""
from __future__ import annotations

import random
from typing import Any

from card_tags.catalog import load_game
from companion.rules.demo import Command, Lay, Lift, Move

View = dict[str, Any]            # a view as the demo players read it (the JSON the tablet gets)
SeatViews = dict[int, View]

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
STOP_AFTER_ROUNDS = 40   # players who have had enough stop and count Warriors ("If players decide to stop")


class WarriorsDemo:
    def __init__(self, seats: int, seed: int):
        self.seats = max(2, min(6, seats))
        self.rng = random.Random(seed)
        self.opening: str | None = None   # the card the challenger turned before an opponent was named
        catalog = load_game("warriors")
        self.kind = {f"{c.id}#{n}": c.kind for c in catalog.cards.values() for n in range(1, c.copies + 1)}
        self.decks: dict[int, dict[str, list[str]]] = {n: {"warrior": [], "armory": []} for n in range(1, self.seats + 1)}
        for kind in ("warrior", "armory"):
            pile = sorted(k for k, v in self.kind.items() if v == kind)
            self.rng.shuffle(pile)
            for i, key in enumerate(pile):   # one at a time, from the first player (seat 1)
                self.decks[i % self.seats + 1][kind].append(key)

    def start(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [{"seat": n, "name": NAMES[n - 1]} for n in range(1, self.seats + 1)], {"first": 1}

    # -- what the players do ------------------------------------------------------------------------
    def next_moves(self, view: dict[str, Any], seat_views: dict[int, dict[str, Any]]) -> list[Move]:
        if view.get("over"):
            return []
        self._follow_surrenders(view)
        actions = view.get("actions", [])
        step = view["step"]
        if view.get("battle_round", 0) >= STOP_AFTER_ROUNDS and step in ("primary", "secondary"):
            return [Command("stop")]
        if step in ("deal", "redraw", "refill"):
            return self._draw(view["tray_for"], seat_views[view["tray_for"]], step)
        if step in ("primary", "secondary"):
            return self._prepare(view, seat_views, actions)
        if step == "challenge":
            return self._challenge(view, seat_views, actions)
        if step in ("reveal", "duel"):
            return self._battle(view, seat_views, actions)
        return []

    def _draw(self, seat: int, me: dict[str, Any], step: str) -> list[Move]:
        hand = me["you"]["hand"]
        warriors = sum(1 for c in hand if c["kind"] == "warrior")
        piles = self.decks[seat]
        if step in ("deal", "redraw"):
            kind = "warrior" if warriors < 3 and piles["warrior"] else "armory"
        elif warriors == 0 and piles["warrior"]:
            kind = "warrior"   # "he/she must keep at least one Warrior in his/her hand at all times"
        else:
            kind = "warrior" if self.rng.random() < 0.4 else "armory"
        if not piles[kind]:
            kind = "armory" if kind == "warrior" else "warrior"
        if not piles[kind]:
            return []
        card = piles[kind].pop()
        return [Lay(seat, card, f"reader:{seat}", face_down=False), Lift(card)]

    def _prepare(self, view: View, seat_views: SeatViews, actions: list[View]) -> list[Move]:
        calls = [a for a in actions if a["kind"] == "call"]
        if calls:
            seat = calls[0]["data"]["seat"]
            laid = len(next(s for s in view["seats"] if s["seat"] == seat)["play"])
            stuck = not any(c["legal"] for c in seat_views[seat]["you"]["hand"])
            if laid >= 4 or stuck or (laid >= 2 and self.rng.random() < 0.3):
                return [Command("call", calls[0]["data"])]
        seat = view["turn"]
        me = seat_views[seat]
        if view["drawing"] == seat:
            return self._draw(seat, me, "phase_one")
        legal = [c for c in me["you"]["hand"] if c["legal"]]
        if view["step"] == "primary":
            if not legal:   # no Warrior with icons: the players give up the game here
                return [Command("stop")]
            best = max(legal, key=lambda c: (len(c["icons"]), c["points"]))
            return [Lay(seat, best["key"], f"seat:{seat}")]
        if not legal:
            return [Command("pass", {"seat": seat})]
        card = self.rng.choice(legal)
        return [Lay(seat, card["key"], f"reader:{seat}", face_down=False), Lift(card["key"])]

    def _challenge(self, view: View, seat_views: SeatViews, actions: list[View]) -> list[Move]:
        prophecy = [a for a in actions if a["kind"] == "prophecy"]
        challenger = view["order"]["challenger"]
        mine = seat_views[challenger]["you"]
        holds = any(c["name"] == "Prophecy" for c in mine["face_down"]) or any(
            c.get("kind") == "prophecy" and not c.get("face_down") for c in
            next(s for s in view["seats"] if s["seat"] == challenger)["play"])
        if prophecy and holds:
            return [Command("prophecy", self.rng.choice(prophecy)["data"])]
        return self._open(view, seat_views, [a["data"]["target"] for a in actions if a["kind"] == "challenge"])

    def _open(self, view: View, seat_views: SeatViews, targets: list[int]) -> list[Move]:
        """No tap to name the opponent where the table sees it: the challenger turns the first
        facedown card, then the chosen opponent turns theirs, which names them. Only an opponent
        with no facedown card left is named by a tap (no card of theirs will be turned)."""
        challenger = view["order"]["challenger"]
        mine = sorted(seat_views[challenger]["you"]["face_down"], key=lambda c: c["position"])
        row = next(s for s in view["seats"] if s["seat"] == challenger)["play"]
        if mine and self.opening not in {c["key"] for c in row}:
            self.opening = mine[0]["key"]
            return [Lay(challenger, mine[0]["key"], f"seat:{challenger}")]
        if not targets:
            return []
        target = self.rng.choice(targets)
        theirs = sorted(seat_views[target]["you"]["face_down"], key=lambda c: c["position"])
        if not theirs:
            return [Command("challenge", {"target": target})]
        return [Lay(target, theirs[0]["key"], f"seat:{target}")]

    def _battle(self, view: View, seat_views: SeatViews, actions: list[View]) -> list[Move]:
        ch = view["challenge"]
        uses = [a for a in actions if a["kind"] == "use"]
        if uses and self.rng.random() < 0.6:
            return [Command("use", self.rng.choice(uses)["data"])]
        if ch["deception"] is not None:
            seat = ch["deception"]
            hand = seat_views[seat]["you"]["hand"]
            pick = next((c for c in hand if c["legal"]), hand[0])
            return [Lay(seat, pick["key"], f"seat:{seat}")]
        if view["step"] == "duel":
            for seat in (ch["challenger"], ch["defender"]):
                hand = seat_views[seat]["you"]["hand"]
                if hand:
                    return [Lay(seat, c["key"], f"seat:{seat}") for c in hand]
            return self._decide(actions)
        seat = ch["next"]
        down = sorted(seat_views[seat]["you"]["face_down"], key=lambda c: c["position"])
        if down and any(a["kind"] == "reveal" for a in actions):
            return [Lay(seat, down[0]["key"], f"seat:{seat}")]
        return self._decide(actions)

    @staticmethod
    def _decide(actions: list[View]) -> list[Move]:
        """Every card is up: the table decides the Challenge by itself (the session resolves once the
        table is still); only going without a card that could still be used takes a tap."""
        if any(a["kind"] == "use" for a in actions) and any(a["kind"] == "resolve" for a in actions):
            return [Command("resolve")]
        return []

    def _follow_surrenders(self, view: View) -> None:
        """A player who surrenders hands the decks to the last winner (docs/referee/warriors.md)."""
        for row in view["seats"]:
            piles = self.decks[row["seat"]]
            if row["eliminated"] and (piles["warrior"] or piles["armory"]):
                to = next((s for s in view["seats"] if not s["eliminated"] and
                           s["warrior_deck"] + s["armory_deck"] > len(self.decks[s["seat"]]["warrior"]) +
                           len(self.decks[s["seat"]]["armory"])), None)
                if to is not None:
                    self.decks[to["seat"]]["warrior"] += piles["warrior"]
                    self.decks[to["seat"]]["armory"] += piles["armory"]
                piles["warrior"], piles["armory"] = [], []
