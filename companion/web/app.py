"""The Flask app factory (the dashboard). Templates and static files live in the top-level web/.

Areas of the companion add pages as Flask blueprints listed in BLUEPRINTS ("module:attribute").
A blueprint reaches the running service through ``current_app.config["SERVICE"]`` (see
companion/service.py: ``.session``, ``.pipeline``, ``.readers``, ``.pin``) and protects every
change with ``companion.web.app.require_pin`` (the table PIN, from the X-Table-PIN header or a
``pin`` form field, or the session a tablet was given for it: companion/web/room.py).
"""
from __future__ import annotations

import functools
import importlib
import json
import logging
import queue
import time
from pathlib import Path

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.web import room as room_module
from companion.web import faces, security, streams

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parents[2] / "web"

# Routes that only read, yet need the PIN: the camera sees what the table does not (the card in the
# covered scan tray, Stratego pieces that face their owner) and its preview and codes name them.
PIN_TO_READ = ("scan.camera_preview", "scan.camera_calibration")

BLUEPRINTS: list[str] = [
    "companion.web.decks:bp",     # /tags (print tag sheets), /catalog (the deck in play)
    "companion.web.camera:bp",      # /calibration (camera preview, markers, zones)
    "companion.web.history:bp",   # /api/history/...: every game of the table, its log, its export
    "companion.web.tablets:bp",   # /api/unlock, /api/lock, /api/room...: tablets holding the PIN, phones holding seats
]


def require_pin(view):
    """Refuse a change that does not carry the table PIN (checked before the body is read), with a
    message saying so; a client guessing PINs is made to wait (companion/web/security.py). A tablet
    holding a session for the PIN (its HttpOnly cookie) passes without sending the digits."""
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        check_pin_or_session()
        return view(*args, **kwargs)
    return wrapped


def check_pin_or_session() -> None:
    given = request.headers.get("X-Table-PIN") or ""
    if not given and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        given = request.form.get("pin") or ""
    held = request.cookies.get(room_module.SESSION_COOKIE)
    if not given and held:
        if table_room().session(held) is not None:
            return
        raise security.Refused(403, "this tablet's hold on the PIN has ended (it expired, was revoked on the "
                                    "Devices page, or the PIN changed); type the PIN again")
    security.check_pin(current_app.config["PIN_GUARD"], request.remote_addr or "?", given,
                       current_app.config["SERVICE"].pin)


def table_room() -> room_module.Room:
    """The room of the app's table (companion/web/room.py)."""
    return current_app.config["ROOM"]


def json_body() -> dict:
    """The request's JSON object (refused with a 400 sentence when it is anything else)."""
    return security.json_object(request.get_data(cache=True))


# -- the core pages and API ------------------------------------------------------------------------
from flask import Blueprint, Response, abort, make_response, render_template, stream_with_context  # noqa: E402

core = Blueprint("core", __name__)


def _service():
    return current_app.config["SERVICE"]


def _session_or_404():
    session = _service().session
    if session is None:
        abort(make_response(jsonify({"ok": False, "error": "no game in progress; start one on the New game page"}), 404))
    return session


@core.get("/")
def table_page():
    return render_template("table.html", page="table", game_scripts=game_scripts())


@core.get("/history")
def history_page():
    return render_template("history.html", page="history")


@core.get("/setup")
def setup_page():
    return render_template("setup.html", page="setup")


@core.get("/devices")
def devices_page():
    return render_template("devices.html", page="devices")


@core.get("/seat/<token>")
def seat_page(token: str):
    return render_template("seat.html", page="seat", token=token, game_scripts=game_scripts())


@core.get("/api/state")
def api_state():
    service = _service()
    session = service.session
    view = session.public_view() if session else None
    return jsonify({"view": view, "faces": faces.ResultFaces().of(session, view), "devices": service.devices()})


@core.get("/api/history")
def api_history():
    return jsonify({"entries": _session_or_404().history()})


