"""Stratego: the companion as the neutral third person who sees both pieces of a combat.

A player shows a piece's tag to the camera (in the scan tray) or taps it on their own reader; a QR
code or RFID tag tells the companion the rank without telling the opponent. The companion never
sees the board: it knows each army (scanned once at setup), whose turn it is, every combat and
its result, and who has lost what. It tells the table only what the chosen reveal rule allows.

The rulebook (stratego.txt) mixes two editions; the classic rules are the default and every
sentence that differs is an option (see ``Stratego.options`` and docs/referee/stratego.md).

This module has four parts: the rank table and ``fight`` (combat as a pure function of two ranks
and the options); the game (``Stratego.apply`` and one handler per input); the words a combat is
told in, for a given viewer; and the views.

Commands (besides card_seen / card_gone):
    move   {"seat": N}                  a move without combat; the turn passes
    cancel {"seat": N}? (seat optional) call off a combat whose attacker is scanned, nothing shown
    rescue {"seat": N, "card": "R6#2"}  (rescue option) bring back one defeated piece
    resign {"seat": N}                  the other seat wins
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from card_tags.games.stratego import ARMY, ARMY_SIZE, COLOURS
from card_tags.payload import CardRef

from .base import Action, Applied, Option, Outcome, Refusal, Ruleset, Seat, State, Term

# -- the rank table ---------------------------------------------------------------------------
RANK_NAME = {rank: name for rank, (name, _) in ARMY.items()}
# Strength for "higher ranked pieces always defeat lower ranked pieces"; the Spy is the weakest
# (its one exception is handled in fight). Bombs and the Flag never attack, so need none.
STRENGTH = {"10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2, "S": 1}
IMMOBILE = ("B", "F")  # "There are also seven non-moving pieces" (6 Bombs, 1 Flag)
MINER, SCOUT, SPY, MARSHAL, BOMB, FLAG = "3", "2", "S", "10", "B", "F"


class Quote:
    """The rulebook's sentences (stratego.txt) that decide things, quoted in outcomes and refusals."""

    HIGHER = "Higher ranked pieces always defeat lower ranked pieces."
    TIE_BOTH = "In the event of a tie, both pieces are removed"
    TIE_ATTACKER = "In the event of a tie, the attacker wins."
    SPY_VS_SPY = "with the only exception being a Spy Vs. Spy match up, in which case the attacking Spy wins."
    SPY_ANYTHING = "The exceptions are Spys, which defeat anythign on attack (except bombs)"
    SPY_CLASSIC = ("classic rules (the text is silent): the Spy defeats the Marshal only when the Spy "
                   "attacks; against anything else it is the weakest piece")
    SPY_ATTACKED = "S = Spies are able to take any pieces on the board, but are destroyed if attacked."
    BOMB = "B = Bombs are able to destroy any piece that attacks it except the miner"
    MINER = "3 = Miners are able to remove enemy bombs from play."
    FLAG = "One side wins when they reveal the enemy flag by moving a piece onto its occupying square."
    REVEAL_BOTH = "each player must reveal the rank of their piece with the winner taking the square being contested."
    REVEAL_DEFENDER = "the defender only reveals their piece if it's defeated, or If it is attacked by a Scout."
    IMMOBILE = "There are also seven non-moving pieces"
    TURN = "You may either attack or move once on your turn"
    RED_FIRST = "red may move his piece first with blue performing their turn at the end of reds."
    SCOUT_MOVE_ATTACK = "unless the piece you are using a scout which may move and attack on the same turn."
    RESCUE = ("If you move one of your own pieces into the back row of your opponents territory then you "
              "may rescue one of your defeated pieces and place it on your side of the game board.")
    FORFEIT = "If you cannot move a piece during your turn then you must forfeit to your opponent."


@dataclass(frozen=True)
class Verdict:
    """Who a combat removes: "attacker" (the attacker wins), "defender" (the defender wins) or
    "both"; and the rulebook's sentence that decides it."""

    winner: str
    rule: str

    @property
    def attacker_removed(self) -> bool:
        return self.winner in ("defender", "both")

    @property
    def defender_removed(self) -> bool:
        return self.winner in ("attacker", "both")


