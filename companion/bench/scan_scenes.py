"""The scenes of `companion bench scan` and how what a decoder reads in them is scored.

A scene is a seeded virtual table (``Scene``: resolution, card count, condition, tag size):
``build_table`` lays its cards out at random and adds what its condition (``CONDITIONS``) asks
for (tilt, blur, noise, JPEG, uneven or low light, a glare spot over a card, hands over the
cards, damaged tags); ``clip_frames`` renders a short clip of it in which one card moves
half-way, with the ground truth of every frame.

``score_frame`` compares the codes read in a frame with that truth: readable tags read, valid
tag texts read where no such tag lies (false reads), and damaged or hidden tags read anyway.
``run_backend`` and ``run_pipeline`` decode a clip with one backend or with the pipeline and
score it. bench.py runs the suite and prints the tables; bench_figures.py the other figures.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from card_tags import payload as tag_payload
from card_tags.payload import CardRef

from companion.scan.decoders import make_decoder
from companion.scan.pipeline import ScanPipeline
from companion.scan.virtual_camera import Camera, Look
from companion.scan.virtual_cards import TAG_MM
from companion.scan.virtual_table import VirtualTable, random_layout
from companion.scan.zones import ZoneMap

BASE_LOOK = Look(blur_sigma=0.7, noise_sigma=3.0, vignette=0.25)
CONDITIONS: dict[str, dict] = {
    "plain":        {},
    "tilt 35":      {"tilt": 35.0},
    "blur":         {"look": {"blur_sigma": 1.3}},
    "noise":        {"look": {"noise_sigma": 9.0}},
    "jpeg q40":     {"look": {"jpeg_quality": 40}},
    "uneven light": {"look": {"vignette": 0.6}},
    "glare":        {"glare": 0.85},
    "hand":         {"hands": 2},
    "damaged tags": {"damaged": 0.34},
    "low light":    {"look": {"exposure": 0.3, "noise_sigma": 6.0}},
}


# --- the pipeline as the service runs it ---------------------------------------------------------

def frame_cpu_ms(pipeline: ScanPipeline, gray: np.ndarray, now: float) -> float:
    """One grey frame through the pipeline as the service's camera hands it over (its block means
    made first, as the reader thread makes them beside the frame thread), and the frame thread's CPU
    for it in ms (the second looks run on workers beside it)."""
    prepared = pipeline.prepare(gray)
    cpu = time.thread_time()
    pipeline.process(gray, now=now, prepared=prepared)
    return (time.thread_time() - cpu) * 1000


# --- scenes --------------------------------------------------------------------------------------

@dataclass
class Scene:
    width: int
    height: int
    cards: int
    condition: str
    ppm: float
    seed: int

    @property
    def label(self) -> str:
        return f"{self.width}x{self.height} {self.cards} cards {self.condition} {self.ppm} px/module"


def build_table(scene: Scene) -> tuple[VirtualTable, list, np.random.Generator]:
    """The scene's table, with its cards laid out (and hands, glare, damage per its condition)."""
    spec = CONDITIONS[scene.condition]
    rng = np.random.default_rng(scene.seed)
    look = replace(BASE_LOOK, **spec.get("look", {}))
    camera = Camera(tilt_deg=spec.get("tilt", 10.0), roll_deg=float(rng.uniform(-4, 4)),
                    px_per_mm=scene.ppm * 21 / TAG_MM)
    table = VirtualTable(scene.width, scene.height, seed=scene.seed, camera=camera, look=look)
    refs = [CardRef("bom-battle", f"C{i:02d}", 1 + i % 3) for i in range(scene.cards)]
    layout = random_layout(table, refs, rng, overlap=scene.cards > 6)
    damaged = int(round(spec.get("damaged", 0) * scene.cards))
    kinds = ("torn", "scratched", "half", "smudged")
    for i, (ref, xy, angle) in enumerate(layout):
        table.place(ref, xy, angle, damage=kinds[i % len(kinds)] if i < damaged else None)
    for h in range(spec.get("hands", 0)):
        _, xy, _ = layout[h % len(layout)]
        table.add_hand((xy[0] + rng.uniform(-40, 40), xy[1] + rng.uniform(20, 70)), rng.uniform(-60, 60), rng.uniform(0.9, 1.2))
    if spec.get("glare"):
        _, xy, _ = layout[int(rng.integers(len(layout)))]
        fx, fy = cv2.perspectiveTransform(np.array([[xy]], dtype=np.float64), table.homography)[0, 0]
        table.set_look(replace(table.look, glare=spec["glare"], glare_at=(fx / scene.width, fy / scene.height),
                               glare_radius=0.05))
    return table, layout, rng


