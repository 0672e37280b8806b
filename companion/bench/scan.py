"""`companion bench scan`: how well and how fast tags are read, per backend and for the pipeline.

A seeded, reproducible suite of virtual-table scenes: 1280x720 and 1920x1080 frames, 6 and 20
cards at random positions and angles over the full circle, tag sizes from 2.0 to 5 pixels per
QR module, under each condition of CONDITIONS (tilt, blur, noise, JPEG, uneven light, glare, a
hand over the cards, damaged tags). For every scene:

- each backend (zxing-cpp, pyzbar, OpenCV) decodes ``--frames`` frames from scratch;
- the pipeline (ScanPipeline with its incremental decoder) processes a short clip of the same
  scene: the first frame cold, then steady frames (new sensor noise) with one card moved
  half-way, as at a real table.

It prints, per condition and tag size, the share of readable tags read (a tag is *readable*
when it is whole, in view and not under a hand), false reads (a valid tag text read where no
such tag lies: the target is zero), and the median milliseconds per frame, all from one run,
so ratios between backends are fair on a shared, noisy machine. The process is pinned to one
core and OpenCV to one thread: the figures are per core.

Also printed: the foundation's headline figure (the demo's 1280x720 table with 6 cards), the
steady-state CPU share at 30 frames per second, and the smallest reliable tag for common
cameras and heights (hardware.md's table), derived from the smallest tag size at which the
pipeline read at least 99% of readable tags in every condition.

The scenes and how a frame's reads are scored: bench_scenes.py. The figures beyond the
per-scene tables (cold frames, a still table, low light, photo-like images, hand crossings):
bench_figures.py.
"""
from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from card_tags.payload import CardRef

from companion.bench.photo_labels import is_corner_labelled
from companion.bench.scan_figures import FIGURES, LOOK_WORKERS, load, print_steady, steady_state
from companion.bench.scan_figures import run_and_print as print_figures
from companion.bench.scan_scenes import CONDITIONS, Scene, Score, scene_seed, clip_frames, run_backend, run_pipeline
from companion.scan.decoders import make_decoder
from companion.scan.virtual_table import VirtualTable, random_layout

PPMS = (2.0, 2.5, 3.0, 4.0, 5.0)
RESOLUTIONS = ((1280, 720), (1920, 1080))
CARD_COUNTS = (6, 20)
BACKENDS = ("zxing", "pyzbar", "opencv")
TARGET_PPM = 2.5
# the pipeline's row over the frames after a clip's cold first frame: that frame reads only what
# one decoder call reads (second looks wait for the next frames, so that it stays cheap)
WARM = "warm"

# Cameras for the tag-size table: name and horizontal field of view (degrees) at 16:9.
CAMERAS = (
    ("Pi Camera Module 3", 66.0),
    ("Pi Camera Module 3 Wide", 102.0),
    ("USB webcam, 78 deg diagonal (C920)", 70.4),
)
HEIGHTS_MM = (500, 600, 700, 800, 900, 1000)


