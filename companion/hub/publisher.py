"""The table's side: publish the public view, every result and the health to the hub's broker.

Results come from the game log itself, which already holds them durably: the outbox is only a
cursor, "the hub holds everything up to seq N of game G, and has taken its undos up to seq U"
(``<data>/hub.json``), set by the hub's acknowledgements (``companion/hub/ack/<table>``). While
the broker or the hub is unreachable the cursor stays put; once they are back, every link of the
game's chain (chain.py: results, retractions of undone ones, the game's end) after it is
published again, in order, and the hub stores each one once.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.hub import chain
from companion.hub.broker import Broker, ack_topic, table_topic

log = logging.getLogger(__name__)

RESEND_SECONDS = 5.0   # results not acknowledged by then are published again
HEALTH_SECONDS = 30.0


class Outbox:
    """What the hub has acknowledged, per game: the end of the unbroken chain it holds (``acked``)
    and the latest undo it has taken (``undone``), kept in ``hub.json``."""

    def __init__(self, path: Path):
        self.path = path
        try:
            raw = json.loads(path.read_text())
            self.acked = {int(k): int(v) for k, v in raw.get("acked", {}).items()}
            self.undone = {int(k): int(v) for k, v in raw.get("undone", {}).items()}
        except (FileNotFoundError, ValueError, AttributeError, TypeError):
            self.acked, self.undone = {}, {}

    def ack(self, acked: dict[int, int], undone: dict[int, int]) -> bool:
        """Take the hub's word for what it holds (it may be less than before: a retraction of the
        game's end, a hub that lost its data); True if that changed anything."""
        acked = {g: s for g, s in acked.items() if s}
        undone = {g: s for g, s in undone.items() if s}
        if acked == self.acked and undone == self.undone:
            return False
        self.acked, self.undone = acked, undone
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"acked": self.acked, "undone": self.undone}))
        tmp.replace(self.path)
        return True


def _winners(view: dict[str, Any]) -> list[str]:
    """The names of the winning seats, as the public view tells them."""
    seats = {s.get("seat"): s.get("name") for s in view.get("seats") or view.get("standings") or []}
    winner = view.get("winners") or view.get("winner")
    if winner is None:
        return []
    numbers = winner if isinstance(winner, list) else [winner]
    return [seats.get(n, str(n)) for n in numbers]


