"""The Flask app factory (the dashboard). Templates and static files live in the top-level web/.

Areas of the companion add pages as Flask blueprints listed in BLUEPRINTS ("module:attribute").
A blueprint reaches the running service through ``current_app.config["SERVICE"]`` (see
companion/service.py: ``.session``, ``.pipeline``, ``.readers``, ``.pin``) and protects every
change with ``companion.app.require_pin`` (the table PIN, from the X-Table-PIN header or a
``pin`` form field).
"""
from __future__ import annotations

import functools
import hmac
import importlib
from pathlib import Path

from flask import Flask, current_app, jsonify, request

WEB = Path(__file__).resolve().parent.parent / "web"

BLUEPRINTS: list[str] = []


def require_pin(view):
    """Refuse a change that does not carry the table PIN, with a message saying so."""
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        given = request.headers.get("X-Table-PIN") or request.form.get("pin") or \
            (request.get_json(silent=True) or {}).get("pin") or ""
        if not hmac.compare_digest(str(given), current_app.config["SERVICE"].pin):
            message = "this change needs the table PIN (printed by `companion serve` at start)" if not given \
                else "wrong table PIN; nothing was changed"
            return jsonify({"ok": False, "error": message}), 403
        return view(*args, **kwargs)
    return wrapped


def create_app(service) -> Flask:
    app = Flask(__name__, template_folder=str(WEB / "templates"), static_folder=str(WEB / "static"))
    app.config["SERVICE"] = service
    for target in BLUEPRINTS:
        module, _, attr = target.partition(":")
        app.register_blueprint(getattr(importlib.import_module(module), attr))
    return app