@core.get("/manifest.webmanifest")
def manifest():
    """The web-app manifest: "Add to Home screen" on a tablet opens the dashboard full screen."""
    icons = [{"src": f"/static/icons/{kind}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "maskable" if kind == "maskable" else "any"}
             for kind in ("icon", "maskable") for size in (192, 512)]
    body = {"name": "Table companion", "short_name": "Table", "start_url": "/", "scope": "/",
            "display": "fullscreen", "display_override": ["fullscreen", "standalone"],
            "orientation": "any", "background_color": "#14161b", "theme_color": "#14161b", "icons": icons}
    return Response(json.dumps(body), mimetype="application/manifest+json")


def game_scripts() -> list[str]:
    """Each registered game's own renderers (web/static/games/<game>.js), where it brings one;
    each script draws only views of its own game."""
    from companion import rules

    return [f"games/{game}.js" for game in rules.available() if (WEB / "static" / "games" / f"{game}.js").exists()]


@core.get("/api/devices")
def api_devices():
    return jsonify(_service().devices())


@core.get("/api/games")
def api_games():
    """The games this companion referees, with their options, for the setup page."""
    from companion import rules

    games = []
    for game in rules.available():
        cls = rules.ruleset_class(game)
        games.append({"game": game, "title": cls.title, "min_seats": cls.min_seats, "max_seats": cls.max_seats,
                      "options": [o.as_dict() for o in cls.options], "resolve_phases": resolve_phases(cls)})
    return jsonify({"games": games})


def resolve_phases(cls) -> list[str] | None:
    """The phases in which a game takes the tablet's Resolve (from its declared inputs): [] in
    every phase, None never; a game without declared inputs takes it in every phase."""
    declared = getattr(cls, "inputs", None)
    if declared is None:
        return []
    found = [i for i in declared if i.kind == "resolve"]
    return list(found[0].phases) if found else None


@core.get("/api/export.jsonl")
@require_pin
def api_export():
    """The raw log, every secret in it (hidden ranks, identities, RFID UIDs): PIN only."""
    session = _session_or_404()
    return Response(session.export_jsonl(), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=game-{session.game_id}.jsonl"})


@core.post("/api/command")
@require_pin
def api_command():
    """A dashboard command (resolve, undo, withdraw...): logged, then applied or refused."""
    body = json_body()
    kind = security.text_field(body, "kind", 40)
    data = security.field(body, "data", dict, {}, "an object")
    if not kind:
        return jsonify({"ok": False, "error": "a command needs a 'kind' and an object 'data'"}), 400
    if kind in ("start", "card_seen", "card_gone"):
        return jsonify({"ok": False, "error": f"'{kind}' comes from the table, not from a dashboard command"}), 400
    result = _session_or_404().submit(kind, data, "dashboard")
    status = 200 if result.ok else 409
    return jsonify({"ok": result.ok, "entry": result.as_dict(), "error": result.entry.reason or None}), status


@core.post("/api/games")
@require_pin
def api_new_game():
    from companion.gamelog.session import LogError

    body = json_body()
    game = security.text_field(body, "game", 40)
    seats = [{"seat": i, "name": name} for i, name in enumerate(security.names_field(body), 1)]
    options = security.field(body, "options", dict, {}, "an object")
    try:
        session = _service().start_game(game, seats, options)
    except LogError as exc:
        return jsonify({"ok": False, "error": str(exc).split(": ", 1)[-1]}), 400
    return jsonify({"ok": True, "game_id": session.game_id})


@core.get("/api/seat-links")
@require_pin
def api_seat_links():
    """Each seat's private link, shown as a QR on the tablet for that player's phone (PIN only);
    ``?seat=N`` gives that seat's alone (the tablet shows one code at a time). ``claimed``: a phone
    holds the seat already."""
    service = _service()
    session = _session_or_404()
    base = seat_link_base()
    asked = request.args.get("seat", "")
    claimed = table_room().claimed(session.game_id)
    links = []
    for seat in session.derived.start["seats"]:
        if asked and str(seat["seat"]) != asked:
            continue
        token = service.seat_token(session.game_id, seat["seat"])
        links.append({"seat": seat["seat"], "name": seat.get("name", ""), "url": f"{base}/seat/{token}", "token": token,
                      "claimed": seat["seat"] in claimed})
    if asked and not links:
        return jsonify({"ok": False, "error": f"this game has no seat {asked[:4]!r}"}), 404
    return jsonify({"links": links})


def seat_link_base() -> str:
    """Where a player's phone reaches this companion: the Pi's LAN address and the port the tablet
    used. Never the tablet's own host name, which may be ``localhost`` or a name phones cannot
    resolve; the tablet's host only when the Pi has no network (then phones cannot reach it anyway)."""
    from companion.pi.announce import lan_address

    address = lan_address()
    if address.startswith("127."):
        return request.host_url.rstrip("/")
    port = request.host.rpartition(":")[2] if request.host.rpartition(":")[2].isdigit() else ""
    default = "443" if request.scheme == "https" else "80"
    return f"{request.scheme}://{address}" + (f":{port}" if port and port != default else "")


@core.get("/api/seat/<token>")
def api_seat(token: str):
    """A seat's private view, for the one phone that holds the seat: the first phone to open the
    link gets a cookie bound to the seat; any other is refused until the table releases it.
    ``public`` is the table's view, which the phone shows until its player reveals the private one."""
    service = _service()
    try:
        seat = service.seat_for_token(token)
        session = service.session
        view = session.seat_view(seat)
    except ValueError as exc:
        return jsonify({"ok": False, "error": str(exc)}), 403
    cookie = room_module.seat_cookie(session.game_id, seat)
    allowed, new_cookie = table_room().claim(session.game_id, seat, request.cookies.get(cookie))
    if not allowed:
        return jsonify({"ok": False, "claimed": True,
                        "error": f"seat {seat} is already open on another phone. If that phone is yours and "
                                 f"lost, ask the table to release seat {seat} (Seat codes on the tablet, with the "
                                 f"PIN); then open the code again."}), 403
    public = session.public_view()
    catalog = getattr(session.ruleset, "catalog", None)
    reply = make_response(jsonify({"ok": True, "view": view, "public": public, "veiled": holds_secrets(view, public),
                                   "faces": faces.ResultFaces().of(session, public),
                                   "own_faces": faces.seat_faces(view, public, catalog)}))
    reply.headers["Cache-Control"] = "no-store"
    if new_cookie:
        reply.set_cookie(cookie, new_cookie, max_age=7 * 24 * 3600, httponly=True, samesite="Strict",
                         secure=request.is_secure, path="/api/seat/")
    return reply


# Keys of a seat view that name the seat, or repeat the table's rows: never a secret by themselves.
NAMING_KEYS = {"seat", "name", "seats", "phase"}


def holds_secrets(view: dict, public: dict) -> bool:
    """Whether a seat's view says anything the table's does not (a hand, an identity, an army,
    face-down cards): the phone then hides it until its player asks (companion/web/room.py)."""
    return any(value not in (None, [], {}, "") and public.get(key) != value
               for key, value in view.items() if key not in NAMING_KEYS)


@core.get("/api/qr.svg")
def api_qr():
    """A QR code of a text (a seat link) for the tablet to show."""
    import io

    import segno

    text = request.args.get("text", "")[:300]
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2)
    return Response(out.getvalue(), mimetype="image/svg+xml")


@core.get("/api/stream")
def api_stream():
    """Server-sent events: a "view" message on every change, "devices" every second.

    This is the stream as a threaded server (werkzeug, waitress-pool) and Flask's test client
    serve it, one thread per stream; waitress answers /api/stream in its event loop instead
    (companion/web/server.py, fed by companion/web/streams.py). Both refuse a stream past the
    caps with a sentence, and both end a stream the session stopped feeding (its queue was full:
    the reader had stalled) so that its page says it is reconnecting and reads the view afresh."""
    service = _service()
    gate = streams.streams_of(current_app).gate
    client = request.remote_addr or "?"
    gate.admit(client)
    release = streams.once(lambda: gate.release(client))

    def stream():
        session = service.session
        q = session.subscribe() if session else None
        subscribed_to = session
        result_faces = faces.ResultFaces()
        try:
            view = session.public_view() if session else None
            first = {"view": view, "faces": result_faces.of(session, view)}
            yield f"event: view\ndata: {json.dumps(first)}\n\n"
            yield f"retry: {streams.RETRY_MS}\n\n"  # how soon the browser comes back after an end
            last_devices = 0.0
            while not service.stopping.is_set():  # the service is stopping: let the server close
                if service.session is not subscribed_to:  # a new game started: follow it
                    if subscribed_to is not None and q is not None:
                        subscribed_to.unsubscribe(q)
                    subscribed_to = service.session
                    q = subscribed_to.subscribe()
                    view = subscribed_to.public_view()
                    changed = {"view": view, "faces": result_faces.of(subscribed_to, view), "new_game": True}
                    yield f"event: view\ndata: {json.dumps(changed)}\n\n"
                if q is not None and q.full():  # the session dropped this stalled stream: end it
                    return
                try:
                    message = q.get(timeout=0.5) if q is not None else time.sleep(0.5)
                except queue.Empty:
                    message = None
                if message:
                    message = {**message, "faces": result_faces.of(subscribed_to, message.get("view"), message.get("entry"))}
                    yield f"event: view\ndata: {json.dumps(message)}\n\n"
                if time.monotonic() - last_devices >= 1.0:
                    last_devices = time.monotonic()
                    yield f"event: devices\ndata: {json.dumps(service.devices())}\n\n"
        finally:
            if subscribed_to is not None and q is not None:
                subscribed_to.unsubscribe(q)
            release()

    response = Response(stream_with_context(stream()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(release)  # also when the stream never started
    return response


def _guard_request():
    """Before any route runs: where the request comes from, and its size."""
    security.check_origin(request.method, request.headers, request.host, current_app.config["ALLOWED_HOSTS"])
    security.check_length(request.content_length)


def _refused(exc: security.Refused):
    return jsonify({"ok": False, "error": exc.message}), exc.status, exc.headers


def _http_error(exc: HTTPException):
    """Flask's own refusals (404, 405, 413...) as the dashboard's JSON on /api/, HTML elsewhere."""
    if not request.path.startswith("/api/"):
        return exc
    message = exc.description if exc.code != 413 else f"a change is at most {security.MAX_BODY} bytes"
    return jsonify({"ok": False, "error": message}), exc.code


def _failure(exc: Exception):
    """The last resort: a full disk is said in words; anything else is logged, and said briefly."""
    if _is_disk_full(exc):
        log.error("the data folder is full: %s", exc)
        return jsonify({"ok": False, "error": "the data folder is full; nothing was changed"}), 507
    log.exception("a request failed: %s %s", request.method, request.path)
    return jsonify({"ok": False, "error": "the companion failed on this request; nothing was changed "
                                          "(the details are in its log)"}), 500


def _is_disk_full(exc: BaseException) -> bool:
    import errno
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc):
        return True
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def create_app(service, allowed_hosts: tuple[str, ...] = ()) -> Flask:
    app = Flask(__name__, template_folder=str(WEB / "templates"), static_folder=str(WEB / "static"))
    app.config["SERVICE"] = service
    # A service without a data folder (a test's stand-in) keeps tablets' sessions in memory.
    app.config["ROOM"] = getattr(service, "room", None) or room_module.Room(None, str(getattr(service, "pin", "")))
    app.config["PIN_GUARD"] = security.PinGuard()
    app.config["ALLOWED_HOSTS"] = tuple(h.lower() for h in allowed_hosts)
    app.config["MAX_CONTENT_LENGTH"] = security.MAX_BODY
    app.config["MAX_FORM_MEMORY_SIZE"] = security.MAX_BODY
    app.extensions["companion.streams"] = streams.Streams(service)
    app.before_request(_guard_request)
    app.register_error_handler(security.Refused, _refused)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _failure)
    app.register_blueprint(core)
    for target in BLUEPRINTS:
        module, _, attr = target.partition(":")
        app.register_blueprint(getattr(importlib.import_module(module), attr))
    for endpoint in PIN_TO_READ:
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = require_pin(app.view_functions[endpoint])
    return app
