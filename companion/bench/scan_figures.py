"""`companion bench scan`'s figures beyond the per-scene tables: cold frames, a still table's
small tags (frame fusion), first reads in low light, photo-like and real photographs, hands
crossing cards.

Every timing is repeated and printed as a median with its spread (the lowest and highest of
the repeats), next to a baseline measured in the same run, with the machine's load average at
the start and the end: on a shared machine a ratio from one run means more than a milliseconds
figure, and a wide spread says the machine was busy.
"""
from __future__ import annotations

from functools import partial

import json
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from card_tags import payload as tag_payload

from companion.bench.crossings import run_crossings
from companion.scan.decoders import make_decoder
from companion.scan.pipeline import ScanPipeline
from companion.scan.scanfiles import read_codes
from companion.scan.zones import ZoneMap

_DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
DEFAULT_PHOTOS = _DATA / "photo_like"
REAL_PHOTOS = _DATA / "real_photos"
PHOTO_SETS = {DEFAULT_PHOTOS: "photo-like images (SYNTHETIC, not real photographs)",
              REAL_PHOTOS: "real photographs of QR codes (ZXing's test photos; foreign codes, none of our tags)"}
FUSION_CONDITIONS = ("plain", "blur", "noise", "tilt 35")


def load() -> str:
    if not hasattr(os, "getloadavg"):
        return "unknown"
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "low": min(values), "high": max(values), "n": len(values)}


def fmt(s: dict) -> str:
    return f"{s['median']:.2f} ms ({s['low']:.2f}-{s['high']:.2f}, {s['n']} runs)"


# --look-workers: the second looks' worker threads (0: the pipeline's default); --looks-alone: the
# frame thread waits for each frame's looks before the next frame (nothing of the bench's beside them)
LOOK_WORKERS = {"n": 0, "alone": 0}
CLIP_REPLAYS = 3   # a still clip's plays through a fresh pipeline: each frame's CPU the median of them (still_clip)


def _pipeline(table) -> ScanPipeline:
    return ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle",
                        homography=np.linalg.inv(table.homography), look_workers=LOOK_WORKERS["n"] or None)


def _timed(fn):
    started = time.perf_counter()
    out = fn()
    return (time.perf_counter() - started) * 1000, out


# --- cold frames ---------------------------------------------------------------------------------

def cold_frames(seed: int, repeats: int) -> dict:
    """The first frame a pipeline sees (1920x1080, 20 cards) against one zxing-cpp call on it,
    in wall time and in the CPU time of this thread (on a busy machine the wall time also
    counts the time other processes had the core; the CPU time does not)."""
    from companion.bench.scan_scenes import Scene, scene_seed, clip_frames

    out = {}
    for condition, ppm in (("plain", 3.0), ("blur", 2.5)):
        scene = Scene(1920, 1080, 20, condition, ppm, scene_seed(seed, 1920, 20, condition, ppm))
        table, frames = clip_frames(scene, 1)
        gray, truth = frames[0]
        readable = {t.text for t in truth if t.readable}
        zxing = make_decoder("zxing")
        times = {"zxing": [], "pipeline": [], "zxing_cpu": [], "pipeline_cpu": []}
        for _ in range(repeats):
            found = _timed_both(partial(zxing.decode, gray), times, "zxing")
            zx_reads = {d.text for d in found} & readable
            pipeline = _pipeline(table)
            _timed_both(partial(pipeline.process, gray, now=0.0), times, "pipeline")
            pipe_reads = {s.text for s in pipeline.snapshot()[1]} & readable
        out[f"{condition} {ppm}"] = {**{k: spread(v) for k, v in times.items()},
                                     "ratio": statistics.median(times["pipeline"]) / statistics.median(times["zxing"]),
                                     "cpu_ratio": statistics.median(times["pipeline_cpu"]) / statistics.median(times["zxing_cpu"]),
                                     "zxing_reads": len(zx_reads), "pipeline_reads": len(pipe_reads),
                                     "readable": len(readable)}
    return out


