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

bp = Blueprint("history", __name__)


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
    events = _service().store.events(game_id)
    if not events:
        _not_found(f"this table has no game {game_id}")
    return events


@bp.get("/api/history/games")
def past_games():
    """Every game of this table, newest first: its game, players and when it started."""
    service = _service()
    current = service.session.game_id if service.session else None
    games = []
    for row in reversed(service.store.games()):
        events = service.store.events(row["id"])[:1]
        start = events[0].data if events and events[0].kind == "start" else {}
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
    except LogError as exc:
        return jsonify({"ok": False, "error": f"game {game_id}'s log cannot be replayed: {exc}"}), 409
    entries: list[dict[str, Any]] = [public_entry(e, derived.ruleset) for e in derived.entries]
    return jsonify({"ok": True, "in_play": False, "entries": entries, "view": public_view(derived, game_id)})


@bp.get("/api/history/<int:game_id>/export.jsonl")
@require_pin
def export_game(game_id: int):
    """One game's whole log, secrets included: it leaves the Pi only with the table PIN."""
    return Response(to_jsonl(_events(game_id)), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})
