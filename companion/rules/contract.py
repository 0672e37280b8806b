"""The one referee contract every game implements (docs/referee/contract.md).

A game is a ``Game`` subclass in its own package under ``companion/rules/<game>/``. It declares:

- ``options``: its settings and variants (``Option``), chosen at the start and recorded in the log;
  variants that change the rules are units (``Variant`` subclasses), switched on by their option;
- a typed state: a dataclass extending ``GameState`` (never a free dict);
- ``inputs``: the table of inputs it takes (``Input``): in which phases, who may act, what the
  input carries (``Field``) and which method handles it. The contract checks every input against
  its row before the handler runs, so a handler starts from well-formed data;
- handlers ``(state, data) -> tuple[Outcome, ...] | None`` that change the (private copy of the)
  state and return what they decided as data; a rule that forbids the input raises ``Refused``
  with the rulebook's reason. That is the only way a refusal is made;
- ``view``: its view layer (a ``View`` subclass), where every sentence players read is made:
  outcome sentences, the prompt, button labels, the public and seat views;
- ``zones``: the camera zones it reads (see companion/scan/zones.py).

The contract does the rest once, for every game: the card key check (``ID#copy`` of the game's
catalog), a card seen again where it already lies is the same card, the phase and actor checks,
turning ``Refused`` into a ``Refusal``, the tablet's buttons derived from the declared inputs
(each candidate tried through ``apply``, so a button is offered only where it would be taken), and,
for a state that extends ``ToldState``, what the table was told (``Told`` data for the result box and
a recent list).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Collection, Generic, Iterable, Mapping, TypedDict, TypeVar, cast

from card_tags.catalog import Card, Catalog

from .base import (Action, Applied, Button, ButtonJSON, Option, Outcome, Refusal, Result, ResultJSON, Ruleset, Score,
                   Seat, SetupError, Standing, StandingJSON, Term)
from .statecopy import copy_state

SayFn = TypeVar("SayFn", bound=Callable[..., str])

SEAT, SEATS, CARD, ZONE, INT, STR, BOOL = "seat", "seats", "card", "zone", "int", "str", "bool"
FIELD_KINDS = (SEAT, SEATS, CARD, ZONE, INT, STR, BOOL)


class Refused(Exception):
    """Raised by a rule that forbids an input: a reason ``code`` the game declares (``Game.reasons``)
    and the facts the view needs to word it (``data``). The contract turns it into a ``Refusal``
    worded by the game's view (``View.refusals``), quoting the rulebook; no rule writes a sentence."""

    def __init__(self, code: str, seat: int | None = None, **data: Any):
        super().__init__(code)
        self.code = code
        self.seat = seat
        self.data = data


# The reasons the contract itself refuses an input for, worded by View.refusals (every game's).
CONTRACT_REASONS = frozenset({
    "unknown_input", "not_an_object", "game_over", "not_now", "missing_field", "not_seats", "not_a_zone",
    "wrong_type", "not_a_seat", "not_a_card_key", "not_in_deck", "no_such_copy"})


def _filled(code: str, words: str, facts: dict[str, Any]) -> str:
    """A refusal's words filled in with its facts; a fact the words need and the rule did not give
    is a bug named by code and fact, not a bare KeyError."""
    try:
        return words.format(**facts)
    except KeyError as missing:
        raise ValueError(f"the words of the refusal {code!r} need {missing}, which its data does not give") from None


@dataclass(frozen=True)
class Field:
    """One thing an input carries. ``kind`` is one of FIELD_KINDS: ``seat`` (a seat of this table,
    given as a number or digits), ``seats`` (a list of them, or "1,3"), ``card`` (a key ``ID#copy``
    of this game's catalog), ``zone`` (a zone name like ``seat:2``), or a plain int, str, bool."""

    name: str
    kind: str
    optional: bool = False

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name!r}: kind {self.kind!r} is not one of {FIELD_KINDS}")


TABLE, SEAT_ACTS, CAMERA = "table", "seat", "camera"


@dataclass(frozen=True)
class Input:
    """A row of a game's input table.

    ``phases``: the phases in which it is taken (empty: every phase). ``actor``: ``camera`` (a
    card laid or lifted, from the camera or a reader), ``seat`` (one seat acts; its number is the
    ``seat`` field) or ``table`` (the table as a whole, through the tablet). ``handler``: the name
    of the game's method. ``button``: offered on the tablet when it would be taken; ``confirm``:
    the tablet asks first. ``choices``: for a button, the name of a game method ``(state) ->
    list of data`` giving the candidates to try (by default every seat for a seat input).
    ``chooser``: the field whose candidates are gathered into one button with a picker (a rescue's
    piece), instead of a button each.
    """

    kind: str
    handler: str
    fields: tuple[Field, ...] = ()
    phases: tuple[str, ...] = ()
    actor: str = TABLE
    button: bool = False
    confirm: bool = False
    choices: str = ""
    chooser: str = ""  # a field whose candidate values are offered in one button's picker

    def __post_init__(self) -> None:
        if self.actor not in (TABLE, SEAT_ACTS, CAMERA):
            raise ValueError(f"input {self.kind!r}: actor {self.actor!r}")
        if self.actor == SEAT_ACTS and not any(f.name == "seat" and f.kind == SEAT for f in self.fields):
            raise ValueError(f"input {self.kind!r}: a seat input carries a 'seat' field")