def service_start(seed: int, repeats: int) -> dict:
    """The service's camera starting on a table (``ScanPipeline(spread_start=True)``, as wiring.py makes
    it; no homography given: the mat calibrated from its markers): each frame's CPU on the frame thread
    until the first sweep is over, its worst against one zxing-cpp call on the frame in the same run,
    the frame the mat is calibrated on and the frame every readable card is known from."""
    from companion.bench.scan_scenes import Scene, build_table, frame_cpu_ms, scene_seed

    out = {}
    for condition, ppm in (("plain", 3.0), ("blur", 2.5)):
        scene = Scene(1920, 1080, 20, condition, ppm, scene_seed(seed, 1920, 20, condition, ppm))
        table, _, _ = build_table(scene)
        frame, truth = table.render_with_truth()
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        readable = {t.text for t in truth if t.readable}
        zxing = make_decoder("zxing")
        times = {"zxing": [], "zxing_cpu": []}
        worst, calibrated, known_from, known = [], None, None, 0
        for _ in range(repeats):
            _timed_both(partial(zxing.decode, gray), times, "zxing")
            pipeline = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle", spread_start=True,
                                    look_workers=LOOK_WORKERS["n"] or None)
            pipeline.warm_up()
            frame_ms = []
            for n in range(90):
                frame_ms.append(frame_cpu_ms(pipeline, gray, n / 30))
                pipeline.decoder.wait_for_looks()
                if calibrated is None and pipeline.calibration.ready:
                    calibrated = n
                known = len({d.text for d in pipeline.decoder.finish_looks()} & readable)
                if known_from is None and known == len(readable):
                    known_from = n
                if n > 1 and not pipeline.decoder.sweeping and calibrated is not None:
                    break
            worst.append(max(frame_ms))
        zx = statistics.median(times["zxing_cpu"])
        out[f"{condition} {ppm}"] = {"zxing_cpu": spread(times["zxing_cpu"]), "worst_frame_cpu": spread(worst),
                                     "worst_ratio": statistics.median(worst) / zx, "frames": len(frame_ms),
                                     "calibrated_on": calibrated, "all_known_from": known_from, "known": known,
                                     "readable": len(readable)}
    return out


def relit_frames(seed: int, repeats: int) -> dict:
    """A table read, then the room's light changes (every block changes: the whole frame is read
    again): the pipeline reads it as a sweep of tiles, one a frame, while the codes it knew stay
    known (incremental.py: _decode_whole). Each frame's CPU on this thread until the sweep is done
    (its worst, and the sweep's together) against one zxing-cpp call on the relit frame in the same
    run, and the codes known after the sweep."""
    from companion.bench.scan_scenes import Scene, build_table, frame_cpu_ms, random_layout_one, scene_seed

    out = {}
    for condition, ppm in (("plain", 3.0), ("blur", 2.5)):
        scene = Scene(1920, 1080, 20, condition, ppm, scene_seed(seed, 1920, 20, condition, ppm))
        table, layout, rng = build_table(scene)
        lit = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
        table.set_look(replace(table.look, exposure=0.6))   # a lamp switched off: 60% of the light
        relit, truth = table.render_with_truth()
        relit = cv2.cvtColor(relit, cv2.COLOR_BGR2GRAY)
        ref, _, _ = layout[-1]   # then one card moves (as the per-scene clips move one)
        table.remove(ref)
        _, xy, angle = random_layout_one(table, layout[:-1], ref, rng)
        table.place(ref, xy, angle)
        moved = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
        readable = {t.text for t in truth if t.readable}
        zxing = make_decoder("zxing")
        times = {"zxing": [], "zxing_cpu": []}
        worst, total, frames, before, after, moved_ms = [], [], 0, 0, 0, []
        for _ in range(repeats):
            _timed_both(partial(zxing.decode, relit), times, "zxing")
            pipeline = _pipeline(table)
            pipeline.warm_up()
            for n in range(30):   # the table read, its looks done
                pipeline.process(lit, now=n / 30)
                pipeline.decoder.wait_for_looks()
            before = len({d.text for d in pipeline.decoder.finish_looks()} & readable)
            frame_ms = []
            for n in range(30, 90):
                frame_ms.append(frame_cpu_ms(pipeline, relit, n / 30))
                pipeline.decoder.wait_for_looks()
                if not pipeline.decoder.sweeping:
                    break
            frames, after = len(frame_ms), len({d.text for d in pipeline.decoder.finish_looks()} & readable)
            worst.append(max(frame_ms))
            total.append(sum(frame_ms))
            for n in range(90, 100):   # settled (its places noted, a tile of the periodic pass), then a card moves
                pipeline.process(relit, now=n / 30)
                pipeline.decoder.wait_for_looks()
            moved_ms.append(frame_cpu_ms(pipeline, moved, 100 / 30))
            pipeline.decoder.wait_for_looks()
        zx = statistics.median(times["zxing_cpu"])
        out[f"{condition} {ppm}"] = {"zxing_cpu": spread(times["zxing_cpu"]), "worst_frame_cpu": spread(worst),
                                     "sweep_cpu": spread(total), "frames": frames,
                                     "worst_ratio": statistics.median(worst) / zx, "sweep_ratio": statistics.median(total) / zx,
                                     "known_before": before, "known_after": after, "readable": len(readable),
                                     "moved_card_cpu": spread(moved_ms), "moved_ratio": statistics.median(moved_ms) / zx}
    return out


