"""The table's side: publish the public view, every result and the health to the hub's broker.

Results come from the game log itself, which already holds them durably: the outbox is only a
cursor, "the hub holds everything up to seq N of game G" (``<data>/hub.json``), advanced when the
hub acknowledges (``companion/hub/ack/<table>``). While the broker or the hub is unreachable the
cursor stays put; once they are back, every result after it is published again, in order, and
the hub stores each one once. A result is a public history entry with outcomes (what the
dashboard's History shows anyone); a finished game adds a ``game_end`` result with the final
public standings.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

from .broker import Broker, ack_topic, table_topic

log = logging.getLogger(__name__)

RESEND_SECONDS = 5.0   # results not acknowledged by then are published again
# A finished game's last result: after every other (a game over takes no more results), and the
# same however many sightings the log gathers after the end.
END_SEQ = 2**31 - 1
HEALTH_SECONDS = 30.0


class Outbox:
    """What the hub has acknowledged, per game: ``{game_id: last seq}``, kept in ``hub.json``."""

    def __init__(self, path: Path):
        self.path = path
        try:
            raw = json.loads(path.read_text())
            self.acked = {int(k): int(v) for k, v in raw.get("acked", {}).items()}
        except (FileNotFoundError, ValueError, AttributeError, TypeError):
            self.acked = {}

    def ack(self, game_id: int, seq: int) -> bool:
        if seq <= self.acked.get(game_id, 0):
            return False
        self.acked[game_id] = seq
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"acked": self.acked}))
        tmp.replace(self.path)
        return True


def results_of(game_id: int, game: str, entries: list[dict[str, Any]], view: dict[str, Any],
               players: list[str], prev: int = 0, end_ts: float = 0.0) -> list[dict[str, Any]]:
    """A game's results as the hub gets them, from its public history (all of it, or the entries
    after the result ``prev``) and its public view. Each names the seq of the one before it
    (``prev``), so the hub acknowledges only an unbroken chain: a result lost on the way is
    published again, even after later ones arrived."""
    out: list[dict[str, Any]] = []
    for entry in entries:
        if entry["status"] == "applied" and entry.get("outcomes"):
            out.append({"game_id": game_id, "game": game, "seq": entry["seq"], "kind": "result", "ts": entry["ts"],
                        "players": players,
                        "outcomes": [{"kind": o["kind"], "say": o["say"], "terms": o["terms"]}
                                     for o in entry["outcomes"]]})
    if view.get("over"):
        out.append({"game_id": game_id, "game": game, "seq": END_SEQ, "kind": "game_end",
                    "ts": entries[-1]["ts"] if entries else end_ts,
                    "players": players, "winner": _winners(view), "standings": view.get("standings", [])})
    for index, result in enumerate(out):
        result["prev"] = out[index - 1]["seq"] if index else prev
    return out


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
        self._sent_at: dict[tuple[int, int], float] = {}
        self._finished: dict[int, list[dict[str, Any]]] = {}  # earlier games' results, folded once
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
            acked = json.loads(message.payload)["games"]
            changed = any(self.outbox.ack(int(g), int(seq)) for g, seq in acked.items())
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
                self._publish_view()
                self._publish_results()
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
        for result in self.pending():
            key = (result["game_id"], result["seq"])
            if now - self._sent_at.get(key, -RESEND_SECONDS) < RESEND_SECONDS:
                continue  # sent a moment ago; waiting for the hub's acknowledgement
            self._sent_at[key] = now
            self._publish("result", {"table": self.table, "sent": time.time(), **result})

    def pending(self) -> list[dict[str, Any]]:
        """Every result the hub has not acknowledged, oldest game first, in log order."""
        from ..session import fold, public_entry, public_view

        out = []
        session = self.service.session
        for game in self.service.store.games():
            game_id, acked = game["id"], self.outbox.acked.get(game["id"], 0)
            if session is not None and session.game_id == game_id:
                with session._lock:  # the entries the hub lacks, and the view, of one moment
                    derived = session.derived
                    entries = [public_entry(e, derived.ruleset) for e in derived.entries if e.event.seq > acked]
                    view, start, end_ts = session.public_view(), derived.start, derived.entries[-1].event.ts
                results = results_of(game_id, start["game"], entries, view, [s["name"] for s in start["seats"]],
                                     prev=acked, end_ts=end_ts)
            elif game_id in self._finished:
                results = self._finished[game_id]
            elif game["events"] == 0:
                continue
            else:  # an earlier game: its log no longer changes, so fold it once
                derived = fold(self.service.store.events(game_id))
                entries = [public_entry(e, derived.ruleset) for e in derived.entries]
                players = [s["name"] for s in derived.start["seats"]]
                results = self._finished[game_id] = results_of(game_id, derived.start["game"], entries,
                                                               public_view(derived, game_id), players)
            out += [r for r in results if r["seq"] > acked]
        return out

    def _health(self) -> dict[str, Any]:
        devices = self.service.devices()
        camera = devices.get("camera") or {}
        return {"table": self.table, "ts": time.time(), "health": devices.get("health", []),
                "camera": {k: camera.get(k) for k in ("status", "fps", "last_error") if k in camera}}

    def stats(self) -> dict[str, Any]:
        return {"broker": str(self.broker), "table": self.table, "connected": self.connected,
                "published": self.published, "waiting": len(self._sent_at), "last_error": self.last_error}
