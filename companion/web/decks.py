"""Dashboard pages for decks: print tag sheets (/tags) and read the catalog of the game in play
(/catalog). Both only read, so neither needs the table PIN, except the sheets of a game with hidden
cards: they carry the table's private tags and say which sticker goes on which card, so they are
downloaded with the PIN (as is the map itself, /api/private-tags.json, for a backup).

The sheet downloads take the same camera geometry as ``companion tags print`` as query
parameters (camera_height, resolution, fov), so a sheet printed from the tablet is the one the CLI
would print.
"""
from __future__ import annotations

import math

from flask import Blueprint, Response, abort, current_app, render_template, request

from card_tags import geometry, sheets
from card_tags.catalog import Catalog, CatalogError, load_game
from card_tags.payload import GAME_CODES
from card_tags.private import PrivateTags, kept_hidden

bp = Blueprint("decks", __name__)
MAX_CAMERA_HEIGHT_MM = 10_000  # a camera over a table, not a satellite
LONG_COLUMNS = {"text", "description", "note", "remaining", "reference"}  # prose: give it room


def _session():
    service = current_app.config.get("SERVICE")
    return getattr(service, "session", None)


def _catalog_in_play() -> Catalog | None:
    session = _session()
    return session.ruleset.catalog if session is not None else None


def _catalog(game: str) -> Catalog:
    """The deck in play when it is this game's (it may be a custom deck), else the reference deck."""
    if game not in GAME_CODES:
        abort(404, f"no game {game!r}")
    in_play = _catalog_in_play()
    if in_play is not None and in_play.game == game and request.args.get("deck", "play") == "play":
        return in_play
    try:
        return load_game(game)
    except CatalogError as exc:
        abort(404, str(exc))


def _reference_games() -> list[tuple[str, str]]:
    """(game id, title) of every game whose reference deck loads in this version."""
    games = []
    for game in GAME_CODES:
        try:
            games.append((game, load_game(game).title))
        except CatalogError:
            continue
    return games


def _camera() -> geometry.Camera:
    default = geometry.Camera()
    try:
        width, height = geometry.parse_resolution(request.args.get("resolution", f"{default.width_px}x{default.height_px}"))
        mount = float(request.args.get("camera_height", default.height_mm))
        if not math.isfinite(mount) or mount > MAX_CAMERA_HEIGHT_MM:  # nan, inf, 1e308: no camera mount
            raise ValueError(f"camera height must be a number of millimetres up to {MAX_CAMERA_HEIGHT_MM}")
        return geometry.Camera(mount, width, height, float(request.args.get("fov", default.hfov_deg)))
    except ValueError as exc:
        abort(400, str(exc))


def _private_tags() -> PrivateTags:
    service = current_app.config.get("SERVICE")
    found = getattr(service, "private_tags", None)
    if found is None:  # a service without a data folder (a test's stand-in): codes in memory
        found = current_app.config.setdefault("PRIVATE_TAGS", PrivateTags(None))
    return found


def _sheet(game: str, layout: str, printing: bool = False) -> sheets.Sheet:
    """The sheet as planned; ``printing``: the one to print, with the table's private tags for the
    hidden cards (needs the PIN: it says which sticker goes on which card)."""
    if layout not in sheets.LAYOUTS:
        abort(404, f"no layout {layout!r}")
    paper = request.args.get("paper") or None
    catalog = _catalog(game)
    camera = _camera()
    private = None
    if printing and kept_hidden(catalog):
        from companion.web.app import check_pin_or_session

        check_pin_or_session()
        private = _private_tags().codes_for(catalog)
    try:
        return sheets.build(catalog, layout, camera, paper=paper, private=private)
    except ValueError as exc:
        abort(400, str(exc))


@bp.get("/tags")
def tags_page():
    in_play = _catalog_in_play()
    games = _reference_games()
    game = request.args.get("game") or (in_play.game if in_play else (games[0][0] if games else None))
    layout = request.args.get("layout") or (sheets.default_layout(game) if game else "card-63x88")
    camera = _camera()
    sheet = error = None
    if game:
        try:
            sheet = _sheet(game, layout)
        except Exception as exc:  # an HTTPException from abort: show it on the page instead
            error = getattr(exc, "description", str(exc))
    query = {k: v for k, v in request.args.items() if k in ("camera_height", "resolution", "fov", "paper", "deck")}
    hidden = len(kept_hidden(_catalog(game))) if game and sheet else 0
    return render_template("tags.html", page="tags", games=games, game=game, layout=layout, layouts=sheets.LAYOUTS,
                           papers=sorted(sheets.PAPER), camera=camera, sheet=sheet, error=error, query=query,
                           in_play=in_play, tag_mm=geometry.tag_mm, hidden=hidden)


@bp.get("/tags/<game>/<layout>.pdf")
def tags_pdf(game: str, layout: str):
    sheet = _sheet(game, layout, printing=True)
    return Response(sheets.to_pdf(sheet), mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{game}-{layout}.pdf"'})


@bp.get("/tags/<game>/<layout>.svg")
def tags_svg(game: str, layout: str):
    sheet = _sheet(game, layout, printing=True)
    page = request.args.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= len(sheet.pages):
        abort(404, f"this sheet has pages 1 to {len(sheet.pages)}")
    name = f"{game}-{layout}-p{page}.svg"
    return Response(sheets.to_svg(sheet, int(page) - 1), mimetype="image/svg+xml",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/api/private-tags.json")
def private_tags_export():
    """The table's private tag codes, for a backup or a second Pi of this table (PIN only)."""
    from companion.web.app import check_pin_or_session

    check_pin_or_session()
    return Response(_private_tags().export(), mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="private-tags.json"'})


@bp.get("/catalog")
def catalog_page():
    in_play = _catalog_in_play()
    game = request.args.get("game")
    if game:
        catalog = _catalog(game)
    else:
        catalog = in_play
    kinds: dict[str, list] = {}
    columns: dict[str, list[str]] = {}
    if catalog is not None:
        for card in catalog.cards.values():
            kinds.setdefault(card.kind, []).append(card)
            for name in card.attrs:
                if name not in columns.setdefault(card.kind, []):
                    columns[card.kind].append(name)
    return render_template("catalog.html", page="catalog", catalog=catalog, in_play=in_play, kinds=kinds, columns=columns,
                           games=_reference_games(), shown_game=game, long_columns=LONG_COLUMNS)