def _timed_both(fn, times: dict, name: str):
    """Run fn; append its wall ms to times[name] and its thread CPU ms to times[name + "_cpu"]."""
    cpu, started = time.thread_time(), time.perf_counter()
    out = fn()
    times[name].append((time.perf_counter() - started) * 1000)
    times[name + "_cpu"].append((time.thread_time() - cpu) * 1000)
    return out


# --- a still table of plain tags: each frame's CPU ---------------------------------------------------

def steady_state(seed: int, frames: int = 150, repeats: int = 3) -> dict:
    """CPU share of one core at 30 fps: 1920x1080, 20 cards lying still, new sensor noise every
    frame; repeated, for the spread."""
    from companion.bench.scan_scenes import Scene, build_table, frame_cpu_ms

    scene = Scene(1920, 1080, 20, "plain", 3.0, seed)
    table, _, _ = build_table(scene)
    grays = [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(6)]
    zones = ZoneMap.for_game("bom-battle", 2)
    cpu_ms, wall_ms, worst_ms = [], [], 0.0
    frame_ms, settling_ms = [], []    # each frame's CPU: steady, and the 30 after the cold one
    looks_ms, settling_looks_ms = [], []   # ...and the second looks' on their worker thread, for the same frames
    zxing = make_decoder("zxing")
    zxing_ms = []                     # the same-run baseline: one zxing-cpp call on the whole frame
    for _ in range(max(repeats, 1)):
        for g in grays[:2]:
            zxing_cpu = time.thread_time()
            zxing.decode(g)
            zxing_ms.append((time.thread_time() - zxing_cpu) * 1000)
        pipeline = ScanPipeline(None, "zxing", zones, "bom-battle", homography=np.linalg.inv(table.homography),
                                look_workers=LOOK_WORKERS["n"] or None)
        pipeline.warm_up()                   # as the service's start() does
        pipeline.process(grays[0], now=0.0)  # the cold frame is not steady state
        for n in range(1, 31):               # nor are the frames in which second looks finish
            settling_ms.append(frame_cpu_ms(pipeline, grays[n % len(grays)], n / 30))
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for n in range(31, frames + 31):
            frame_ms.append(frame_cpu_ms(pipeline, grays[n % len(grays)], n / 30))
            worst_ms = max(worst_ms, frame_ms[-1])
        pipeline.decoder.finish_looks()
        cpu_ms.append((time.process_time() - cpu0) / frames * 1000)
        wall_ms.append((time.perf_counter() - wall0) / frames * 1000)
        looks = pipeline.decoder.look_cpu_ms
        looks_ms += [looks.get(n + 1, 0.0) for n in range(31, frames + 31)]
        settling_looks_ms += [looks.get(n + 1, 0.0) for n in range(1, 31)]
    cpu = statistics.median(cpu_ms)
    return {"cpu_ms_per_frame": cpu, "cpu_spread": spread(cpu_ms), "worst_frame_cpu_ms": worst_ms,
            "frame_cpu_ms": {"median": statistics.median(frame_ms), "p99": float(np.percentile(frame_ms, 99)), "worst": worst_ms},
            "settling_cpu_ms": {"median": statistics.median(settling_ms), "p99": float(np.percentile(settling_ms, 99)),
                                "worst": max(settling_ms)},
            "looks_cpu_ms": {"worst": max(looks_ms), "settling_worst": max(settling_looks_ms)},
            "zxing_whole_frame_cpu_ms": statistics.median(zxing_ms), "load": load(),
            "wall_ms_per_frame": statistics.median(wall_ms),
            "core_share_at_30fps": cpu * 30 / 1000, "cards_tracked": len(pipeline.snapshot()[1])}