def clip_frames(scene: Scene, count: int):
    """The scene's frames with their ground truth; one card moves half-way through the clip."""
    table, layout, rng = build_table(scene)
    frames = []
    for n in range(count):
        if n == count // 2 and count > 2:
            ref, xy, angle = layout[-1]
            table.remove(ref)
            others = [(r, p, a) for r, p, a in layout[:-1]]
            try:
                moved = random_layout_one(table, others, ref, rng)
                table.place(ref, moved[1], moved[2])
            except ValueError:
                table.place(ref, xy, angle + 90)
        frame, truth = table.render_with_truth()
        frames.append((cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), truth))
    return table, frames


def random_layout_one(table, others, ref, rng):
    """A free spot for one more card among the others (same rules as random_layout)."""
    return random_layout(table, [ref], rng, overlap=len(others) > 6, existing=others)[0]


def scene_seed(seed: int, w: int, n: int, condition: str, ppm: float) -> int:
    """A scene's own seed, from the run's seed and what the scene is (the suite and the other
    figures rebuild the same scene from it)."""
    key = f"{seed}:{w}:{n}:{condition}:{ppm}"
    return int.from_bytes(key.encode()[-8:].rjust(8, b"\0"), "big") % (1 << 31) ^ (sum(map(ord, key)) * 7919)


# --- scoring -------------------------------------------------------------------------------------

@dataclass
class Score:
    readable: int = 0
    read: int = 0
    false_reads: int = 0
    covered: int = 0          # tags damaged or partly hidden
    covered_read: int = 0     # ...that were still read correctly
    by_ppm: list[tuple[float, bool]] = field(default_factory=list)  # each readable tag: its real size, read?
    ms: list[float] = field(default_factory=list)
    cold_ms: list[float] = field(default_factory=list)

    def add(self, other: "Score") -> None:
        self.readable += other.readable
        self.read += other.read
        self.false_reads += other.false_reads
        self.covered += other.covered
        self.covered_read += other.covered_read
        self.by_ppm += other.by_ppm
        self.ms += other.ms
        self.cold_ms += other.cold_ms

    @property
    def rate(self) -> float | None:
        return self.read / self.readable if self.readable else None

    def rate_at_least(self, ppm: float) -> float | None:
        """The share read of readable tags at least ppm pixels per module in the frame."""
        outcomes = [read for size, read in self.by_ppm if size >= ppm]
        return sum(outcomes) / len(outcomes) if outcomes else None


def score_frame(texts_and_centres, truth) -> Score:
    """Compare what was read in a frame with what lay there."""
    s = Score()
    matched = set()
    for text, centre in texts_and_centres:
        hit = None
        for i, t in enumerate(truth):
            tc = t.corners.mean(axis=0)
            side = np.linalg.norm(t.corners[1] - t.corners[0])
            if t.text == text and np.hypot(*(np.asarray(centre) - tc)) < 0.6 * side:
                hit = i
                break
        if hit is not None:
            matched.add(hit)
            continue
        try:
            tag_payload.decode(text)
        except tag_payload.PayloadError:
            continue  # a damaged read that its check character caught: no harm done
        s.false_reads += 1
    for i, t in enumerate(truth):
        if t.readable:
            s.readable += 1
            s.read += i in matched
            s.by_ppm.append((t.px_per_module, i in matched))
        else:
            s.covered += 1
            s.covered_read += i in matched
    return s


def run_backend(name: str, frames) -> Score:
    decoder = make_decoder(name)
    total = Score()
    for gray, truth in frames:
        started = time.perf_counter()
        found = decoder.decode(gray)
        elapsed = (time.perf_counter() - started) * 1000
        s = score_frame([(d.text, d.center) for d in found], truth)
        s.ms.append(elapsed)
        total.add(s)
    return total


def run_pipeline(table: VirtualTable, frames, fps: float = 30.0) -> tuple[Score, Score]:
    """The pipeline over a clip: its score over every frame, and over the frames after the cold
    first one (which by design reads only what one decoder call reads: see the cold figure)."""
    zones = ZoneMap.for_game("bom-battle", 2)
    pipeline = ScanPipeline(None, "zxing", zones, "bom-battle", homography=np.linalg.inv(table.homography))
    pipeline.warm_up()   # as the service's start() does
    total, warm = Score(), Score()
    for n, (gray, truth) in enumerate(frames):
        started = time.perf_counter()
        pipeline.process(gray, now=n / fps)
        elapsed = (time.perf_counter() - started) * 1000
        _, seen, _, _ = pipeline.snapshot()
        s = score_frame([(x.text, tuple(x.corners.mean(axis=0))) for x in seen], truth)
        (s.cold_ms if n == 0 else s.ms).append(elapsed)
        total.add(s)
        if n:
            warm.add(s)
    return total, warm
