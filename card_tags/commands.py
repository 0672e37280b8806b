"""`companion tags ...`, `companion deck ...` and `companion pair ...`: printing tags, custom decks and
RFID pairing from the command line. Every command returns 0 when all went well and 1 with every
problem printed (one per line) when not."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, TypeAlias

from . import custom, faces, geometry, pairing, sheets
from .catalog import Catalog, CatalogError, load_game
from .payload import GAME_CODES, CardRef

# what add_subparsers returns: each area adds its commands to it
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def register(sub: Subparsers) -> None:
    _register_tags(sub)
    _register_deck(sub)
    _register_pair(sub)


def main(argv: list[str] | None = None) -> int:
    """These commands alone (the full CLI is companion.cli)."""
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    register(sub)
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


def _problems(title: str, problems: list[str]) -> int:
    count = sum(1 for p in problems if not p.startswith("("))  # "(...)" lines are notes, not problems
    print(f"{title}: {count} problem{'s' if count != 1 else ''}", file=sys.stderr)
    for problem in problems:
        print(f"  - {problem}", file=sys.stderr)
    return 1


def _catalog_error(exc: CatalogError) -> int:
    return _problems(exc.source, exc.problems)


# -- tags -------------------------------------------------------------------------------------------
def _camera_arguments(parser: argparse.ArgumentParser) -> None:
    default = geometry.Camera()
    group = parser.add_argument_group("camera geometry (see hardware.md)")
    group.add_argument("--camera-height", type=float, default=default.height_mm, metavar="MM",
                       help=f"lens height above the mat (default {default.height_mm:g})")
    group.add_argument("--resolution", default=f"{default.width_px}x{default.height_px}",
                       help="frame size the camera streams (default %(default)s)")
    group.add_argument("--fov", type=float, default=default.hfov_deg, metavar="DEG",
                       help=f"horizontal field of view in degrees (default {default.hfov_deg:g})")
    group.add_argument("--min-ppm", type=float, default=geometry.MIN_PIXELS_PER_MODULE,
                       help="pixels per QR module needed to read reliably (default %(default)s)")


def _camera(args: argparse.Namespace) -> geometry.Camera:
    width, height = geometry.parse_resolution(args.resolution)
    return geometry.Camera(args.camera_height, width, height, args.fov)


def _register_tags(sub: Subparsers) -> None:
    tags = sub.add_parser("tags", help="printable QR tag sheets").add_subparsers(dest="tags_command", required=True)
    p = tags.add_parser("print", help="write a PDF and SVG sheet of tags for every physical card of a game")
    p.add_argument("game", choices=sorted(GAME_CODES))
    p.add_argument("--layout", choices=sorted(sheets.LAYOUTS),
                   help="card size or sticker sheet (default: card-63x88; stratego for Stratego)")
    p.add_argument("--paper", choices=sorted(sheets.PAPER), help="paper for card layouts (default a4)")
    p.add_argument("--deck", help="a custom deck file instead of the reference deck")
    p.add_argument("--module-mm", type=float, help="force the QR module size in mm")
    p.add_argument("--corner", choices=faces.CORNERS,
                   help="card layouts: put every patch in this corner of its card (default: the corner each card's "
                        "face leaves free of its name and value, docs/decks/README.md)")
    p.add_argument("--out", help="folder to write into (default: tags/GAME, made if missing)")
    p.add_argument("--data", default="data",
                   help="the table's data folder, which keeps its private tags (default: ./data)")
    p.add_argument("--new-set", action="store_true",
                   help="new private codes for this game's hidden cards (stickers printed before then name nothing)")
    _camera_arguments(p)
    p.set_defaults(func=cmd_tags_print)
    s = tags.add_parser("size", help="how big tags must be for the camera, and what each layout prints")
    _camera_arguments(s)
    s.set_defaults(func=cmd_tags_size)


def cmd_tags_print(args: argparse.Namespace) -> int:
    from .private import PrivateTags

    try:
        catalog = load_game(args.game, args.deck)
        layout = args.layout or sheets.default_layout(args.game)
        private = PrivateTags(args.data).codes_for(catalog, new_set=args.new_set)
        sheet = sheets.build(catalog, layout, _camera(args), args.module_mm, args.paper, args.min_ppm, private,
                             args.corner)
    except CatalogError as exc:
        return _catalog_error(exc)
    except ValueError as exc:
        return _problems("tags print", [str(exc)])
    written = [path.resolve() for path in sheets.write(sheet, args.out or Path("tags") / args.game)]
    for warning in sheet.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"{sheet.stickers} tags for {catalog.title} on {len(sheet.pages)} page(s) of {sheet.layout.title}; "
          f"each code {geometry.tag_mm(sheet.module_mm):.1f} mm ({sheet.module_mm:.2f} mm per module, "
          f"{sheet.fit.pixels_per_module:.2f} px per module at the camera).")
    if private:
        print(f"{len(private)} of them are private: their codes name no card; only this table "
              f"({Path(args.data).resolve()}) knows which is which. Keep that folder (it is backed up with the game log).")
    print("Print at 100% (actual size, no 'fit to page'); check the 50 mm bar on each page.")
    for path in written:
        print(f"  {path}")
    return 0


def cmd_tags_size(args: argparse.Namespace) -> int:
    try:
        camera = _camera(args)
    except ValueError as exc:
        return _problems("tags size", [str(exc)])
    module = geometry.min_module_mm(camera, args.min_ppm)
    print(camera.describe())
    print(f"smallest reliable code: {geometry.tag_mm(module):.1f} mm ({module:.2f} mm per module at "
          f"{args.min_ppm:g} px per module)")
    for name, layout in sheets.LAYOUTS.items():
        largest = sheets.max_module_mm(layout)
        fit = geometry.fit(camera, largest, args.min_ppm)
        verdict = "ok" if fit.readable else f"too small; camera at most {fit.max_height_mm:.0f} mm high"
        print(f"  {name:<11} up to {geometry.tag_mm(largest):5.1f} mm codes, {fit.pixels_per_module:4.2f} px/module: "
              f"{verdict}")
    return 0


# -- deck -------------------------------------------------------------------------------------------
def _register_deck(sub: Subparsers) -> None:
    deck = sub.add_parser("deck", help="custom decks: copy, check, import from CSV").add_subparsers(
        dest="deck_command", required=True)
    p = deck.add_parser("copy", help="copy a game's reference deck to a file to edit")
    p.add_argument("game", choices=sorted(GAME_CODES))
    p.add_argument("file")
    p.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    p.set_defaults(func=cmd_deck_copy)
    p = deck.add_parser("check", help="check a deck file and report every problem")
    p.add_argument("file")
    p.add_argument("--game", choices=sorted(GAME_CODES), help="the game (default: the file's 'game' field)")
    p.set_defaults(func=cmd_deck_check)
    p = deck.add_parser("import-csv", help="turn a CSV deck (one row per card) into a checked deck file")
    p.add_argument("game", choices=sorted(GAME_CODES))
    p.add_argument("csv")
    p.add_argument("out")
    p.add_argument("--title", help="the deck's title")
    p.set_defaults(func=cmd_deck_import_csv)
    p = deck.add_parser("export-csv", help="write a deck as CSV to edit in a spreadsheet")
    p.add_argument("game", choices=sorted(GAME_CODES))
    p.add_argument("csv")
    p.add_argument("--deck", help="a custom deck file instead of the reference deck")
    p.set_defaults(func=cmd_deck_export_csv)


def _summary(catalog: Catalog) -> str:
    return (f"{catalog.source}: {catalog.title}, version {catalog.version}: {len(catalog.cards)} cards, "
            f"{catalog.total_copies()} physical copies; follows every count the rulebook gives.")


def cmd_deck_copy(args: argparse.Namespace) -> int:
    try:
        path = custom.copy_reference(args.game, args.file, args.force)
    except CatalogError as exc:
        return _catalog_error(exc)
    except FileExistsError as exc:
        return _problems("deck copy", [str(exc)])
    print(f"wrote {path}; edit it, then run: companion deck check {path}")
    return 0


def cmd_deck_check(args: argparse.Namespace) -> int:
    try:
        catalog = custom.check_file(args.file, args.game)
    except CatalogError as exc:
        return _catalog_error(exc)
    print(_summary(catalog))
    return 0


def cmd_deck_import_csv(args: argparse.Namespace) -> int:
    try:
        catalog = custom.import_csv(args.game, args.csv, args.out, args.title)
    except CatalogError as exc:
        return _catalog_error(exc)
    print(f"wrote {args.out}")
    print(_summary(catalog))
    return 0


def cmd_deck_export_csv(args: argparse.Namespace) -> int:
    try:
        catalog = load_game(args.game, args.deck)
    except CatalogError as exc:
        return _catalog_error(exc)
    custom.export_csv(catalog, args.csv)
    print(f"wrote {args.csv}: {len(catalog.cards)} rows")
    return 0


# -- pair -------------------------------------------------------------------------------------------
def _register_pair(sub: Subparsers) -> None:
    pair = sub.add_parser("pair", help="RFID tag pairings: list, export, import").add_subparsers(
        dest="pair_command", required=True)

    def data_dir(p: argparse.ArgumentParser) -> None:
        p.add_argument("--data", default="data",
                       help="data folder holding pairings.db (default: ./data, as for serve)")

    p = pair.add_parser("export", help="write every pairing as CSV (uid, game, card, copy)")
    p.add_argument("file", nargs="?", default="-", help="CSV file to write (default: standard output)")
    data_dir(p)
    p.set_defaults(func=cmd_pair_export)
    p = pair.add_parser("import", help="add the pairings of a CSV file (all or nothing)")
    p.add_argument("file")
    p.add_argument("--deck", action="append", default=[], metavar="GAME=FILE",
                   help="check cards against this custom deck instead of the game's reference deck")
    data_dir(p)
    p.set_defaults(func=cmd_pair_import)
    p = pair.add_parser("list", help="show every pairing")
    data_dir(p)
    p.set_defaults(func=cmd_pair_list)
    p = pair.add_parser("card", help="pair by hand: bind UID to GAME's card copy KEY (e.g. GD500#2)")
    p.add_argument("game", choices=sorted(GAME_CODES))
    p.add_argument("key")
    p.add_argument("uid")
    data_dir(p)
    p.set_defaults(func=cmd_pair_card)
    p = pair.add_parser("unpair", help="forget the card a UID is bound to")
    p.add_argument("uid")
    data_dir(p)
    p.set_defaults(func=cmd_pair_unpair)


def _store(args: argparse.Namespace) -> pairing.PairingStore:
    return pairing.PairingStore(pairing.default_path(args.data))


def _card_checker(decks: list[str]) -> Callable[[CardRef], str | None]:
    """known(ref) -> reason the card is not in the game's deck, or None. Games without a loadable
    catalog in this version are checked for format only."""
    chosen = dict(entry.split("=", 1) for entry in decks if "=" in entry)
    loaded: dict[str, Catalog | CatalogError | None] = {}

    def known(ref: CardRef) -> str | None:
        if ref.game not in loaded:
            try:
                loaded[ref.game] = load_game(ref.game, chosen.get(ref.game))
            except CatalogError as exc:
                loaded[ref.game] = None if any("no card schema" in p or "file not found" in p
                                               for p in exc.problems) else exc
        catalog = loaded[ref.game]
        if catalog is None:
            return None
        if isinstance(catalog, CatalogError):
            return str(catalog)
        try:
            catalog.lookup(ref)
        except KeyError as exc:
            return str(exc.args[0])
        return None

    return known


def cmd_pair_export(args: argparse.Namespace) -> int:
    store = _store(args)
    text = store.export_csv()
    if args.file == "-":
        sys.stdout.write(text)
    else:
        Path(args.file).write_text(text, encoding="utf-8")
        print(f"wrote {args.file}: {len(store.bindings().by_uid)} pairings")
    return 0


def cmd_pair_import(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8-sig")
    except (FileNotFoundError, UnicodeDecodeError) as exc:
        return _problems(args.file, [f"cannot read it ({exc})"])
    try:
        done = _store(args).import_csv(text, args.file, _card_checker(args.deck))
    except pairing.PairingError as exc:
        return _problems(f"{args.file}: nothing was imported", str(exc).split("; "))
    print(f"imported {len(done)} new pairing(s) from {args.file}")
    for paired in done:
        print(f"  {paired.say()}")
    return 0


def cmd_pair_list(args: argparse.Namespace) -> int:
    bindings = _store(args).bindings().by_uid
    for uid, ref in sorted(bindings.items(), key=lambda item: (item[1], item[0])):
        print(f"{uid:<20} {pairing.describe(ref)}")
    print(f"{len(bindings)} pairing(s)")
    return 0


def cmd_pair_card(args: argparse.Namespace) -> int:
    store = _store(args)
    try:
        ref = CardRef.from_key(args.game, args.key)
    except ValueError:
        return _problems("pair card", [f"card copy {args.key!r} must look like CARDID#COPY, e.g. GD500#2"])
    reason = _card_checker([])(ref)
    if reason:
        return _problems("pair card", [reason])
    try:
        pairing.normalize_uid(args.uid)
        store.begin(ref)
        paired = store.tap(args.uid, reader="cli")
    except pairing.PairingError as exc:
        if store.pending() is not None:
            store.cancel()  # leave no half-done pairing waiting for someone else's tap
        return _problems("pair card", [str(exc)])
    print(paired.say())
    return 0


def cmd_pair_unpair(args: argparse.Namespace) -> int:
    try:
        ref = _store(args).unpair(args.uid)
    except pairing.PairingError as exc:
        return _problems("pair unpair", [str(exc)])
    print(f"RFID tag {pairing.normalize_uid(args.uid)} no longer names {pairing.describe(ref)}")
    return 0