def print_steady(s: dict) -> None:
    """The steady_state figure: each frame's CPU on a still table, and on the 30 frames after the cold one."""
    c = s["cpu_spread"]
    print(f"steady state (1920x1080, 20 cards still): {s['cpu_ms_per_frame']:.2f} ms CPU per frame "
          f"({c['low']:.2f}-{c['high']:.2f} over {c['n']} runs) = "
          f"{100 * s['core_share_at_30fps']:.1f}% of one core at 30 fps; worst single frame {s['worst_frame_cpu_ms']:.2f} ms CPU "
          f"(target 6 ms)")
    f, z = s["frame_cpu_ms"], s["settling_cpu_ms"]
    print(f"    each frame's CPU, steady: median {f['median']:.2f}, p99 {f['p99']:.2f}, worst {f['worst']:.2f} ms; "
          f"the 30 frames after the cold one: median {z['median']:.2f}, p99 {z['p99']:.2f}, worst {z['worst']:.2f} ms; "
          f"zxing-cpp alone on the whole frame (same run): {s['zxing_whole_frame_cpu_ms']:.2f} ms; load {s['load']}")
    w = s["looks_cpu_ms"]
    print(f"    (the frame thread's CPU; the second looks' busiest worker thread, worst frame: steady {w['worst']:.2f} ms, "
          f"after the cold one {w['settling_worst']:.2f} ms; the CPU per frame above counts both threads)")


# --- a still table: small tags and frame fusion; first reads in low light ------------------------

def still_clip(seed: int, condition: str, ppm: float, frames: int, width=1920, height=1080, cards=20,
               replays: int | None = None) -> dict:
    """A still table (nothing moves, fresh sensor noise each frame) through the pipeline: the
    share of readable tags read on each frame, each card's first frame, false reads, cost.
    ``replays`` (default ``CLIP_REPLAYS``): the same frames through a fresh pipeline so many times,
    each frame's CPU (the frame thread's, each worker's, the dearest share's) the median of its
    replays. The pipeline decides nothing by the clock, so each replay does the same work (checked:
    the same reads on every frame); what differs is this shared machine's noise."""
    from companion.bench.scan_scenes import Scene, scene_seed, build_table

    scene = Scene(width, height, cards, condition, ppm, scene_seed(seed, width, cards, condition, ppm))
    table, _, _ = build_table(scene)
    clip = []
    for _ in range(frames):
        frame, truth = table.render_with_truth()
        clip.append((cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), truth))
    reference = _reference_ms(clip[0][0])
    plays = [_play_still(table, clip) for _ in range(max(replays or CLIP_REPLAYS, 1))]
    reference += _reference_ms(clip[0][0])   # before and after: the machine's speed over the clip
    first = plays[0]
    if any((p["shares"], p["first_read"], p["false_reads"]) != (first["shares"], first["first_read"], first["false_reads"])
           for p in plays[1:]):
        raise RuntimeError(f"a replay of the {condition} clip read otherwise: the pipeline depends on more than its frames")
    each = {name: [float(v) for v in np.median([p[name] for p in plays], axis=0)]
            for name in ("ms", "cpu_ms", "looks_ms", "all_looks_ms", "share_ms")}
    ms, cpu_ms, looks_ms, all_looks_ms, share_ms = (each[k] for k in ("ms", "cpu_ms", "looks_ms", "all_looks_ms", "share_ms"))
    both_ms = [a + b for a, b in zip(cpu_ms, looks_ms)]
    shares, first_read, pipeline = first["shares"], first["first_read"], first["pipeline"]
    decoder = pipeline.decoder
    readable = [t.text for t in clip[-1][1] if t.readable]
    reached = next((n for n in range(frames) if all(x >= 0.99 for x in shares[n:])), None)
    stats = decoder.stats
    return {"condition": condition, "ppm": ppm, "size": f"{width}x{height}", "cards": cards,
            "first_frame_share": shares[0], "last_frame_share": shares[-1],
            "frames_to_99": None if reached is None else reached + 1, "false_reads": first["false_reads"],
            "median_ms": statistics.median(ms) if ms else None, "second_looks": stats.second_looks,
            "replays": len(plays),
            # each frame's CPU after the first (this thread's: the load does not count), its worst
            "frame_cpu_ms": {"median": statistics.median(cpu_ms), "p99": float(np.percentile(cpu_ms, 99)),
                             "worst": max(cpu_ms), "replay_worst": [max(p["cpu_ms"]) for p in plays]} if cpu_ms else None,
            "looks_cpu_ms": {"median": statistics.median(looks_ms), "worst": max(looks_ms),
                             "total": sum(all_looks_ms), "all_worst": max(all_looks_ms), "share_worst": max(share_ms),
                             "replay_share_worst": [max(p["share_ms"]) for p in plays],
                             "alone": bool(LOOK_WORKERS["alone"])} if looks_ms else None,
            "look_workers": decoder.look_workers,
            "reference_cpu_ms": statistics.median(reference),
            "both_cpu_ms": {"worst": max(both_ms), "total": sum(both_ms)} if both_ms else None,
            "first_read": {t: first_read.get(t) for t in readable},
            "reads_by_rung": dict(decoder.ladder.reads_by_rung)}


