"""Gather Together "Battle"'s demo players (the demo protocol, companion/rules/demo.py).

Seeded players who hold the real cards: each round they make the deck for the table's size, deal
the identity cards and the hands, and shuffle the BATTLE card into what is left. Each shows their
identity card in the covered scan tray (in the order the tray takes them, from the dealer's left),
someone flips the first discard onto the centre pile, and then they play: building turns (a draw
tapped on the tablet when the table asks, a discard seen on the pile) until the BATTLE card is
drawn, then the battle (the smallest play that matches or beats the top, NEW BATTLE or an action
card when nothing does, else a pass) until a player whose fight cards are gone goes out with their identity card.
Choices the rules ask for (whom to expose or eliminate, a tie-break draw) they make on the tablet
among the buttons it offers. They never hold a hand the companion counts differently; if asked
for a count they tell the truth.
"""
from __future__ import annotations

import random
from functools import partial
from typing import Any, Callable

from card_tags.catalog import Card, Catalog, load_game
from card_tags.games.gt_battle import deal_plan

from companion.rules.demo import Command, Lay, Lift, Move

from .plays import beats

NAMES = ["Ann", "Ben", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]
TARGET = 3          # points that win a demo game (the rulebook's example is 5; a demo is shorter)
PILE_IN_VIEW = 5    # older cards of the centre pile are squared away, out of the camera's view
ACTION = 0.5        # how often a player who cannot beat the top plays an action card rather than pass


