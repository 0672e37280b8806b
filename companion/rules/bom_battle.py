"""Book of Mormon "Battle" (bom-battle.txt): the basic game and its six variants.

This module is the ruleset the session folds events through: it sets the game up, checks each
event's data, and hands the work to the modules of ``companion.rules.bom`` (see its docstring for
the map). Commands and their data are listed in ``COMMANDS`` and in docs/referee/bom-battle.md.
"""
from __future__ import annotations

from typing import Any, Callable

from .base import Action, Applied, Outcome, Refusal, Ruleset, Seat, SetupError, State
from .bom import actions, battle, piles, table, trivia, turns, variants, view
from .bom.battle import who_of
from .bom.cards import Deck

RECENT = 10  # outcomes kept in the state for the view; the whole history is the game log

COMMANDS = {
    "card_seen": '{"zone": "seat:N" | "reader:N" | "tray" (Spy\'s Trivia), "card": "GD500#1", "face_down"?: true}',
    "card_gone": '{"zone": ..., "card": ...}',
    "resolve": "{}",
    "withdraw": '{"seat": N}: seat N has no CHARACTER card and sits this battle out',
    "too_many_powers": '{"seat": N}: two POWER cards to the discard pile, two drawn from the ARMY',
    "no_character": '{"seat": N}: Mounting Battles, a tied seat with no CHARACTER card swaps two POWER cards',
    "surrender": '{"seat": N}: Mounting Battles, a tied seat that cannot play the tie gives up its cards',
    "face_down": '{"seat": N}: Secret Weapon, seat N laid its POWER card face down',
    "time_up": "{}: Rules for a Shorter Game, the timer went off",
    "stop": "{}: Rules for Young Players, play stops and the most cards wins",
    "trivia_clue": "{}: Spy's Trivia, show the next clue",
    "trivia_tie": '{"seats": [N, M]}: Spy\'s Trivia, two or more guessed at once; ask for the book and chapter',
    "trivia_award": '{"seat": N}: Spy\'s Trivia, seat N named the character first',
    "trivia_nobody": "{}: Spy's Trivia, nobody knew; the reader keeps the card",
}


