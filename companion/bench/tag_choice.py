"""`companion bench tags`: which QR settings our printed tags survive best under glare, lamps, bends and angles.

Real photographs (BoofCV's set, docs/scanning.md) show where a card table hurts: a lamp's glare on
sleeves and lamination, bright spots, curved cards, a camera at an angle, blur. This renders the
tags the project prints (card_tags/sheets.py: the default sheets' payloads, each as a white patch
with its quiet zone and its label strip in a card's corner, cut along its line) under those
conditions, named as BoofCV names them, and reads every frame with the project's live pipeline
(companion/scan/pipeline.py, zxing-cpp with its second looks), for each choice of

- error-correction level (L, M, Q where the payload fits, H in a version-2 code),
- module count (version 1, 21 modules; version 2, 25 modules),
- quiet zone (1 to 4 modules),

on the same seeded scenes. Each choice's patch is the default patch's size (25 modules of the
recommended camera's 2.5 px/module: the card layout's default at card_tags/geometry.Camera()), so a
choice with more modules (a larger quiet zone, a version-2 code) gets smaller ones, as it would on
the printed card; ``--same module`` keeps the module instead and lets the patch grow or shrink.
The baseline, in the same run, is the sheet's own ``TAG_CODE``.

A scene is a frame of eight cards at the camera's scale, each turned at random, on a wooden
table, with sensor noise; every condition's strength is drawn at random per card from a seed that
depends only on the condition and the scene, so every choice meets the same glare and the same
bends. A tag counts as read when the pipeline reports its text in any of ``--frames`` frames
(new sensor noise each, as a still table gives). Figures: read rate per condition and over all.
"""
from __future__ import annotations

import functools
import math
import os
import statistics
import time
from dataclasses import dataclass

import cv2
import numpy as np

from card_tags import geometry, sheets
from card_tags.catalog import load_game
from card_tags.payload import GAME_CODES, encode, encode_private
from card_tags.private import KEPT_HIDDEN

from companion.scan.pipeline import ScanPipeline

CONDITIONS = ("nominal", "glare", "bright_spots", "curved", "perspective", "blurred")
RENDER_PX_PER_MM = 6.0        # cards are drawn at this scale, then seen at the camera's
CARDS_PER_SCENE = 8
CELL_MM = 120.0               # room for one turned card in the frame
SHORT = 16                    # the longest payload a version-1 code holds at level Q


@dataclass(frozen=True)
class Choice:
    name: str
    code: sheets.TagCode


CHOICES = (
    Choice("printed (sheets.TAG_CODE): v1, M raised to Q where it fits, quiet 1", sheets.TAG_CODE),
    Choice("printed before: v1, M raised to Q where it fits, quiet 2", sheets.TagCode(1, "m", True, 2)),
    Choice("v1, L, quiet 1", sheets.TagCode(1, "l", False, 1)),
    Choice("v1, M always, quiet 1", sheets.TagCode(1, "m", False, 1)),
    Choice("v1, M raised to Q, quiet 3", sheets.TagCode(1, "m", True, 3)),
    Choice("v1, M raised to Q, quiet 4", sheets.TagCode(1, "m", True, 4)),
    Choice("v2 (25 modules), H, quiet 1", sheets.TagCode(2, "h", False, 1)),
    Choice("v2 (25 modules), H, quiet 2", sheets.TagCode(2, "h", False, 2)),
)


