"""`companion scan`, `companion mat print`, `companion bench scan` and `bench label-photos`.

- ``scan IMAGE_OR_VIDEO...``: decode files and print one JSON line per QR code found (every QR
  code, not only ours), with the card it names or why it names none; a user tests tags,
  lighting and camera with it before a game.
- ``mat print``: the four calibration markers at 100% scale (PDF, SVG or PNG) to cut out and
  stick at the corners of the play area.
- ``bench scan``: the scanning benchmark (companion/scan/bench.py).
- ``bench label-photos``: truth.json for photos of printed tag pages (companion/scan/photo_labels.py).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def bench_subparsers(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The subparsers of `companion bench`, made by whichever command module asks first, so that
    every area can add its own benchmark (``companion bench scan``, ``companion bench latency``)."""
    parser = sub.choices.get("bench")
    if parser is None:
        parser = sub.add_parser("bench", help="benchmarks that print figures (scan, latency, memory...)")
        parser.set_defaults(bench_sub=parser.add_subparsers(dest="bench", required=True, metavar="BENCHMARK"))
    return parser.get_default("bench_sub")


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

    from .bench import register_bench

    bench = bench_subparsers(sub)
    register_bench(bench)
    labels = bench.add_parser("label-photos", help="write truth.json for photos of printed tag pages, for `bench scan --photos`")
    labels.add_argument("photos", help="a folder of photos of whole printed pages (JPEG or PNG)")
    labels.add_argument("pages", help="the STEM-pages.json `companion tags print` wrote beside the PDF")
    labels.add_argument("--out", help="write the photos (greyscale) and truth.json here instead of into the photo folder")
    labels.add_argument("--max-side", type=int, default=0, metavar="PX",
                        help="with --out: shrink each photo to at most PX on its longest side (e.g. 1600), as JPEG")
    labels.add_argument("--force", action="store_true", help="replace an existing truth.json")
    labels.set_defaults(func=cmd_label_photos)


# --- companion scan --------------------------------------------------------------------------------

def cmd_scan(args) -> int:
    from .scanfiles import scan_paths

    failures = 0
    for line in scan_paths([Path(p) for p in args.files], args.decoder, args.game, max(args.every, 1)):
        if "error" in line:
            failures += 1
            print(f"companion scan: {line['file']}: {line['error']}", file=sys.stderr)
        elif line.get("text") is None:
            print(f"companion scan: {line['file']}: {line['why']}", file=sys.stderr)
        else:
            print(json.dumps(line, ensure_ascii=False), flush=True)
    return 2 if failures else 0


# --- companion mat print ---------------------------------------------------------------------------

def cmd_mat_print(args) -> int:
    from .marker_sheet import write_sheet

    out = Path(args.out)
    try:
        write_sheet(out, args.paper)
    except ValueError as exc:
        print(f"companion mat print: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}: print it at 100% scale (no 'fit to page'); the 100 mm bar must measure 100 mm")
    return 0


# --- companion bench label-photos ------------------------------------------------------------------

def cmd_label_photos(args) -> int:
    from .photo_labels import PagesError, label, load_pages, write_truth

    photos, out = Path(args.photos), Path(args.out) if args.out else None
    if not photos.is_dir():
        print(f"companion bench label-photos: {photos} is not a folder of photos", file=sys.stderr)
        return 2
    if args.max_side and out is None:
        print("companion bench label-photos: --max-side needs --out (photos are never changed in place)", file=sys.stderr)
        return 2
    target = out or photos
    if (target / "truth.json").exists() and not args.force:
        print(f"companion bench label-photos: {target / 'truth.json'} exists; --force replaces it", file=sys.stderr)
        return 2
    try:
        pages = load_pages(Path(args.pages))
    except PagesError as exc:
        print(f"companion bench label-photos: {exc}", file=sys.stderr)
        return 2
    labelled = label(photos, pages, out, args.max_side)
    for name, codes in labelled.truth.items():
        print(f"{name}: page(s) {labelled.pages[name]} by its {labelled.how[name]}, {len(codes)} codes")
    for problem in labelled.problems:
        print(f"companion bench label-photos: {problem}", file=sys.stderr)
    for name in labelled.unlabelled:
        print(f"companion bench label-photos: {name}: no page in its name and no code read; "
              f"rename it with its page (e.g. p3-{name}) and run again", file=sys.stderr)
    if not labelled.truth:
        print("companion bench label-photos: no photo labelled; nothing written", file=sys.stderr)
        return 1
    print(f"wrote {write_truth(target, labelled)}: score them with "
          f"`companion bench scan --only photos --photos {target}`")
    return 1 if labelled.problems or labelled.unlabelled else 0
