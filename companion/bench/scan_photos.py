"""`companion bench scan --photos DIR` on photographs labelled by their codes' corners: per condition.

The set (BoofCV's qrcodes_v3 layout: one folder per condition, ``imageNNN.txt`` beside each image
with every code's hand-labelled corners, see photo_labels.read_quads) has no payloads: a code
counts as read when a result's centre lies inside its labelled quad. Each photo is read by each
decoder alone (zxing-cpp, pyzbar, OpenCV; thorough, as `companion scan --decoder X` reads) and by
the pipeline (`companion scan`'s default: zxing-cpp with its second looks), timed in CPU time of
this thread (what the photo costs, whatever else the machine does), the image's loading left out.
Each photo is read ``reads`` times by each reader in turn (3 by default) and its CPU is the median:
one read of each photo moved the ratio of the medians between 1.27 and 1.68x in runs of the same
code minutes apart; the first reads' ratio is printed beside it.

Printed: per condition the share of codes each one reads; over the set the share of codes and
the mean over conditions; CPU per photo (median and worst); where the pipeline reads less than
the best single decoder; and *disagreements*: a code the pipeline read with another text than
a decoder read for it (the target is zero).
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from companion.bench.photo_labels import CornerLabelled, code_at, corner_labelled
from companion.scan.decoders import make_decoder
from companion.scan.scanfiles import read_codes

PIPELINE = "pipeline"


@dataclass
class PhotoResult:
    photo: CornerLabelled
    texts: dict[str, list] = field(default_factory=dict)     # reader -> text read per labelled code (None: not read)
    cpu_ms: dict[str, float] = field(default_factory=dict)    # reader -> CPU ms, the median of its reads
    first_ms: dict[str, float] = field(default_factory=dict)  # reader -> CPU ms of its first read alone
    errors: dict[str, str] = field(default_factory=dict)      # reader -> what it raised (counted as reading nothing)


def load_photo(path: Path):
    """The photo as stored (EXIF orientation ignored: the labels are in stored pixels), greyscale."""
    return cv2.imread(str(path), cv2.IMREAD_GRAYSCALE | cv2.IMREAD_IGNORE_ORIENTATION)


def readers(backends: list[str]) -> dict:
    """name -> function(gray) -> [Detection]: each backend alone, and the pipeline."""
    out = {}
    for name in backends:
        decoder = make_decoder(name, thorough=True)
        out[name] = decoder.decode
    zxing = make_decoder("zxing", thorough=True)
    out[PIPELINE] = lambda gray: [d for d, _ in read_codes(gray, [zxing])]
    return out


def score_photo(photo: CornerLabelled, reading: dict, reads: int = 3) -> PhotoResult:
    """Each reader's codes in the photo, and its CPU: the median of ``reads`` reads, the readers taking
    turns (each reads the same photo the same way every time: the reads are its first's)."""
    gray = load_photo(photo.path)
    result = PhotoResult(photo)
    times: dict[str, list[float]] = {name: [] for name in reading}
    for n in range(max(reads, 1)):
        for name, read in reading.items():
            started = time.thread_time()
            try:
                found = read(gray)
            except Exception as exc:  # a decoder's failure on one photo is its miss, not the run's end
                found = []
                result.errors[name] = f"{type(exc).__name__}: {exc}"
            times[name].append((time.thread_time() - started) * 1000)
            if n == 0:
                result.texts[name] = _texts(photo, found)
    for name, ms in times.items():
        result.cpu_ms[name], result.first_ms[name] = statistics.median(ms), ms[0]
    return result


def _texts(photo: CornerLabelled, found) -> list:
    """The text read for each labelled code (None: not read), the first result inside it."""
    texts = [None] * len(photo.quads)
    for d in found:
        n = code_at(photo.quads, d.center)
        if n is not None and texts[n] is None:
            texts[n] = d.text
    return texts


def run(folder: Path, backends: list[str], conditions: list[str] | None = None, progress=None,
        reads: int = 3) -> list[PhotoResult]:
    reading = readers(backends)
    results = []
    for photo in corner_labelled(folder, conditions):
        results.append(score_photo(photo, reading, reads))
        if progress:
            progress(results[-1])
    return results


def disagreements(results: list[PhotoResult], backends: list[str]) -> list[str]:
    """Codes the pipeline read with another text than a single decoder read for the same code."""
    out = []
    for r in results:
        for n, text in enumerate(r.texts[PIPELINE]):
            others = {r.texts[b][n] for b in backends} - {None, text}
            if text is not None and others:
                out.append(f"{r.photo.condition}/{r.photo.path.name} code {n}: pipeline {text[:40]!r}, "
                           f"others {sorted(o[:40] for o in others)}")
    return out


def summary(results: list[PhotoResult], backends: list[str]) -> dict:
    names = [*backends, PIPELINE]
    conditions = sorted({r.photo.condition for r in results})
    table = {}
    for c in conditions:
        rows = [r for r in results if r.photo.condition == c]
        codes = sum(len(r.photo.quads) for r in rows)
        table[c] = {"photos": len(rows), "codes": codes,
                    **{n: sum(t is not None for r in rows for t in r.texts[n]) for n in names}}
    codes = sum(row["codes"] for row in table.values())
    out = {"conditions": table, "codes": codes, "photos": len(results),
           "read": {n: sum(row[n] for row in table.values()) for n in names},
           "mean_over_conditions": {n: statistics.mean(row[n] / row["codes"] for row in table.values() if row["codes"])
                                    for n in names} if table else {},
           "cpu_ms": {n: {"median": statistics.median(r.cpu_ms[n] for r in results),
                          "worst": max(r.cpu_ms[n] for r in results),
                          "worst_photo": max(results, key=lambda r: r.cpu_ms[n]).photo.path.name} for n in names}
           if results else {},
           "median_photo_ratio": statistics.median(r.cpu_ms[PIPELINE] / max(r.cpu_ms["zxing"], 1e-3) for r in results)
           if results and "zxing" in backends else None,
           "first_read_ratio": statistics.median(r.first_ms[PIPELINE] for r in results)
           / max(statistics.median(r.first_ms["zxing"] for r in results), 1e-3) if results and "zxing" in backends else None,
           "behind": [c for c, row in table.items() if any(row[b] > row[PIPELINE] for b in backends)],
           "disagreements": disagreements(results, backends),
           "errors": [f"{r.photo.condition}/{r.photo.path.name} {n}: {e}" for r in results for n, e in r.errors.items()]}
    return out


def print_summary(folder: Path, s: dict, backends: list[str]) -> None:
    names = [*backends, PIPELINE]
    print(f"\nreal photographs in {folder}: {s['photos']} photos, {s['codes']} labelled codes; a code is read when a "
          f"result's centre lies inside its labelled corners")
    print(f"  {'condition':13} {'photos':>6} {'codes':>5} " + " ".join(f"{n:>9}" for n in names))
    for c, row in s["conditions"].items():
        print(f"  {c:13} {row['photos']:6} {row['codes']:5} "
              + " ".join(f"{100 * row[n] / row['codes']:8.1f}%" if row["codes"] else f"{'-':>9}" for n in names))
    print(f"  {'all codes':13} {s['photos']:6} {s['codes']:5} "
          + " ".join(f"{100 * s['read'][n] / max(s['codes'], 1):8.1f}%" for n in names))
    print(f"  {'mean of the conditions':25} "
          + " ".join(f"{100 * s['mean_over_conditions'][n]:8.1f}%" for n in names))
    print(f"  {'CPU ms per photo, median':25} " + " ".join(f"{s['cpu_ms'][n]['median']:9.0f}" for n in names))
    print(f"  {'CPU ms per photo, worst':25} " + " ".join(f"{s['cpu_ms'][n]['worst']:9.0f}" for n in names))
    if "zxing" in backends:
        ratio = s["cpu_ms"][PIPELINE]["median"] / max(s["cpu_ms"]["zxing"]["median"], 1e-9)
        print(f"  pipeline / zxing-cpp, median CPU per photo: {ratio:.2f}x (median of the per-photo ratios "
              f"{s['median_photo_ratio']:.2f}x; each photo's CPU the median of its reads, {s['first_read_ratio']:.2f}x "
              f"by the first reads alone); pipeline's worst photo: {s['cpu_ms'][PIPELINE]['worst_photo']}")
    print(f"  conditions where a single decoder reads more than the pipeline: {', '.join(s['behind']) or 'none'}")
    print(f"  codes the pipeline read with another text than a single decoder: {len(s['disagreements'])}")
    for line in s["disagreements"]:
        print(f"    {line}")
    if s["errors"]:
        print(f"  decoder failures (counted as reading nothing): {len(s['errors'])}")
        for line in s["errors"]:
            print(f"    {line}")