# The two inputs every game takes from the table itself: a card entered or left a zone.
def card_inputs(phases: tuple[str, ...] = (), seen: str = "on_card_seen", gone: str = "on_card_gone",
                extra: tuple[Field, ...] = ()) -> tuple[Input, Input]:
    fields = (Field("card", CARD), Field("zone", ZONE), Field("face_down", BOOL, optional=True),
              Field("uid", STR, optional=True), Field("hidden", BOOL, optional=True), *extra)
    return (Input("card_seen", seen, fields, phases, CAMERA), Input("card_gone", gone, fields, phases, CAMERA))


@dataclass(kw_only=True)
class GameState:
    """What every game's state holds besides its own fields. A game's state is a dataclass that
    extends this one (``@dataclass(kw_only=True)``) and holds plain data only, so that the session
    can copy, compare and snapshot it.

    ``lying``: card key -> the zones it lies in now, as the table has reported it (kept by the
    contract, from the card inputs it applied).
    """

    seats: list[Seat]
    options: dict[str, Any]
    lying: dict[str, list[str]] = field(default_factory=dict)
    over: bool = False

    def lift(self, key: str, zone: str | None = None) -> None:
        """The card no longer lies in ``zone`` (or anywhere), whether the table reported it going or
        the rules know it left (taken into a hand, reshuffled, destroyed): seen there again, it is new."""
        zones = self.lying.get(key, [])
        if zone is None:
            zones.clear()
        elif zone in zones:
            zones.remove(zone)
        if not zones:
            self.lying.pop(key, None)

    def seat_numbers(self) -> list[int]:
        return [s.number for s in self.seats]

    # Turn order: seats are numbered clockwise round the table, so "left" is the next number.
    def left_of(self, seat: int) -> int:
        """The next seat clockwise (the last seat's left is the first)."""
        numbers = self.seat_numbers()
        return numbers[(numbers.index(seat) + 1) % len(numbers)]

    def right_of(self, seat: int) -> int:
        """The next seat counter-clockwise (play reversed; the first seat's right is the last)."""
        numbers = self.seat_numbers()
        return numbers[(numbers.index(seat) - 1) % len(numbers)]

    def clockwise(self, first: int) -> list[int]:
        """Every seat once, in turn order, starting with ``first``."""
        numbers = self.seat_numbers()
        start = numbers.index(first)
        return numbers[start:] + numbers[:start]

    def in_turn_order(self, seats: Iterable[int], first: int) -> list[int]:
        """``seats`` in turn order counting from ``first`` (which need not be one of them)."""
        chosen = set(seats)
        return [n for n in self.clockwise(first) if n in chosen]

    def name(self, seat: int) -> str:
        return next((s.name for s in self.seats if s.number == seat), f"seat {seat}")


@dataclass(kw_only=True, frozen=True)
class Told:
    """An outcome the table was told, kept in the state as data: its kind and the rules' facts, worded
    again by the view each time it is shown (no sentence is kept, so a snapshot never holds wording).
    Frozen, and shared by the copies of the state the session and the tablet's buttons make: the rules
    never change an outcome's data once told."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Told":
        return self


@dataclass(kw_only=True)
class ToldState(GameState):
    """The state of a game whose tablet shows what the table was told: the contract keeps it after
    every input that decided something (``Game.recent_kept``, ``Game.result_kinds``), as ``Told`` data.

    ``last``: what the latest input that decided something decided (of the ``result_kinds``, where a
    game names them): the tablet's result box. ``recent``: the latest outcomes, for a recent list.
    The whole history is the game log."""

    last: list[Told] = field(default_factory=list)
    recent: list[Told] = field(default_factory=list)


GS = TypeVar("GS", bound=GameState)


def zone_seat(zone: Any, kinds: tuple[str, ...] = ("seat", "reader")) -> int | None:
    """The seat a zone belongs to: "seat:N" (its area of the table) or "reader:N" (its own RFID
    reader) -> N; any other zone (the centre, the scan tray), or another kind -> None. Whether N is
    a seat of this table is the caller's check (its refusal names what the game calls the place)."""
    if not isinstance(zone, str):
        return None
    kind, _, number = zone.partition(":")
    if kind in kinds and number.isascii() and number.isdigit():
        return int(number)
    return None