def register_bench(bench_sub) -> None:
    scan = bench_sub.add_parser("scan", help="decoding: detection rate and ms per frame per backend and for the pipeline")
    scan.add_argument("--seed", type=int, default=1)
    scan.add_argument("--frames", type=int, default=2, help="frames each backend decodes per scene (default 2)")
    scan.add_argument("--clip", type=int, default=6, help="frames of each scene's clip for the pipeline (default 6)")
    scan.add_argument("--quick", action="store_true", help="a small suite: 1280x720, 6 cards, 2.5 and 4 px/module")
    scan.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated backends to compare")
    scan.add_argument("--json", metavar="FILE", help="also write every figure to this JSON file")
    scan.add_argument("--repeats", type=int, default=5, help="repeats of each headline timing, for its spread (default 5)")
    scan.add_argument("--still-frames", type=int, default=30, help="frames of the still-table clips (default 30)")
    scan.add_argument("--photo-reads", type=int, default=3,
                      help="reads of each labelled photo by each reader; its CPU is their median (default 3)")
    scan.add_argument("--photos", action="append", metavar="DIR",
                      help="a folder of images with truth.json to score per decoder, or of condition folders of photos "
                           "labelled by their codes' corners (BoofCV's layout: scored per condition, and then only that "
                           "is run unless --only names more); may be given several times, \"\" for none "
                           "(default: tests/data/photo_like and tests/data/real_photos)")
    scan.add_argument("--conditions", default="", metavar="NAMES",
                      help="with corner-labelled photos: only these condition folders, comma-separated")
    scan.add_argument("--crossings", type=int, default=0, metavar="N",
                      help="also play N rendered hand crossings with dropped frames "
                           "(1000 took 5 minutes a replay here on a quiet core, 26 on a busy one)")
    scan.add_argument("--crossing-replays", type=int, default=3, metavar="N",
                      help="play the crossings N times, each frame's CPU the median of its N replays: the same frames "
                           "and work each time, so a spike of a shared machine on one replay is not the frame's cost "
                           "(default 3; 1: one play)")
    scan.add_argument("--crossing-view", choices=("table", "close"), default="table",
                      help="the crossings' camera: the whole play area in 640 x 360 (default), or a 1080p camera close "
                           "over the cards, the hand covering most of the frame (100 took about 2 minutes a replay here)")
    scan.add_argument("--look-workers", type=int, default=0, metavar="N",
                      help="the pipeline's second looks on N worker threads (default: the cores the run may use, less "
                           "one: 1 here, pinned to one core; a Pi 4: 3); the reads do not depend on N, the CPU per worker does")
    scan.add_argument("--looks-alone", action="store_true",
                      help="the still clips' frame thread waits for each frame's looks before the next frame, so that they "
                           "run with none of the bench's threads beside them (as a Pi's workers on cores of their own); "
                           "the reads are the same")
    scan.add_argument("--figures-only", action="store_true", help="skip the per-scene tables; print only the other figures")
    scan.add_argument("--only", default="", metavar="NAMES",
                      help=f"only these figures, comma-separated ({', '.join(FIGURES)}); implies --figures-only")
    scan.set_defaults(func=cmd_bench_scan)


# --- the run ------------------------------------------------------------------------------------

def pin_to_one_core() -> str:
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity here)"


def suite(quick: bool) -> list[tuple[int, int, int, float]]:
    if quick:
        return [(1280, 720, 6, ppm) for ppm in (2.5, 4.0)]
    return [(w, h, n, ppm) for (w, h) in RESOLUTIONS for n in CARD_COUNTS for ppm in PPMS]


def cmd_bench_scan(args) -> int:
    backends = [b for b in args.backends.split(",") if b]
    for b in backends:
        make_decoder(b)  # an unknown name fails here, before minutes of work
    missing = [p for p in args.photos or [] if p and not Path(p).is_dir()]
    if missing:   # else the whole scene suite would run in its place (minutes) and score no photo
        print(f"companion bench scan: --photos {missing[0]} is not a folder", file=sys.stderr)
        return 2
    pinned = pin_to_one_core()
    LOOK_WORKERS["n"] = args.look_workers
    LOOK_WORKERS["alone"] = int(args.looks_alone)
    started = time.time()
    print(f"companion bench scan: seed {args.seed}; {platform.machine()}, {os.cpu_count()} cores, {pinned}, "
          f"OpenCV {cv2.__version__} on 1 thread; {args.frames} frame(s) per backend and a {args.clip}-frame clip "
          f"for the pipeline per scene; machine load {load()}")
    labelled = [Path(p) for p in args.photos or [] if p and is_corner_labelled(Path(p))]
    report = {"labelled_photos": [_labelled_photos(folder, backends, args.conditions, args.photo_reads) for folder in labelled]}
    if labelled and len(labelled) == len([p for p in args.photos if p]) and not args.only:
        _finish(args, report, started)
        return 0
    if not (args.figures_only or args.only):
        report.update(_run_suite(args, backends, started))
    report["figures"] = print_figures(args)
    _finish(args, report, started)
    return 0


def _finish(args, report: dict, started: float) -> None:
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1, default=str)
        print(f"figures written to {args.json}")
    print(f"total {time.time() - started:.0f} s")