def fight(attacker: str, defender: str, options: dict[str, Any]) -> Verdict:
    """The result of ``attacker`` (a movable rank) attacking ``defender`` (any rank).

    Options read: ``ties`` ("both_removed" | "attacker_wins"), ``spy_attack`` ("marshal_only" |
    "anything_but_bombs"), ``spy_vs_spy`` ("tie" | "attacker_wins").
    """
    if attacker in IMMOBILE:
        raise ValueError(f"a {RANK_NAME[attacker]} never moves, so it cannot attack")
    if defender == FLAG:
        return Verdict("attacker", Quote.FLAG)
    if defender == BOMB:
        return Verdict("attacker", Quote.MINER) if attacker == MINER else Verdict("defender", Quote.BOMB)
    if attacker == SPY and options["spy_attack"] == "anything_but_bombs":
        return Verdict("attacker", Quote.SPY_ANYTHING)
    if attacker == SPY and defender == MARSHAL:
        return Verdict("attacker", Quote.SPY_CLASSIC)
    if attacker == defender:
        if options["ties"] == "attacker_wins":
            return Verdict("attacker", Quote.TIE_ATTACKER)
        if attacker == SPY and options["spy_vs_spy"] == "attacker_wins":
            return Verdict("attacker", Quote.SPY_VS_SPY)
        return Verdict("both", Quote.TIE_BOTH)
    if defender == SPY:
        return Verdict("attacker", Quote.SPY_ATTACKED)
    if attacker == SPY:
        return Verdict("defender", Quote.SPY_CLASSIC)
    return Verdict("attacker" if STRENGTH[attacker] > STRENGTH[defender] else "defender", Quote.HIGHER)


def defender_revealed(attacker: str, verdict: Verdict, options: dict[str, Any]) -> bool:
    """Whether the defender's rank is shown. The attacker's always is: the variant sentence only
    limits what the defender reveals."""
    if options["reveal"] == "both":
        return True
    return verdict.defender_removed or attacker == SCOUT


def rank_label(rank: str) -> str:
    """ "Captain (6)", "Bomb (B)"."""
    return f"{RANK_NAME[rank]} ({rank})"


class NoSuchSeat(ValueError):
    """A seat number this game does not have (the web layer turns it into a 404)."""


# -- the game ---------------------------------------------------------------------------------
def other(colour: str) -> str:
    return "blue" if colour == "red" else "red"


def _title(colour: str) -> str:
    return colour.capitalize()


