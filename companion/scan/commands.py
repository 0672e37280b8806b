"""`companion scan`, `companion mat print`, `companion bench scan` and `bench label-photos`.

- ``scan IMAGE_OR_VIDEO...``: decode files and print one JSON line per QR code found (every QR
  code, not only ours), with the card it names or why it names none; a user tests tags,
  lighting and camera with it before a game.
- ``mat print``: the four calibration markers at 100% scale (PDF, SVG or PNG) to cut out and
  stick at the corners of the play area.
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
    scan.set_defaults(func=cmd_scan)

    mat = sub.add_parser("mat", help="the play mat: print its calibration markers")
    mat_sub = mat.add_subparsers(dest="mat_command", required=True, metavar="ACTION")
    printing = mat_sub.add_parser("print", help="write the four ArUco corner markers at 100%% scale (PDF, SVG or PNG)")
    printing.add_argument("--out", default="mat-markers.pdf", help="output file; its suffix picks the format (.pdf, .svg, .png)")
    printing.add_argument("--paper", default="a4", choices=["a4", "letter"])
    printing.set_defaults(func=cmd_mat_print)


# --- companion scan --------------------------------------------------------------------------------

def cmd_scan(args) -> int:
    from companion.scan.scanfiles import scan_paths

    failures = 0
    for line in scan_paths([Path(p) for p in args.files], args.decoder, args.game, max(args.every, 1)):
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


# --- companion mat print ---------------------------------------------------------------------------

def cmd_mat_print(args) -> int:
    from companion.scan.marker_sheet import write_sheet

    out = Path(args.out)
    try:
        write_sheet(out, args.paper)
    except ValueError as exc:
        print(f"companion mat print: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}: print it at 100% scale (no 'fit to page'); the 100 mm bar must measure 100 mm")
    return 0


# --- companion bench label-photos ------------------------------------------------------------------

