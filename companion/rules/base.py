"""The ruleset contract every game implements.

A ruleset is pure: no I/O, no clock, no randomness. It is folded over a game's event log:

    state = ruleset.setup(seats, options)                # from the log's "start" event
    for action in the rest of the log:
        result = ruleset.apply(state, action)           # Applied(new state, outcomes) or Refusal
        if isinstance(result, Applied): state = result.state

A ruleset is generic in its state type: a contract game's is a dataclass extending
``contract.GameState``; a bare ``Ruleset`` (a test's double) may use plain JSON data. Either way it
can be compared, copied and snapshotted. ``apply`` receives its own deep copy of the state and may
mutate it freely before returning it inside ``Applied``.

An action is one event of the log: ``Action(kind, data, source, seq)``. The kinds every game
receives are documented in docs/game-log.md: ``card_seen`` / ``card_gone`` (a card entered or left
a zone, from the camera or an RFID reader), ``resolve``, and game-specific commands. ``undo`` is
handled by the session, never by a ruleset (see ``Applied.reveals``).

What a seat may not see is removed by the views: ``public_view`` is what the table's tablet and
every watcher get; ``seat_view`` is what one seat's phone gets with that seat's token.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NotRequired, Required, TypedDict, TypeVar

from card_tags.catalog import Catalog
from card_tags.payload import CardRef

State = Any  # the session folds any game's state; each game types its own (``Ruleset[S]``)
S = TypeVar("S")


@dataclass(frozen=True)
class Seat:
    """A place at the table. Seats are numbered 1..N clockwise; ``name`` is the player's."""

    number: int
    name: str

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.number, "name": self.name}


@dataclass(frozen=True)
class Action:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    source: str = "dashboard"  # camera | rfid | dashboard | auto | replay
    seq: int = 0

    def card(self, game: str) -> CardRef:
        """The card a card_seen / card_gone action names (``data["card"]`` is a key like ``GD500#2``)."""
        return CardRef.from_key(game, self.data["card"])


class TermJSON(TypedDict):
    """A ``Term`` as the tablet reads it (its terms list)."""

    label: str
    value: Any
    detail: str


@dataclass(frozen=True)
class Term:
    """One step of an explanation: ``Term("Faith x10", 5000, "Alma 500 x 10")``."""

    label: str
    value: Any = None
    detail: str = ""

    def as_dict(self) -> TermJSON:
        return {"label": self.label, "value": self.value, "detail": self.detail}


@dataclass(frozen=True)
class Outcome:
    """Something the referee decided, with its reasons as data.

    ``kind`` names it (``battle``, ``combat``, ``round``, ``game_over``...), ``say`` is the sentence a
    player reads aloud, ``terms`` the reasoning, ``data`` anything a view or test needs
    (winner seat, values...). Outcomes are kept in the state's history by the ruleset.
    """

    kind: str
    say: str = ""  # filled by the game's view layer (contract games leave it empty)
    terms: tuple[Term, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)
    reveals: bool = False  # it showed a seat something hidden: undo never crosses it

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "say": self.say, "terms": [t.as_dict() for t in self.terms],
                "data": self.data}


@dataclass(frozen=True)
class Applied:
    state: State
    outcomes: tuple[Outcome, ...] = ()
    # True when this action showed a seat something that was hidden (a Stratego rank, an
    # identity). The session never lets undo cross such an action.
    reveals: bool = False


@dataclass(frozen=True)
class Refusal:
    """An input the rules do not allow. ``reason`` is the public wording (the game's view made it
    from ``code`` and ``data``), e.g. "Faith only multiplies a gold CHARACTER card under 1000
    (100-900); Korihor is black.". ``private`` is the full wording where the public one leaves a
    secret out: shown only on ``seat``'s own page."""

    reason: str
    seat: int | None = None
    code: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    private: str = ""


# -- the parts of a public view every game shares (docs/referee/contract.md) ---------------------------
@dataclass(frozen=True)
class Standing:
    """One seat as the tablet's seat box shows it: who, a one-line summary, the box's figures."""

    seat: int
    name: str
    say: str = ""
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Score(Standing):
    """A seat of a game won by a count (cards held, Warrior cards, victory points), as
    ``contract.scoreboard`` gives it: its ``score`` (also in ``counts`` under the game's word for
    it), and whether it is out of the game (``eliminated``: the tablet greys its box)."""

    score: int
    eliminated: bool = False