def _play_still(table, clip: list) -> dict:
    """One play of a still clip through a fresh pipeline: what it read on each frame, and each frame's cost."""
    from companion.bench.scan_scenes import score_frame

    pipeline = _pipeline(table)
    pipeline.warm_up()   # as the service's start() does: the first look at ZBar is not paid on a frame
    shares, first_read, ms, cpu_ms, false_reads = [], {}, [], [], 0
    decoder = pipeline.decoder
    for n, (gray, truth) in enumerate(clip):
        prepared = pipeline.prepare(gray)   # on the service's reader thread
        cpu = time.thread_time()
        elapsed, _ = _timed(partial(pipeline.process, gray, now=n / 30, prepared=prepared))
        if n:
            ms.append(elapsed)
            cpu_ms.append((time.thread_time() - cpu) * 1000)
        if LOOK_WORKERS["alone"]:
            decoder.wait_for_looks()
        seen = pipeline.snapshot()[1]
        score = score_frame([(s.text, tuple(s.corners.mean(axis=0))) for s in seen], truth)
        false_reads += score.false_reads
        shares.append(score.rate if score.rate is not None else 1.0)
        for s in seen:
            first_read.setdefault(s.text, n)
    decoder.finish_looks()
    frames = len(clip)
    # the second looks handed over on each frame (n) ran on the worker threads: their CPU, by frame
    return {"pipeline": pipeline, "shares": shares, "first_read": first_read, "false_reads": false_reads,
            "ms": ms, "cpu_ms": cpu_ms,
            "looks_ms": [decoder.look_cpu_ms.get(n + 1, 0.0) for n in range(1, frames)],
            "all_looks_ms": [decoder.look_total_ms.get(n + 1, 0.0) for n in range(1, frames)],
            "share_ms": [decoder.look_share_ms.get(n + 1, 0.0) for n in range(1, frames)]}


def _reference_ms(frame: np.ndarray, runs: int = 3) -> list[float]:
    """The same run's measure of the machine's speed: plain zxing-cpp's one pass over a frame of the clip,
    CPU ms, ``runs`` times. This shared machine's speed moves by a third within minutes (a fixed Python loop
    took 356 to 536 ms), so a share's CPU is printed beside it."""
    decoder = make_decoder("zxing")
    found = []
    for _ in range(runs):
        started = time.thread_time()
        decoder.decode(frame)
        found.append((time.thread_time() - started) * 1000)
    return found


