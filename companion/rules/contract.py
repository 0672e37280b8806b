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
(each candidate tried through ``apply``, so a button is offered only where it would be taken).
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable

from card_tags.catalog import Card, Catalog

from .base import Action, Applied, Option, Outcome, Refusal, Ruleset, Seat, SetupError

SEAT, SEATS, CARD, ZONE, INT, STR, BOOL = "seat", "seats", "card", "zone", "int", "str", "bool"
FIELD_KINDS = (SEAT, SEATS, CARD, ZONE, INT, STR, BOOL)


class Refused(Exception):
    """Raised by a rule that forbids an input. ``reason`` is for players and quotes the rulebook
    where the rulebook decides it; the contract turns it into a ``Refusal``."""

    def __init__(self, reason: str, seat: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


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

    def name(self, seat: int) -> str:
        return next((s.name for s in self.seats if s.number == seat), f"seat {seat}")


class Variant:
    """One variant of a game as a unit: named by the option that switches it on, readable and
    testable alone. A game defines its own variant base class with the hooks its rules call (no-op
    by default) and lists its variants; ``Game.variants_for(options)`` gives the ones in play.

    ``excludes``: variants the rulebook does not combine with this one (the start is refused).
    """

    option: ClassVar[str]
    title: ClassVar[str]
    excludes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, options: dict[str, Any]):
        self.options = options

    @classmethod
    def on(cls, options: dict[str, Any]) -> bool:
        return bool(options.get(cls.option))


@dataclass(frozen=True)
class Offer:
    """A button the tablet may show: the input it sends and the data it carries."""

    kind: str
    data: dict[str, Any]
    confirm: bool = False


class View:
    """A game's view layer: every word players read, built from the state and outcome data.
    Subclasses override what their game shows; nothing here decides a rule."""

    def __init__(self, game: "Game"):
        self.game = game

    def say(self, outcome: Outcome, state: Any) -> str:
        """The sentence an outcome is told in (read aloud, shown big on the tablet)."""
        return outcome.say or outcome.kind

    def prompt(self, state: Any, offers: list[Offer]) -> str:
        """Who does what next, and where the cards go."""
        return ""

    def terms(self, outcome: Outcome, state: Any) -> tuple:
        """An outcome's terms as players read them (a view may name them by what the viewer knows)."""
        return outcome.terms

    def button(self, offer: Offer, state: Any) -> str:
        return offer.kind.replace("_", " ")

    def not_now(self, kind: str, state: Any, phase: str, phases: tuple[str, ...]) -> str:
        """Why an input declared for other phases is refused now (a game says it in its rulebook's terms)."""
        return f"{kind} is not taken now: the game is in its {phase} phase ({kind} belongs to {' or '.join(phases)})."

    def game_over(self, state: Any) -> str:
        """Why a command is refused once the game is over."""
        return "The game is over."

    def confirm(self, offer: Offer, state: Any) -> str:
        """The question a button asks before it is sent (inputs declared ``confirm=True``)."""
        return f"{self.button(offer, state)}?"

    def choice(self, offer: Offer, field: str, state: Any) -> str:
        """How one candidate value of a chooser button is shown in its picker."""
        return str(offer.data[field])

    def public(self, state: Any) -> dict[str, Any]:
        raise NotImplementedError

    def seat(self, state: Any, seat: int) -> dict[str, Any]:
        return self.public(state)

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """An event's data as the public history may show it: secret cards removed."""
        if data.get("hidden"):
            return {k: v for k, v in data.items() if k not in ("card", "uid")}
        return data