@dataclass(frozen=True)
class Result:
    """The line the table shows in big letters: the last thing decided, and its terms; ``details``
    is the whole story, shown only when a player taps for it (a round's end told seat by seat).
    ``kind``: the outcome kind it tells, where it tells one (a game's script may draw it its own
    way); ``battle``: the battle it tells of (a number, or a game's name for a battle that has none,
    "after the timer"). ``label`` heads the box in words ("Battle 12", "Combat 3", "Game over"), and
    ``previous`` says it tells of a battle that is no longer the one on the table (the box greys): both
    given by the contract from the game's view (``View.result_label``, ``View.result_previous``)."""

    say: str
    terms: tuple[Term, ...] = ()
    details: str = ""
    kind: str = ""
    battle: int | str | None = None
    label: str = ""
    previous: bool = False

    def as_dict(self) -> ResultJSON:
        return {"say": self.say, "terms": [t.as_dict() for t in self.terms], "details": self.details,
                "kind": self.kind, "battle": self.battle, "label": self.label, "previous": self.previous}


class ResultJSON(TypedDict):
    """A ``Result`` as the tablet reads it (the view's ``last_outcome``)."""

    say: str
    terms: list[TermJSON]
    details: str
    kind: str
    battle: int | str | None
    label: str
    previous: bool


class StandingJSON(TypedDict):
    """A ``Standing`` as the tablet reads it (a game's row may carry more: Stratego's ``colour``,
    a ``Score``'s ``score`` and ``eliminated``)."""

    seat: int
    name: str
    say: str
    counts: dict[str, int]
    score: NotRequired[int]
    eliminated: NotRequired[bool]


class CardFace(TypedDict):
    """A card drawn face up on the tablet (a seat's ``play``, a pile's top): its tag key, name and kind;
    a game's card may carry more (BATTLECARDS' unit figures)."""

    key: str
    name: str
    kind: str


class PlayedCard(TypedDict, total=False):
    """A card of a seat's ``play``, as the seat box draws it (app.js ``cardBox``): its tag key and name
    (a card lying face down may have no key and be named "face down"), and what its face shows. A
    game's card carries more, read by its own script (Book of Mormon's ``BomCard``, Warriors' ``LaidCard``)."""

    key: Required[str]
    name: Required[str]
    kind: str                    # "power" draws a POWER card
    value: int                   # a CHARACTER card's suit: value, colour and shape
    color: str
    shape: str
    pronunciation: str           # under the name, in brackets


class SeatBox(TypedDict, total=False):
    """A row of a game's own ``seats`` list: a seat box of the tablet (app.js ``seatBox``), with the
    keys the tablet reads; a game's row extends it with its own (read by its own script). Where a
    game gives no ``seats``, its standings are the boxes (the same keys, from ``Standing``)."""

    seat: Required[int]
    name: Required[str]
    play: list[PlayedCard]       # the cards it has laid, drawn as cards; absent: no plays on the table
    counts: dict[str, int]       # the box's small figures by name (army, battalion, discard, hand, captured, points)
    army: int                    # ... or, for a row without ``counts``, the same figures in the row itself
    battalion: int
    discard: int
    hand: int
    captured: int
    total: int                   # the box's big number (cards held, victory points), worded by ``total_label``
    total_label: str
    points: int | None           # a play's value where the game counts cards, the big number where it counts points
    score: int
    eliminated: bool             # out of the game: the box greyed, with ``out_words`` ("out of the game")
    out_words: str
    withdrawn: bool              # sits out this battle
    colour: str                  # a seat's colour (Stratego's red and blue)
    say: str | None              # the seat's one line, quoted under its cards
    problem: str | None          # what is wrong with its play, under its name


class Conflict(TypedDict):
    """A problem on the table the tablet's problems box shows (its ``say``); a game adds its facts."""

    say: str


@dataclass(frozen=True)
class Button:
    """A button the tablet shows: its label, the input it sends and that input's data. ``confirm``
    is the question asked first; ``choose`` a picker: ``{"field": .., "options": [{"value", "label"}]}``."""

    label: str
    kind: str
    data: dict[str, Any]
    confirm: str = ""
    choose: ChooseJSON | None = None

    def as_dict(self) -> ButtonJSON:
        out: ButtonJSON = {"label": self.label, "kind": self.kind, "data": self.data}
        if self.confirm:
            out["confirm"] = self.confirm
        if self.choose is not None:
            out["choose"] = self.choose
        return out


class ChoiceJSON(TypedDict):
    """One entry of a button's picker: the value sent, and the words shown."""

    value: Any
    label: str


class ChooseJSON(TypedDict):
    """A button's picker: the field of the input's data it fills, and its entries."""

    field: str
    options: list[ChoiceJSON]


class ButtonJSON(TypedDict):
    """A ``Button`` as the tablet reads it (the view's ``actions``)."""

    label: str
    kind: str
    data: dict[str, Any]
    confirm: NotRequired[str]
    choose: NotRequired[ChooseJSON]


class SetupError(ValueError):
    """The game cannot start with these players, options or deck; the message says why."""


