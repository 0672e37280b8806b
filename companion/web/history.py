"""The History page's data: every game this table has played, each one's log as the public may
see it, and its raw log for export (with the PIN).

An earlier game is read the way the game in play is: its events folded through its ruleset
(``session.fold``), each entry redacted by the ruleset (``public_entry``), and its view built by the
ruleset's public view, never from the raw log, so nothing a seat kept hidden leaks from an old game.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, make_response

from companion import rules
from companion.web.app import require_pin
from companion.web.faces import entry_faces, seat_colours
from companion.gamelog.fold import Derived, fold, start_ruleset, step
from companion.gamelog.session import LogError, public_entry, public_view, to_jsonl
from companion.gamelog.store import StoreError

bp = Blueprint("history", __name__)
# The outcomes a finished game's chart takes a point at: one a battle, combat, Challenge or round.
CHARTED = ("battle", "combat", "challenge", "round", "fight")
# What the chart counts for each seat, the first of these every seat of the public view has.
MEASURES = ("cards", "points", "vp", "score", "total", "alive")
MAX_GAME_ID = 2 ** 63 - 1   # a game is an SQLite row id: no larger integer reaches the database


def _service():
    return current_app.config["SERVICE"]


def _title(game: str) -> str:
    try:
        return rules.ruleset_class(game).title
    except rules.SetupError:
        return game


def _not_found(message: str):
    abort(make_response(jsonify({"ok": False, "error": message}), 404))


def _events(game_id: int):
    if game_id > MAX_GAME_ID:  # SQLite could not even look it up (a 500 before)
        _not_found(f"this table has no game {str(game_id)[:30]}")
    events = _service().store.events(game_id)
    if not events:
        _not_found(f"this table has no game {game_id}")
    return events


def _unreadable(game_id: int, exc: Exception):
    reason = str(exc).removeprefix(f"{_service().store.path}: ")  # where the data folder is: not for everyone
    return jsonify({"ok": False, "error": f"game {game_id}'s log cannot be replayed: {reason}"}), 409


@bp.get("/api/history/games")
def past_games():
    """Every game of this table, newest first: its game, players and when it started."""
    service = _service()
    current = service.session.game_id if service.session else None
    games = []
    for row in reversed(service.store.games()):
        first = service.store.start_event(row["id"])  # only the start: not every game's whole log
        start = first.data if first is not None and first.kind == "start" else {}
        games.append({"id": row["id"], "game": row["game"], "title": _title(row["game"]), "started": row["created"],
                      "inputs": row["events"], "players": [s.get("name") for s in start.get("seats", [])],
                      "in_play": row["id"] == current})
    return jsonify({"games": games})


@bp.get("/api/history/<int:game_id>")
def game_history(game_id: int):
    """One game's log entries and its view, both as the public may see them."""
    session = _service().session
    if session is not None and session.game_id == game_id:
        view = session.public_view()
        chart = None
        if view.get("over"):  # the game just finished is still the one in play: chart it too
            try:
                events = _events(game_id)
                chart = game_chart(events, fold(events))
            except (LogError, StoreError):
                chart = None  # its log is shown as the session has it; only the picture is missing
        return jsonify({"ok": True, "in_play": True, "entries": with_faces(session.history(), session.ruleset, view),
                        "view": view, "chart": chart})
    try:
        events = _events(game_id)
        derived = fold(events)
        chart = game_chart(events, derived)
    except (LogError, StoreError) as exc:  # a log damaged on disk, or by an older version
        return _unreadable(game_id, exc)
    entries: list[dict[str, Any]] = [public_entry(e, derived.ruleset) for e in derived.entries]
    view = public_view(derived, game_id)
    return jsonify({"ok": True, "in_play": False, "entries": with_faces(entries, derived.ruleset, view), "view": view,
                    "chart": chart})


def with_faces(entries: list[dict[str, Any]], ruleset, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each public entry with the faces of the cards its results name (faces.py): only cards the
    results already show, so a face tells nothing the words did not."""
    catalog = getattr(ruleset, "catalog", None)
    colours = seat_colours(view)
    return [{**e, "faces": entry_faces(e, catalog, colours)} for e in entries]


def _measure(view: dict[str, Any]) -> str | None:
    seats = view.get("seats") or []
    for key in MEASURES:
        if seats and all(isinstance(s.get(key), (int, float)) and not isinstance(s.get(key), bool) for s in seats):
            return key
    return None


def game_chart(events: list, derived: Derived) -> dict[str, Any] | None:
    """How a finished game went: each seat's count (cards, points...) in the ruleset's public view
    after every battle, combat or round; None for a game not over or with nothing to count.

    The log is stepped again without the events undone (what the fold does after an undo), so each
    point is the public view the table showed right after that result, never a hidden card."""
    final = derived.ruleset.public_view(derived.state)
    measure = _measure(final)
    if not final.get("over") or measure is None:
        return None
    skipped = {e.event.seq for e in derived.entries if e.status in ("undone", "undo")}
    ruleset, state = start_ruleset(events[0])
    steps: list[str] = []
    values: dict[int, list[float]] = {s["seat"]: [] for s in final["seats"]}
    for event in events[1:]:
        if event.seq in skipped:
            continue
        entry, state = step(ruleset, state, event)
        kinds = [o.get("kind") for o in entry.outcomes if o.get("kind") in CHARTED]
        if not kinds:
            continue
        steps.append(kinds[0])
        counts = {s["seat"]: s.get(measure) for s in ruleset.public_view(state).get("seats", [])}
        for seat, line in values.items():
            line.append(counts.get(seat) or 0)
    seats = [{"seat": s["seat"], "name": s["name"], "values": values[s["seat"]]} for s in final["seats"]]
    return {"measure": measure, "steps": steps, "seats": seats} if steps else None


@bp.get("/api/history/<int:game_id>/export.jsonl")
@require_pin
def export_game(game_id: int):
    """One game's whole log, secrets included: it leaves the Pi only with the table PIN."""
    try:
        events = _events(game_id)
    except StoreError as exc:
        return _unreadable(game_id, exc)
    return Response(to_jsonl(events), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})