def fusion(seed: int, frames: int) -> list[dict]:
    return [still_clip(seed, c, 2.0, frames) for c in FUSION_CONDITIONS]


def first_reads(seed: int, frames: int) -> list[dict]:
    return [still_clip(seed, "low light", ppm, frames) for ppm in (2.5, 3.0)]


# --- photographs (photo-like and real) -----------------------------------------------------------

DECODERS = ("zxing", "pyzbar", "opencv")


def read_photos(folder: Path) -> dict[str, tuple[set[str], dict[str, set[str]]]] | None:
    """Per image of a folder with truth.json: the codes it holds, and the texts each decoder
    (thorough) and the pipeline (`companion scan`'s decoder, no time budget) read in it."""
    truth_file = folder / "truth.json"
    if not truth_file.exists():
        return None
    decoders = {n: make_decoder(n, thorough=True) for n in DECODERS}
    out = {}
    for image, printed in json.loads(truth_file.read_text()).items():
        gray = cv2.imread(str(folder / image), cv2.IMREAD_GRAYSCALE)
        got = {n: {d.text for d in decoders[n].decode(gray)} for n in DECODERS}
        got["pipeline"] = {d.text for d, _ in read_codes(gray, [decoders["zxing"]])}
        out[image] = (set(printed), got)
    return out


def photos(folder: Path) -> dict | None:
    read = read_photos(folder)
    if read is None:
        return None
    rows, behind, false_reads, other = [], [], 0, 0
    for image, (printed, got) in read.items():
        counts = {n: len(texts & printed) for n, texts in got.items()}
        for texts in got.values():
            false_reads += sum(1 for t in texts - printed if _valid(t))
            other += len(texts - printed)
        if any(counts[n] > counts["pipeline"] for n in DECODERS):
            behind.append(image)
        rows.append({"image": image, "printed": len(printed), **counts})
    totals = {n: sum(r[n] for r in rows) for n in (*DECODERS, "pipeline")}
    return {"folder": str(folder), "label": PHOTO_SETS.get(folder.resolve(), "images"), "rows": rows,
            "totals": totals, "printed": sum(r["printed"] for r in rows), "pipeline_behind_on": behind,
            "false_reads": false_reads, "texts_not_in_truth": other}


def photo_folders(arg: list[str] | None) -> list[Path]:
    """`--photos` as given (each time a folder; "" for none), or both sets that exist."""
    if arg is None:
        return [f for f in PHOTO_SETS if (f / "truth.json").exists()]
    return [Path(a) for a in arg if a]


def _valid(text: str) -> bool:
    try:
        tag_payload.decode(text)
        return True
    except tag_payload.PayloadError:
        return False


# --- printing --------------------------------------------------------------------------------------

FIGURES = ("cold", "steady", "fusion", "first-reads", "photos", "crossings")


def run_and_print(args) -> dict:
    """Every figure, or only those ``args.only`` names (comma-separated, from FIGURES)."""
    only = [n for n in (getattr(args, "only", "") or "").split(",") if n] or list(FIGURES)
    unknown = set(only) - set(FIGURES)
    if unknown:
        raise SystemExit(f"--only: unknown figure(s) {', '.join(sorted(unknown))}; choose from {', '.join(FIGURES)}")
    report: dict = {"load_at_start": load()}
    print(f"\nmachine load at the start of these figures: {report['load_at_start']}")
    printers = {"cold": _print_cold, "steady": _print_steady, "fusion": _print_fusion, "first-reads": _print_first_reads,
                "photos": _print_photos, "crossings": _print_crossings}
    for name in FIGURES:
        if name in only:
            printers[name](args, report)
    report["load_at_end"] = load()
    print(f"machine load at the end: {report['load_at_end']}")
    return report