class Game(Ruleset):
    """Base class of every game's referee (see the module docstring)."""

    state_type: ClassVar[type[GameState]] = GameState
    inputs: ClassVar[tuple[Input, ...]] = ()
    variants: ClassVar[tuple[type[Variant], ...]] = ()
    view_type: ClassVar[type[View]] = View
    face_down_lies: ClassVar[bool] = True  # a card read face down lies where it was read (see _track)

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.view = self.view_type(self)
        self._inputs = {i.kind: i for i in self.inputs}

    # -- what a game implements -------------------------------------------------------------------
    def new_state(self, seats: list[Seat], options: dict[str, Any]) -> GameState:
        raise NotImplementedError

    def phase(self, state: GameState) -> str:
        """The phase the game is in now; inputs are declared per phase."""
        return "play"

    # -- the contract -----------------------------------------------------------------------------
    def setup(self, seats: list[Seat], options: dict[str, Any]) -> GameState:
        self.check_seats(seats)
        options = self.resolve_options(options)
        self.check_variants(options)
        return self.new_state(seats, options)

    def variants_for(self, options: dict[str, Any]) -> list[Variant]:
        return [v(options) for v in self.variants if v.on(options)]

    def check_variants(self, options: dict[str, Any]) -> None:
        chosen = [v for v in self.variants if v.on(options)]
        for v in chosen:
            clash = next((w for w in chosen if w.option in v.excludes), None)
            if clash is not None:
                raise SetupError(f"{v.title} and {clash.title} are not played together.")

    def apply(self, state: GameState, action: Action) -> Applied | Refusal:
        spec = self._inputs.get(action.kind) if isinstance(action.kind, str) else None
        if spec is None:
            return Refusal(f"{self.title} takes no input {action.kind!r}; it takes "
                           f"{', '.join(sorted(self._inputs))}.")
        try:
            data = self.check_input(state, spec, action.data)
            if spec.kind == "card_seen" and data["zone"] in state.lying.get(data["card"], ()):
                return Applied(state)  # the same card seen again where it lies: nothing new
            outcomes = getattr(self, spec.handler)(state, data) or ()
        except Refused as refused:
            return Refusal(refused.reason, refused.seat)
        self._track(state, spec.kind, data)
        outcomes = tuple(self._worded(o, state) for o in outcomes)
        return Applied(state, outcomes, any(o.reveals for o in outcomes))

    def _worded(self, outcome: Outcome, state: GameState) -> Outcome:
        """The outcome with the view's sentence and terms (rules leave the sentence empty)."""
        return dataclasses.replace(outcome, say=outcome.say or self.view.say(outcome, state),
                                   terms=tuple(self.view.terms(outcome, state)))

    def check_input(self, state: GameState, spec: Input, data: Any) -> dict[str, Any]:
        """The input's data checked against its declared fields, normalised (seat numbers as ints);
        raises Refused naming what is wrong."""
        if not isinstance(data, dict):
            raise Refused(f"{spec.kind} carries its data as an object with {self._field_list(spec)}.")
        if state.over and spec.actor != CAMERA:
            raise Refused(self.view.game_over(state))
        if spec.phases and self.phase(state) not in spec.phases:
            raise Refused(self.view.not_now(spec.kind, state, self.phase(state), spec.phases))
        checked = dict(data)
        for f in spec.fields:
            if data.get(f.name) is None:
                if not f.optional:
                    raise Refused(f"{spec.kind} needs {f.name!r}: {self._field_list(spec)}.")
                checked.pop(f.name, None)
                continue
            checked[f.name] = self._check_field(state, spec, f, data[f.name])
        return checked

    def _check_field(self, state: GameState, spec: Input, f: Field, value: Any) -> Any:
        if f.kind == SEAT:
            return self._seat(state, value, spec)
        if f.kind == SEATS:
            parts = value.split(",") if isinstance(value, str) else value
            if not isinstance(parts, list) or not parts:
                raise Refused(f"{spec.kind}: {f.name!r} is a list of seats, e.g. [1, 3].")
            return [self._seat(state, p.strip() if isinstance(p, str) else p, spec) for p in parts]
        if f.kind == CARD:
            self.card(value)
            return value
        if f.kind == ZONE:
            if not isinstance(value, str) or not value or len(value) > 40:
                raise Refused(f"{spec.kind}: {f.name!r} is a zone name like 'seat:2', not {value!r}.")
            return value
        if f.kind == INT and isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
            return int(value)  # the tablet's pickers send text
        wanted = {INT: int, STR: str, BOOL: bool}[f.kind]
        if type(value) is not wanted:
            raise Refused(f"{spec.kind}: {f.name!r} is a {wanted.__name__}, not {value!r}.")
        return value

    def _seat(self, state: GameState, value: Any, spec: Input) -> int:
        number = value if type(value) is int else int(value) if isinstance(value, str) and value.isascii() \
            and value.isdigit() else None
        seats = state.seat_numbers()
        if number not in seats:
            raise Refused(f"{spec.kind} needs a seat of this table ({seats[0]}-{seats[-1]}), not {value!r}.")
        return number

    @staticmethod
    def _field_list(spec: Input) -> str:
        return ", ".join(f"{f.name!r}" + (" (optional)" if f.optional else "") for f in spec.fields) or "no data"

    def card(self, key: Any) -> Card:
        """The catalog card of a key ``ID#copy``; raises Refused for anything else."""
        if not isinstance(key, str) or key.count("#") != 1:
            raise Refused(f"{key!r} is not a card of {self.title}: a card is named by its tag, like "
                          f"'{self._example_key()}'.")
        card_id, _, copy_text = key.partition("#")
        card = self.catalog.cards.get(card_id)
        if card is None:
            raise Refused(f"{card_id!r} is not a card of this {self.title} deck.")
        if not (copy_text.isascii() and copy_text.isdigit() and 1 <= int(copy_text) <= card.copies):
            raise Refused(f"{key!r}: the deck has {card.copies} cop{'y' if card.copies == 1 else 'ies'} of "
                          f"{card.name} ({card_id}#1" + (f" to {card_id}#{card.copies})." if card.copies > 1 else ")."))
        return card

    def _example_key(self) -> str:
        first = next(iter(self.catalog.cards), "X1")
        return f"{first}#1"

    def _track(self, state: GameState, kind: str, data: dict[str, Any]) -> None:
        """Keep ``state.lying`` as the applied card inputs report the table. A card read face down lies
        there only where the game says so (``face_down_lies``): where it does not, turning it face up
        in the same place is a new sighting (Book of Mormon's Secret Weapon reveal)."""
        if kind == "card_seen" and not (data.get("face_down") and not self.face_down_lies):
            state.lying.setdefault(data["card"], []).append(data["zone"])
        elif kind == "card_gone":
            state.lift(data["card"], data["zone"])

    # -- offers, prompt and views -----------------------------------------------------------------
    def offers(self, state: GameState) -> list[Offer]:
        """The buttons that would be taken now: every declared button input of this phase, with
        each candidate's data tried through ``apply`` on a copy. The session's states are never
        changed once kept, so the last answer is kept for the same state object (the prompt and
        the buttons both ask)."""
        cached = getattr(self, "_offers_cache", None)
        if cached is not None and cached[0] is state:
            return cached[1]
        found = self._find_offers(state)
        self._offers_cache = (state, found)
        return found

    def _find_offers(self, state: GameState) -> list[Offer]:
        found = []
        for spec in self.inputs:
            if not spec.button:
                continue
            if spec.phases and self.phase(state) not in spec.phases:
                continue
            for data in self._candidates(state, spec):
                if isinstance(self.apply(copy.deepcopy(state), Action(spec.kind, data, "offer")), Applied):
                    found.append(Offer(spec.kind, data, spec.confirm))
        return found

    def _candidates(self, state: GameState, spec: Input) -> Iterable[dict[str, Any]]:
        if spec.choices:
            return getattr(self, spec.choices)(state)
        if spec.actor == SEAT_ACTS:
            return [{"seat": n} for n in state.seat_numbers()]
        return [{}]

    def actions(self, state: GameState) -> list[dict[str, Any]]:
        """The tablet's buttons, labelled by the view; a chooser input's candidates in one picker."""
        buttons: list[dict[str, Any]] = []
        pickers: dict[tuple, dict[str, Any]] = {}
        for offer in self.offers(state):
            field = self._inputs[offer.kind].chooser
            if field:
                rest = {k: v for k, v in offer.data.items() if k != field}
                key = (offer.kind, tuple(sorted(rest.items())))
                if key not in pickers:
                    pickers[key] = {"label": self.view.button(offer, state), "kind": offer.kind, "data": rest,
                                    "choose": {"field": field, "options": []}}
                    buttons.append(pickers[key])
                pickers[key]["choose"]["options"].append({"value": offer.data[field],
                                                          "label": self.view.choice(offer, field, state)})
                continue
            button = {"label": self.view.button(offer, state), "kind": offer.kind, "data": offer.data}
            if offer.confirm:
                button["confirm"] = self.view.confirm(offer, state)
            buttons.append(button)
        return buttons

    def public_view(self, state: GameState) -> dict[str, Any]:
        return {"phase": self.phase(state), "prompt": self.view.prompt(state, self.offers(state)),
                **self.view.public(state)}

    def seat_view(self, state: GameState, seat: int) -> dict[str, Any]:
        return {"phase": self.phase(state), **self.view.seat(state, seat)}

    def redact(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        return self.view.redact(kind, data)

    def is_over(self, state: GameState) -> bool:
        return state.over

    def plays_complete(self, state: GameState) -> bool:
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
           "SEAT", "SEATS", "SEAT_ACTS", "STR", "TABLE", "Variant", "View", "ZONE", "card_inputs"]