class Variant:
    """One variant of a game as a unit: named by the option that switches it on, readable and
    testable alone. A game defines its own variant base class with the hooks its rules call (no-op
    by default) and lists its variants; ``Game.variants_for(options)`` gives the ones in play.

    ``excludes``: variants (by option) the rulebook does not combine with this one: the start is
    refused, with ``reasons[option]`` (why, in the rulebook's terms) or a plain sentence.
    """

    option: ClassVar[str]
    title: ClassVar[str]
    excludes: ClassVar[tuple[str, ...]] = ()
    reasons: ClassVar[dict[str, str]] = {}   # excluded option -> why the two are not played together

    def __init__(self, options: dict[str, Any]):
        self.options = options

    @classmethod
    def on(cls, options: dict[str, Any]) -> bool:
        return bool(options.get(cls.option))


def clashes(variants: list[type[Variant]]) -> list[str]:
    """Why these variants are not played together: each excluded pair once, with its reason (either
    side's), else a plain sentence."""
    found: list[str] = []
    for v in variants:
        for w in variants:
            if w.option in v.excludes:
                reason = v.reasons.get(w.option) or w.reasons.get(v.option) or \
                    f"{v.title} and {w.title} are not played together."
                if reason not in found:
                    found.append(reason)
    return found


class TableJSON(TypedDict):
    """The shared part of every game's public view (and of a seat's view), as the tablet reads it:
    ``TableView`` serialised. docs/referee/contract.md names each key."""

    phase: str
    progress: list[str]
    prompt: str
    over: bool
    options: dict[str, Any]
    standings: list[StandingJSON]
    winners: list[int]
    winner: int | None
    last_outcome: ResultJSON | None


@dataclass(frozen=True)
class TableView:
    """The part of the public view (and of a seat's view) every game shares, typed: what the
    tablet's scripts read for any game (docs/referee/contract.md lists each field). A game's own
    part follows it in the view, typed by the game (``View.public``); it never gives these keys
    again (tests/test_contract.py checks every game)."""

    phase: str
    prompt: str
    over: bool
    options: dict[str, Any]
    standings: tuple[Standing, ...] = ()
    winners: tuple[int, ...] = ()
    last_outcome: Result | None = None
    progress: tuple[str, ...] = ()   # the header line: where the game stands, in short phrases

    def as_dict(self) -> TableJSON:
        return {"phase": self.phase, "progress": list(self.progress), "prompt": self.prompt, "over": self.over, "options": self.options,
                "standings": [cast(StandingJSON, plain(s)) for s in self.standings], "winners": list(self.winners),
                "winner": self.winners[0] if len(self.winners) == 1 else None,
                "last_outcome": None if self.last_outcome is None else self.last_outcome.as_dict()}


def scoreboard(seats: Iterable[Seat], scores: Mapping[int, int], unit: str, *, out: Collection[int] = (),
               counts: Mapping[int, Mapping[str, int]] | None = None,
               say: Mapping[int, str] | None = None) -> tuple[Score, ...]:
    """The standings of a game won by a count, the same for every such game: each seat with its
    score (``scores``, seat -> number; ``unit`` names it in the seat's ``counts``: "cards",
    "points"), most first and equal scores in seat order, whether it is ``out`` of the game, the
    game's other figures for the seat (``counts``) and its one-line summary (``say``, worded by the view)."""
    rows = [Score(seat=s.number, name=s.name, say=(say or {}).get(s.number, ""), score=scores[s.number],
                  counts={unit: scores[s.number], **(counts or {}).get(s.number, {})}, eliminated=s.number in out)
            for s in seats]
    return tuple(sorted(rows, key=lambda row: (-row.score, row.seat)))


def capitalized(text: str) -> str:
    """A phrase as the header line starts it: its first letter a capital, the rest as written."""
    return text[:1].upper() + text[1:]


