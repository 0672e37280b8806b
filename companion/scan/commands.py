"""`companion scan`, `companion mat print`, `companion bench scan` and `bench label-photos`.

- ``scan IMAGE_OR_VIDEO...``: decode files and print one JSON line per QR code found (every QR
  code, not only ours), with the card it names or why it names none; a user tests tags,
  lighting and camera with it before a game. With ``--data``, the table's data folder, it also
  names the hidden cards behind the table's private tags (card_tags/private.py): only for whoever
  can read that folder's private-tags.json (its owner, as for the PIN).
- ``mat print``: the four calibration markers at 100% scale (PDF, SVG or PNG) to cut out and
  stick at the corners of the play area; with ``--game``, that game's whole mat at true size
  (markers, seat areas, centre pile, covered scan tray), tiled onto the paper as PDF.
- ``bench scan``: the scanning benchmark (companion/bench/scan.py).
- ``bench label-photos``: truth.json for photos of printed tag pages (companion/bench/photo_labels.py).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    scan = sub.add_parser("scan", help="decode images or videos and print every QR code found, one JSON line each")
    scan.add_argument("files", nargs="+", metavar="IMAGE_OR_VIDEO", help="image files, video files or folders of images")
    scan.add_argument("--decoder", default="zxing", choices=["zxing", "pyzbar", "opencv", "all"],
                      help="decoder (default zxing; 'all' prints what any of the three reads)")
    scan.add_argument("--game", help="the game being played: tags of other games are then explained as such")
    scan.add_argument("--every", type=int, default=1, help="decode every Nth frame of a video (default: all)")
    scan.add_argument("--data", default=None, metavar="DIR",
                      help="the table's data folder (as `companion serve --data`): its private tags then name the "
                           "hidden cards they stand for (private-tags.json is readable by its owner only)")
    scan.set_defaults(func=cmd_scan)

    mat = sub.add_parser("mat", help="the play mat: print its calibration markers")
    mat_sub = mat.add_subparsers(dest="mat_command", required=True, metavar="ACTION")
    printing = mat_sub.add_parser("print", help="write the four ArUco corner markers at 100%% scale (PDF, SVG or PNG)")
    printing.add_argument("--out", default=None,
                          help="output file; its suffix picks the format (.pdf, .svg, .png); default mat-markers.pdf, "
                               "or mat-GAME.pdf with --game")
    printing.add_argument("--paper", default="a4", choices=["a4", "letter"])
    printing.add_argument("--game", default=None,
                          help="draw that game's whole mat at true size: the markers, each seat's area, the centre "
                               "pile and the covered scan tray where the game has them (a PDF is tiled onto the paper)")
    printing.add_argument("--seats", type=int, default=None, help="players at the table (with --game; default: "
                                                                   "3, or what the game needs)")
    printing.add_argument("--dpi", type=int, default=300, help="dots per inch of a PNG (default 300)")
    printing.set_defaults(func=cmd_mat_print)


# --- companion scan --------------------------------------------------------------------------------

def cmd_scan(args) -> int:
    from companion.scan.scanfiles import scan_paths

    try:
        private = _private_tags(args.data)
    except OSError as exc:
        print(f"companion scan: cannot read the table's private tags: {exc}", file=sys.stderr)
        return 2
    failures = 0
    for line in scan_paths([Path(p) for p in args.files], args.decoder, args.game, max(args.every, 1), private):
        if "error" in line:
            failures += 1
            print(f"companion scan: {line['file']}: {line['error']}", file=sys.stderr)
        elif "warning" in line:
            print(f"companion scan: {line['file']}: {line['warning']}", file=sys.stderr)
        elif line.get("text") is None:
            print(f"companion scan: {line['file']}: {line['why']}", file=sys.stderr)
        else:
            print(json.dumps(line, ensure_ascii=False), flush=True)
    return 2 if failures else 0


def _private_tags(data: str | None) -> dict | None:
    """The table's private tags (payload -> card) from its data folder, or None without ``--data``."""
    if data is None:
        return None
    from card_tags.private import FILE_NAME, PrivateTags

    tags = PrivateTags(data)   # a damaged file: SystemExit saying so
    if not tags.lookup:
        print(f"companion scan: no private tags in {Path(data) / FILE_NAME} (`companion tags print` makes them)",
              file=sys.stderr)
    return tags.lookup


# --- companion mat print ---------------------------------------------------------------------------

def cmd_mat_print(args) -> int:
    from companion.scan.marker_sheet import write_sheet

    if args.game:
        return _print_game_mat(args)
    out = Path(args.out or "mat-markers.pdf")
    try:
        write_sheet(out, args.paper)
    except ValueError as exc:
        print(f"companion mat print: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}: print it at 100% scale (no 'fit to page'); the 100 mm bar must measure 100 mm")
    return 0


def _print_game_mat(args) -> int:
    from companion import rules
    from companion.scan.marker_sheet import write_mat

    try:
        cls = rules.ruleset_class(args.game)
        seats = args.seats if args.seats is not None else max(cls.min_seats, min(3, cls.max_seats))
        if not cls.min_seats <= seats <= cls.max_seats:
            raise rules.SetupError(f"{cls.title} is for {cls.min_seats} to {cls.max_seats} players, not {seats}")
        out = Path(args.out or f"mat-{args.game}.pdf")
        pages = write_mat(out, args.game, seats, args.paper, args.dpi)
    except (rules.SetupError, ValueError) as exc:
        print(f"companion mat print: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}: the {cls.title} mat for {seats} players at true size"
          + (f", on {pages} pages: print at 100% (no 'fit to page'), cut along the dashed edges and tape them "
             f"edge to edge" if pages > 1 else ": print at 100% (no 'fit to page')"))
    return 0


# --- companion bench label-photos ------------------------------------------------------------------

