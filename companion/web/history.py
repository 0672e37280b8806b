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
from companion.gamelog.fold import fold
from companion.gamelog.session import LogError, public_entry, public_view, to_jsonl
from companion.gamelog.store import StoreError

bp = Blueprint("history", __name__)
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
        return jsonify({"ok": True, "in_play": True, "entries": session.history(), "view": session.public_view()})
    try:
        derived = fold(_events(game_id))
    except (LogError, StoreError) as exc:  # a log damaged on disk, or by an older version
        return _unreadable(game_id, exc)
    entries: list[dict[str, Any]] = [public_entry(e, derived.ruleset) for e in derived.entries]
    return jsonify({"ok": True, "in_play": False, "entries": entries, "view": public_view(derived, game_id)})


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