class Stratego(Ruleset):
    game = "stratego"
    title = "Stratego"
    min_seats = 2
    max_seats = 2
    zones = ("seat", "tray", "reader")
    uses_resolve = False  # a combat resolves itself when the defender is scanned
    options = (
        Option("ties", "both_removed", "Equal ranks: both pieces are removed (classic), or \"in the event "
               "of a tie, the attacker wins\".", ("both_removed", "attacker_wins")),
        Option("spy_attack", "marshal_only", "The attacking Spy defeats only the Marshal (classic), or "
               "\"Spys, which defeat anythign on attack (except bombs)\".", ("marshal_only", "anything_but_bombs")),
        Option("spy_vs_spy", "tie", "A Spy attacking a Spy is a tie like any other (classic), or \"the "
               "attacking Spy wins\".", ("tie", "attacker_wins")),
        Option("reveal", "both", "Both ranks are revealed in every combat (classic), or \"the defender only "
               "reveals their piece if it's defeated, or If it is attacked by a Scout\".",
               ("both", "defeated_or_scout")),
        Option("rescue", False, "A piece reaching the enemy's back row may rescue one defeated piece."),
        Option("scout_move_attack", False, "A Scout may move and attack in the same turn."),
        Option("red_seat", 1, "The seat that plays Red (Red moves first).", (1, 2)),
    )

    # -- setup ----------------------------------------------------------------------------
    def setup(self, seats: list[Seat], options: dict[str, Any]) -> State:
        self.check_seats(seats)
        options = self.resolve_options(options)
        red = options["red_seat"]
        return {
            "options": options,
            "seats": [{**s.as_dict(), "colour": "red" if s.number == red else "blue"} for s in seats],
            "phase": "setup",                  # setup | play | over
            "pieces": {},                      # key -> {colour, rank, alive, revealed, captured_in}
            "turn": "red",
            "turn_number": 1,
            "pending": None,                   # {colour, piece, zone}: an attacker awaiting its defender
            "last_turn": None,                 # {colour, kind, survivor, rescued}: for rescue / Scout
            "combats": [],
            "rescues": [],
            "over": False,
            "winner": None,
            "end": None,                       # {reason, loser, say}
        }

    @classmethod
    def check_catalog(cls, catalog) -> list[str]:
        missing = [f"{c}{r}" for c in ("R", "B") for r in ARMY if f"{c}{r}" not in catalog]
        return [f"this referee needs cards {missing}"] if missing else []

    # -- small lookups ----------------------------------------------------------------------
    @staticmethod
    def colour_of(state: State, seat: int) -> str:
        for s in state["seats"]:
            if s["seat"] == seat:
                return s["colour"]
        raise NoSuchSeat(f"Stratego has seats 1 and 2; there is no seat {seat!r}")

    @staticmethod
    def seat_of(state: State, colour: str) -> int:
        return next(s["seat"] for s in state["seats"] if s["colour"] == colour)

    def _piece(self, key: Any) -> tuple[dict[str, Any] | None, str]:
        """(colour and rank of a tag key, "") or (None, why it is not a piece of this set)."""
        if not isinstance(key, str) or "#" not in key:
            return None, f"{key!r} is not a piece's tag key (like R6#2)"
        try:
            card = self.catalog.lookup(CardRef.from_key(self.game, key))
        except (KeyError, ValueError) as exc:
            reason = exc.args[0] if isinstance(exc, KeyError) else "its copy number is not a number"
            return None, f"that tag is not a piece of this set: {reason}"
        return {"colour": card["colour"], "rank": card["rank"]}, ""

    @staticmethod
    def _army(state: State, colour: str) -> list[dict[str, Any]]:
        return [p for p in state["pieces"].values() if p["colour"] == colour]

    def _movable_left(self, state: State, colour: str) -> int:
        return sum(1 for p in self._army(state, colour) if p["alive"] and p["rank"] not in IMMOBILE)

    # -- apply: one handler per input -------------------------------------------------------
    def apply(self, state: State, action: Action) -> Applied | Refusal:
        handler = self._handlers().get(action.kind)
        if handler is None:
            return Refusal(f"Stratego has no command {action.kind!r}; its commands are move, cancel, "
                           f"rescue and resign (combats start by scanning pieces)")
        if state["over"] and action.kind != "card_gone":
            return Refusal("the game is over")
        return handler(state, action)

    def _handlers(self) -> dict[str, Callable[[State, Action], Applied | Refusal]]:
        return {"card_seen": self._card_seen, "card_gone": self._card_gone, "move": self._move,
                "cancel": self._cancel, "rescue": self._rescue, "resign": self._resign,
                "resolve": self._resolve}

    def _card_gone(self, state: State, action: Action) -> Applied:
        # Pieces leave the tray or a reader after every scan; only arrivals mean anything.
        return Applied(state)

    def _resolve(self, state: State, action: Action) -> Refusal:
        return Refusal("a Stratego combat is decided as soon as the defender is scanned; there is nothing to resolve")

    def _card_seen(self, state: State, action: Action) -> Applied | Refusal:
        zone = str(action.data.get("zone", ""))
        piece, why = self._piece(action.data.get("card"))
        if piece is None:
            return Refusal(why)
        kind, _, number = zone.partition(":")
        reader_seat = None
        if kind in ("seat", "reader"):
            if not number.isdigit() or int(number) not in (1, 2):
                return Refusal(f"zone {zone!r} names no seat of this game (seats 1 and 2)")
            reader_seat = int(number)
        elif kind != "tray":
            return Refusal(f"Stratego reads pieces in the seats' areas, the scan tray and the seats' readers, "
                           f"not in zone {zone!r}")
        if state["phase"] == "setup":
            if reader_seat is None:
                return Refusal("during setup, each side scans its army in its own area or on its own reader, "
                               "not in the scan tray")
            return self._setup_scan(state, reader_seat, action.data["card"], piece)
        if kind == "seat":
            return Refusal("during play, scan a combat's two pieces in the scan tray or on the readers")
        if kind == "reader" and self.colour_of(state, reader_seat) != piece["colour"]:
            return Refusal(f"reader {reader_seat} is {_title(self.colour_of(state, reader_seat))}'s; "
                           f"tap a {_title(piece['colour'])} piece on {_title(piece['colour'])}'s reader")
        if state["pending"] is None:
            return self._scan_attacker(state, action.data["card"], zone)
        return self._scan_defender(state, action.data["card"])

    def _setup_scan(self, state: State, seat: int, key: str, piece: dict[str, Any]) -> Applied | Refusal:
        colour = self.colour_of(state, seat)
        if piece["colour"] != colour:
            return Refusal(f"that is a {_title(piece['colour'])} piece; seat {seat} plays {_title(colour)}, "
                           f"so its army has none of the other colour")
        army = self._army(state, colour)
        if len(army) == ARMY_SIZE:
            return Refusal(f"{_title(colour)}'s army is already checked: all {ARMY_SIZE} pieces are scanned")
        if key in state["pieces"]:
            return Refusal("that piece is already scanned (if two pieces carry the same tag, one tag is a "
                           "duplicate: reprint it)")
        state["pieces"][key] = {**piece, "alive": True, "revealed": False, "captured_in": None}
        if len(army) + 1 < ARMY_SIZE:
            return Applied(state)
        outcomes = [Outcome("army_checked", f"{_title(colour)}'s army is complete: {ARMY_SIZE} pieces in the "
                            f"rulebook's counts, none of the other colour.", data={"seat": seat, "colour": colour})]
        if all(len(self._army(state, c)) == ARMY_SIZE for c in COLOURS):
            state["phase"] = "play"
            outcomes.append(Outcome("play_starts", "Both armies are checked. Red moves first.",
                                    (Term("rule", Quote.RED_FIRST),), {"seat": self.seat_of(state, "red")}))
        return Applied(state, tuple(outcomes))

    def _scout_window(self, state: State, colour: str) -> bool:
        """True while ``colour`` has just made a plain move and may still attack with the Scout it moved."""
        last = state["last_turn"]
        return (state["options"]["scout_move_attack"] and last is not None and last["colour"] == colour
                and last["kind"] == "move" and state["turn"] != colour)

    def _scan_attacker(self, state: State, key: str, zone: str) -> Applied | Refusal:
        piece = state["pieces"][key]
        colour = piece["colour"]
        in_window = self._scout_window(state, colour)
        if colour != state["turn"] and not in_window:
            return Refusal(f"it is {_title(state['turn'])}'s turn: a {_title(colour)} piece cannot attack now "
                           f"({Quote.RED_FIRST!r})")
        if not piece["alive"]:
            return Refusal(f"that piece was captured in combat {piece['captured_in']}; it is off the board")
        if piece["rank"] in IMMOBILE:
            return Refusal(f"that piece never moves, so it cannot attack ({Quote.IMMOBILE!r})")
        if in_window and piece["rank"] != SCOUT:
            return Refusal(f"{_title(colour)} has already moved this turn; only a Scout may move and attack in "
                           f"the same turn ({Quote.SCOUT_MOVE_ATTACK!r})")
        state["pending"] = {"colour": colour, "piece": key, "zone": zone}
        if not in_window:
            state["last_turn"] = None  # the new turn closes the last one's rescue
        return Applied(state, (Outcome("attack", f"{_title(colour)}'s attacker is scanned: now scan the "
                                       f"{_title(other(colour))} piece it attacks.", data={"seat": self.seat_of(state, colour)}),))

    def _scan_defender(self, state: State, key: str) -> Applied | Refusal:
        attacker_key = state["pending"]["piece"]
        colour = state["pending"]["colour"]
        if key == attacker_key:
            return Refusal(f"that piece is already scanned as the attacker; scan the {_title(other(colour))} "
                           f"piece it attacks")
        piece = state["pieces"][key]
        if piece["colour"] == colour:
            return Refusal(f"that is another {_title(colour)} piece: a piece attacks an enemy piece, never a "
                           f"friendly one; scan the {_title(other(colour))} defender (or cancel)")
        if not piece["alive"]:
            return Refusal(f"that piece was captured in combat {piece['captured_in']}; it is off the board")
        return self._combat(state, attacker_key, key)

    def _combat(self, state: State, attacker_key: str, defender_key: str) -> Applied:
        options = state["options"]
        attacker, defender = state["pieces"][attacker_key], state["pieces"][defender_key]
        verdict = fight(attacker["rank"], defender["rank"], options)
        number = len(state["combats"]) + 1
        shown = {"attacker": True, "defender": defender_revealed(attacker["rank"], verdict, options)}
        record = {"n": number, "turn": state["turn_number"], "winner": verdict.winner, "rule": verdict.rule,
                  "attacker": {"colour": attacker["colour"], "piece": attacker_key, "rank": attacker["rank"]},
                  "defender": {"colour": defender["colour"], "piece": defender_key, "rank": defender["rank"]},
                  "shown": shown, "flag": defender["rank"] == FLAG and verdict.defender_removed}
        state["combats"].append(record)
        for side, piece in (("attacker", attacker), ("defender", defender)):
            piece["revealed"] = piece["revealed"] or shown[side]
        if verdict.attacker_removed:
            attacker.update(alive=False, captured_in=number)
        if verdict.defender_removed:
            defender.update(alive=False, captured_in=number)
        state["pending"] = None
        finishing_a_move = attacker["colour"] != state["turn"]  # a Scout attacking after its move
        already_rescued = bool(finishing_a_move and state["last_turn"] and state["last_turn"]["rescued"])
        if not finishing_a_move:
            self._pass_turn(state)
        state["last_turn"] = {"colour": attacker["colour"], "kind": "combat", "rescued": already_rescued,
                              "survivor": None if verdict.attacker_removed else attacker_key}
        outcomes = [self._combat_outcome(state, record)]
        outcomes += self._check_end(state, record)
        return Applied(state, tuple(outcomes), reveals=True)

    def _pass_turn(self, state: State) -> None:
        state["turn"] = other(state["turn"])
        state["turn_number"] += 1

    def _check_end(self, state: State, record: dict[str, Any] | None) -> list[Outcome]:
        """The Flag captured, or a side left with nothing that moves (the side to move first)."""
        if record is not None and record["flag"]:
            winner = record["attacker"]["colour"]
            return [self._finish(state, winner, "flag", f"{_title(winner)} captured the {_title(other(winner))} "
                                 f"Flag and wins.", Quote.FLAG)]
        for colour in (state["turn"], other(state["turn"])):
            if self._movable_left(state, colour) == 0:
                return [self._finish(state, other(colour), "no_movable_piece",
                                     f"{_title(colour)} has no piece left that can move (only Bombs and the Flag) "
                                     f"and forfeits: {_title(other(colour))} wins.", Quote.FORFEIT)]
        return []

    def _finish(self, state: State, winner: str, reason: str, say: str, rule: str) -> Outcome:
        state.update(over=True, phase="over", winner=self.seat_of(state, winner), pending=None,
                     end={"reason": reason, "loser": other(winner), "say": say})
        return Outcome("game_over", say, (Term("rule", rule),), {"winner": state["winner"], "reason": reason})

    # -- commands -----------------------------------------------------------------------------
    def _command_seat(self, state: State, action: Action) -> tuple[int | None, str]:
        seat = action.data.get("seat")
        if type(seat) is not int or seat not in (1, 2):
            return None, f"{action.kind} needs the seat making it (1 or 2), not {seat!r}"
        return seat, ""

    def _move(self, state: State, action: Action) -> Applied | Refusal:
        seat, why = self._command_seat(state, action)
        if seat is None:
            return Refusal(why)
        if state["phase"] != "play":
            return Refusal("the armies are not both checked yet: each side scans its 40 pieces first")
        colour = self.colour_of(state, seat)
        if state["pending"] is not None:
            return Refusal(f"a combat is under way: scan the {_title(other(state['pending']['colour']))} defender, "
                           f"or cancel it")
        if colour != state["turn"]:
            return Refusal(f"it is {_title(state['turn'])}'s turn, not {_title(colour)}'s ({Quote.TURN!r})")
        self._pass_turn(state)
        state["last_turn"] = {"colour": colour, "kind": "move", "rescued": False, "survivor": "moved"}
        return Applied(state, (Outcome("move", f"{_title(colour)} moved. {_title(state['turn'])} to play.",
                                       data={"seat": seat}),))

    def _cancel(self, state: State, action: Action) -> Applied | Refusal:
        pending = state["pending"]
        if pending is None:
            return Refusal("there is no combat to cancel: no attacker is scanned")
        if "seat" in action.data:
            seat, why = self._command_seat(state, action)
            if seat is None:
                return Refusal(why)
            if self.colour_of(state, seat) != pending["colour"]:
                return Refusal(f"only {_title(pending['colour'])}, who scanned the attacker, can cancel this combat")
        state["pending"] = None
        return Applied(state, (Outcome("cancel", f"{_title(pending['colour'])}'s attack is called off; nothing "
                                       f"was revealed.", data={"seat": self.seat_of(state, pending["colour"])}),))

    def _rescue(self, state: State, action: Action) -> Applied | Refusal:
        seat, why = self._command_seat(state, action)
        if seat is None:
            return Refusal(why)
        if not state["options"]["rescue"]:
            return Refusal("the rescue rule is not in play in this game (option 'rescue' is off)")
        colour = self.colour_of(state, seat)
        last = state["last_turn"]
        if last is None or last["colour"] != colour or state["pending"] is not None:
            return Refusal(f"a rescue follows the move that reached the back row: {_title(colour)} has not just "
                           f"moved ({Quote.RESCUE!r})")
        if last["rescued"]:
            return Refusal(f"{_title(colour)} has already rescued a piece for this move: one piece per arrival")
        if last["survivor"] is None:
            return Refusal(f"{_title(colour)}'s attacking piece was removed in the combat, so it did not reach "
                           f"the back row")
        key = action.data.get("card")
        piece, why = self._piece(key)
        if piece is None:
            return Refusal(why)
        record = state["pieces"][key]
        if record["colour"] != colour:
            return Refusal(f"that is a {_title(record['colour'])} piece; {_title(colour)} rescues one of their own")
        if record["alive"]:
            return Refusal("that piece is still on the board: only a defeated piece can be rescued")
        record["alive"] = True
        last["rescued"] = True
        state["rescues"].append({"colour": colour, "piece": key, "rank": record["rank"],
                                 "shown": record["revealed"], "turn": state["turn_number"]})
        what = f"their {rank_label(record['rank'])}" if record["revealed"] else "a defeated piece"
        return Applied(state, (Outcome("rescue", f"{_title(colour)} rescues {what} and places it on their side "
                                       f"of the board.", (Term("rule", Quote.RESCUE),), {"seat": seat}),))

    def _resign(self, state: State, action: Action) -> Applied | Refusal:
        seat, why = self._command_seat(state, action)
        if seat is None:
            return Refusal(why)
        loser = self.colour_of(state, seat)
        say = f"{_title(loser)} resigns: {_title(other(loser))} wins."
        return Applied(state, (self._finish(state, other(loser), "resign", say, "a player may resign at any time"),))

    # -- telling a combat -------------------------------------------------------------------
    @staticmethod
    def _side(side: dict[str, Any], known: bool) -> str:
        colour = _title(side["colour"])
        return f"{colour}'s {rank_label(side['rank'])}" if known else f"a {colour} piece"

    def _tell(self, record: dict[str, Any], knows: Callable[[str], bool]) -> dict[str, Any]:
        """A combat as a viewer may know it. ``knows(side)`` says whether that viewer sees the
        rank of "attacker" / "defender"."""
        a_known, d_known = knows("attacker"), knows("defender")
        attacker, defender = self._side(record["attacker"], a_known), self._side(record["defender"], d_known)
        winner = record["winner"]
        if record["flag"] and d_known:
            say = f"{attacker} captured {defender}!"
        elif winner == "attacker":
            say = f"{attacker} attacked {defender} and won; the defender is removed."
        elif winner == "defender":
            stays = "" if d_known else " (its rank stays hidden)"
            say = f"{attacker} attacked {defender} and lost; the attacker is removed, the defender stays{stays}."
        else:
            say = f"{attacker} attacked {defender}: equal ranks, both are removed."
        rule = record["rule"] if a_known and d_known else "not shown: the defender's rank stays hidden"
        terms = [Term("attacker", rank_label(record["attacker"]["rank"]) if a_known else "hidden",
                      _title(record["attacker"]["colour"])),
                 Term("defender", rank_label(record["defender"]["rank"]) if d_known else "hidden",
                      _title(record["defender"]["colour"])),
                 Term("result", winner), Term("rule", rule)]
        sides = {name: {"colour": record[name]["colour"], "seat": None,
                        "rank": record[name]["rank"] if knows(name) else None,
                        "name": RANK_NAME[record[name]["rank"]] if knows(name) else None}
                 for name in ("attacker", "defender")}
        return {"n": record["n"], "turn": record["turn"], "winner": winner, "say": say,
                "terms": [t.as_dict() for t in terms], **sides}

    def _combat_outcome(self, state: State, record: dict[str, Any]) -> Outcome:
        told = self._tell(record, lambda side: record["shown"][side])
        terms = tuple(Term(**t) for t in told["terms"])
        reveal = Quote.REVEAL_BOTH if state["options"]["reveal"] == "both" else Quote.REVEAL_DEFENDER
        terms += (Term("reveal rule", state["options"]["reveal"], reveal),)
        data = {"combat": record["n"], "winner": record["winner"],
                "attacker": {"seat": self.seat_of(state, record["attacker"]["colour"]), "rank": told["attacker"]["rank"]},
                "defender": {"seat": self.seat_of(state, record["defender"]["colour"]), "rank": told["defender"]["rank"]}}
        return Outcome("combat", told["say"], terms, data)

    # -- views --------------------------------------------------------------------------------
    def _combats_for(self, state: State, viewer: str | None) -> list[dict[str, Any]]:
        told = []
        for record in state["combats"]:
            def knows(side: str, record=record) -> bool:
                return record["shown"][side] or record[side]["colour"] == viewer
            entry = self._tell(record, knows)
            for side in ("attacker", "defender"):
                entry[side]["seat"] = self.seat_of(state, record[side]["colour"])
            told.append(entry)
        return told

    def _known_counts(self, state: State, colour: str, alive: bool, viewer: str | None) -> dict[str, int]:
        """Names and counts of ``colour``'s pieces (alive or lost) whose rank ``viewer`` knows."""
        counts: dict[str, int] = {}
        for rank in ARMY:
            n = sum(1 for p in self._army(state, colour) if p["rank"] == rank and p["alive"] == alive
                    and (p["revealed"] or colour == viewer))
            if n:
                counts[RANK_NAME[rank]] = n
        return counts

    def _sides(self, state: State, viewer: str | None) -> list[dict[str, Any]]:
        sides = []
        for seat in state["seats"]:
            colour = seat["colour"]
            army = self._army(state, colour)
            lost = [p for p in army if not p["alive"]]
            enemy_lost = sum(1 for p in self._army(state, other(colour)) if not p["alive"])
            known_lost = self._known_counts(state, colour, False, viewer)
            side = {"seat": seat["seat"], "name": seat["name"], "colour": colour,
                    "scanned": len(army), "army_checked": len(army) == ARMY_SIZE,
                    "pieces": len(army) - len(lost), "lost": len(lost),
                    "lost_known": known_lost, "lost_unknown": len(lost) - sum(known_lost.values()),
                    "alive_known": self._known_counts(state, colour, True, viewer),
                    # what the dashboard's seat box shows
                    "counts": {"army": len(army) - len(lost), "captured": enemy_lost}}
            side["say"] = self._side_summary(state, side)
            sides.append(side)
        return sides

    @staticmethod
    def _side_summary(state: State, side: dict[str, Any]) -> str:
        if state["phase"] == "setup":
            return "army checked" if side["army_checked"] else f"{side['scanned']} of {ARMY_SIZE} pieces scanned"
        if not side["lost"]:
            return f"{_title(side['colour'])}: no losses"
        known = ", ".join(f"{name} x{n}" for name, n in side["lost_known"].items())
        unknown = f"{side['lost_unknown']} unknown" if side["lost_unknown"] else ""
        return f"{_title(side['colour'])} lost " + "; ".join(part for part in (known, unknown) if part)

    def _last_outcome(self, state: State, combats: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The line the table shows in big letters: the end, an attack in progress, or the last combat."""
        if state["end"] is not None:
            return {"say": state["end"]["say"], "terms": []}
        if state["pending"] is not None:
            colour = state["pending"]["colour"]
            return {"say": f"{_title(colour)}'s attacker is scanned; scan the {_title(other(colour))} defender.",
                    "terms": []}
        if combats:
            return {"say": combats[-1]["say"], "terms": combats[-1]["terms"]}
        return None

    def _view(self, state: State, viewer: str | None) -> dict[str, Any]:
        pending = state["pending"]
        playing = state["phase"] == "play"
        last = state["last_turn"]
        combats = self._combats_for(state, viewer)
        return {
            "phase": state["phase"],
            "options": state["options"],
            "turn": self.seat_of(state, state["turn"]) if playing else None,
            "turn_colour": state["turn"] if playing else None,
            "turn_number": state["turn_number"] if playing else None,
            "pending": None if pending is None else {
                "seat": self.seat_of(state, pending["colour"]), "colour": pending["colour"],
                "say": f"{_title(pending['colour'])}'s attacker is scanned; scan the defender."},
            "scout_may_attack": (self.seat_of(state, last["colour"]) if last and self._scout_window(state, last["colour"])
                                 else None),
            "may_rescue": (self.seat_of(state, last["colour"]) if state["options"]["rescue"] and last
                           and not last["rescued"] and last["survivor"] and pending is None and not state["over"]
                           else None),
            "combats": combats,
            "last_outcome": self._last_outcome(state, combats),
            "rescues": [{"seat": self.seat_of(state, r["colour"]), "colour": r["colour"], "turn": r["turn"],
                         "name": RANK_NAME[r["rank"]] if r["shown"] or r["colour"] == viewer else None}
                        for r in state["rescues"]],
            "standings": self._sides(state, viewer),
            "winner": state["winner"],
            "over": state["over"],
            "end": state["end"],
        }

    def public_view(self, state: State) -> dict[str, Any]:
        return self._view(state, None)

    def actions(self, state: State) -> list[dict[str, Any]]:
        """The tablet's buttons: a plain move for the side to play, calling off a scanned attack,
        rescue when the option allows it, and resigning."""
        if state["phase"] != "play" or state["over"]:
            return []
        turn = self.seat_of(state, state["turn"])
        name = {s["seat"]: s["name"] for s in state["seats"]}
        buttons = []
        if state["pending"] is not None:
            seat = self.seat_of(state, state["pending"]["colour"])
            buttons.append({"label": f"Call off {name[seat]}'s attack", "kind": "cancel", "data": {"seat": seat}})
        else:
            buttons.append({"label": f"{name[turn]} moved (no combat)", "kind": "move", "data": {"seat": turn}})
        last = state["last_turn"]
        if state["options"]["rescue"] and last and not last["rescued"] and last["survivor"] and state["pending"] is None:
            seat = self.seat_of(state, last["colour"])
            captured = [{"value": key, "label": RANK_NAME[p["rank"]]} for key, p in sorted(state["pieces"].items())
                        if p["colour"] == last["colour"] and not p["alive"]]
            if captured:
                # Only the rescuing seat's own captured pieces are offered; all were shown when captured.
                buttons.append({"label": f"{name[seat]} rescues a piece", "kind": "rescue", "data": {"seat": seat},
                                "choose": {"field": "card", "options": captured}})
        for seat in (1, 2):
            buttons.append({"label": f"{name[seat]} resigns", "kind": "resign", "data": {"seat": seat},
                            "confirm": f"Does {name[seat]} really resign?"})
        return buttons

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        """What one seat's phone shows: the table's view told with its own pieces' ranks, its army
        rank by rank, and what it knows of the enemy (revealed ranks, lost and still in play)."""
        colour = self.colour_of(state, seat)
        view = self._view(state, colour)
        army = self._army(state, colour)
        view["you"] = {"seat": seat, "colour": colour}
        view["army"] = [{"rank": rank, "name": name, "of": count,
                         "scanned": sum(1 for p in army if p["rank"] == rank),
                         "alive": sum(1 for p in army if p["rank"] == rank and p["alive"]),
                         "lost": sum(1 for p in army if p["rank"] == rank and not p["alive"])}
                        for rank, (name, count) in ARMY.items()]
        view["missing"] = {row["name"]: row["of"] - row["scanned"] for row in view["army"] if row["scanned"] < row["of"]}
        enemy = next(s for s in view["standings"] if s["colour"] != colour)
        view["enemy_known"] = {"lost": enemy["lost_known"], "lost_unknown": enemy["lost_unknown"],
                               "in_play": enemy["alive_known"]}
        pending = state["pending"]
        if pending is not None and pending["colour"] == colour:
            view["pending"]["attacker"] = rank_label(state["pieces"][pending["piece"]]["rank"])
        view["private"], view["known"] = self._seat_page(view)
        return view

    @staticmethod
    def _seat_page(view: dict[str, Any]) -> tuple[dict[str, str], dict[str, list[str]]]:
        """The same facts as text for the dashboard's seat page: a ``private`` list of labels and
        values, and ``known`` lists by heading."""
        def counted(counts: dict[str, int]) -> list[str]:
            return [f"{name} x{n}" for name, n in counts.items()]

        private = {"colour": _title(view["you"]["colour"]),
                   "in play": ", ".join(f"{r['name']} x{r['alive']}" for r in view["army"] if r["alive"]) or "none"}
        if view["missing"]:
            private["not yet scanned"] = ", ".join(counted(view["missing"]))
        if view["pending"] and "attacker" in view["pending"]:
            private["your attacker in the tray"] = view["pending"]["attacker"]
        enemy = view["enemy_known"]
        known = {"enemy pieces seen and still in play": counted(enemy["in_play"]),
                 "enemy losses": counted(enemy["lost"]) + ([f"{enemy['lost_unknown']} unknown"] if enemy["lost_unknown"] else []),
                 "your losses": [f"{r['name']} x{r['lost']}" for r in view["army"] if r["lost"]],
                 "combats": [f"{c['n']}. {c['say']}" for c in view["combats"]]}
        return private, known

    # -- the public history -------------------------------------------------------------------
    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A piece's tag key names its rank (R10#1 is Red's Marshal), so no key, and no RFID UID
        that could be matched to one, ever reaches the public history."""
        return {k: v for k, v in data.items() if k not in ("card", "uid")}


__all__ = ["Stratego", "Verdict", "fight", "defender_revealed", "NoSuchSeat", "Quote", "RANK_NAME"]
