"""Simulated BATTLECARDS players (companion/rules/demo.py): they hold the real decks, seeded and
shuffled, and act only as people at the table do: show a drawn ARSENAL card to their reader, lay units
face down in their stacks, turn CONFLICT cards onto the discard pile, tap the tablet's buttons.

They decide from what they could know: the public view (the odds, the battle) and each seat's own
view (its Reserve Hand, stacks and Kept Cards). One move at a time, so a reshuffle the referee makes
is seen before the next card is taken."""
from __future__ import annotations

import random
from typing import Any, Callable

from card_tags.catalog import load_game
from companion.rules.demo import Command, Lay, Lift, Move

from .cards import Deck

View = dict[str, Any]
Seats = dict[int, dict[str, Any]]
Sides = dict[int, str]

NAMES = ["Aiko", "Bill"]
WITHDRAW_BELOW = 0.15   # a side whose chance of winning is below this withdraws everything


class PacificPlayers:
    def __init__(self, seats: int = 2, seed: int = 0):
        if seats != 2:
            raise ValueError("the simulated BATTLECARDS players play the two-player Pacific game")
        self.rng = random.Random(seed)
        self.deck = Deck(load_game("battlecards-pacific"))
        self.conflict = self.deck.copies(("battle", "keep", "draw", "intel"))
        self.rng.shuffle(self.conflict)
        self.laid: list[str] = []            # cards laid on the discard pile since the last shuffle
        self.arsenal = {side: self.deck.copies(("unit",), side=side) for side in ("japan", "us")}
        for cards in self.arsenal.values():
            self.rng.shuffle(cards)
        self.destroyed: dict[str, list[str]] = {"japan": [], "us": []}
        self.stacks_before: dict[int, list[str]] = {}
        self.convoy_turn = -1
        self.face_up: list[tuple[int, str]] = []   # units flipped face up for the battle being fought
        self.laid_face_up: set[str] = set()        # the units the players flipped themselves (a tapped decision flips none)

    def start(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [{"seat": n, "name": NAMES[n - 1]} for n in (1, 2)], {"japan_seat": 1}

    # -- keeping the physical decks in step with the table -------------------------------------------
    def _sync(self, view: dict[str, Any], seats: dict[int, dict[str, Any]]) -> list[Move]:
        """Follow the table; the cards the players pick up from the discard pile it reshuffled."""
        for seat, sv in seats.items():
            now = [c["key"] for cards in sv["stacks"].values() for c in cards]
            hand = {c["key"] for c in sv["hand"]}
            for key in self.stacks_before.get(seat, []):
                if key not in now and key not in hand:
                    self.destroyed[self.deck.side(key)].append(key)
            self.stacks_before[seat] = now
        left = view["conflict"]["left"]
        if left > len(self.conflict):   # the referee reshuffled the discard pile
            held = {c["key"] for s in view["seats"] for c in s["won"]}
            # Set aside for a battle, or already discarded onto the new pile (a BATTLECARD that emptied the
            # deck and was then discarded): not in the new deck.
            out = {c["key"] for c in (view["pending"], (view["fight"] or {}).get("card")) if c}
            out |= set(view["conflict"]["pile"])
            self.conflict = [k for k in self.laid if k not in held and k not in out]
            self.rng.shuffle(self.conflict)
            picked = [k for k in self.laid if k not in out]   # shuffled into the deck, or kept by a winner
            self.laid = [k for k in self.laid if k in out]
            if len(self.conflict) != left:
                raise RuntimeError(f"the players' CONFLICT deck ({len(self.conflict)}) is not the table's ({left})")
            return [Lift(k) for k in picked]
        return []

    def _turn_card(self) -> str:
        key = self.conflict.pop()
        self.laid.append(key)
        return key

    def _draw_arsenal(self, seat: int, side: str) -> Move:
        if not self.arsenal[side]:
            self.arsenal[side], self.destroyed[side] = self.destroyed[side], []
            self.rng.shuffle(self.arsenal[side])
        return Lay(seat, self.arsenal[side].pop(), f"reader:{seat}")

    # -- what the players do -------------------------------------------------------------------------
    def next_moves(self, view: dict[str, Any], seat_views: dict[int, dict[str, Any]]) -> list[Move]:
        if view.get("over"):
            return []
        picked = self._sync(view, seat_views)
        stage = view["stage"]
        if self.face_up and stage not in ("combat", "withdrawal"):
            # The battle is over: the stacks flipped for it are turned face down again.
            picked += [Lift(k) for _, k in self.face_up]
            self.face_up = []
        side = {s["seat"]: s["side"] for s in view["seats"]}
        act: Callable[[View, Seats, Sides], list[Move]] = getattr(self, f"_{stage}")
        return picked + act(view, seat_views, side)

    def _setup(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        for seat, sv in seats.items():
            deployed = sum(len(v) for v in sv["stacks"].values())
            if len(sv["hand"]) + deployed < 6 and deployed == 0:
                return [self._draw_arsenal(seat, side[seat])]
            if deployed < 3:
                return [Lay(seat, self._pick_deploy(sv), f"seat:{seat}", face_down=True)]
        return []

    def _pick_deploy(self, sv: View) -> str:
        """A unit of the type the stacks have least of (it is good strategy to deploy in all three)."""
        return str(min(sv["hand"], key=lambda c: (len(sv["stacks"][c["type"]]), c["key"]))["key"])

    def _draw(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        seat = view["turn"]
        sv = seats[seat]
        convoy = next((c["key"] for c in sv["kept"] if "draw" in c.get("text", "").lower() and c["kind"] == "keep"
                       and "ARSENAL" in c.get("text", "")), None)
        if convoy and self.convoy_turn != view["turn_number"]:
            self.convoy_turn = view["turn_number"]
            self.laid.append(convoy)
            return [Lay(seat, convoy, "center")]
        if sv["hand"] and self.convoy_turn != view["turn_number"] and self.rng.random() < 0.03:
            return [Command("emergency_deploy", {"seat": seat})]
        key = self.conflict[-1]
        if self.deck.card(key).kind == "keep":
            self.conflict.pop()
            return [Lay(seat, key, f"seat:{seat}", face_down=True)]
        return [Lay(seat, self._turn_card(), "center")]

    def _arsenal(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        task = view["task"]
        seat = task["seat"]
        if task["draw"]:
            return [self._draw_arsenal(seat, side[seat])]
        if task["deploy"] and seats[seat]["hand"]:
            return [Lay(seat, self._pick_deploy(seats[seat]), f"seat:{seat}", face_down=True)]
        return [Command("done", {"seat": seat})]

    def _look(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        return [Command("look", {"seat": view["task"]["seat"], "stack": self.rng.choice(["ground", "air", "sea"])})]

    def _decision(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        """The aggressor fights by flipping the stacks the BATTLECARD calls for (the defender flips his too); not
        fighting is a tap. With nothing to flip, fighting is a tap as well."""
        seat = next(s for s, x in side.items() if x == view["pending"]["aggressor"])
        fight = self.rng.random() < 0.9
        types = view["pending"]["units"]
        flips = [(s, c["key"]) for s in [seat, *[n for n in seats if n != seat]] for t in types
                 for c in seats[s]["stacks"][t]]
        if not fight or not flips or flips[0][0] != seat:
            self.laid_face_up = set()
            return [Command("decide", {"seat": seat, "fight": fight})]
        self.face_up = flips
        self.laid_face_up = {k for _, k in flips}
        return [*(Lift(k) for _, k in flips), *(Lay(s, k, f"seat:{s}") for s, k in flips)]

    def _homeland(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        seat = view["fight"]["defenders"][0]
        return [Command("emergency_deploy" if seats[seat]["hand"] else "hold", {"seat": seat})]

    def _combat(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        battle = view["fight"]
        bonus = self._bonus(battle, seats)
        if bonus:
            return [bonus]
        # No target is tapped: the referee fires at the target the unit is likeliest to destroy.
        return [Lay(0, self._turn_card(), "center")]

    def _bonus(self, battle: View, seats: Seats) -> Move | None:
        """Half the time, a seat plays a Kept Card whose bonus helps one of its fighting units."""
        for seat in battle["aggressors"] + battle["defenders"]:
            types = {u["type"] for u in battle["units"] if u["seat"] == seat and u["status"] == "fighting"}
            for card in seats[seat]["kept"]:
                kept = self.deck.card(card["key"])
                if set(kept.get("bonus_types", [])) & types and self.rng.random() < 0.5:
                    self.laid.append(card["key"])
                    return Lay(seat, card["key"], "center")
        return None

    def _withdrawal(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        battle = view["fight"]
        deciding = battle["deciding"]
        seat = battle["aggressors" if deciding == "aggressor" else "defenders"][0]
        if view["odds"][deciding] < WITHDRAW_BELOW:
            # Withdrawn: the army's units still fighting are picked up from the table (the camera sees them go).
            army = battle["aggressors" if deciding == "aggressor" else "defenders"]
            leaving = [u["key"] for u in battle["units"] if u["seat"] in army and u["status"] == "fighting"]
            self.face_up = [(s, k) for s, k in self.face_up if k not in leaving]
            if all(k in self.laid_face_up for k in leaving):
                return [Lift(k) for k in leaving]
            return [Command("withdraw", {"seat": seat})]
        if deciding == "aggressor" and view["odds"]["defender"] < WITHDRAW_BELOW:
            return [Command("fight_on", {"seat": seat})]   # the defender will withdraw: the aggressor says so first
        return [Lay(0, self._turn_card(), "center")]       # both fight on: the next shot's card is turned

    def _regroup(self, view: View, seats: Seats, side: Sides) -> list[Move]:
        """Combined sets, rule 3: the simulated allies leave their forces where they are."""
        regroup = view["regroup"]
        seat = next(s for s in regroup["seats"] if s not in regroup["done"])
        return [Command("done", {"seat": seat})]


DEMO = PacificPlayers
