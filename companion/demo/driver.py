"""Demo mode: simulated players play real tagged cards on a virtual table camera.

Nothing here talks to the referee directly. The players put cards on the virtual table; the
virtual camera renders frames; the real pipeline decodes, debounces and zones them; the session
logs and referees them, and resolves each battle once the table is still. The players only read
the published result, to know who picked up the cards, exactly as people at a table would.

A restarted demo continues the game in the log: the players' shuffles are seeded, and the seed is
kept per game in ``<data>/demo.json``, so replaying the recorded results rebuilds their hands.
"""
from __future__ import annotations

import json
import logging
import random
import threading
import time

from card_tags.payload import CardRef

from ..service import Service
from ..wiring import attach_camera, zones_for
from .bom_players import SimulatedTable

log = logging.getLogger(__name__)

GAME = "bom-battle"
NAMES = ["Ann", "Ben", "Cal", "Dee", "Eli", "Fay"]


class DemoPlayers(threading.Thread):
    def __init__(self, service: Service, table, seats: int, seed: int, pace: float, games: int | None = None):
        super().__init__(name="demo-players", daemon=True)
        self.service, self.table, self.seats, self.seed, self.pace = service, table, seats, seed, pace
        self.games_left = games  # None: one game after another, for as long as the demo runs
        self.rng = random.Random(seed)
        self.stopped = threading.Event()
        self.seeds_path = service.data_dir / "demo.json"

    # -- the game and the players' hands --------------------------------------------------------
    def _seeds(self) -> dict[str, int]:
        try:
            return json.loads(self.seeds_path.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}

    def _game(self):
        """The demo game in progress, or a new one when there is none (or it is over)."""
        session = self.service.session
        seeds = self._seeds()
        if (session is None or session.derived.start["game"] != GAME or session.ruleset.is_over(session.state)
                or str(session.game_id) not in seeds):
            session = self.service.start_game(GAME, [{"seat": n, "name": NAMES[n - 1]} for n in range(1, self.seats + 1)],
                                              source="auto")
            seeds[str(session.game_id)] = self.seed + session.game_id
            tmp = self.seeds_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(seeds))
            tmp.replace(self.seeds_path)
        return session, seeds[str(session.game_id)]

    @staticmethod
    def battles(session) -> list[dict]:
        """Every battle result so far (the players only read results, as people at a table do)."""
        return [o for e in list(session.derived.entries) if e.status == "applied" for o in e.outcomes
                if o["kind"] == "battle"]

    def _players_for(self, session, seed: int) -> SimulatedTable:
        """The simulated players, their hands rebuilt from the results already in the log."""
        players = SimulatedTable(len(session.derived.start["seats"]), seed)
        for outcome in self.battles(session):
            players.commands_before_battle()
            players.next_plays()
            players.battle_resolved(outcome["data"])
        return players

    def _restore_table(self, session) -> None:
        """After a restart the virtual table is empty, but the log says which cards were still lying
        on it: a resolved battle's cards being gathered. Put them back and gather them, as the
        players would, so the camera reports them gone."""
        collecting = session.public_view().get("collecting") or []
        if not collecting:
            return
        zones = zones_for(self.service)
        refs = [CardRef.from_key(GAME, key) for key in collecting]
        for index, ref in enumerate(refs):
            self.table.place(ref, zones.slot("seat:1", index), 0.0)
        self.stopped.wait(max(0.5, self.pace * 2))
        for ref in refs:
            self.table.remove(ref)

    # -- one battle -----------------------------------------------------------------------------
    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                session, seed = self._game()
                players = self._players_for(session, seed)
                self._restore_table(session)
                while not self.stopped.is_set() and not session.ruleset.is_over(session.state):
                    if session is not self.service.session:  # someone started another game
                        break
                    self._battle(session, players, len(self.battles(session)))
                if self.games_left is not None:
                    self.games_left -= 1
                    if self.games_left <= 0:
                        return
                self.stopped.wait(8 * self.pace)  # let people read the final result
            except Exception:
                log.exception("demo players stumbled; starting over in a moment")
                self.stopped.wait(2)

    def _battle(self, session, players: SimulatedTable, battles_before: int) -> None:
        already = {(e["kind"], json.dumps(e["data"], sort_keys=True)) for e in self._since_last_battle(session)}
        shown: list[CardRef] = []
        for kind, data in players.commands_before_battle():
            if kind == "card_seen":  # a seat shows its POWER cards for "too many POWER cards"
                shown.append(CardRef.from_key(GAME, data["card"]))
                continue
            if kind == "card_gone":
                if shown:
                    self._gather(session, shown)
                    shown = []
                continue
            if shown:
                self._show(session, int(data["seat"]), shown)
            if (kind, json.dumps(data, sort_keys=True)) not in already:
                session.submit(kind, data, "dashboard")
        plays = players.next_plays()
        while not self.stopped.is_set():
            placed = self._lay_down(plays)
            outcome = self._wait_for_result(session, battles_before)
            if outcome is not None:
                break
            # Nobody resolved it (a card the camera never read?): pick the cards up and lay them again.
            log.warning("the battle was not resolved within a minute; the demo players lay their cards again")
            self._gather(session, placed)
        else:
            return
        players.battle_resolved(outcome["data"])
        self.stopped.wait(self.pace * 2.5)  # the result stays on the table for a moment
        self._gather(session, placed)

    def _lay_down(self, plays: dict[int, list[str]]) -> list[CardRef]:
        zones = zones_for(self.service)
        placed = []
        for seat in sorted(plays):
            self.stopped.wait(self.pace * self.rng.uniform(0.3, 1.0))
            for index, key in enumerate(plays[seat]):
                ref = CardRef.from_key(GAME, key)
                x, y = zones.slot(f"seat:{seat}", index)
                # Side by side, a little askew (the zone's slots leave room for about 10 degrees),
                # turned to face the player: the far edge's seats see them upside down.
                self.table.place(ref, (x + self.rng.uniform(-4, 4), y + self.rng.uniform(-4, 4)),
                                 self.rng.uniform(-8, 8) + (180 if seat > (self.seats + 1) // 2 else 0))
                placed.append(ref)
        return placed

    def _show(self, session, seat: int, cards: list[CardRef], timeout: float = 30.0) -> None:
        """A seat lays cards in its area for the camera, and waits until the table has seen them."""
        zones = zones_for(self.service)
        for index, ref in enumerate(cards):
            x, y = zones.slot(f"seat:{seat}", index)
            self.table.place(ref, (x, y), 180 if seat > (self.seats + 1) // 2 else 0)
        keys = {ref.key for ref in cards}
        deadline = time.monotonic() + timeout
        while not self.stopped.is_set() and time.monotonic() < deadline:
            view = session.public_view()
            seen = {c["key"] for s in view.get("seats", []) if s["seat"] == seat for c in s.get("play", [])}
            if keys <= seen:
                return
            self.stopped.wait(0.05)

    def _gather(self, session, placed: list[CardRef], timeout: float = 10.0) -> None:
        """The winner gathers the cards; the next battle waits until the camera has seen them go,
        as players would not lay a card they are still picking up."""
        for ref in placed:
            self.table.remove(ref)
        deadline = time.monotonic() + timeout
        keys = {ref.key for ref in placed}
        while not self.stopped.is_set() and time.monotonic() < deadline:
            view = session.public_view()
            on_table = set(view.get("collecting") or []) | {c["key"] for s in view.get("seats", []) for c in s.get("play", [])}
            if not keys & on_table:
                return
            self.stopped.wait(0.05)

    def _since_last_battle(self, session) -> list[dict]:
        entries = session.history()
        for index in range(len(entries) - 1, -1, -1):
            if any(o["kind"] == "battle" for o in entries[index]["outcomes"]):
                return [e for e in entries[index + 1:] if e["status"] == "applied"]
        return [e for e in entries if e["status"] == "applied"]

    def _wait_for_result(self, session, battles_before: int, timeout: float = 60.0):
        deadline = time.monotonic() + timeout
        while not self.stopped.is_set() and time.monotonic() < deadline:
            battles = self.battles(session)
            if len(battles) > battles_before:
                return battles[-1]
            self.stopped.wait(0.05)
        return None


def start_demo(service: Service, seats: int = 3, seed: int = 1, pace: float = 1.0, fps: float = 15.0,
               decoder: str = "zxing", games: int | None = None) -> DemoPlayers:
    from ..scan.sources import VirtualTableSource
    from ..scan.virtual_table import VirtualTable

    table = VirtualTable(seed=seed)
    attach_camera(service, VirtualTableSource(table, fps=fps), decoder)
    players = DemoPlayers(service, table, seats, seed, pace, games)
    players.start()
    service.demo = players
    return players
