"""`companion hub`: subscribe to every table through the broker, keep a SQLite copy, serve the
hub's dashboard and its JSON (``/api/tables``, ``/api/standings``, ``/api/pairings``)."""
from __future__ import annotations

import json
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, render_template

from companion.hub import messages
from companion.hub.broker import TOPIC_ROOT, Broker, BrokerError, ack_topic
from companion.hub.messages import BadMessage
from companion.hub.standings import pairings, standings
from companion.hub.store import HubStore

log = logging.getLogger(__name__)
WEB = Path(__file__).resolve().parent.parent.parent / "web"


class Hub:
    """The subscriber: every message from a table goes into the store; results are acknowledged."""

    def __init__(self, broker: Broker, data_dir: Path, client_id: str = "companion-hub"):
        self.broker = broker
        self.store = HubStore(Path(data_dir) / "hub.db")
        self.client = broker.client(client_id)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.connected = threading.Event()
        self.received = 0
        self.refused = 0   # messages logged and dropped: not of a shape the hub reads
        self._unacked: set[str] = set()   # tables with results stored but not yet synced and acknowledged
        self._stopped = threading.Event()

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()
        threading.Thread(target=self._acknowledge_loop, name="hub-acks", daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()
        self.client.disconnect()
        self.client.loop_stop()
        self.store.close()

    def _acknowledge_loop(self) -> None:
        """Group commit: every 50 ms, what the store holds of the tables that sent results is read,
        synced to disk, and only then acknowledged (a result stored after the read waits for the
        next round: an acknowledgement never runs ahead of the disk)."""
        while not self._stopped.wait(0.05):
            if not self._unacked:
                continue
            tables, self._unacked = self._unacked, set()
            try:
                acks = {table: self.store.acked(table) for table in sorted(tables)}
                self.store.sync()
                for table, (acked, undone) in acks.items():
                    self._ack(table, acked, undone)
            except Exception:  # a closed store at shutdown, a full disk: the tables send again
                log.exception("acknowledging results")

    def _on_connect(self, client, userdata, flags, reason, properties=None) -> None:
        if reason.is_failure:
            log.warning("the broker %s refused the hub: %s", self.broker, reason)
            return
        client.subscribe(f"{TOPIC_ROOT}/tables/+/+", qos=1)
        # Re-acknowledge, as the loop does (read, sync, publish): the broker may have lost the retained acks.
        acks = {table["name"]: self.store.acked(table["name"]) for table in self.store.tables()}
        self.store.sync()
        for table, (acked, undone) in acks.items():
            self._ack(table, acked, undone)
        self.connected.set()

    def _on_message(self, client, userdata, message) -> None:
        parts = message.topic.split("/")
        if len(parts) != 4:
            return
        table, leaf = parts[2], parts[3]
        try:
            self._take(table, leaf, message.payload)
            self.received += 1
        except BadMessage as exc:
            self.refused += 1
            log.warning("table %s sent a %s the hub does not store: %s", table, leaf, exc)
        except Exception:  # never let one message stop the hub's network loop (paho re-raises)
            self.refused += 1
            log.exception("table %s sent a %s the hub could not store", table, leaf)

    def _take(self, table: str, leaf: str, payload: bytes) -> None:
        """Check a message's shape (messages.py), then store it: what is stored is what the pages read."""
        if leaf == "online":
            self.store.seen(table, online=int(payload == b"1"))
        elif leaf == "view":
            self.store.seen(table, view=messages.view(messages.parse(payload)), online=1)
        elif leaf == "health":
            self.store.seen(table, health=messages.health(messages.parse(payload)))
        elif leaf == "result":
            self.store.add_result(table, messages.result(messages.parse(payload)))  # a resend is stored once
            self._unacked.add(table)  # acknowledged once synced

    def _ack(self, table: str, acked: dict[int, int], undone: dict[int, int]) -> None:
        self.client.publish(ack_topic(table), json.dumps({"games": {str(g): s for g, s in acked.items()},
                                                          "undone": {str(g): s for g, s in undone.items()}}),
                            qos=1, retain=True)

    # -- what the pages and the JSON show -----------------------------------------------------------
    def tables(self) -> list[dict[str, Any]]:
        results = self.store.results()
        out = []
        for table in self.store.tables():
            view = table["view"] or {}
            mine = [r for r in results if r["table"] == table["name"]]
            out.append({"name": table["name"], "online": table["online"], "last_seen": table["last_seen"],
                        "game": view.get("game"), "title": view.get("title"),
                        "players": [s.get("name") for s in view.get("seats") or view.get("standings") or []],
                        "state": "over" if view.get("over") else (view.get("phase") or ("playing" if view else "idle")),
                        "prompt": view.get("prompt"), "standings": view.get("standings", []),
                        "results": [_brief(r) for r in mine[-20:]], "results_total": len(mine),
                        "health": (table["health"] or {}).get("health", [])})
        return out


def _brief(result: dict[str, Any]) -> dict[str, Any]:
    if result["kind"] == "game_end":
        return {"game_id": result["game_id"], "seq": result["seq"], "kind": "game_end",
                "say": f"Game over: {', '.join(result.get('winner') or ['no winner'])} won."}
    return {"game_id": result["game_id"], "seq": result["seq"], "kind": "result",
            "say": " ".join(o["say"] for o in result.get("outcomes", []))}


hub_pages = Blueprint("hub", __name__)


def _hub() -> Hub:
    return current_app.config["HUB"]


@hub_pages.get("/")
def index():
    return render_template("hub.html", page="hub")


@hub_pages.get("/api/tables")
def api_tables():
    return jsonify({"tables": _hub().tables()})


@hub_pages.get("/api/standings")
def api_standings():
    return jsonify({"standings": standings(_hub().store.results())})


@hub_pages.get("/api/pairings")
def api_pairings():
    return jsonify({"pairings": pairings(_hub().store.results())})


def create_hub_app(hub: Hub) -> Flask:
    app = Flask(__name__, template_folder=str(WEB / "templates"), static_folder=str(WEB / "static"))
    app.config["HUB"] = hub
    app.register_blueprint(hub_pages)
    return app


# -- the command ------------------------------------------------------------------------------------
def register(sub) -> None:
    hub = sub.add_parser("hub", help="a tournament hub: every table's game and the standings across them, via MQTT")
    hub.add_argument("--broker", required=True, help="the broker: mqtt://[USER:PASSWORD@]HOST:PORT (mqtts:// for TLS)")
    hub.add_argument("--ca-file", default=None, help="CA certificate of the broker's TLS certificate (mqtts://)")
    hub.add_argument("--host", default="0.0.0.0")
    hub.add_argument("--port", type=int, default=8090)
    hub.add_argument("--data", default="hub-data", help="the hub's data folder (default: ./hub-data)")
    hub.set_defaults(func=cmd_hub)


def cmd_hub(args) -> int:
    from companion.web.server import make_server

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        broker = Broker.parse(args.broker, args.ca_file)
    except BrokerError as exc:
        print(f"companion hub: {exc}", file=sys.stderr)
        return 2
    hub = Hub(broker, Path(args.data))
    try:
        server = make_server(create_hub_app(hub), args.host, args.port)
    except OSError as exc:
        print(f"companion hub: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    hub.start()
    shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Hub: http://{shown}:{server.port}/   broker {broker}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        hub.stop()
    return 0


def wait_until(predicate, timeout: float = 60.0, step: float = 0.05) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` passes (tests and benchmarks)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())