def default_payloads() -> list[str]:
    """Every payload the default sheets print: readable tags, and private ones (random codes of the
    same length as a table's) for the cards each game keeps hidden."""
    rng = np.random.default_rng(0)
    alphabet = np.array(list("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    out = []
    for game in GAME_CODES:
        catalog = load_game(game)
        hidden = KEPT_HIDDEN.get(game, ())
        for ref in catalog.refs():
            if game in KEPT_HIDDEN and (hidden is None or catalog[ref.card].kind in hidden):
                out.append(encode_private(game, "".join(rng.choice(alphabet, 10))))
            else:
                out.append(encode(ref))
    return out


# -- a card with its patch ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def card_art(seed: int, index: int) -> np.ndarray:
    """A 63 x 88 mm card face (greyscale, RENDER_PX_PER_MM): its name and busy art, dark and mid-tone
    shapes right up to where the patch goes. The same for every choice, so drawn once."""
    rng = np.random.default_rng([seed, index])
    p = RENDER_PX_PER_MM
    cw, ch = 63.0, 88.0
    card = np.full((round(ch * p), round(cw * p)), 235, np.uint8)
    for _ in range(14):
        x, y = rng.uniform(0, cw * p), rng.uniform(12 * p, ch * p)
        axes = (int(rng.uniform(3, 18) * p), int(rng.uniform(3, 18) * p))
        cv2.ellipse(card, (int(x), int(y)), axes, float(rng.uniform(0, 180)), 0, 360, int(rng.uniform(30, 170)), -1)
    cv2.putText(card, f"Card {index}", (int(4 * p), int(9 * p)), cv2.FONT_HERSHEY_DUPLEX, 0.18 * p, 20, 2, cv2.LINE_AA)
    return card


@functools.lru_cache(maxsize=4096)
def code_matrix(text: str, code: sheets.TagCode) -> np.ndarray:
    return np.array(sheets.qr_matrix(text, code), np.uint8)


def card_image(text: str, code: sheets.TagCode, module_mm: float, seed: int, index: int) -> np.ndarray:
    """The card with its patch in its bottom-right corner as the card layout prints it: quiet zone,
    code, label strip, cut at the dashed line."""
    p = RENDER_PX_PER_MM
    cw, ch = 63.0, 88.0
    card = card_art(seed, index).copy()
    label = f"Card {index}"
    side = code.box_modules * module_mm
    strip = sheets.LAYOUTS["card-63x88"].label_mm
    x0, y0 = cw - sheets.CARD_INSET - side, ch - sheets.CARD_INSET - side - strip
    px, py = round(x0 * p), round(y0 * p)
    card[py:py + round((side + strip) * p), px:px + round(side * p)] = 250
    matrix = code_matrix(text, code)
    size = round(code.modules * module_mm * p)
    drawn = cv2.resize((1 - matrix) * 230 + 12, (size, size), interpolation=cv2.INTER_NEAREST)
    q = round(code.quiet * module_mm * p)
    card[py + q:py + q + size, px + q:px + q + size] = drawn
    cv2.putText(card, label[:14], (px + round(1.5 * p), py + round((side + strip * 0.75) * p)), cv2.FONT_HERSHEY_SIMPLEX,
                0.08 * p, 40, 1, cv2.LINE_AA)
    return card.astype(np.float32)


def code_centre_px(code: sheets.TagCode, module_mm: float) -> tuple[float, float]:
    side = code.box_modules * module_mm
    strip = sheets.LAYOUTS["card-63x88"].label_mm
    cx = 63.0 - sheets.CARD_INSET - side / 2
    cy = 88.0 - sheets.CARD_INSET - strip - side / 2
    return cx * RENDER_PX_PER_MM, cy * RENDER_PX_PER_MM


# -- the conditions (each draws its strength from ``params``, the same for every choice) -------------
@dataclass(frozen=True)
class Params:
    """One card's random draw: where it lies, how it is turned, and the condition's strength."""

    angle: float
    values: tuple[float, ...]


def draw_params(condition: str, rng: np.random.Generator) -> Params:
    return Params(float(rng.uniform(0, 360)), tuple(float(v) for v in rng.uniform(0, 1, 12)))


def light(card: np.ndarray, condition: str, v: tuple[float, ...], centre: tuple[float, float], patch_px: float) -> np.ndarray:
    """Glare and bright spots, added on the card's surface (a sleeve's or lamination's sheen)."""
    h, w = card.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = centre
    if condition == "glare":  # one broad sheen from a lamp, washing part of the code out
        gx, gy = cx + (v[0] - 0.5) * patch_px, cy + (v[1] - 0.5) * patch_px
        sx, sy = (0.12 + 0.25 * v[2]) * patch_px, (0.08 + 0.2 * v[3]) * patch_px
        t = math.pi * v[4]
        dx, dy = (xx - gx) * math.cos(t) + (yy - gy) * math.sin(t), -(xx - gx) * math.sin(t) + (yy - gy) * math.cos(t)
        card = card + (150 + 150 * v[5]) * np.exp(-(dx * dx / (2 * sx * sx) + dy * dy / (2 * sy * sy)))
    elif condition == "bright_spots":  # a few small hard reflections of bulbs
        for k in range(2 + int(v[0] * 4)):
            gx, gy = cx + (v[1 + k] - 0.5) * patch_px * 0.9, cy + (v[6 + k % 5] - 0.5) * patch_px * 0.9
            r = (0.025 + 0.05 * v[(k + 3) % 12]) * patch_px
            card = card + 260 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
    return np.clip(card, 0, 255)


def bend(card: np.ndarray, v: tuple[float, ...]) -> np.ndarray:
    """A curved card seen from above: bent like a cylinder across one axis (radius 30-90 mm), its
    surface foreshortened and shaded where it turns away from the lamp."""
    h, w = card.shape
    radius = (30 + 60 * v[0]) * RENDER_PX_PER_MM
    across = v[1] < 0.5                     # bent across its width or along its length
    n = w if across else h
    half = n / 2
    theta_max = min(half / radius, 1.3)
    # a point at arc length s from the middle lies at radius*sin(s/radius) from the middle, seen from above
    seen = np.linspace(-radius * math.sin(theta_max), radius * math.sin(theta_max), n, dtype=np.float32)
    arc = radius * np.arcsin(np.clip(seen / radius, -1, 1)) + half
    shade = (0.55 + 0.45 * np.cos(np.arcsin(np.clip(seen / radius, -1, 1)))).astype(np.float32)
    if across:
        mx, my = np.meshgrid(arc, np.arange(h, dtype=np.float32))
        gain = np.tile(shade, (h, 1))
    else:
        mx, my = np.meshgrid(np.arange(w, dtype=np.float32), arc)
        gain = np.tile(shade[:, None], (1, w))
    return cv2.remap(card, mx, my, cv2.INTER_LINEAR, borderValue=0) * gain


def tilt(card: np.ndarray, v: tuple[float, ...]) -> np.ndarray:
    """The card seen at 25-55 degrees off the camera's axis: foreshortened and converging."""
    h, w = card.shape
    angle = math.radians(25 + 30 * v[0])
    axis = 2 * math.pi * v[1]
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - (w / 2, h / 2)
    along = pts @ np.array([math.cos(axis), math.sin(axis)])
    depth = 1 + math.sin(angle) * along / np.abs(along).max() * 0.35
    u = np.array([math.cos(axis), math.sin(axis)])
    squeezed = pts - np.outer(along * (1 - math.cos(angle)), u)
    out = squeezed / depth[:, None] + (w / 2, h / 2)
    m = cv2.getPerspectiveTransform(np.float32(pts + (w / 2, h / 2)), np.float32(out))
    return cv2.warpPerspective(card, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)


def seen_card(card: np.ndarray, condition: str, params: Params, code: sheets.TagCode, module_mm: float,
              scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The card (and its mask) as the camera sees it: lit, bent or tilted, turned, at the camera's scale."""
    v = params.values
    card = light(card, condition, v, code_centre_px(code, module_mm), code.box_modules * module_mm * RENDER_PX_PER_MM)
    mask = np.full(card.shape, 255, np.float32)
    if condition == "curved":
        card, mask = bend(card, v), bend(mask, v)
    elif condition == "perspective":
        card, mask = tilt(card, v), tilt(mask, v)
    h, w = card.shape
    side = int(math.hypot(w, h)) + 4
    pad = ((side - h) // 2, side - h - (side - h) // 2), ((side - w) // 2, side - w - (side - w) // 2)
    card, mask = np.pad(card, pad), np.pad(mask, pad)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), params.angle, 1.0)
    card = cv2.warpAffine(card, turn, (side, side), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(mask, turn, (side, side), flags=cv2.INTER_LINEAR)
    small = max(int(round(side * scale)), 1)
    return (cv2.resize(card, (small, small), interpolation=cv2.INTER_AREA),
            cv2.resize(mask, (small, small), interpolation=cv2.INTER_AREA) / 255)


def defocus(image: np.ndarray, radius: float) -> np.ndarray:
    r = max(int(math.ceil(radius)), 1)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    disk = np.clip(radius + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    return cv2.filter2D(image, -1, disk / disk.sum())


def scene_frames(texts: list[str], condition: str, params: list[Params], code: sheets.TagCode, module_mm: float,
                 camera_px_per_mm: float, frames: int, seed: int) -> list[np.ndarray]:
    """``frames`` frames of one scene (the same cards, new sensor noise each)."""
    rng = np.random.default_rng(seed)
    scale = camera_px_per_mm / RENDER_PX_PER_MM
    cell = int(CELL_MM * camera_px_per_mm)
    cols = CARDS_PER_SCENE // 2
    base = np.float32(rng.uniform(70, 130)) + 14 * cv2.resize(
        rng.normal(0, 1, (4, cols * 10)).astype(np.float32), (cols * cell, 2 * cell))
    for i, (text, p) in enumerate(zip(texts, params)):
        card, mask = seen_card(card_image(text, code, module_mm, seed, i), condition, p, code, module_mm, scale)
        r, c = divmod(i, cols)
        y, x = r * cell + (cell - card.shape[0]) // 2, c * cell + (cell - card.shape[1]) // 2
        ys, xs = slice(max(y, 0), y + card.shape[0]), slice(max(x, 0), x + card.shape[1])
        cy, cx = slice(max(-y, 0), max(-y, 0) + base[ys, xs].shape[0]), slice(max(-x, 0), max(-x, 0) + base[ys, xs].shape[1])
        base[ys, xs] = card[cy, cx] * mask[cy, cx] + base[ys, xs] * (1 - mask[cy, cx])
    if condition == "blurred":
        base = defocus(base, 0.9 + 1.1 * float(rng.uniform()))
    else:
        base = defocus(base, 0.5)
    out = []
    for _ in range(frames):
        photons = np.clip(base, 0, 255)
        noisy = photons + rng.normal(0, 1, base.shape).astype(np.float32) * np.sqrt(photons * 0.15 + 4)
        out.append(np.clip(noisy, 0, 255).astype(np.uint8))
    return out


def read_scene(frames: list[np.ndarray]) -> set[str]:
    """Every text the live pipeline reports over the frames of one still scene."""
    pipeline = ScanPipeline(None, "zxing", game="bom-battle", homography=np.eye(3))
    read: set[str] = set()
    now = 100.0
    for frame in frames:
        now += 1 / 15
        pipeline.process(frame, now)
        read |= {seen.text for seen in pipeline.snapshot()[1]}
    return read


# -- the run ----------------------------------------------------------------------------------------
@dataclass
class Tally:
    read: int = 0
    shown: int = 0

    @property
    def rate(self) -> float:
        return self.read / self.shown if self.shown else 0.0


def module_for(code: sheets.TagCode, same: str, camera: geometry.Camera) -> float:
    """The module a choice prints: the default patch's size shared out (``same="patch"``), or the
    default module (``same="module"``)."""
    default_module = math.ceil(geometry.min_module_mm(camera) * 100) / 100
    if same == "module":
        return default_module
    return default_module * sheets.TAG_CODE.box_modules / code.box_modules


def run(choices: tuple[Choice, ...], conditions: tuple[str, ...], scenes: int, frames: int, seed: int, same: str,
        camera: geometry.Camera, short: bool = False, progress=None) -> dict[str, dict[str, Tally]]:
    payloads = [p for p in default_payloads() if not short or len(p) <= SHORT]
    out = {c.name: {cond: Tally() for cond in conditions} for c in choices}
    for ci, condition in enumerate(conditions):
        for n in range(scenes):
            rng = np.random.default_rng([seed, ci, n])
            texts = [str(t) for t in rng.choice(payloads, CARDS_PER_SCENE, replace=False)]
            params = [draw_params(condition, rng) for _ in texts]
            for choice in choices:
                module = module_for(choice.code, same, camera)
                shown = scene_frames(texts, condition, params, choice.code, module, camera.pixels_per_mm, frames,
                                     seed * 1000 + ci * 100 + n)
                got = read_scene(shown)
                tally = out[choice.name][condition]
                tally.shown += len(texts)
                tally.read += sum(1 for t in texts if t in got)
            if progress:
                progress(condition, n)
    return out


def print_table(results: dict[str, dict[str, Tally]], choices: tuple[Choice, ...], conditions: tuple[str, ...],
                same: str, camera: geometry.Camera) -> None:
    width = max(len(c.name) for c in choices)
    print(f"{'choice':{width}}  {'module':>7} {'px/mod':>6} {'patch':>6}  "
          + " ".join(f"{c[:12]:>12}" for c in conditions) + f" {'all':>6} {'mean':>6}")
    for choice in choices:
        module = module_for(choice.code, same, camera)
        row = results[choice.name]
        total = Tally(sum(t.read for t in row.values()), sum(t.shown for t in row.values()))
        mean = statistics.fmean(t.rate for t in row.values())
        print(f"{choice.name:{width}}  {module:6.2f}mm {geometry.pixels_per_module(camera, module):6.2f} "
              f"{sheets.code_box_mm(module, choice.code):5.1f}mm  "
              + " ".join(f"{100 * row[c].rate:11.1f}%" for c in conditions)
              + f" {100 * total.rate:5.1f}% {100 * mean:5.1f}%")


def register(bench_sub) -> None:
    p = bench_sub.add_parser("tags", help="read rate of our printed tags per QR setting under glare, lamps, bends, angles")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--scenes", type=int, default=6, help=f"scenes per condition, {CARDS_PER_SCENE} cards each (default 6)")
    p.add_argument("--frames", type=int, default=3, help="frames of each still scene the pipeline reads (default 3)")
    p.add_argument("--same", choices=("patch", "module"), default="patch",
                   help="compare choices at the default patch's size (default) or at the default module's")
    p.add_argument("--conditions", default=",".join(CONDITIONS), help="comma-separated conditions")
    p.add_argument("--choices", default="", help="comma-separated choice numbers (1 = the baseline), default all")
    p.add_argument("--short", action="store_true",
                   help=f"only payloads of {SHORT} characters or fewer (those level Q holds): Q against M on the same tags")
    p.set_defaults(func=cmd_bench_tags)


def cmd_bench_tags(args) -> int:
    conditions = tuple(c for c in args.conditions.split(",") if c)
    unknown = [c for c in conditions if c not in CONDITIONS]
    if unknown:
        print(f"companion bench tags: unknown condition(s) {', '.join(unknown)}; choose from {', '.join(CONDITIONS)}")
        return 2
    picked = [int(n) for n in args.choices.split(",") if n.strip()] or list(range(1, len(CHOICES) + 1))
    choices = tuple(CHOICES[n - 1] for n in sorted(set(picked) | {1}))   # the baseline always runs
    cv2.setNumThreads(1)
    camera = geometry.Camera()
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    results = run(choices, conditions, args.scenes, args.frames, args.seed, args.same, camera, args.short)
    print(f"our printed tags, {args.scenes} scenes x {CARDS_PER_SCENE} cards per condition, {args.frames} frames each, "
          f"seed {args.seed}; {camera.describe()}; same {args.same} for every choice; "
          f"{'payloads of at most %d characters; ' % SHORT if args.short else ''}sheet prints {sheets.TAG_CODE}")
    print_table(results, choices, conditions, args.same, camera)
    print(f"({time.perf_counter() - started:.0f} s; load {load_before:.1f} before, {os.getloadavg()[0]:.1f} after)")
    return 0
