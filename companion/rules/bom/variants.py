"""Book of Mormon's variants as hook units: the hooks a variant changes (``BomVariant``), the basic
game's answer to each (``Basic``), how the variants in play combine (``Rules``), and the small variants
(Rules for Young Players, Power Play, Rules for a Shorter Game). The big ones live in their own modules
(mounting.py, turns.py, trivia.py); the game lists them all (``bom.VARIANTS``).

"SPECIAL RULES AND GAMES (These rules can be combined.)" -- but not every pair can: Spy's Trivia
is a different game (no battles), and the Rules for Young Players have no POWER cards and no
BATTALION. Each variant names the ones it does not combine with (``excludes``) and why
(``reasons``); the contract refuses such a start with the reason (``contract.clashes``).

A question is answered by the first variant in play that answers it (``None``: no answer), else by the
basic rule; an event (``start``, ``after_battle``, ``new_round``, ``on_card``) goes to every variant
that listens. ``Referee`` is what the rule modules ask of the game (its deck, its rules), so none of
them imports the game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, TypeVar

from card_tags.catalog import Card

from ..base import Outcome
from ..contract import Refused, Variant
from . import piles
from .cards import POWER, Deck
from .state import BomState, Mode, Piles

if TYPE_CHECKING:
    from .judge import Verdict
    from .plays import Play


class Referee(Protocol):
    """What the rule modules use of the game (``BomBattle``, in the package's ``__init__``)."""

    deck: Deck

    @property
    def title(self) -> str: ...

    def rules(self, state: BomState) -> "Rules": ...

    def ready_to_resolve(self, state: BomState) -> bool: ...


class BomVariant(Variant):
    """A variant's hooks, each returning None (or doing nothing) unless the variant changes it."""


    def problems(self, options: dict[str, Any], seats: int) -> list[str]:
        """What is wrong with this variant's own option values."""
        return []

    # -- questions (the first variant answering decides; None: the basic rule) -----------------------
    def mode(self) -> Mode | None:
        return None

    def with_powers(self) -> bool | None:
        """Whether the POWER cards are dealt."""
        return None

    def battalion(self) -> bool | None:
        """Whether each seat holds a BATTALION of five, plays from it and may withdraw or swap POWER cards."""
        return None

    def battles(self, state: BomState) -> bool | None:
        """Whether the table fights battles now (Spy's Trivia names characters instead)."""
        return None

    def reads_in_tray(self) -> bool | None:
        """Whether a card leaving the scan tray is the reader taking it back (Spy's Trivia)."""
        return None

    def stops_when_players_stop(self) -> bool | None:
        """Whether the game ends when the players stop (the most cards wins)."""
        return None

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        """Why this card may not be played by this seat now (the refusal's reason), or None."""
        return None

    def by_value_only(self) -> bool | None:
        """Battles decided strictly by point value (ties are not broken by colour or shape)."""
        return None

    def hand(self, state: BomState, s: Piles) -> int | None:
        """How many cards the seat may put on the battlefield this round."""
        return None

    def commit(self, s: Piles, n: int) -> bool | None:
        """Take n played cards out of the seat's piles; True when done."""
        return None

    def refill(self, s: Piles) -> bool | None:
        """Refill the seat's BATTALION after a battle; True when done."""
        return None

    def spoils(self) -> bool | None:
        """Whether a seat left with only a BATTALION gives it up when it loses."""
        return None

    def one_card(self, state: BomState) -> str | None:
        """Why each seat plays exactly one CHARACTER card this round (a reason kind), or None."""
        return None

    def enough_for_tie(self, s: Piles) -> bool | None:
        return None

    def order(self, state: BomState, seats: list[int]) -> list[int] | None:
        return None

    def on_tie(self, game: Referee, state: BomState, plays: list["Play"],
               verdict: "Verdict") -> tuple[Outcome, ...] | None:
        """What a tie does (the outcomes it tells), or None: the basic rule."""
        return None

    # -- events (every variant in play that listens) -------------------------------------------------
    def start(self, state: BomState, game: Referee, dealt: list[int]) -> None:
        pass

    def after_battle(self, state: BomState) -> None:
        pass

    def new_round(self, state: BomState) -> None:
        pass

    def on_card(self, state: BomState, seat: int, key: str, is_power: bool, before: dict[int, list[str]]) -> None:
        pass


class Basic(BomVariant):
    """The basic game's rules: the defaults every variant changes from."""

    option = ""
    title = "Basic play"

    def mode(self) -> Mode:
        return Mode.BATTLE

    def with_powers(self) -> bool:
        return True

    def battalion(self) -> bool:
        return True

    def battles(self, state: BomState) -> bool:
        return True

    def reads_in_tray(self) -> bool:
        return False

    def stops_when_players_stop(self) -> bool:
        return False

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        return None

    def by_value_only(self) -> bool:
        return False

    def hand(self, state: BomState, s: Piles) -> int:
        return s.battalion

    def commit(self, s: Piles, n: int) -> bool:
        s.battalion -= n
        return True

    def refill(self, s: Piles) -> bool:
        """"Each player then draws enough cards from the top of his ARMY to replenish the number in
        his BATTALION to five.\""""
        piles.replenish(s)
        return True

    def spoils(self) -> bool:
        return True

    def one_card(self, state: BomState) -> str | None:
        return None

    def enough_for_tie(self, s: Piles) -> bool:
        """Three ARMY cards face down, then a new CHARACTER card from the BATTALION."""
        return s.army + s.discard >= 3 and s.battalion >= 1

    def order(self, state: BomState, seats: list[int]) -> list[int]:
        return state.in_turn_order(seats, state.options["first_seat"])


class Rules:
    """The variants in play, combined: a question is answered by the first variant in play that
    answers it (not None), else by the basic rule; an event goes to every variant in play. One
    method per hook, so a misspelt hook is an AttributeError (and a type error) where it is asked."""

    def __init__(self, variants: list[BomVariant]):
        self.variants = variants
        self.basic = Basic({})

    def has(self, kind: type[BomVariant]) -> BomVariant | None:
        return next((v for v in self.variants if isinstance(v, kind)), None)

    # -- questions --------------------------------------------------------------------------------------
    def mode(self) -> Mode:
        return _answer((v.mode() for v in self.variants), self.basic.mode)

    def with_powers(self) -> bool:
        return _answer((v.with_powers() for v in self.variants), self.basic.with_powers)

    def battalion(self) -> bool:
        return _answer((v.battalion() for v in self.variants), self.basic.battalion)

    def battles(self, state: BomState) -> bool:
        return _answer((v.battles(state) for v in self.variants), lambda: self.basic.battles(state))

    def reads_in_tray(self) -> bool:
        return _answer((v.reads_in_tray() for v in self.variants), self.basic.reads_in_tray)

    def stops_when_players_stop(self) -> bool:
        return _answer((v.stops_when_players_stop() for v in self.variants), self.basic.stops_when_players_stop)

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        return _maybe((v.refuse_card(state, seat, key, card) for v in self.variants),
                       lambda: self.basic.refuse_card(state, seat, key, card))

    def by_value_only(self) -> bool:
        return _answer((v.by_value_only() for v in self.variants), self.basic.by_value_only)

    def hand(self, state: BomState, s: Piles) -> int:
        return _answer((v.hand(state, s) for v in self.variants), lambda: self.basic.hand(state, s))

    def commit(self, s: Piles, n: int) -> bool | None:
        return _answer((v.commit(s, n) for v in self.variants), lambda: self.basic.commit(s, n))

    def refill(self, s: Piles) -> bool | None:
        return _answer((v.refill(s) for v in self.variants), lambda: self.basic.refill(s))

    def spoils(self) -> bool:
        return _answer((v.spoils() for v in self.variants), self.basic.spoils)

    def one_card(self, state: BomState) -> str | None:
        return _maybe((v.one_card(state) for v in self.variants), lambda: self.basic.one_card(state))

    def enough_for_tie(self, s: Piles) -> bool:
        return _answer((v.enough_for_tie(s) for v in self.variants), lambda: self.basic.enough_for_tie(s))

    def order(self, state: BomState, seats: list[int]) -> list[int]:
        return _answer((v.order(state, seats) for v in self.variants), lambda: self.basic.order(state, seats))

    def on_tie(self, game: Referee, state: BomState, plays: list["Play"], verdict: "Verdict") -> tuple[Outcome, ...]:
        return _answered((v.on_tie(game, state, plays, verdict) for v in self.variants),
                       lambda: self.basic.on_tie(game, state, plays, verdict))

    # -- events -----------------------------------------------------------------------------------------
    def start(self, state: BomState, game: Referee, dealt: list[int]) -> None:
        for v in self.variants:
            v.start(state, game, dealt)

    def after_battle(self, state: BomState) -> None:
        for v in self.variants:
            v.after_battle(state)

    def new_round(self, state: BomState) -> None:
        for v in self.variants:
            v.new_round(state)

    def on_card(self, state: BomState, seat: int, key: str, is_power: bool, before: dict[int, list[str]]) -> None:
        for v in self.variants:
            v.on_card(state, seat, key, is_power, before)


T = TypeVar("T")


def _answer(answers: Iterable[T | None], basic: Callable[[], T]) -> T:
    """The first answer that is not None (asked lazily, variant by variant), else the basic rule's."""
    for answer in answers:
        if answer is not None:
            return answer
    return basic()


def _answered(answers: Iterable[T | None], basic: Callable[[], T | None]) -> T:
    """``_answer`` for a hook the basic rule leaves to a variant (a tie only a variant lets happen)."""
    answer = _maybe(answers, basic)
    if answer is None:
        raise ValueError("the basic rule gave no answer")
    return answer


def _maybe(answers: Iterable[T | None], basic: Callable[[], T | None]) -> T | None:
    """``_answer`` for a question whose basic answer may be None (no reason, no rule)."""
    for answer in answers:
        if answer is not None:
            return answer
    return basic()


MAX_MINUTES = 24 * 60


# -- the small variants -------------------------------------------------------------------------------
class YoungPlayers(BomVariant):
    """"Remove all the POWER cards from the deck, then shuffle and deal out the CHARACTER cards.
    Each player draws the top card from his ARMY and lays it down faceup. The player with the
    highest card wins and takes the other players' cards and puts them in his discard pile. ...
    The winner is the one with the most cards when you stop playing.\""""

    option = "young_players"
    title = "Rules for Young Players"
    excludes = ("power_play", "secret_weapon", "spys_trivia")
    reasons = {
        "power_play": "The Rules for Young Players remove the POWER cards and have no BATTALION, so Power Play "
                      "has nothing to redraw.",
        "secret_weapon": "Under the Rules for Young Players each player turns up the top card of his ARMY: there is "
                         "no card to choose after seeing the others', and no POWER card to lay face down, so Secret "
                         "Weapon changes nothing.",
    }

    def mode(self) -> Mode:
        return Mode.YOUNG

    def with_powers(self) -> bool:
        return False

    def battalion(self) -> bool:
        return False

    def stops_when_players_stop(self) -> bool:
        return True

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        return Refused("young_no_power") if card.kind == POWER else None

    def hand(self, state: BomState, s: Piles) -> int:
        return s.army + s.discard

    def commit(self, s: Piles, n: int) -> bool:
        s.army -= n  # the top card of the ARMY; a reshuffle waits until the battle is over
        return True

    def refill(self, s: Piles) -> bool:
        return True  # no BATTALION to refill

    def spoils(self) -> bool:
        return False

    def one_card(self, state: BomState) -> str:
        return "young"

    def enough_for_tie(self, s: Piles) -> bool:
        """Three ARMY cards face down, then the next ARMY card."""
        return s.army + s.discard >= 4


class PowerPlay(BomVariant):
    """"Before each battle, the remaining cards in each BATTALION are placed facedown in the
    player's discard pile. Each time a player takes a turn, five new cards are drawn to form a new
    BATTALION." Before each battle means before the first one too: the BATTALION drawn at the deal
    goes to the discard pile and five new cards are drawn."""

    option = "power_play"
    title = "Power Play"

    def start(self, state: BomState, game: Referee, dealt: list[int]) -> None:
        for s in state.piles:
            piles.new_battalion(s)

    def refill(self, s: Piles) -> bool:
        piles.new_battalion(s)
        return True


class ShorterGame(BomVariant):
    """"Set a timer for 15 minutes (or the desired time of play). The player with the most cards
    when the timer goes off wins. In case of a tie, tied players shuffle their CHARACTER cards and
    draw one card randomly for battle." The timer is the tablet's; ``time_up`` ends the game (see
    battle.time_up); the tied seats' last battle is refereed here."""

    option = "shorter_game_minutes"
    title = "Rules for a Shorter Game"

    def problems(self, options: dict[str, Any], seats: int) -> list[str]:
        minutes = options[self.option]
        if not 0 <= minutes <= MAX_MINUTES:
            return [f"shorter_game_minutes must be 0 (no timer) to {MAX_MINUTES}, not {minutes}."]
        return []

    def refuse_card(self, state: BomState, seat: int, key: str, card: Card) -> Refused | None:
        if state.tiebreak is None:
            return None
        if card.kind == POWER:
            return Refused("last_battle_characters_only")
        if seat not in state.tiebreak:
            return Refused("last_battle_tied_only", tied=list(state.tiebreak))
        return None

    def hand(self, state: BomState, s: Piles) -> int | None:
        return 1 if state.tiebreak else None  # one card drawn at random from the seat's own cards

    def one_card(self, state: BomState) -> str | None:
        return "tiebreak" if state.tiebreak else None