def _labelled_photos(folder: Path, backends: list[str], conditions: str, reads: int) -> dict:
    """Photos labelled by their codes' corners, per condition (scan_photos.py)."""
    from companion.bench import scan_photos

    wanted = [c for c in conditions.split(",") if c] or None
    results = scan_photos.run(folder, backends, wanted, reads=reads)
    summary = scan_photos.summary(results, backends)
    scan_photos.print_summary(folder, summary, backends)
    return summary


def _run_suite(args, backends, started) -> dict:
    """The per-scene tables, the demo camera's figure, the steady state and the tag sizes."""
    results: dict[tuple, Score] = {}
    for w, h, n, ppm in suite(args.quick):
        for condition in CONDITIONS:
            seed = scene_seed(args.seed, w, n, condition, ppm)
            scene = Scene(w, h, n, condition, ppm, seed)
            try:
                table, frames = clip_frames(scene, max(args.clip, args.frames))
            except ValueError as exc:
                print(f"  skipped {scene.label}: {exc}")
                continue
            for b in backends:
                results[(w, h, n, condition, ppm, b)] = run_backend(b, frames[:args.frames])
            clip, warm = run_pipeline(table, frames[:args.clip])
            results[(w, h, n, condition, ppm, "pipeline")] = clip
            results[(w, h, n, condition, ppm, WARM)] = warm
        print(f"  {w}x{h}, {n} cards, {ppm} px/module: done ({time.time() - started:.0f} s)", flush=True)
    names = backends + ["pipeline", WARM]
    report = _print_tables(results, names, args.quick)
    report["headline"] = headline(args.seed)
    report["steady"] = steady_state(args.seed, repeats=args.repeats)
    # a table is watched for hours: what matters is what is read once the first frame has passed
    report["tag_sizes"] = tag_size_table(report["smallest_reliable_ppm_warm"])
    _print_extras(report)
    return report


def _fmt_rate(score: Score | None) -> str:
    if score is None or score.rate is None:
        return "   -  "
    return f"{100 * score.rate:5.1f}%"


def _median(values):
    return statistics.median(values) if values else None


def _p10_p90(values):
    return [float(np.percentile(values, 10)), float(np.percentile(values, 90))] if values else None


def _print_tables(results, names, quick) -> dict:
    ppms = sorted({k[4] for k in results})
    report = {"rows": [], "targets": {}}
    groups = sorted({(k[0], k[1], k[2]) for k in results})
    for w, h, n in groups:
        print(f"\n{w}x{h}, {n} cards: share of readable tags read per px/module; median ms per frame; false reads"
              f" ({WARM}: the pipeline after the clip's cold first frame)")
        print(f"  {'condition':13} {'decoder':9} " + " ".join(f"{p:>6}" for p in ppms) + "   median ms  false  hidden read")
        for condition in CONDITIONS:
            for name in names:
                cells = [results.get((w, h, n, condition, p, name)) for p in ppms]
                total = Score()
                for c in cells:
                    if c:
                        total.add(c)
                med = _median(total.ms)
                print(f"  {condition if name == names[0] else '':13} {name:9} " + " ".join(_fmt_rate(c) for c in cells)
                      + f"   {med if med is None else round(med, 2):>9}  {total.false_reads:5}  {total.covered_read}/{total.covered}")
                report["rows"].append({"resolution": f"{w}x{h}", "cards": n, "condition": condition, "decoder": name,
                                       "rates": {str(p): (c.rate if c else None) for p, c in zip(ppms, cells)},
                                       "median_ms": med, "cold_median_ms": _median(total.cold_ms),
                                       "false_reads": total.false_reads, "hidden_read": total.covered_read,
                                       "hidden": total.covered})
    report.update(_targets(results, names, ppms))
    return report