class HubPublisher:
    """Runs beside a Service: ``start()``, ``stop()``; ``stats()`` for the Devices page."""

    def __init__(self, service, broker: Broker, table: str):
        self.service = service
        self.broker = broker
        self.table = table
        self.outbox = Outbox(service.data_dir / "hub.json")
        self.stopped = threading.Event()
        self.wake = threading.Event()
        self.connected = False
        self.published = 0
        self.last_error = ""
        self._sent_at: dict[tuple[int, int, int], float] = {}  # (game, seq, version): when last published
        self._finished: dict[int, tuple[chain.Chain, list]] = {}  # earlier games' links, folded once
        self._live: tuple[int | None, chain.Chain] = (None, chain.Chain())  # the game in play's, kept up to date
        self._games: tuple[int | None, list[int]] | None = None
        self.client = broker.client(f"table-{table}")
        self.client.will_set(table_topic(table, "online"), "0", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_ack

    # -- the connection ----------------------------------------------------------------------------
    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="hub-publisher", daemon=True)
        self._thread.start()
        self.service.on_change(self.wake.set)

    def stop(self) -> None:
        self.stopped.set()
        self.wake.set()
        if self.connected:
            self.client.publish(table_topic(self.table, "online"), "0", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client, userdata, flags, reason, properties=None) -> None:
        if reason.is_failure:
            self.last_error = f"the broker refused this table: {reason}"
            log.warning("hub %s: %s", self.broker, self.last_error)
            return
        self.connected = True
        self.last_error = ""
        client.subscribe(ack_topic(self.table), qos=1)
        client.publish(table_topic(self.table, "online"), "1", qos=1, retain=True)
        self._sent_at.clear()  # everything not acknowledged goes out again
        self.wake.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties=None) -> None:
        self.connected = False

    def _on_ack(self, client, userdata, message) -> None:
        try:
            ack = json.loads(message.payload)
            changed = self.outbox.ack({int(g): int(seq) for g, seq in ack["games"].items()},
                                      {int(g): int(seq) for g, seq in ack.get("undone", {}).items()})
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("hub %s: an acknowledgement that is not one: %r", self.broker, message.payload[:80])
            return
        if changed:
            self.wake.set()

    # -- publishing ----------------------------------------------------------------------------------
    def _run(self) -> None:
        last_health = 0.0
        while not self.stopped.is_set():
            self.wake.wait(1.0)
            self.wake.clear()
            if not self.connected:
                continue
            try:
                self._publish_results()  # first: results are what the hub's standings wait for
                self._publish_view()
                if time.monotonic() - last_health > HEALTH_SECONDS:
                    last_health = time.monotonic()
                    self._publish("health", self._health(), retain=True)
            except Exception as exc:  # the table keeps refereeing whatever the hub link does
                self.last_error = f"{type(exc).__name__}: {exc}"
                log.exception("hub publisher")

    def _publish(self, leaf: str, payload: Any, retain: bool = False):
        info = self.client.publish(table_topic(self.table, leaf), json.dumps(payload), qos=1, retain=retain)
        self.published += 1
        return info

    def _publish_view(self) -> None:
        session = self.service.session
        view = session.public_view() if session is not None else None
        self._publish("view", {"table": self.table, "view": view, "ts": time.time()}, retain=True)

    def _publish_results(self) -> None:
        now = time.monotonic()
        waiting = set()
        for version, result in self.pending():
            key = (result["game_id"], result["seq"], version)  # after an undo, a link is a new message
            waiting.add(key)
            if now - self._sent_at.get(key, -RESEND_SECONDS) < RESEND_SECONDS:
                continue  # sent a moment ago; waiting for the hub's acknowledgement
            self._sent_at[key] = now
            self._publish("result", {"table": self.table, "sent": time.time(), **result})
        for key in set(self._sent_at) - waiting:  # acknowledged (or undone): forgotten
            self._sent_at.pop(key, None)

    def pending(self) -> list[tuple[int, dict[str, Any]]]:
        """Every link the hub does not hold (with its game's version, Chain.version), oldest game
        first, in log order."""
        from companion.gamelog.fold import fold
        from companion.gamelog.session import public_view

        out = []
        session = self.service.session
        for game_id in self._earlier_games(session):
            acked, undone = self.outbox.acked.get(game_id, 0), self.outbox.undone.get(game_id, 0)
            if game_id not in self._finished:  # an earlier game: its log no longer changes, so fold it once
                derived = fold(self.service.store.events(game_id))
                links = chain.Chain().update(derived.entries, derived.ruleset.is_over(derived.state))
                view = lambda derived=derived, game_id=game_id: public_view(derived, game_id)  # noqa: E731
                self._finished[game_id] = links, self._messages(game_id, derived, view, links, -1)
            links, messages = self._finished[game_id]
            after = links.cursor(acked, undone)
            out += [m for m in messages if m[1]["seq"] > after]
        if session is not None:
            game_id = session.game_id
            acked, undone = self.outbox.acked.get(game_id, 0), self.outbox.undone.get(game_id, 0)
            if self._live[0] != game_id:
                self._live = game_id, chain.Chain()
            with session._lock:  # the chain, the entries it needs and the view, of one moment
                links = self._live[1].update(session.derived.entries, session.ruleset.is_over(session.state))
                out += self._messages(game_id, session.derived, session.public_view, links,
                                      links.cursor(acked, undone))
        return out

    def _earlier_games(self, session) -> list[int]:
        """The games before the one in play that have events (listed again only when a game starts:
        counting every game's events on every publication would grow with the table's history)."""
        current = session.game_id if session is not None else None
        if self._games is None or self._games[0] != current:
            self._games = current, [g["id"] for g in self.service.store.games() if g["events"] and g["id"] != current]
        return self._games[1]

    @staticmethod
    def _messages(game_id: int, derived, view: Callable[[], dict[str, Any]], links: chain.Chain,
                  after: int) -> list[tuple[int, dict[str, Any]]]:
        """The messages of a game's links after ``after``, made public from its entries and its public
        view (``view()``, taken only for the game's end: it is the dearest part)."""
        from companion.gamelog.session import public_entry

        wanted = links.after(after)
        last = derived.entries[-1].event
        head = {"game_id": game_id, "game": derived.start["game"],
                "players": [s["name"] for s in derived.start["seats"]], "at": last.seq}
        end = {}
        if wanted and wanted[-1].kind == "game_end":
            shown = view()
            end = {"ts": last.ts, "winner": _winners(shown), "standings": shown.get("standings", [])}
        messages = chain.payloads(wanted, derived.entries, lambda e: public_entry(e, derived.ruleset), head, end)
        return [(links.version(), m) for m in messages]

    def _health(self) -> dict[str, Any]:
        devices = self.service.devices()
        camera = devices.get("camera") or {}
        return {"table": self.table, "ts": time.time(), "health": devices.get("health", []),
                "camera": {k: camera.get(k) for k in ("status", "fps", "last_error") if k in camera}}

    def stats(self) -> dict[str, Any]:
        return {"broker": str(self.broker), "table": self.table, "connected": self.connected,
                "published": self.published, "waiting": len(self._sent_at), "last_error": self.last_error}