# Each view is made plain on every event for the tablet and every phone: the types met most are checked
# by identity first, and a dataclass's field names are looked up once per class (dataclasses.fields and
# is_dataclass were a third to a half of a view's time).
_AS_IS = frozenset({str, int, float, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def plain(part: Any) -> Any:
    """A typed view part (dataclasses, tuples) as the JSON the tablet reads."""
    kind = type(part)
    if kind in _AS_IS:
        return part
    if kind is dict:
        return {k: plain(v) for k, v in part.items()}
    if kind is list or kind is tuple:
        return [plain(p) for p in part]
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(part) or isinstance(part, type):
            if isinstance(part, (list, tuple)):
                return [plain(p) for p in part]
            if isinstance(part, dict):
                return {k: plain(v) for k, v in part.items()}
            return part
        names = _FIELD_NAMES.setdefault(kind, tuple(f.name for f in dataclasses.fields(part)))
    return {name: plain(getattr(part, name)) for name in names}


@dataclass(frozen=True)
class Offer:
    """A button the tablet may show: the input it sends and the data it carries."""

    kind: str
    data: dict[str, Any]
    confirm: bool = False


@dataclass(frozen=True)
class KeptOffers(Generic[GS]):
    """The offers last found (``Game.offers``): for which state object, a copy of it as it was then."""

    state: GS
    seen: GS
    offers: tuple[Offer, ...]


# How the contract's own refusals are worded (a view may say them otherwise in its ``refusals``).
CONTRACT_WORDS: dict[str, str] = {
    "unknown_input": "{title} takes no input {kind!r}; it takes {taken}.",
    "not_an_object": "{kind} carries its data as an object with {fields}.",
    "missing_field": "{kind} needs {field!r}: {fields}.",
    "not_seats": "{kind}: {field!r} is a list of seats, e.g. [1, 3].",
    "not_a_zone": "{kind}: {field!r} is a zone name like 'seat:2', not {value!r}.",
    "wrong_type": "{kind}: {field!r} is a {wanted}, not {value!r}.",
    "not_a_seat": "{kind} needs a seat of this table ({first}-{last}), not {value!r}.",
    "not_a_card_key": "{key!r} is not a card of {title}: a card is named by its tag, like '{example}'.",
    "not_in_deck": "{card_id!r} is not a card of this {title} deck.",
    "no_such_copy": "{key!r}: the deck has {copies} {copy_word} of {name} ({card_id}#1{last_copy}).",
}


def says(*kinds: str) -> Callable[[SayFn], SayFn]:
    """Marks a ``View`` method as the sentence of these outcome kinds: ``@says("combat")``."""
    def mark(method: SayFn) -> SayFn:
        method.says = kinds  # type: ignore[attr-defined]
        return method
    return mark


class View(Generic[GS]):
    """A game's view layer: every word players read, built from the state and outcome data.
    Subclasses override what their game shows; nothing here decides a rule.

    ``refusals``: the words of each reason code the game's rules refuse with, a format string
    over the refusal's data (``refusal_facts`` adds what the words need from the state).
    ``public_refusals``: for a code whose full words would tell the table a secret (a Bomb lifted
    as an attacker), the words the public reads; the full words reach only that seat's page.
    Outcome sentences are methods marked ``@says(kind)``, one per declared outcome kind."""

    refusals: ClassVar[dict[str, str]] = {}
    public_refusals: ClassVar[dict[str, str]] = {}
    sayers: ClassVar[dict[str, str]] = {}  # outcome kind -> the method marked @says for it (gathered)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.sayers = {**cls.sayers}
        for name, member in vars(cls).items():
            for kind in getattr(member, "says", ()):
                cls.sayers[kind] = name

    def __init__(self, game: "Game[GS]"):
        self.game = game

    def say(self, outcome: Outcome, state: GS) -> str:
        """The sentence an outcome is told in (read aloud, shown big on the tablet)."""
        name = self.sayers.get(outcome.kind)
        if name is not None:
            return str(getattr(self, name)(outcome, state))
        # registration checks every declared kind has its sentence, and the contract refuses an
        # undeclared one before it is told: only a bug comes here
        raise ValueError(f"{type(self).__name__} has no sentence for an outcome {outcome.kind!r} (@says)")

    @classmethod
    def words_for(cls, code: str) -> bool:
        """True when this view words the refusal ``code``."""
        return code in cls.refusals or code in CONTRACT_WORDS or code in ("not_now", "game_over")

    def refusal_facts(self, code: str, data: dict[str, Any], state: GS) -> dict[str, Any]:
        """The facts a refusal's words are made from: its data, plus what a game adds from the
        state (a seat's name)."""
        return data

    def refusal(self, code: str, data: dict[str, Any], state: GS) -> tuple[str, str]:
        """(the public words, the full words) of a refusal; the same unless a secret is left out."""
        if code == "not_now":
            words = self.not_now(data["kind"], state, data["phase"], tuple(data["phases"]))
            return words, words
        if code == "game_over":
            return self.game_over(state), self.game_over(state)
        facts = {"title": self.game.title, **self.refusal_facts(code, data, state)}
        if code == "no_such_copy":
            copies = facts["copies"]
            facts.update(copy_word="copy" if copies == 1 else "copies",
                         last_copy=f" to {facts['card_id']}#{copies}" if copies > 1 else "")
        worded = self.refusals.get(code) or CONTRACT_WORDS.get(code)
        if worded is None:
            raise ValueError(f"{type(self).__name__} has no words for the refusal {code!r} (View.refusals)")
        full = _filled(code, worded, facts)
        public = _filled(code, self.public_refusals[code], facts) if code in self.public_refusals else full
        return public, full

    def prompt(self, state: GS, offers: list[Offer]) -> str:
        """Who does what next, and where the cards go."""
        return ""

    def terms(self, outcome: Outcome, state: GS) -> tuple[Term, ...]:
        """An outcome's terms as players read them (a view may name them by what the viewer knows)."""
        return outcome.terms

    def button(self, offer: Offer, state: GS) -> str:
        return offer.kind.replace("_", " ")

    def not_now(self, kind: str, state: GS, phase: str, phases: tuple[str, ...]) -> str:
        """Why an input declared for other phases is refused now (a game says it in its rulebook's terms)."""
        return f"{kind} is not taken now: the game is in its {phase} phase ({kind} belongs to {' or '.join(phases)})."

    def game_over(self, state: GS) -> str:
        """Why a command is refused once the game is over."""
        return "The game is over."

    def confirm(self, offer: Offer, state: GS) -> str:
        """The question a button asks before it is sent (inputs declared ``confirm=True``)."""
        return f"{self.button(offer, state)}?"

    def choice(self, offer: Offer, field: str, state: GS) -> str:
        """How one candidate value of a chooser button is shown in its picker."""
        return str(offer.data[field])

    # -- the shared part of the views (every game gives its own; these defaults show nothing)
    def standings(self, state: GS, viewer: int | None) -> tuple[Standing, ...]:
        """Each seat as ``viewer`` (None: the table) may know it, in seat order."""
        return ()

    def winners(self, state: GS) -> tuple[int, ...]:
        """The seats that won the game (none until it is over)."""
        return ()

    def result(self, state: GS, viewer: int | None) -> Result | None:
        """The line shown big: the last thing decided, as ``viewer`` may know it."""
        return None

    def result_of(self, kind: str, data: dict[str, Any], state: GS, battle: int | str | None = None) -> Result:
        """An outcome the state keeps as data (its kind and facts, never its words), told again as the
        table heard it: the game's ``result`` feeds it the last one."""
        outcome = Outcome(kind, data=data)
        return Result(self.say(outcome, state), tuple(self.terms(outcome, state)), kind=kind, battle=battle)

    # -- the header line and the result box's heading: words, the game's, in the contract's places
    def progress(self, state: GS) -> tuple[str, ...]:
        """Where the game stands, as the short phrases of the tablet's header line ("Battle 12",
        "Turn 4", the phase in words): by default the phase in words; a game with a count of its
        battles or turns puts it first (``(f"Battle {state.battle}", *super().progress(state))``)."""
        phase = self.game.phase(state)
        return (capitalized(self.phase_words(state) or phase.replace("_", " ")),) if phase else ()

    def phase_words(self, state: GS) -> str:
        """The phase as players name it (by default its code, underscores as spaces)."""
        return self.game.phase(state).replace("_", " ")

    def result_label(self, state: GS, result: Result) -> str:
        """What heads the result box: which battle (combat, round) it tells of; by default its
        ``battle`` when that is a number ("Battle 3"), else nothing."""
        return f"Battle {result.battle}" if isinstance(result.battle, int) else ""

    def result_previous(self, state: GS, result: Result) -> bool:
        """Whether the result tells of a battle that is no longer the one on the table (cards of the
        next one are down): the box greys and its label says "(previous)". By default never."""
        return False

    def headed(self, state: GS, result: Result | None) -> Result | None:
        """The result with its heading: "Game over" once the game is, else the game's label, marked
        "(previous)" when the game says the result is of an earlier battle."""
        if result is None:
            return None
        if state.over:
            return dataclasses.replace(result, label="Game over", previous=False)
        label, previous = self.result_label(state, result), self.result_previous(state, result)
        return dataclasses.replace(result, label=f"{label} (previous)" if previous and label else label, previous=previous)

    def table(self, state: GS, viewer: int | None, prompt: str) -> TableView:
        return TableView(phase=self.game.phase(state), prompt=prompt, over=bool(state.over),
                         options=state.options, standings=self.standings(state, viewer),
                         winners=self.winners(state), last_outcome=self.headed(state, self.result(state, viewer)),
                         progress=self.progress(state))

    def public(self, state: GS) -> Any:
        """The game's own part of the public view: a frozen dataclass, its fields documented on the
        game's page (docs/referee/contract.md, "The views, typed where the tablet reads them")."""
        raise NotImplementedError

    def seat(self, state: GS, seat: int) -> Any:
        """The game's own part of a seat's view (by default the public one)."""
        return self.public(state)

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """An event's data as the public history may show it: secret cards removed."""
        if data.get("hidden"):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data


class Game(Ruleset[GS]):
    """Base class of every game's referee (see the module docstring)."""

    state_type: ClassVar[type[GameState]] = GameState
    inputs: ClassVar[tuple[Input, ...]] = ()
    variants: ClassVar[tuple[type[Variant], ...]] = ()
    view_type: ClassVar[type[View[Any]]] = View
    face_down_lies: ClassVar[bool] = True  # a card read face down lies where it was read (see _track)
    # What the game's rules decide and refuse, declared: every outcome kind has its sentence in the
    # view (a method marked @says) and every reason code its words (View.refusals); checked when the
    # game is registered (a game that declares none of either is refused there).
    outcome_kinds: ClassVar[frozenset[str]] = frozenset()
    reasons: ClassVar[frozenset[str]] = frozenset()
    # What a ``ToldState`` keeps of the outcomes told: how many in ``recent`` (0: none), and which kinds
    # make its ``last`` (empty: every kind; an input that decides none of them leaves ``last`` as it was).
    recent_kept: ClassVar[int] = 0
    result_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The Resolve button is given once: a game that declares ``resolve`` a button gets it among
        its buttons, offered only when it would be taken, and the page's own Resolve (for games
        whose resolve is no button) is hidden; two buttons for one step would be one too many."""
        super().__init_subclass__(**kwargs)
        if any(i.kind == "resolve" and i.button for i in cls.inputs):
            cls.uses_resolve = False

    @classmethod
    def check_declarations(cls) -> list[str]:
        """What the game declares and does not have: an input's handler or candidates method, a
        chooser that is no field, a variant excluding no variant, an outcome kind without its
        sentence, a reason code without its words. Checked when the game is registered."""
        problems = []
        for spec in cls.inputs:
            for what, name in (("handler", spec.handler), ("choices", spec.choices)):
                if name and not callable(getattr(cls, name, None)):
                    problems.append(f"input {spec.kind!r}: its {what} {name!r} is no method of {cls.__name__}")
            if spec.chooser and spec.chooser not in {f.name for f in spec.fields}:
                problems.append(f"input {spec.kind!r}: chooser {spec.chooser!r} is none of its fields")
        options = {v.option for v in cls.variants}
        for variant in cls.variants:
            problems += [f"variant {variant.__name__} excludes {o!r}, which is no variant's option"
                         for o in variant.excludes if o not in options]
        if not cls.outcome_kinds:
            problems.append(f"{cls.__name__} declares no outcome kinds (Game.outcome_kinds)")
        if not cls.reasons:
            problems.append(f"{cls.__name__} declares no reason codes (Game.reasons)")
        problems += [f"outcome {k!r} has no sentence in {cls.view_type.__name__} (@says)"
                     for k in sorted(cls.outcome_kinds) if k not in cls.view_type.sayers]
        problems += [f"refusal {r!r} has no words in {cls.view_type.__name__}.refusals"
                     for r in sorted(cls.reasons | CONTRACT_REASONS) if not cls.view_type.words_for(r)]
        return problems

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.view = self.view_type(self)
        self._inputs = {i.kind: i for i in self.inputs}
        self._offers_cache: KeptOffers[GS] | None = None

    # -- what a game implements -------------------------------------------------------------------
    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> GS:
        raise NotImplementedError

    def phase(self, state: GS) -> str:
        """The phase the game is in now; inputs are declared per phase."""
        return "play"

    # -- the contract -----------------------------------------------------------------------------
    def setup(self, seats: list[Seat], options: dict[str, Any]) -> GS:
        self.check_seats(seats)
        options = self.resolve_options(options)
        self.check_variants(options)
        return self.new_state(seats, options)

    def variants_for(self, options: dict[str, Any]) -> list[Variant]:
        return [v(options) for v in self.variants if v.on(options)]

    def check_variants(self, options: dict[str, Any]) -> None:
        """Refuse a start whose variants the rulebook does not combine (every clash, with its reason)."""
        problems = clashes([v for v in self.variants if v.on(options)])
        if problems:
            raise SetupError(" ".join(problems))

    def apply(self, state: GS, action: Action) -> Applied | Refusal:
        spec = self._inputs.get(action.kind) if isinstance(action.kind, str) else None
        if spec is None:
            return self.refusal(Refused("unknown_input", kind=action.kind, taken=", ".join(sorted(self._inputs))),
                                state)
        try:
            data = self.check_input(state, spec, action.data)
            if spec.kind == "card_seen" and data["zone"] in state.lying.get(data["card"], ()):
                return Applied(state)  # the same card seen again where it lies: nothing new
            outcomes = getattr(self, spec.handler)(state, data) or ()
        except Refused as refused:
            return self.refusal(refused, state)
        self._track(state, spec.kind, data)
        outcomes = tuple(self._worded(o, state) for o in outcomes)
        self._keep_told(state, outcomes)
        return Applied(state, outcomes, any(o.reveals for o in outcomes))

    def _keep_told(self, state: GS, outcomes: tuple[Outcome, ...]) -> None:
        """What the input decided, kept as data where the game's state keeps it (``ToldState``)."""
        if not outcomes or not isinstance(state, ToldState):
            return
        told = [Told(kind=o.kind, data=o.data) for o in outcomes]
        if self.recent_kept:
            state.recent = (state.recent + told)[-self.recent_kept:]
        shown = [t for t in told if not self.result_kinds or t.kind in self.result_kinds]
        if shown:
            state.last = shown

    def _worded(self, outcome: Outcome, state: GS) -> Outcome:
        """The outcome with the view's sentence and terms (rules leave the sentence empty)."""
        if outcome.kind not in self.outcome_kinds:
            raise ValueError(f"{self.title} decided an outcome {outcome.kind!r} it does not declare")
        return dataclasses.replace(outcome, say=outcome.say or self.view.say(outcome, state),
                                   terms=tuple(self.view.terms(outcome, state)))

    def refusal(self, refused: Refused, state: GS) -> Refusal:
        """A ``Refused`` as the session keeps it: worded by the view for the public, and in full for
        the seat it concerns where the public wording leaves a secret out."""
        if refused.code not in self.reasons | CONTRACT_REASONS:  # a bug, named as an undeclared outcome is
            raise ValueError(f"{self.title} refused with a reason {refused.code!r} it does not declare (Game.reasons)")
        data = dict(refused.data) if refused.seat is None else {"seat": refused.seat, **refused.data}
        public, private = self.view.refusal(refused.code, data, state)
        return Refusal(public, refused.seat, refused.code, data, private if private != public else "")

    def check_input(self, state: GS, spec: Input, data: Any) -> dict[str, Any]:
        """The input's data checked against its declared fields, normalised (seat numbers as ints);
        raises Refused naming what is wrong."""
        if not isinstance(data, dict):
            raise Refused("not_an_object", kind=spec.kind, fields=self._field_list(spec))
        if state.over and spec.actor != CAMERA:
            raise Refused("game_over")
        if spec.phases and self.phase(state) not in spec.phases:
            raise Refused("not_now", kind=spec.kind, phase=self.phase(state), phases=list(spec.phases))
        checked = dict(data)
        for f in spec.fields:
            if data.get(f.name) is None:
                if not f.optional:
                    raise Refused("missing_field", kind=spec.kind, field=f.name, fields=self._field_list(spec))
                checked.pop(f.name, None)
                continue
            checked[f.name] = self._check_field(state, spec, f, data[f.name])
        return checked

    def _check_field(self, state: GS, spec: Input, f: Field, value: Any) -> Any:
        if f.kind == SEAT:
            return self._seat(state, value, spec)
        if f.kind == SEATS:
            parts = value.split(",") if isinstance(value, str) else value
            if not isinstance(parts, list) or not parts:
                raise Refused("not_seats", kind=spec.kind, field=f.name)
            return [self._seat(state, p.strip() if isinstance(p, str) else p, spec) for p in parts]
        if f.kind == CARD:
            self.card(value)
            return value
        if f.kind == ZONE:
            if not isinstance(value, str) or not value or len(value) > 40:
                raise Refused("not_a_zone", kind=spec.kind, field=f.name, value=value)
            return value
        if f.kind == INT and isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
            return int(value)  # the tablet's pickers send text
        wanted = {INT: int, STR: str, BOOL: bool}[f.kind]
        if type(value) is not wanted:
            raise Refused("wrong_type", kind=spec.kind, field=f.name, wanted=wanted.__name__, value=value)
        return value

    def _seat(self, state: GS, value: Any, spec: Input) -> int:
        number = value if type(value) is int else int(value) if isinstance(value, str) and value.isascii() \
            and value.isdigit() else None
        seats = state.seat_numbers()
        if number not in seats:
            raise Refused("not_a_seat", kind=spec.kind, first=seats[0], last=seats[-1], value=value)
        return number

    @staticmethod
    def _field_list(spec: Input) -> str:
        return ", ".join(f"{f.name!r}" + (" (optional)" if f.optional else "") for f in spec.fields) or "no data"

    def card(self, key: Any) -> Card:
        """The catalog card of a key ``ID#copy``; raises Refused for anything else."""
        if not isinstance(key, str) or key.count("#") != 1:
            raise Refused("not_a_card_key", key=key, example=self._example_key())
        card_id, _, copy_text = key.partition("#")
        card = self.catalog.cards.get(card_id)
        if card is None:
            raise Refused("not_in_deck", card_id=card_id)
        if not (copy_text.isascii() and copy_text.isdigit() and 1 <= int(copy_text) <= card.copies):
            raise Refused("no_such_copy", key=key, copies=card.copies, name=card.name, card_id=card_id)
        return card

    def _example_key(self) -> str:
        first = next(iter(self.catalog.cards), "X1")
        return f"{first}#1"

    def _track(self, state: GS, kind: str, data: dict[str, Any]) -> None:
        """Keep ``state.lying`` as the applied card inputs report the table. A card read face down lies
        there only where the game says so (``face_down_lies``): where it does not, turning it face up
        in the same place is a new sighting (Book of Mormon's Secret Weapon reveal)."""
        if kind == "card_seen" and not (data.get("face_down") and not self.face_down_lies):
            state.lying.setdefault(data["card"], []).append(data["zone"])
        elif kind == "card_gone":
            state.lift(data["card"], data["zone"])

    # -- offers, prompt and views -----------------------------------------------------------------
    def offers(self, state: GS) -> list[Offer]:
        """The buttons that would be taken now: every declared button input of this phase, with
        each candidate's data tried through ``apply`` on a copy. The prompt, the buttons and the
        auto-resolve all ask for the same state's offers, so the last answer is kept with a copy of
        the state it was found for: it is given again only for that state object while it still
        equals the copy (an input applied to it in place, an undo or a restore gives a new answer)."""
        cached = self._offers_cache
        if cached is not None and cached.state is state and cached.seen == state:
            return list(cached.offers)
        seen = copy_state(state)
        found = self._find_offers(state)
        self._offers_cache = KeptOffers(state, seen, tuple(found))
        return found

    def _find_offers(self, state: GS) -> list[Offer]:
        found = []
        for spec in self.inputs:
            if not spec.button:
                continue
            if spec.phases and self.phase(state) not in spec.phases:
                continue
            for data in self._candidates(state, spec):
                if self.would_take(state, spec, data):
                    found.append(Offer(spec.kind, data, spec.confirm))
        return found

    def would_take(self, state: GS, spec: Input, data: dict[str, Any]) -> bool:
        """True when ``apply`` would take this candidate: the contract's own checks first (they read
        the state and change nothing), then a dry run on a copy for the game's rules."""
        try:
            self.check_input(state, spec, data)
        except Refused:
            return False
        return isinstance(self.apply(copy_state(state), Action(spec.kind, data, "offer")), Applied)

    def forget_offers(self) -> None:
        """Drop the offers kept for the last state asked about (benchmarks time a first ask)."""
        self._offers_cache = None

    def _candidates(self, state: GS, spec: Input) -> Iterable[dict[str, Any]]:
        if spec.choices:
            candidates: Iterable[dict[str, Any]] = getattr(self, spec.choices)(state)
            return candidates
        if spec.actor == SEAT_ACTS:
            return [{"seat": n} for n in state.seat_numbers()]
        return [{}]

    def actions(self, state: GS) -> list[ButtonJSON]:
        """The tablet's buttons (``Button``), labelled by the view; a chooser input's candidates in one picker."""
        buttons: list[Button] = []
        pickers: dict[tuple[Any, ...], Button] = {}
        for offer in self.offers(state):
            field = self._inputs[offer.kind].chooser
            if field:
                rest = {k: v for k, v in offer.data.items() if k != field}
                key = (offer.kind, tuple(sorted(rest.items())))
                if key not in pickers:
                    pickers[key] = Button(self.view.button(offer, state), offer.kind, rest,
                                          choose={"field": field, "options": []})
                    buttons.append(pickers[key])
                choose = pickers[key].choose
                assert choose is not None
                choose["options"].append({"value": offer.data[field], "label": self.view.choice(offer, field, state)})
                continue
            buttons.append(Button(self.view.button(offer, state), offer.kind, offer.data,
                                  confirm=self.view.confirm(offer, state) if offer.confirm else ""))
        return [b.as_dict() for b in buttons]

    def public_view(self, state: GS) -> dict[str, Any]:
        """The shared part, typed (``TableView``), then the game's own part."""
        shared = self.view.table(state, None, self.view.prompt(state, self.offers(state))).as_dict()
        return {**shared, **plain(self.view.public(state))}

    def seat_view(self, state: GS, seat: int) -> dict[str, Any]:
        own = plain(self.view.seat(state, seat))  # first: it refuses a seat the game does not have
        shared = self.view.table(state, seat, "").as_dict()  # the prompt is the table's
        return {**shared, **own}

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        return self.view.redact(kind, data)

    def is_over(self, state: GS) -> bool:
        return state.over

    def plays_complete(self, state: GS) -> bool:
        """True when every play waiting to be resolved is complete by the rules: nothing could still
        be added to it (no POWER card waiting for its CHARACTER card, no pair that may become three).
        The session then resolves after a short stillness (0.5 s) instead of the long one (1.5 s).
        Asked only when ``ready_to_resolve`` is true. By default False: a play may still grow."""
        return False

    def declared(self) -> list[dict[str, Any]]:
        """The input table as data (docs, the setup page, tests)."""
        return [{"kind": i.kind, "phases": list(i.phases), "actor": i.actor,
                 "fields": [{"name": f.name, "kind": f.kind, "optional": f.optional} for f in i.fields]}
                for i in self.inputs]


Handler = Callable[[GameState, dict[str, Any]], "tuple[Outcome, ...] | None"]

__all__ = ["BOOL", "CAMERA", "CARD", "Field", "Game", "GameState", "INT", "Input", "Offer", "Option", "Refused",
           "SEAT", "SEATS", "SEAT_ACTS", "STR", "TABLE", "TableJSON", "TableView", "Told", "ToldState", "Variant", "View",
           "ZONE", "card_inputs", "scoreboard", "zone_seat"]