def _targets(results, names, ppms) -> dict:
    """The issue's targets, computed from this run's figures.

    Detection at >= 2.5 px/module counts the tags whose real size in the frame is at least that
    (under a 35 degree tilt the far cards are smaller than the scene's nominal size)."""
    out: dict = {}
    per_condition: dict[tuple, Score] = {}
    for (w, h, n, condition, _ppm, name), score in results.items():
        per_condition.setdefault((w, h, n, condition, name), Score()).add(score)
    rates = {}
    behind = []
    for (w, h, n, condition, name), score in per_condition.items():
        rate = score.rate_at_least(TARGET_PPM)
        if rate is None:
            continue
        rates[(w, h, n, condition, name)] = rate
    ours = ("pipeline", WARM)
    for (w, h, n, condition, name), rate in rates.items():
        if name != "pipeline":
            continue
        for b in names:
            other = rates.get((w, h, n, condition, b))
            if b not in ours and other is not None and other > rate + 1e-9:
                behind.append(f"{w}x{h} {n} cards {condition}: pipeline {rate:.3f} < {b} {other:.3f}")
    for name, key in (("pipeline", "pipeline"), (WARM, "warm")):
        named = {f"{w}x{h} {n} cards {c}": r for (w, h, n, c, nm), r in rates.items() if nm == name}
        out[f"{key}_rate_at_2_5_or_more"] = named
        out[f"worst_{key}_rate_at_2_5_or_more"] = min(named.values()) if named else None
    out["pipeline_behind_best_backend"] = behind
    big = [(s, k) for k, s in results.items() if k[0] == 1920 and k[2] == 20]
    pipe = [m for s, k in big if k[5] == "pipeline" for m in s.ms]
    pipe_cold = [m for s, k in big if k[5] == "pipeline" for m in s.cold_ms]
    pyz = [m for s, k in big if k[5] == "pyzbar" for m in s.ms]
    zx = [m for s, k in big if k[5] == "zxing" for m in s.ms]
    out["1080p_20_cards"] = {"pipeline_median_ms": _median(pipe), "pipeline_cold_median_ms": _median(pipe_cold),
                             "pyzbar_median_ms": _median(pyz), "zxing_median_ms": _median(zx),
                             "spread_p10_p90": {name: _p10_p90(v) for name, v in
                                                (("pipeline", pipe), ("pipeline_cold", pipe_cold), ("pyzbar", pyz), ("zxing", zx))}}
    if pipe and pyz:
        out["1080p_20_cards"]["pyzbar_over_pipeline"] = _median(pyz) / _median(pipe)
    false_total = {name: sum(s.false_reads for k, s in results.items() if k[5] == name) for name in names}
    out["false_reads"] = false_total
    # the smallest real tag size from which the pipeline reads >= 99% in every condition
    for name, key in (("pipeline", "smallest_reliable_ppm"), (WARM, "smallest_reliable_ppm_warm")):
        scores = [v for k, v in per_condition.items() if k[4] == name]
        out[key] = next((ppm for ppm in (2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 4.0, 5.0)
                         if scores and all((r := s.rate_at_least(ppm)) is None or r >= 0.99 for s in scores)), None)
    return out


def headline(seed: int, frames: int = 30) -> dict:
    """The foundation's figure: the demo's camera (1280x720, whole mat in view), 6 tagged cards."""
    table = VirtualTable(1280, 720, seed=seed)
    rng = np.random.default_rng(seed)
    refs = [CardRef("bom-battle", f"C{i:02d}", 1) for i in range(6)]
    for ref, xy, angle in random_layout(table, refs, rng):
        table.place(ref, xy, angle)
    clip = []
    for _ in range(frames):
        frame, truth = table.render_with_truth()
        clip.append((cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), truth))
    out = {"px_per_module_at_centre": round(table.px_per_module(), 2)}
    for name in ("zxing", "pyzbar"):
        s = run_backend(name, clip)
        out[name] = {"median_ms": _median(s.ms), "rate": s.rate}
    s, _ = run_pipeline(table, clip)
    out["pipeline"] = {"median_ms": _median(s.ms), "cold_ms": _median(s.cold_ms), "rate": s.rate}
    out["pyzbar_over_zxing"] = out["pyzbar"]["median_ms"] / out["zxing"]["median_ms"]
    return out


