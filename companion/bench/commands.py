"""`companion bench`: every benchmark's subcommand, registered here so that the production
command modules never import a benchmark (cli.py lists this module by name)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="benchmarks that print figures (scan, latency, memory...)")
    bench = parser.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    from companion.bench import battlecards_odds, hub, memory, resume, scan, server, service, table, tag_choice, views

    battlecards_odds.register(bench)
    service.register_bench(bench)
    memory.register(bench)
    resume.register(bench)
    server.register_bench(bench)
    hub.register_bench(bench)
    scan.register_bench(bench)
    table.register_bench(bench)
    tag_choice.register(bench)
    views.register(bench)
    labels = bench.add_parser("label-photos", help="write truth.json for photos of printed tag pages, for `bench scan --photos`")
    labels.add_argument("photos", help="a folder of photos of whole printed pages (JPEG or PNG)")
    labels.add_argument("pages", help="the STEM-pages.json `companion tags print` wrote beside the PDF")
    labels.add_argument("--out", help="write the photos (greyscale) and truth.json here instead of into the photo folder")
    labels.add_argument("--max-side", type=int, default=0, metavar="PX",
                        help="with --out: shrink each photo to at most PX on its longest side (e.g. 1600), as JPEG")
    labels.add_argument("--force", action="store_true", help="replace an existing truth.json")
    labels.set_defaults(func=cmd_label_photos)
    requests = bench.add_parser("requests", help="malformed requests at every state-changing route: count of 5xx")
    requests.add_argument("--requests", type=int, default=3000)
    requests.set_defaults(func=cmd_bench_requests)
    crash = bench.add_parser("crash", help="kill -9 `companion demo` N times: acknowledged events lost")
    crash.add_argument("--kills", type=int, default=20)
    crash.add_argument("--seed", type=int, default=20, help="seed of the kill moments")
    crash.set_defaults(func=cmd_bench_crash)


def cmd_bench_requests(args) -> int:
    from companion.bench.webfuzz import report  # hypothesis: a test extra, so imported only here

    return report(args.requests)


def cmd_bench_crash(args) -> int:
    from companion.bench.crash import cmd_bench

    return cmd_bench(args)


def cmd_label_photos(args) -> int:
    from companion.bench.photo_labels import PagesError, label, load_pages, write_truth

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
