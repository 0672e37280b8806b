"""The room's routes: a tablet's hold on the PIN (unlock, lock), and from the tablet with the PIN,
the seats by name, which phone holds which, and the tablets holding the PIN (the Devices page).
The bookkeeping itself is companion/web/room.py."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, make_response, request

from companion.web import room as room_module
from companion.web import security
from companion.web.app import json_body, require_pin, table_room

bp = Blueprint("tablets", __name__)


def _session_or_404():
    session = current_app.config["SERVICE"].session
    if session is None:
        abort(make_response(jsonify({"ok": False, "error": "no game in progress; start one on the New game page"}), 404))
    return session


@bp.get("/api/seats")
@require_pin
def api_seats():
    """The seats by name, and which a phone holds (PIN only): the tablet's seat picker."""
    session = _session_or_404()
    claimed = table_room().claimed(session.game_id)
    return jsonify({"seats": [{"seat": s["seat"], "name": s.get("name", ""), "claimed": s["seat"] in claimed}
                              for s in session.derived.start["seats"]]})


@bp.post("/api/seat-release")
@require_pin
def api_seat_release():
    """Free a seat for another phone (the player changed phones); ``new_link``: also revoke its link,
    so the old code opens nothing (a photographed code)."""
    session = _session_or_404()
    body = json_body()
    seat = security.field(body, "seat", int, 0, "a seat number")
    if seat not in [s["seat"] for s in session.derived.start["seats"]]:
        return jsonify({"ok": False, "error": f"this game has no seat {seat}"}), 400
    new_link = security.field(body, "new_link", bool, False, "true or false")
    table_room().release(session.game_id, seat, new_link)
    return jsonify({"ok": True})


@bp.get("/api/unlock")
def api_unlock_state():
    """Whether this browser holds the PIN (its session cookie), and until when; never the PIN."""
    held = table_room().session(request.cookies.get(room_module.SESSION_COOKIE))
    return jsonify({"held": held is not None, "expires": held["expires"] if held else None})


@bp.post("/api/unlock")
def api_unlock():
    """The PIN typed once on a tablet, exchanged for a session kept in an HttpOnly cookie (guesses
    slowed as for any change); the page then forgets the digits."""
    given = security.text_field(json_body(), "pin", 64)
    security.check_pin(current_app.config["PIN_GUARD"], request.remote_addr or "?", given,
                       current_app.config["SERVICE"].pin)
    agent = request.headers.get("User-Agent", "")
    token, expires = table_room().open_session(f"{request.remote_addr or '?'} · {_browser_name(agent)}")
    reply = make_response(jsonify({"ok": True, "held": True, "expires": expires}))
    reply.set_cookie(room_module.SESSION_COOKIE, token, max_age=int(room_module.SESSION_HOURS * 3600),
                     httponly=True, samesite="Strict", secure=request.is_secure, path="/")
    return reply


@bp.post("/api/lock")
def api_lock():
    """This tablet lets go of the PIN (its session ends); the next change asks for the PIN again."""
    table_room().end_session(token=request.cookies.get(room_module.SESSION_COOKIE))
    reply = make_response(jsonify({"ok": True, "held": False}))
    reply.delete_cookie(room_module.SESSION_COOKIE, path="/")
    return reply


@bp.get("/api/room")
@require_pin
def api_room():
    """The tablets holding the PIN and the seats held by phones (PIN only): the Devices page."""
    session = current_app.config["SERVICE"].session
    claimed = table_room().claimed(session.game_id) if session else {}
    seats = [{"seat": s["seat"], "name": s.get("name", ""), "claimed_at": claimed.get(s["seat"])}
             for s in (session.derived.start["seats"] if session else [])]
    this = table_room().session(request.cookies.get(room_module.SESSION_COOKIE))
    tablets = [{**t, "this": bool(this and this["id"] == t["id"])} for t in table_room().sessions()]
    return jsonify({"tablets": tablets, "seats": seats})


@bp.post("/api/room/revoke")
@require_pin
def api_room_revoke():
    """End another tablet's hold on the PIN (a tablet lost, or left at a neighbour's table)."""
    session_id = security.text_field(json_body(), "tablet", 16)
    if not table_room().end_session(session_id=session_id):
        return jsonify({"ok": False, "error": "no tablet holds the PIN under that name (already ended?)"}), 404
    return jsonify({"ok": True})


def _browser_name(agent: str) -> str:
    """A short name for a browser on the Devices page ("Chrome on Android")."""
    browser = next((b for b in ("Firefox", "Edg", "Chrome", "Safari") if b in agent), "a browser")
    system = next((o for o in ("Android", "iPad", "iPhone", "Windows", "Mac OS", "Linux", "CrOS") if o in agent), "")
    browser = "Edge" if browser == "Edg" else browser
    return f"{browser} on {system}" if system else browser