def tag_size_table(ppm: float | None) -> list[dict]:
    """Smallest reliable tag (the QR symbol's side, mm) per camera, resolution and height, with
    the same camera geometry as `companion tags size` (card_tags/geometry.py)."""
    from card_tags import geometry

    if ppm is None:
        return []
    rows = []
    for name, hfov in CAMERAS:
        for width, height in RESOLUTIONS:
            for h_mm in HEIGHTS_MM:
                camera = geometry.Camera(h_mm, width, height, hfov)
                rows.append({"camera": name, "resolution": f"{width}x{height}", "height_mm": h_mm,
                             "view_mm": [round(camera.mat_width_mm), round(camera.mat_depth_mm)],
                             "mat_fits": camera.mat_width_mm >= 900 and camera.mat_depth_mm >= 600,
                             "px_per_mm": round(camera.pixels_per_mm, 2),
                             "smallest_tag_mm": round(geometry.tag_mm(geometry.min_module_mm(camera, ppm)), 1)})
    return rows


def _print_extras(report: dict) -> None:
    h = report["headline"]
    print(f"\nThe demo's camera (1280x720, whole mat, {h['px_per_module_at_centre']} px/module at the centre), 6 cards, "
          f"30 frames: zxing {h['zxing']['median_ms']:.2f} ms ({100 * h['zxing']['rate']:.0f}% read), "
          f"pyzbar {h['pyzbar']['median_ms']:.2f} ms ({100 * h['pyzbar']['rate']:.0f}% read), "
          f"pipeline {h['pipeline']['median_ms']:.2f} ms ({100 * h['pipeline']['rate']:.0f}% read); "
          f"pyzbar/zxing = {h['pyzbar_over_zxing']:.1f}x")
    big = report["1080p_20_cards"]
    if big.get("pipeline_median_ms") is not None:
        ratio = big.get("pyzbar_over_pipeline")
        print(f"1920x1080, 20 cards: pipeline median {big['pipeline_median_ms']:.2f} ms "
              f"(cold first frame {big['pipeline_cold_median_ms']:.2f} ms), zxing alone {big['zxing_median_ms']:.2f} ms, "
              f"pyzbar alone {big['pyzbar_median_ms']:.2f} ms" + (f"; pyzbar/pipeline = {ratio:.1f}x" if ratio else ""))
        spreads = ", ".join(f"{name} {lo:.2f}-{hi:.2f}" for name, v in big["spread_p10_p90"].items() if v for lo, hi in [v])
        print(f"    spread over scenes and frames (10th-90th percentile, ms): {spreads}")
    print_steady(report["steady"])
    for key, what in (("pipeline", "whole clips"), ("warm", f"frames after the cold first one ({WARM})")):
        worst = report[f"worst_{key}_rate_at_2_5_or_more"]
        print(f"pipeline detection of tags >= {TARGET_PPM} px/module (real size in the frame), {what}, worst condition: "
              f"{'-' if worst is None else f'{100 * worst:.1f}%'}")
        for name, rate in sorted(report[f"{key}_rate_at_2_5_or_more"].items(), key=lambda kv: kv[1])[:5]:
            print(f"    {name}: {100 * rate:.1f}%")
    print(f"conditions where a single backend reads more than the pipeline: {len(report['pipeline_behind_best_backend'])}")
    for line in report["pipeline_behind_best_backend"]:
        print(f"    {line}")
    print(f"false reads (valid tag text where no such tag lies): {report['false_reads']}")
    print(f"smallest tag size (real px/module) from which the pipeline reads >= 99% of readable tags in every "
          f"condition: {report['smallest_reliable_ppm']} over whole clips, {report['smallest_reliable_ppm_warm']} "
          f"after the cold first frame")
    if report["tag_sizes"]:
        print("\nsmallest reliable tag (QR symbol side) by camera, resolution and height:")
        for row in report["tag_sizes"]:
            fits = "" if row["mat_fits"] else "  (a 90x60 cm mat does not fit in view)"
            print(f"  {row['camera']:40} {row['resolution']:9} {row['height_mm'] / 10:4.0f} cm  "
                  f"{row['px_per_mm']:5.2f} px/mm  {row['smallest_tag_mm']:5.1f} mm{fits}")
