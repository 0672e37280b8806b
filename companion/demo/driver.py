"""Demo mode: a game's simulated players lay real tagged cards on a virtual table camera.

Nothing here talks to the referee about cards. The players (the game's ``DEMO``, see protocol.py)
say what they do; this driver puts their cards on the virtual table and lifts them off again, and
taps their buttons. The virtual camera renders frames; the real pipeline decodes, debounces and
zones them; the session logs and referees them, and resolves on its own once the table is still.
The players only read the views, as people at a table would.

A card shown to a seat's reader (``reader:N``) or laid face down is not the camera's to read (a
face-down card shows the camera its back): the seat's own reader reports it, as the RFID bridge
does, and reports it gone when it is picked up again. A card laid somewhere else than where it
lies (a card drawn on the reader, then deployed; a kept card played) is picked up first, and the
driver waits until its going is reported, as a player's hand moves one card at a time.

The demo steps aside for people: the moment a game it did not start begins (someone pressed
New game on the tablet), the simulated players lift their cards, before the camera lays out the
new game's zones, and stop. A restarted demo leaves a person's game alone (latest game first).
Its own game it continues when its players can rebuild their hands from the log (``resume``);
the seed of each demo game is kept in ``<data>/demo.json``.
"""
from __future__ import annotations

import json
import logging
import random
import threading
import time
from typing import Any

from card_tags.catalog import load_game
from card_tags.payload import CardRef

from companion import rules
from companion.scan.zones import ZoneMap
from companion.service import Service
from companion.gamelog.session import Session
from companion.wiring import attach_camera
from companion.rules.demo import Command, Lay, Move, tell

log = logging.getLogger(__name__)

SOURCE = "demo"  # the start event of a game the demo began
GAME = "bom-battle"
TAKEN_SECONDS = 15.0   # a card the camera has not reported by then is nudged (lifted and laid again)
WAIT_SECONDS = 60.0    # nothing happened for this long: say so in the log
RESULT_SECONDS = 6.0   # at pace 1, a result stays this long before the players act again (time to read it)


def demo_class(game: str):
    """The game's simulated players: its package's ``DEMO``, or None if it brings none."""
    return rules.demo_players(game)


class StepAside(Exception):
    """A person started a game: the demo's players stop where they are."""