def seat_number(value: Any) -> int | None:
    """A seat number from a command's data: an integer, or digits (the tablet's chooser sends text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


class BomBattle(Ruleset):
    game = "bom-battle"
    title = 'Book of Mormon "Battle"'
    min_seats = 2
    max_seats = 6
    options = variants.OPTIONS
    zones = ("seat", "reader", "tray")

    def __init__(self, catalog):
        super().__init__(catalog)
        self.deck = Deck(catalog)

    # -- setup --------------------------------------------------------------------------------------
    def setup(self, seats: list[Seat], options: dict[str, Any]) -> State:
        """"Shuffle the cards and deal out the entire deck facedown. Each player now has an ARMY. All
        players draw five cards from the top of their ARMY. This becomes the BATTALION.\""""
        self.check_seats(seats)
        variants.check(options, len(seats))
        mode = variants.mode(options)
        size = self.deck.size(with_powers=(mode == "battle"))
        dealt = piles.deal(size, len(seats), options["first_seat"])
        hand = piles.BATTALION if mode == "battle" else 0
        if mode == "battle" and min(dealt) < hand:
            raise SetupError(f"this deck deals only {min(dealt)} cards to a seat; each player needs a BATTALION of five")
        state: State = {
            "game": self.game, "options": dict(options), "mode": mode, "deck_size": size, "battle": 1,
            "seats": [{"seat": s.number, "name": s.name,
                       "army": 0 if mode == "trivia" else dealt[i] - hand,
                       "battalion": hand, "discard": 0, "out": False, "withdrawn": False}
                      for i, s in enumerate(seats)],
            "table": {}, "held": [], "collecting": {}, "battle_keys": [], "pot": 0, "mount": None, "flags": [],
            "turns": {"leader": options["first_seat"], "position": 0, "face_down": {}, "revealing": False}
            if options["secret_weapon"] else None,
            "tiebreak": None, "time_up": False,
            "trivia": trivia.setup(self.deck, len(seats), options["first_seat"], dealt) if mode == "trivia" else None,
            "last": None, "recent": [], "winner": None, "winners": [], "over": False,
        }
        return state

    # -- events -------------------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> Applied | Refusal:
        handler: Callable | None = getattr(self, f"_on_{action.kind}", None)
        if handler is None or action.kind not in COMMANDS:
            return Refusal(f"{self.title} has no command {action.kind!r}; its commands are {', '.join(COMMANDS)}.")
        if not isinstance(action.data, dict):
            return Refusal(f"{action.kind} needs its data as an object, e.g. {COMMANDS[action.kind]}")
        result = handler(state, action.data)
        if isinstance(result, Applied) and result.outcomes:
            recent = result.state["recent"] + [o.as_dict() for o in result.outcomes]
            result.state["recent"] = recent[-RECENT:]
        return result

    def _on_card_seen(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        key, zone = data.get("card"), data.get("zone")
        try:
            card = self.deck.lookup(key)
        except KeyError as exc:
            return Refusal(exc.args[0])
        if state["over"]:
            return Refusal(f"The game is over; {self.card_name(key)} starts no new battle.")
        if state["mode"] == "trivia" and not state["tiebreak"]:
            return trivia.scan(self.deck, state, key, zone)
        seat = self._zone_seat(state, zone)
        if isinstance(seat, Refusal):
            return seat
        if key in state["collecting"]:
            table.see(state, key, zone)  # the winner is gathering the last battle's cards
            return Applied(state)
        wrong = self._may_play(state, seat, card)
        if wrong:
            return Refusal(wrong)
        if data.get("face_down"):
            return self._face_down(state, seat, key, card)
        before = table.plays(state)
        if table.see(state, key, zone) == "again":
            return Applied(state)
        piles.seat(state, seat)["withdrawn"] = False  # it found a card to play after all
        if key not in state["battle_keys"]:  # a flicker (seen, gone, seen) is one play, checked once
            state["battle_keys"].append(key)
            if turns.enabled(state) and key in table.plays(state).get(seat, []):
                flag, _ = turns.check_play(state, seat, card.kind == "power", battle.participants(state), before,
                                           who_of(state))
                if flag:
                    state["flags"].append({"seat": seat, "card": key, "why": flag})
        return Applied(state)

    def _may_play(self, state: State, seat: int, card) -> str | None:
        who = who_of(state)
        s = piles.seat(state, seat)
        if s["out"]:
            return f"{who(seat)} is out of the game and has no cards to play; take {card.name} off its area."
        if card.kind == "power" and (state["mode"] != "battle" or state["tiebreak"]):
            return ("Rules for Young Players: \"Remove all the POWER cards from the deck.\"" if state["mode"] == "young"
                    else "The last battle after the timer is fought with CHARACTER cards only.")
        if state["tiebreak"] and seat not in state["tiebreak"]["seats"]:
            tied = " and ".join(who(n) for n in state["tiebreak"]["seats"])
            return f"Only the tied players ({tied}) fight the last battle after the timer."
        if state["mount"] and seat not in state["mount"]["seats"]:
            tied = " and ".join(who(n) for n in state["mount"]["seats"])
            return f"The battle is mounting: only {tied} play now; take {card.name} back until the next battle."
        return None

    def _face_down(self, state: State, seat: int, key: str, card) -> Applied | Refusal:
        if not turns.enabled(state):
            return Refusal("Cards are laid face down only under Secret Weapon (a mounting battle's face-down "
                           "cards are counted by the companion, not scanned).")
        if card.kind != "power":
            return Refusal("Under Secret Weapon \"the CHARACTER card(s) must be laid faceup but the POWER card "
                           "will be laid facedown\".")
        return self._lay_face_down(state, seat, key)

    def _on_card_gone(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        key, zone = data.get("card"), data.get("zone")
        try:
            self.deck.lookup(key)
        except KeyError as exc:
            return Refusal(exc.args[0])
        if data.get("face_down") and turns.enabled(state):
            for seat, hidden in list(state["turns"]["face_down"].items()):
                if hidden == key:
                    del state["turns"]["face_down"][seat]
            return Applied(state)
        if state["mode"] == "trivia" and zone == "tray":
            return Applied(state)  # the reader took the card out of the tray
        if not table.gone(state, key, zone):
            return Refusal(f"{self.card_name(key)} ({key}) was not seen in {zone!r}; nothing to take away.")
        if key not in state["table"]:
            state["flags"] = [f for f in state["flags"] if f["card"] != key]
        return Applied(state)

    def _zone_seat(self, state: State, zone: Any) -> int | Refusal:
        seat = table.zone_seat(zone)
        if seat is None:
            return Refusal(f"{self.title} reads cards in the seats' areas of the battlefield ('seat:N') or on their "
                           f"readers ('reader:N'), not in {zone!r}.")
        if not 1 <= seat <= len(state["seats"]):
            return Refusal(f"There is no seat {seat} at this table (seats 1-{len(state['seats'])}).")
        return seat

    def _seat_arg(self, state: State, data: dict[str, Any]) -> int | Refusal:
        seat = seat_number(data.get("seat"))
        n = len(state["seats"])
        if seat is None or not 1 <= seat <= n:
            return Refusal(f"This command needs a seat of this table, {{\"seat\": 1..{n}}}, not {data.get('seat')!r}.")
        if piles.seat(state, seat)["out"]:
            return Refusal(f"{who_of(state)(seat)} is out of the game.")
        return seat

    def _battle_only(self, state: State, what: str) -> Refusal | None:
        if state["over"]:
            return Refusal("The game is over.")
        if state["mode"] != "battle":
            rules = "Spy's Trivia" if state["mode"] == "trivia" else "the Rules for Young Players"
            return Refusal(f"{what} is not part of {rules}.")
        if state["tiebreak"]:
            return Refusal(f"{what} is not part of the last battle after the timer.")
        return None

    # -- commands -----------------------------------------------------------------------------------
    def _on_resolve(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        return battle.resolve(self.deck, state)

    def _on_withdraw(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        wrong = self._battle_only(state, "Withdrawing from a battle")
        seat = self._seat_arg(state, data)
        if wrong or isinstance(seat, Refusal):
            return wrong or seat
        who = who_of(state)
        if state["mount"]:
            return Refusal("The battle is mounting; a tied player with no CHARACTER card swaps two POWER cards "
                           "(no_character) or surrenders.")
        if piles.seat(state, seat)["withdrawn"]:
            return Refusal(f"{who(seat)} has already withdrawn from this battle.")
        if table.plays(state).get(seat) or str(seat) in (state["turns"] or {}).get("face_down", {}):
            return Refusal(f"{who(seat)} has cards on the battlefield; take them back before withdrawing.")
        piles.seat(state, seat)["withdrawn"] = True
        say = f"{who(seat)} has no CHARACTER card to play and sits out battle {state['battle']}."
        return Applied(state, (Outcome("withdraw", say, (), {"seat": seat, "battle": state["battle"]}),))

    def _hand(self, state: State, seat: int) -> int:
        """Cards in the seat's hand: its BATTALION less what it has on the battlefield right now."""
        return piles.seat(state, seat)["battalion"] - len(table.plays(state).get(seat, []))

    def _on_too_many_powers(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        """"If a player has 4 or more POWER cards in his hand, he must choose 2 and place them in his
        discard pile, then draw 2 more cards from the top of his ARMY.\""""
        wrong = self._battle_only(state, "\"Too many POWER cards\"")
        seat = self._seat_arg(state, data)
        if wrong or isinstance(seat, Refusal):
            return wrong or seat
        who = who_of(state)
        if self._hand(state, seat) < 4:
            return Refusal(f"\"Too many POWER cards\" needs 4 or more POWER cards in the hand; {who(seat)} has only "
                           f"{self._hand(state, seat)} card(s) in hand.")
        piles.swap_two(piles.seat(state, seat))
        say = f"{who(seat)} has too many POWER cards: two go to the discard pile, and two are drawn from the ARMY."
        return Applied(state, (Outcome("too_many_powers", say, (), {"seat": seat}),))

    def _tied_seat(self, state: State, data: dict[str, Any], what: str) -> int | Refusal:
        wrong = self._battle_only(state, what)
        seat = self._seat_arg(state, data)
        if wrong or isinstance(seat, Refusal):
            return wrong or seat
        if not state["mount"]:
            return Refusal(f"{what} happens only while a tie mounts (Mounting Battles).")
        if seat not in state["mount"]["seats"]:
            return Refusal(f"{who_of(state)(seat)} is not one of the tied players.")
        return seat

    def _on_no_character(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        """"If a player has no CHARACTER cards in his BATTALION, he must put two POWER cards in his
        discard pile and draw two new cards from his ARMY.\""""
        seat = self._tied_seat(state, data, "Swapping two POWER cards for a tie")
        if isinstance(seat, Refusal):
            return seat
        who = who_of(state)
        if self._hand(state, seat) < 2:
            return Refusal(f"{who(seat)} has fewer than two cards in its BATTALION to swap; if it cannot play the "
                           f"tie, it surrenders.")
        piles.swap_two(piles.seat(state, seat))
        say = f"{who(seat)} has no CHARACTER card: two POWER cards go to the discard pile, two are drawn."
        return Applied(state, (Outcome("no_character", say, (), {"seat": seat}),))

    def _on_surrender(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        seat = self._tied_seat(state, data, "Surrendering")
        if isinstance(seat, Refusal):
            return seat
        return battle.surrender(state, seat)

    def _on_face_down(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        if not turns.enabled(state):
            return Refusal("Only Secret Weapon lays a POWER card face down.")
        wrong = self._battle_only(state, "A face-down POWER card")
        seat = self._seat_arg(state, data)
        if wrong or isinstance(seat, Refusal):
            return wrong or seat
        return self._lay_face_down(state, seat, "")

    def _lay_face_down(self, state: State, seat: int, key: str) -> Applied | Refusal:
        who = who_of(state)
        if state["mount"]:
            return Refusal("While a battle mounts each tied player plays one CHARACTER card, no POWER card.")
        if seat not in battle.participants(state):
            return Refusal(f"{who(seat)} is not in this battle.")
        if str(seat) in state["turns"]["face_down"]:
            return Refusal(f"{who(seat)} already has a face-down POWER card; a play uses one POWER card at most.")
        plays = table.plays(state)
        if any(self.deck.lookup(k).kind == "power" for k in plays.get(seat, [])):
            return Refusal(f"{who(seat)} already has a POWER card in its play.")
        flag = turns.lay_face_down(state, seat, key, battle.participants(state), plays, who)
        if flag:
            state["flags"].append({"seat": seat, "card": None, "why": flag})
        outcome = Outcome("face_down", f"{who(seat)} lays a POWER card face down.", (), {"seat": seat})
        return Applied(state, (outcome,))

    def _on_time_up(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        if not state["options"]["shorter_game_minutes"]:
            return Refusal("This game has no timer: it was started without the Rules for a Shorter Game.")
        if state["over"]:
            return Refusal("The game is over.")
        if state["time_up"]:
            return Refusal("The timer has already gone off.")
        return battle.time_up(state)

    def _on_stop(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        if state["mode"] != "young":
            return Refusal("Only the Rules for Young Players end when you stop playing; the basic game ends when "
                           "one player holds all the cards (or use the Rules for a Shorter Game's timer).")
        if state["over"]:
            return Refusal("The game is over.")
        if state["mount"]:
            return Refusal("Finish the mounting battle first: its cards are on the battlefield, in nobody's hands.")
        return battle.stop(state)

    def _trivia_only(self, state: State) -> Refusal | None:
        if state["mode"] != "trivia":
            return Refusal("This command is for Spy's Trivia.")
        if state["over"]:
            return Refusal("The game is over.")
        if state["tiebreak"]:
            return Refusal("Time is up: the tied players fight a last battle.")
        return None

    def _on_trivia_clue(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        return self._trivia_only(state) or trivia.clue(self.deck, state)

    def _on_trivia_tie(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        seats = data.get("seats")
        if isinstance(seats, str):  # the tablet's chooser sends "1,3"
            seats = [seat_number(part.strip()) for part in seats.split(",")]
        elif isinstance(seats, list):
            seats = [seat_number(s) for s in seats]
        return self._trivia_only(state) or trivia.tie(state, seats)

    def _on_trivia_award(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        seat = seat_number(data.get("seat"))
        return self._trivia_only(state) or trivia.award(self.deck, state, seat if seat is not None else data.get("seat"))

    def _on_trivia_nobody(self, state: State, data: dict[str, Any]) -> Applied | Refusal:
        return self._trivia_only(state) or trivia.nobody(self.deck, state)

    # -- views --------------------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        return view.public_view(self.deck, state)

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        return view.seat_view(self.deck, state, seat)

    def actions(self, state: State) -> list[dict[str, Any]]:
        return actions.offer(self.deck, state)

    def ready_to_resolve(self, state: State) -> bool:
        if state["over"] or (state["mode"] == "trivia" and not state["tiebreak"]):
            return False
        return not battle.check(self.deck, state)[1]

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Cards scanned in the tray (Spy's Trivia: the card being read) and POWER cards read face
        down (Secret Weapon) are not named in the public history."""
        if kind in ("card_seen", "card_gone") and (data.get("zone") == "tray" or data.get("face_down")):
            return {k: v for k, v in data.items() if k != "card"}
        return super().redact(kind, data)