def _print_cold(args, report: dict) -> None:
    report["cold"] = cold_frames(args.seed, args.repeats)
    print("\ncold first frame, 1920x1080, 20 cards (the pipeline's whole process(), no calibration search: "
          "the homography is given):")
    for name, c in report["cold"].items():
        print(f"  {name:10} zxing-cpp {fmt(c['zxing'])}, pipeline {fmt(c['pipeline'])}: {c['ratio']:.2f}x; "
              f"read {c['zxing_reads']} / {c['pipeline_reads']} of {c['readable']}")
        print(f"  {'':10} CPU: zxing-cpp {fmt(c['zxing_cpu'])}, pipeline {fmt(c['pipeline_cpu'])}: {c['cpu_ratio']:.2f}x")
    _print_start(args, report)
    report["relit"] = relit_frames(args.seed, args.repeats)
    print("the same tables read, then the light changes (the whole frame read again as a sweep of tiles, one a frame: "
          "pipeline.COLD_TILE_PX; CPU on the frame thread):")
    for name, c in report["relit"].items():
        print(f"  {name:10} {c['frames']} frames: the worst {fmt(c['worst_frame_cpu'])} ({c['worst_ratio']:.2f}x), together "
              f"{fmt(c['sweep_cpu'])} ({c['sweep_ratio']:.2f}x), against zxing-cpp's one call on the relit frame "
              f"{fmt(c['zxing_cpu'])}; known {c['known_before']} before, {c['known_after']} after, of {c['readable']}")
        print(f"  {'':10} then one card moves: that frame {fmt(c['moved_card_cpu'])} ({c['moved_ratio']:.2f}x)")


def _print_start(args, report: dict) -> None:
    report["service_start"] = service_start(args.seed, args.repeats)
    print("the service's camera starting on such a table (its first marker search and first frame a tile a frame: "
          "ScanPipeline(spread_start=True), the mat calibrated from its markers; CPU on the frame thread):")
    for name, c in report["service_start"].items():
        print(f"  {name:10} {c['frames']} frames: the worst {fmt(c['worst_frame_cpu'])} ({c['worst_ratio']:.2f}x one zxing-cpp "
              f"call on the frame, {fmt(c['zxing_cpu'])}); calibrated on frame {c['calibrated_on']}, "
              f"{c['known']} of {c['readable']} known after the sweep"
              + (f", all from frame {c['all_known_from']}" if c["all_known_from"] is not None else ""))


def _print_steady(args, report: dict) -> None:
    """bench scan's steady figure, on its own with ``--only steady`` or ``--figures-only``."""
    if not (getattr(args, "only", "") or getattr(args, "figures_only", False)):
        return   # the per-scene suite ran, and printed it with its figures
    report["steady"] = steady_state(args.seed, repeats=args.repeats)
    print()
    print_steady(report["steady"])


def _print_fusion(args, report: dict) -> None:
    report["fusion"] = fusion(args.seed, args.still_frames)
    print(f"\na still table, 1920x1080, 20 cards at 2.0 px/module, {args.still_frames} frames (fresh noise each):")
    for r in report["fusion"]:
        print(f"  {r['condition']:9} first frame {100 * r['first_frame_share']:5.1f}%, last {100 * r['last_frame_share']:5.1f}%,"
              f" >= 99% from frame {r['frames_to_99'] or '-'}; {r['median_ms']:.2f} ms a frame after the first; "
              f"{r['second_looks']} second looks; false reads {r['false_reads']}")
        c = r["frame_cpu_ms"]
        print(f"  {'':9} each frame's CPU after the first, the frame thread{_replayed(r)}: median {c['median']:.2f}, "
              f"p99 {c['p99']:.2f}, worst {c['worst']:.2f} ms (target 6 ms; one play's worst alone "
              f"{', '.join(f'{v:.2f}' for v in c['replay_worst'])})")
        print(f"  {'':9} {_looks_line(r)}")


def _print_first_reads(args, report: dict) -> None:
    report["first_reads"] = first_reads(args.seed, args.still_frames)
    print("\nlow light (30% exposure, noise 6), 1920x1080, 20 cards: the frame each card was first read in")
    for r in report["first_reads"]:
        frames = sorted(v for v in r["first_read"].values() if v is not None)
        never = sum(v is None for v in r["first_read"].values())
        c = r["frame_cpu_ms"]
        print(f"  {r['ppm']} px/module: {frames} (frame 0 is the first); latest {max(frames) if frames else '-'}"
              + (f"; never read: {never}" if never else "")
              + f"; each frame's CPU after the first, the frame thread: median {c['median']:.2f}, worst {c['worst']:.2f} ms")
        print(f"      {_looks_line(r)}")