class Demo(threading.Thread):
    def __init__(self, service: Service, table, game: str, seats: int, seed: int, pace: float,
                 games: int | None = None):
        super().__init__(name="demo-players", daemon=True)
        self.service, self.table, self.game, self.seats, self.seed, self.pace = service, table, game, seats, seed, pace
        self.players_type = demo_class(game)
        if self.players_type is None:
            raise ValueError(f"{game} brings no demo players; games with demo players: {', '.join(demo_games())}")
        self.games_left = games  # None: one game after another, for as long as the demo runs
        self.rng = random.Random(seed)
        self.stopped = threading.Event()
        self.aside = threading.Event()
        self.seeds_path = service.data_dir / "demo.json"
        self._hands = threading.Lock()  # laying a card and stepping aside never interleave
        self.lying: dict[str, tuple[str, CardRef, int]] = {}  # card key -> (zone, ref, slot) as laid
        self.buried: set[str] = set()   # cards covered by a card laid on top of them (a pile)
        self.off_camera: dict[str, dict] = {}  # card key -> what its reader reported (a reader zone, face down)
        self.zones: ZoneMap | None = None
        service.on_new_game(self.on_new_game)

    # -- whose game is it ---------------------------------------------------------------------------
    def _seeds(self) -> dict[str, int]:
        try:
            return json.loads(self.seeds_path.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}

    def owns(self, session: Session) -> bool:
        return session.derived.entries[0].event.source == SOURCE or str(session.game_id) in self._seeds()

    def on_new_game(self, session: Session) -> None:
        """Called as a game starts, before the camera lays out its zones: a game the demo did not
        start makes its players lift every card and stop."""
        if self.owns(session):
            return
        with self._hands:
            self.aside.set()
            for _, ref, _ in self.lying.values():
                self.table.remove(ref)
            self.lying.clear()
            self.off_camera.clear()
            self.buried.clear()
        log.info("a game was started at the table (game %s): the demo players step aside", session.game_id)

    # -- the game and its players -------------------------------------------------------------------
    def _game(self) -> tuple[Session, Any] | None:
        """The demo's game in progress with its players, a new one, or None: a person's game is on."""
        session = self.service.session
        if session is not None and not self.owns(session):
            return None
        seeds = self._seeds()
        if session is not None and not session.ruleset.is_over(session.state) \
                and session.derived.start["game"] == self.game:
            players = self.players_type(len(session.derived.start["seats"]), seeds[str(session.game_id)]) \
                if str(session.game_id) in seeds else None
            if players is not None and getattr(players, "resume", lambda outcomes: False)(outcomes(session)):
                return session, players
        seed = self.seed + len(seeds) + 1
        players = self.players_type(self.seats, seed)
        seats, options = players.start()
        session = self.service.start_game(self.game, seats, options, source=SOURCE)
        seeds[str(session.game_id)] = seed
        tmp = self.seeds_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(seeds))
        tmp.replace(self.seeds_path)
        return session, players

    def run(self) -> None:
        while not self.stopped.is_set() and not self.aside.is_set():
            try:
                found = self._game()
                if found is None:
                    log.info("the game at the table was started by a person: the demo players sit it out")
                    return
                session, players = found
                self.zones = ZoneMap.for_game(self.game, len(session.derived.start["seats"]))
                self._sit_down()
                self._play(session, players)
                if self.games_left is not None:
                    self.games_left -= 1
                    if self.games_left <= 0:
                        return
                self.stopped.wait(8 * self.pace)  # let people read the final result
                self._clear()
            except StepAside:
                return
            except Exception:
                log.exception("demo players stumbled; starting over in a moment")
                self.stopped.wait(2)

    def _sit_down(self, timeout: float = 30.0) -> None:
        """Players lay nothing before the camera reads the table (it is open and has found the
        mat's markers), and take a moment to sit down: a restart's dashboard shows the table first."""
        deadline = time.monotonic() + timeout
        pipeline = self.service.pipeline
        while pipeline is not None and not self.stopped.is_set() and time.monotonic() < deadline:
            if pipeline.state == "running" and pipeline.calibration.ready:
                break
            self.stopped.wait(0.05)
        self.stopped.wait(max(0.5, 2 * self.pace))

    def _play(self, session: Session, players) -> None:
        quiet_since = time.monotonic()
        heard = len(session.derived.entries)
        shown = Shown(self.pace * RESULT_SECONDS)
        while not self.stopped.is_set():
            self._check(session)
            heard = tell(players, session, heard)
            if session.ruleset.is_over(session.state):
                return
            seats = [s["seat"] for s in session.derived.start["seats"]]
            view = session.public_view()
            if shown.fresh(view):  # people read a new result before the players look again
                self.stopped.wait(shown.left())
                continue
            moves = players.next_moves(view, {n: session.seat_view(n) for n in seats})
            if moves:
                if not any([self._carry_out(session, batch) for batch in batches(moves)]):
                    # Never spin on moves the table cannot take (a card laid where it lies already).
                    log.warning("the demo players' moves change nothing at the table: %s", moves)
                    self._wait_for_change(session, len(session.derived.entries), WAIT_SECONDS)
                quiet_since = time.monotonic()
                continue
            if not self._wait_for_change(session, len(session.derived.entries), WAIT_SECONDS) \
                    and time.monotonic() - quiet_since > WAIT_SECONDS:
                log.warning("the demo game has not moved for a minute: %s", session.public_view().get("prompt"))
                quiet_since = time.monotonic()

    def _check(self, session: Session) -> None:
        if self.aside.is_set() or session is not self.service.session:
            raise StepAside()

    # -- carrying out the moves ---------------------------------------------------------------------
    def _carry_out(self, session: Session, batch: list[Move]) -> bool:
        """A command, or cards laid (or lifted) together: all of them go down (or up) at once, then
        the driver waits until the camera has reported each one, as players wait for the table.
        False if the batch had nothing to do (its cards already where they are laid, or not out)."""
        self.stopped.wait(self.pace * self.rng.uniform(0.1, 0.4))
        self._check(session)
        first = batch[0]
        if isinstance(first, Command):
            session.submit(first.kind, first.data, "dashboard")
            return True
        if isinstance(first, Lay):
            lays = [m for m in batch if self._where(m.card) != m.zone]  # a card already there stays
            self._pick_up(session, [m.card for m in lays if self._where(m.card) is not None])
            for move in [m for m in lays if not self._camera_reads(m)]:
                self._tap(session, move)
            self._lay_all(session, [m for m in lays if self._camera_reads(m)])
            return bool(lays)
        out = [m.card for m in batch if self._where(m.card) is not None]
        self._pick_up(session, out)
        return bool(out)

    def _where(self, key: str) -> str | None:
        if key in self.lying:
            return self.lying[key][0]
        return self.off_camera[key]["zone"] if key in self.off_camera else None

    def _camera_reads(self, move: Lay) -> bool:
        return move.zone in self.zones.by_name and not move.face_down

    def _pick_up(self, session: Session, keys: list[str]) -> None:
        """Cards picked up: a reader reports each one gone at once; the camera's are waited for."""
        for key in [k for k in keys if k in self.off_camera]:
            session.submit("card_gone", {**self.off_camera.pop(key), "card": key}, "rfid")
        self._lift_all(session, [k for k in keys if k in self.lying])

    def _tap(self, session: Session, move: Lay) -> None:
        """A card held to a seat's reader, or laid face down on it: the reader service reports it as
        the RFID bridge does."""
        data = {"zone": move.zone, **({"face_down": True} if move.face_down else {})}
        with self._hands:
            self._check(session)
            session.submit("card_seen", {**data, "card": move.card}, "rfid")
            self.off_camera[move.card] = data

    def _lay_all(self, session: Session, lays: list[Lay]) -> None:
        for _ in range(3):
            if not lays:
                return
            mark = len(session.derived.entries)
            for move in lays:
                self._lay(session, move, CardRef.from_key(self.game, move.card))
            missed = self._wait_for_table(session, mark, "card_seen", {m.card for m in lays})
            if self.stopped.is_set():
                return   # the demo stopping is no misread
            lays = [m for m in lays if m.card in missed]
            if lays:
                log.warning("the camera did not read %s; the demo players lay them again",
                            ", ".join(f"{m.card} in {m.zone}" for m in lays))
                self._lift_all(session, [m.card for m in lays])
        # Three tries: go on without them (the players' next moves see what the table took).

    def _lift_all(self, session: Session, keys: list[str]) -> None:
        if not keys:
            return
        mark = len(session.derived.entries)
        watched = {key for key in keys if key not in self.buried}
        for key in keys:
            self._lift(session, key)
        self._wait_for_table(session, mark, "card_gone", watched)

    def _lay(self, session: Session, move: Lay, ref: CardRef) -> None:
        with self._hands:
            self._check(session)
            index = self._slot(move.zone)
            x, y = self.zones.slot(move.zone, index)
            seat = int(move.zone.partition(":")[2]) if move.zone.startswith("seat:") else move.seat
            # A little askew, turned to face its player: the far edge's seats see it upside down.
            far = seat > (self.zones.seats + 1) // 2
            self.table.place(ref, (x + self.rng.uniform(-4, 4), y + self.rng.uniform(-4, 4)),
                             self.rng.uniform(-8, 8) + (180 if far else 0))
            self.lying[move.card] = (move.zone, ref, index)

    def _slot(self, zone: str) -> int:
        """The first free place in the zone; in a full zone, on top of the oldest card (a pile)."""
        here = {key: index for key, (z, _, index) in self.lying.items() if z == zone and key not in self.buried}
        free = [i for i in range(self.zones.capacity(zone)) if i not in here.values()]
        if free:
            return free[0]
        oldest = next(iter(here))
        self.buried.add(oldest)
        return here[oldest]

    def _lift(self, session: Session, key: str) -> None:
        with self._hands:
            self._check(session)
            _, ref, _ = self.lying.pop(key)
            self.buried.discard(key)
            self.table.remove(ref)

    def _wait_for_table(self, session: Session, mark: int, kind: str, keys: set[str]) -> set[str]:
        """Wait until the session has logged the camera reporting each card (taken or refused);
        the cards it has not reported in time."""
        deadline = time.monotonic() + TAKEN_SECONDS
        left = set(keys)
        while left and not self.stopped.is_set() and time.monotonic() < deadline:
            self._check(session)
            entries = session.derived.entries
            for entry in entries[mark:]:
                if entry.event.kind == kind:
                    left.discard(entry.event.data.get("card"))
            mark = len(entries)
            if left:
                self.stopped.wait(0.03)
        return left

    def _wait_for_change(self, session: Session, mark: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not self.stopped.is_set() and time.monotonic() < deadline:
            self._check(session)
            if len(session.derived.entries) != mark:
                return True
            self.stopped.wait(0.05)
        return False

    def _clear(self) -> None:
        with self._hands:
            for _, ref, _ in self.lying.values():
                self.table.remove(ref)
            self.lying.clear()
            self.off_camera.clear()
            self.buried.clear()


class Shown:
    """The result on the tablet, and how long it has been there: a new result stays ``seconds``
    before the players act again, so people can read it (``--pace`` scales it)."""

    def __init__(self, seconds: float, clock=time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.say: str | None = None
        self.since = 0.0

    def fresh(self, view: dict[str, Any]) -> bool:
        say = (view.get("last_outcome") or {}).get("say")
        if say != self.say:
            self.say, self.since = say, self.clock()
        return say is not None and self.left() > 0

    def left(self) -> float:
        return max(0.0, self.since + self.seconds - self.clock())


def batches(moves: list[Move]) -> list[list[Move]]:
    """Consecutive card moves of one kind go together (an army laid out, a play put down); a
    command, and a change from laying to lifting, start a new batch."""
    found: list[list[Move]] = []
    for move in moves:
        if found and not isinstance(move, Command) and type(found[-1][0]) is type(move):
            found[-1].append(move)
        else:
            found.append([move])
    return found


def outcomes(session: Session) -> list[dict[str, Any]]:
    """Every outcome of the game so far, in log order (what a resumed demo rebuilds hands from)."""
    return [o for e in list(session.derived.entries) if e.status == "applied" for o in e.outcomes]


def demo_games() -> list[str]:
    return [g for g in rules.available() if _brings_players(g)]


def _brings_players(game: str) -> bool:
    try:
        return demo_class(game) is not None
    except Exception:  # a game whose package does not import is not offered
        return False


def default_seats(game: str) -> int:
    """How many the game's simulated players are when nobody says: their own default (BATTLECARDS'
    play the two-player Pacific game), else three or what the game allows nearest to it."""
    import inspect

    cls = rules.ruleset_class(game)
    players = rules.demo_players(game)
    default = inspect.signature(players).parameters["seats"].default if players is not None else None
    return default if isinstance(default, int) else max(cls.min_seats, min(3, cls.max_seats))


def start_demo(service: Service, seats: int | None = None, seed: int = 1, pace: float = 1.0, fps: float = 15.0,
               decoder: str = "zxing", games: int | None = None, game: str = GAME,
               size: tuple[int, int] = (1280, 720)) -> Demo:
    from companion.scan.sources import VirtualTableSource
    from companion.scan.virtual_table import VirtualTable

    cls = rules.ruleset_class(game)
    seats = seats if seats is not None else default_seats(game)
    if not cls.min_seats <= seats <= cls.max_seats:
        raise ValueError(f"{cls.title} is for {cls.min_seats} to {cls.max_seats} players, not {seats}")
    table = VirtualTable(*size, seed=seed)
    # The demo's cards wear this table's private tags where the game hides them, as printed cards do.
    private = getattr(service, "private_tags", None)
    if private is not None:
        table.payloads = private.codes_for(load_game(game))
    # The players' listener comes first: they lift their cards before the camera lays out a new game.
    players = Demo(service, table, game, seats, seed, pace, games)
    attach_camera(service, VirtualTableSource(table, fps=fps), decoder)
    players.start()
    service.demo = players
    return players