class GatherDemo:
    def __init__(self, seats: int = 4, seed: int = 0, catalog: Catalog | None = None):
        self.rng = random.Random(seed)
        self.catalog = catalog or load_game("gt-battle")
        self.seats = list(range(1, max(4, seats) + 1))
        self.plan = deal_plan(self.catalog, len(self.seats))
        self.round = 0
        self.hands: dict[int, list[str]] = {}
        self.identity: dict[int, str] = {}
        self.draw_pile: list[str] = []
        self.pile: list[str] = []   # cards lying on the centre pile, oldest first
        self.played: list[str] = []  # this round's cards squared away off the pile

    def start(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [{"seat": n, "name": NAMES[n - 1]} for n in self.seats], {"target": TARGET}

    # -- the cards --------------------------------------------------------------------------------
    def _card(self, key: str) -> Card:
        return self.catalog.cards[key.partition("#")[0]]

    def _keys(self, test: Callable[[Card], bool]) -> list[str]:
        return [f"{card.id}#{copy}" for card in self.catalog.cards.values() if test(card)
                for copy in range(1, card.copies + 1)]

    def _deal(self) -> None:
        """Steps 1-5: identities, the deck for this table (one EXPOSE per player, one SAVE and one
        ELIMINATE fewer at 4 or 5), the hands, and the BATTLE card shuffled into the rest."""
        n = len(self.seats)
        heroes, villains = self._keys(lambda c: c.get("team") == "superhero"), \
            self._keys(lambda c: c.get("team") == "villain")
        half = n // 2 + (self.rng.random() < 0.5 if n % 2 else 0)
        teams = heroes[:half] + villains[:n - half]
        self.rng.shuffle(teams)
        self.identity = dict(zip(self.seats, teams))
        removed = {action: self.plan.removed.count(action) for action in set(self.plan.removed)}
        deck = self._keys(lambda c: c.kind == "fight")
        for action in ("skip", "reverse", "new_battle", "eliminate", "save"):
            copies = self._keys(partial(_is_action, action))
            deck += copies[:len(copies) - removed.get(action, 0)]
        deck += self._keys(lambda c: c.get("action") == "expose")[:self.plan.expose]
        self.rng.shuffle(deck)
        self.hands = {seat: [deck.pop() for _ in range(self.plan.per_player)] for seat in self.seats}
        self.draw_pile = deck + self._keys(lambda c: c.kind == "battle")
        self.rng.shuffle(self.draw_pile)
        self.pile, self.played = [], []

    # -- what the players do ----------------------------------------------------------------------
    def next_moves(self, view: dict[str, Any], seat_views: dict[int, dict[str, Any]]) -> list[Move]:
        phase = view["phase"]
        if view.get("over") or phase == "over":
            return []
        if phase == "deal":
            return self._deal_round(view)
        if view.get("count_check"):
            check = view["count_check"]
            return [Command("confirm_count", {"seat": check["seat"], "cards": len(self.hands[check["seat"]])})]
        if phase in ("round_over", "tiebreak") or view.get("awaiting"):
            return self._choose(view)
        for row in view["standings"]:
            if row["eliminated"]:
                self.hands[row["seat"]] = []  # an eliminated player's hand is placed down
        if phase == "building":
            return self._building(view["turn"], view.get("draw_tap", True))
        pending = (view.get("fight") or {}).get("pending")
        if pending:
            # A play the rules will not take (it should not happen): take it back into the hand.
            if pending.get("problem"):
                self.hands[pending["seat"]] += pending["cards"]
                return self._take_back(pending["cards"])
            return []  # the session resolves it once the table is still
        return self._battle(view["turn"], (view.get("fight") or {}).get("top"))

    def _deal_round(self, view: dict[str, Any]) -> list[Move]:
        if view["round"] != self.round:
            self.round = view["round"]
            self._deal()
            moves: list[Move] = []
            for seat in view["identities_missing"]:  # the tray takes them from the dealer's left
                moves += [Lay(seat, self.identity[seat], "tray"), Lift(self.identity[seat])]
            flip = self.draw_pile.pop()
            return moves + self._to_pile(None, [flip])
        return []

    def _building(self, seat: int, tap: bool) -> list[Move]:
        """Draw from the deck, then discard one card onto the pile. The draw is tapped on the tablet
        only when the table asks (``draw_tap``: the top discard could have been taken instead)."""
        drawn = self.draw_pile.pop()
        if self._card(drawn).kind == "battle":
            # "The player to draw the BATTLE card will immediately place it on top of the discard
            # pile": the camera seeing it there implies the deck draw, no tap
            return self._to_pile(seat, [drawn])
        moves: list[Move] = [Command("draw", {"seat": seat, "from": "deck"})] if tap else []
        hand = self.hands[seat]
        hand.append(drawn)
        discard = self._least_useful(hand)
        hand.remove(discard)
        return moves + self._to_pile(seat, [discard])

    def _least_useful(self, hand: list[str]) -> str:
        """A fight card of the lowest rank held alone, else any card but the last fight card."""
        fights = [k for k in hand if self._card(k).kind == "fight"]
        singles = [k for k in fights if sum(1 for f in fights if self._rank(f) == self._rank(k)) == 1]
        if singles:
            return min(singles, key=self._rank)
        others = [k for k in hand if self._card(k).kind == "action"] or fights
        return self.rng.choice(others)

    def _rank(self, key: str) -> int:
        return int(self._card(key)["rank"])

    def _battle(self, seat: int, top: dict[str, Any] | None) -> list[Move]:
        hand = self.hands[seat]
        fights = [k for k in hand if self._card(k).kind == "fight"]
        if not fights:
            # "the first player to get rid of all their fight cards ... plays their identity card"
            return self._to_pile(seat, [self.identity[seat]])
        play = self._smallest_beating(fights, top)
        actions = [k for k in hand if self._card(k).kind == "action"]
        if play is None:
            new_battle = next((k for k in actions if self._card(k)["action"] == "new_battle"), None)
            if new_battle is not None:
                play = [new_battle] + (self._smallest_beating(fights, None) or [])
            elif actions and self.rng.random() < ACTION:
                play = [self.rng.choice(actions)]  # none of them is NEW BATTLE here
            else:
                return [Command("pass", {"seat": seat})]
        for key in play:
            hand.remove(key)
        return self._to_pile(seat, play)

    def _smallest_beating(self, fights: list[str], top: dict[str, Any] | None) -> list[str] | None:
        """The fewest, lowest fight cards of one rank that match or beat the top (any, if none)."""
        by_rank: dict[int, list[str]] = {}
        for key in fights:
            by_rank.setdefault(self._rank(key), []).append(key)
        options = [(count, rank) for rank, keys in by_rank.items() for count in range(1, len(keys) + 1)
                   if top is None or beats(count, rank, top["count"], top["rank"])]
        if not options:
            return None
        count, rank = min(options)
        return by_rank[rank][:count]

    def _choose(self, view: dict[str, Any]) -> list[Move]:
        """A choice on the tablet among the buttons it offers (never "no save" when SAVE is held)."""
        if view["phase"] == "round_over":
            return self._gather() + [Command("new_round", {})]
        offers = []
        for button in view.get("actions", []):
            if "choose" in button:
                field = button["choose"]["field"]
                offers += [Command(button["kind"], {**button["data"], field: option["value"]})
                           for option in button["choose"]["options"]]
            else:
                offers.append(Command(button["kind"], dict(button["data"])))
        offers = [o for o in offers if o.kind != "save"] or offers  # SAVE is played from the hand, not tapped
        return [self.rng.choice(offers)] if offers else []

    # -- the centre pile --------------------------------------------------------------------------
    def _to_pile(self, seat: int | None, keys: list[str]) -> list[Move]:
        moves: list[Move] = []
        while self.pile and len(self.pile) + len(keys) > PILE_IN_VIEW:
            oldest = self.pile.pop(0)
            self.played.append(oldest)
            moves.append(Lift(oldest))
        self.pile += keys
        return moves + [Lay(seat or 0, key, "center") for key in keys]

    def _take_back(self, keys: list[str]) -> list[Move]:
        self.pile = [k for k in self.pile if k not in keys]
        return [Lift(key) for key in keys]

    def _gather(self) -> list[Move]:
        """The round is over: every card on the pile is gathered for the next deal."""
        moves: list[Move] = [Lift(key) for key in self.pile]
        self.pile = []
        return moves


DEMO = GatherDemo


def _is_action(action: str, card: Card) -> bool:
    return bool(card.get("action") == action)
