"""The demo protocol: what a game's simulated players do, for ``companion demo --game <id>`` and for tests.

A game brings its demo players as ``DEMO`` in its package (found through the registry): a class
built as ``DEMO(seats, seed)`` that decides, from what players could know, what they do next.
Players act only as people at a table can: lay a card in a zone or lift it (the virtual table
renders it and the real camera pipeline reads it, or a test turns it straight into the
``card_seen`` / ``card_gone`` the camera would send), or tap a button on the tablet (a command).

The driver (the demo's, or a test's) loops: ask ``next_moves(view, seat_views)``; carry out the
moves in order, waiting after each card move until the table has taken it; when the list is
empty and the game is not over, wait for the view to change (an automatic resolve, a result).

Players remember what they laid (to lift it again) and what they hold; the driver only carries
out moves. A restarted demo continues its game only if the players can rebuild what they held
from the log's results (``resume``, optional); otherwise it starts a new game.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from .base import Ruleset


@dataclass(frozen=True)
class Lay:
    """A player puts a card down in a zone (``seat:N``, ``tray``, ``center``, ``reader:N``)."""

    seat: int
    card: str
    zone: str
    face_down: bool = False


@dataclass(frozen=True)
class Lift:
    """A card is picked up from wherever it lies."""

    card: str


@dataclass(frozen=True)
class Command:
    """A button on the tablet (or a seat's phone)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


Move = Lay | Lift | Command


class DemoPlayers(Protocol):
    """The interface of a game's ``DEMO`` class."""

    def __init__(self, seats: int, seed: int) -> None: ...

    def start(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The seats (``[{"seat": 1, "name": "Ann"}, ...]``) and options of the demo's game."""

    def next_moves(self, view: dict[str, Any], seat_views: dict[int, dict[str, Any]]) -> list[Move]:
        """What the players do next, given the public view and each seat's own view."""

    # Optional:
    #   told(outcome: dict) -> None
    #       Each outcome the referee decides, in log order, as the table hears it announced (a
    #       battle's winner and spoils): called before the next ``next_moves``.
    #   resume(outcomes: list[dict]) -> bool
    #       Rebuild the players' hands from every outcome of the game so far (in log order), after a
    #       restart; the virtual table starts empty. False (or no such method): start a new game.


class LoggedEntry(Protocol):
    """An entry of the game's log as the players hear it: whether it was applied, and its outcomes."""

    @property
    def status(self) -> str: ...

    @property
    def outcomes(self) -> list[dict[str, Any]]: ...


class Folded(Protocol):
    """The game's log folded: its entries, and its start event's data (the seats)."""

    @property
    def entries(self) -> Sequence[LoggedEntry]: ...

    @property
    def start(self) -> dict[str, Any]: ...


class Table(Protocol):
    """What a driver needs of the game's session (``companion.gamelog.session.Session``, which the rules
    never import): the log so far, the referee and its state, the views, and a way to send an input."""

    @property
    def derived(self) -> Folded: ...

    @property
    def ruleset(self) -> Ruleset[Any]: ...

    @property
    def state(self) -> Any: ...

    def submit(self, kind: str, data: dict[str, Any] | None = None, source: str = "dashboard") -> object: ...

    def public_view(self) -> dict[str, Any]: ...

    def seat_view(self, seat: int) -> dict[str, Any]: ...


def tell(players: DemoPlayers, session: Table, heard: int) -> int:
    """Tell the players every outcome logged after entry ``heard``; returns the new mark."""
    entries = list(session.derived.entries)
    told = getattr(players, "told", None)
    if told is not None:
        for entry in entries[heard:]:
            if entry.status == "applied":
                for outcome in entry.outcomes:
                    told(outcome)
    return len(entries)


def play_direct(players: DemoPlayers, session: Table, max_rounds: int = 10_000,
                after: Callable[[Table], None] | None = None) -> int:
    """Play the players' moves straight into a session, as the camera would report them (for
    tests and benchmarks: no rendering). ``after(session)`` is called after each round of moves
    (a test compares the players' true hands with the companion's counts there). Returns the
    number of rounds of moves played."""
    lying: dict[str, str] = {}
    heard = len(session.derived.entries)
    for rounds in range(max_rounds):
        heard = tell(players, session, heard)
        if session.ruleset.is_over(session.state):
            return rounds
        seats = [s["seat"] for s in session.derived.start["seats"]]
        moves = players.next_moves(session.public_view(), {n: session.seat_view(n) for n in seats})
        if not moves:
            if session.ruleset.ready_to_resolve(session.state):
                session.submit("resolve", {}, "auto")
                continue
            raise RuntimeError("the demo players have nothing to do and the game is not over")
        for move in moves:
            if isinstance(move, Lay):
                data = {"zone": move.zone, "card": move.card, **({"face_down": True} if move.face_down else {})}
                session.submit("card_seen", data, "camera")
                lying[move.card] = move.zone
            elif isinstance(move, Lift):
                if move.card in lying:
                    session.submit("card_gone", {"zone": lying.pop(move.card), "card": move.card}, "camera")
            else:
                session.submit(move.kind, move.data, "dashboard")
        if after is not None:
            after(session)
    raise RuntimeError(f"the game did not end in {max_rounds} rounds of moves")