@dataclass(frozen=True)
class Option:
    """A variant or setting chosen at game start and recorded in the log."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None  # None: a bool if default is bool, else free int
    label: str = ""  # the setup form's words for it ("Spy's Trivia"); the name is for the log
    choice_labels: tuple[str, ...] = ()  # words for each choice, in the order of ``choices``
    seat: bool = False  # its value is a seat (who deals or plays first): chosen and shown by the player's name

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "default": self.default, "help": self.help, "seat": self.seat,
                "choices": list(self.choices) if self.choices is not None else None,
                "label": self.label or self.name.replace("_", " ").capitalize(),
                "choice_labels": list(self.choice_labels) or
                ([str(c) for c in self.choices] if self.choices is not None else None)}


class Ruleset(Generic[S]):
    """Base class of every game's referee. Subclasses set the class attributes and override
    ``setup``, ``apply``, ``public_view`` and ``seat_view``."""

    game: ClassVar[str]                 # the game id, its line in card_tags.games.GAMES
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    zones: ClassVar[tuple[str, ...]] = ("seat",)  # zone kinds this game reads (see scan.zones)
    # False where the page's own Resolve button is not shown: plays resolve themselves (a Stratego
    # combat), or the game offers Resolve among its buttons (contract.Game: a ``resolve`` input with
    # ``button=True``, offered only when it would be taken).
    uses_resolve: ClassVar[bool] = True

    @classmethod
    def load_catalog(cls, deck: Any = None) -> Catalog:
        """The game's deck: the reference deck, a custom deck's path, or a deck recorded in a log.
        A game whose cards are not in card_tags (a test's toy game) overrides this."""
        from card_tags import catalog as catalogs

        try:
            return catalogs.load_game(cls.game, deck)
        except catalogs.CatalogError as exc:
            raise SetupError(str(exc)) from None

    def __init__(self, catalog: Catalog):
        problems = self.check_catalog(catalog)
        if problems:
            raise SetupError(f"{catalog.source}: " + "; ".join(problems))
        self.catalog = catalog

    # -- things a subclass may override -------------------------------------------------------
    @classmethod
    def check_catalog(cls, catalog: Catalog) -> list[str]:
        """Problems that make this deck unplayable under this referee, beyond the rulebook's counts
        that card_tags.games.<game>.check already enforces."""
        return []

    def setup(self, seats: list[Seat], options: dict[str, Any]) -> S:
        raise NotImplementedError

    def apply(self, state: S, action: Action) -> Applied | Refusal:
        raise NotImplementedError

    def public_view(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def seat_view(self, state: S, seat: int) -> dict[str, Any]:
        """By default a seat sees what the table sees; games with secrets add to it."""
        return self.public_view(state)

    def actions(self, state: S) -> list[ButtonJSON]:
        """The commands the tablet should offer now, as buttons: ``[{"label": "Ann sits out this
        battle", "kind": "withdraw", "data": {"seat": 1}}]``. Optional ``"confirm"`` asks first;
        ``"choose"``: ``{"field": "card", "options": [{"value": .., "label": ..}]}`` asks for a value.
        Every button still goes through ``apply``; this only saves players typing."""
        return []

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """An event's data as the public history may show it. Games whose scanned cards are secret
        (a Stratego piece shown to the camera, a hidden identity) remove the card here."""
        if data.get("hidden"):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data

    def is_over(self, state: S) -> bool:
        return bool(state.get("over")) if isinstance(state, dict) else bool(getattr(state, "over", False))

    def ready_to_resolve(self, state: S) -> bool:
        """True when the session may resolve without a tap (every active seat has played).
        The session adds the "cards are stable" condition with its own clock."""
        return False

    # -- helpers shared by all games ----------------------------------------------------------
    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and check every option; raise SetupError naming a bad one."""
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise SetupError(f"{self.title} has no option {unknown[0]!r}; options are {sorted(known)}")
        resolved = {}
        for name, opt in known.items():
            value = options.get(name, opt.default)
            if opt.choices is not None and value not in opt.choices:
                raise SetupError(f"option {name!r} must be one of {list(opt.choices)}, not {value!r}")
            if opt.choices is None and type(value) is not type(opt.default):
                raise SetupError(f"option {name!r} must be a {type(opt.default).__name__}, not {value!r}")
            resolved[name] = value
        return resolved

    def check_seats(self, seats: list[Seat]) -> None:
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise SetupError(f"{self.title} is for {self.min_seats} to {self.max_seats} players, not {len(seats)}")
        numbers = [s.number for s in seats]
        if numbers != list(range(1, len(seats) + 1)):
            raise SetupError(f"seats must be numbered 1..{len(seats)} clockwise, not {numbers}")

    def card_name(self, key: str) -> str:
        catalog = getattr(self, "catalog", None)
        card = catalog.cards.get(key.partition("#")[0]) if catalog else None
        return card.name if card else key