def _replayed(r: dict) -> str:
    return f", each frame the median of {r['replays']} plays of the clip" if r["replays"] > 1 else ""


def _looks_line(r: dict) -> str:
    """The second looks' worker thread beside the frame thread: its CPU per frame, and both together."""
    w, b = r["looks_cpu_ms"], r["both_cpu_ms"]
    if w is None:
        return "second looks' workers: none"
    n = r["look_workers"]
    alone = ", each frame's looks alone" if w["alone"] else ""
    return (f"second looks, {n} worker thread{'s' if n > 1 else ''}: the busiest's CPU per frame median {w['median']:.2f}, "
            f"worst {w['worst']:.2f} ms (all workers' worst {w['all_worst']:.2f}; the dearest share's "
            f"{w['share_worst']:.2f}{alone}, target 6 ms: a Pi 4's worker on a core of its own; one play's alone "
            f"{', '.join(f'{v:.2f}' for v in w['replay_share_worst'])}; "
            f"{w['share_worst'] / r['reference_cpu_ms']:.2f}x the same run's plain zxing-cpp pass over a frame, "
            f"{r['reference_cpu_ms']:.2f} ms); frame + its busiest worker: worst "
            f"{b['worst']:.2f} ms; the looks' CPU over the clip {w['total']:.0f} ms")


def _print_photos(args, report: dict) -> None:
    report["photos"] = [p for p in map(photos, photo_folders(args.photos)) if p]
    for p in report["photos"]:
        print(f"\n{p['label']} in {p['folder']}: codes read of {p['printed']}")
        width = max(12, *(len(r["image"]) for r in p["rows"]))
        print(f"  {'image':{width}} printed  zxing  pyzbar  opencv  pipeline")
        for r in p["rows"]:
            print(f"  {r['image']:{width}} {r['printed']:7} {r['zxing']:6} {r['pyzbar']:7} {r['opencv']:7} {r['pipeline']:9}")
        t = p["totals"]
        print(f"  {'total':{width}} {p['printed']:7} {t['zxing']:6} {t['pyzbar']:7} {t['opencv']:7} {t['pipeline']:9}")
        print(f"  images where a single decoder read more than the pipeline: {p['pipeline_behind_on'] or 'none'}; "
              f"false reads (a tag not in the image): {p['false_reads']}; texts read that are not in the image at all: "
              f"{p['texts_not_in_truth']}")


def _print_crossings(args, report: dict) -> None:
    if not args.crossings:
        return
    started = time.time()
    report["crossings"] = run_crossings(args.crossings, seed=args.seed, view=args.crossing_view,
                                        replays=args.crossing_replays).as_dict()
    c = report["crossings"]
    print(f"\nhands crossing cards ({c['crossings']} crossings seen in the {args.crossing_view} view, hidden 0.3-1.5 s, "
          f"0-60% of frames dropped; "
          f"{c['frames_processed']} frames processed, {c['frames_dropped']} dropped; {time.time() - started:.0f} s): "
          f"false card_gone {c['false_gone']}; cards taken away {c['takes']}, reported gone {c['takes_reported']}"
          + (f", median {c['median_take_latency_s']:.2f} s after the hand left" if c['median_take_latency_s'] is not None else ""))
    cpu = c["frame_cpu_ms"]
    each = (f"each frame the median of its {c['replays']} replays (the same frames, the same work; one replay's worst alone "
            f"{', '.join(f'{ms:.1f}' for ms in c['replay_worst_ms'])})" if c["replays"] > 1 else "one play")
    print(f"  CPU a processed frame on the frame thread, after the first ({cpu['first']:.1f} ms, read whole), {each}: median "
          f"{cpu['median']:.1f} ms, 99th percentile {cpu['p99']:.1f}, the worst {cpu['worst']:.1f} (load {os.getloadavg()[0]:.1f})")
    for line in c["details"]:
        print(f"    {line}")
