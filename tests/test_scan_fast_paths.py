"""The cheap ways the scan pipeline computes things on every frame give what the plain ways give.

A first frame must cost little more than one zxing-cpp call, so a few steps use a cheaper
route than the obvious OpenCV or NumPy call; each is checked here against that call on many
random inputs."""
from __future__ import annotations

import cv2
import numpy as np

from companion.scan.boxes import area, contains, intersection, mostly_within, mostly_within_any, overlap, snug_merged
from companion.scan.decoders import Detection, make_decoder
from companion.scan.incremental import IncrementalDecoder, _percentiles, _same_code
from companion.scan.occlusion import block_means
from companion.scan.texture import blobs


def test_blobs_are_the_boxes_of_the_masks_connected_components():
    rng = np.random.default_rng(7)
    for n in range(400):
        h, w = (int(v) for v in rng.integers(3, 70, 2))
        mask = (rng.random((h, w)) < rng.uniform(0.05, 0.7)).astype(np.uint8)
        if n % 2:   # as texture_patches gives them: after an opening
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        expected = sorted((tuple(int(v) for v in s[:4]) for s in stats[1:count]), key=lambda b: (b[1], b[0], b[3], b[2]))
        assert blobs(mask) == expected


def test_grey_level_percentiles_are_numpys():
    rng = np.random.default_rng(8)
    for n in range(300):
        shape = (int(rng.integers(1, 60)), int(rng.integers(1, 60)))
        image = rng.normal(rng.uniform(0, 255), rng.uniform(1, 80), shape).clip(0, 255).astype(np.uint8)
        percents = (1, 99) if n % 2 else tuple(rng.uniform(0, 100, 3))
        assert np.allclose(_percentiles(image, percents), np.percentile(image, percents), atol=1e-9)


def _random_box(rng) -> tuple[int, int, int, int]:
    x0, y0 = (int(v) for v in rng.integers(0, 300, 2))
    w, h = (int(v) for v in rng.integers(0, 160, 2) * (rng.random(2) > 0.05))   # a few without width or height
    return x0, y0, x0 + w, y0 + h


def test_places_mostly_within_a_code_are_found_as_one_by_one():
    rng = np.random.default_rng(9)
    for _ in range(500):   # a share's few places (a plain loop) and a frame's many (NumPy, all at once)
        places = [_random_box(rng) for _ in range(int(rng.integers(1, 40)))]
        codes = [_random_box(rng) for _ in range(int(rng.integers(0, 30)))]
        expected = [any(mostly_within(p, c) for c in codes) for p in places]
        assert mostly_within_any(places, codes) == expected


def test_block_means_are_each_blocks_mean_within_a_grey_level_and_a_half():
    """The small copy (one value per block) is made by halving the frame again and again, each
    halving rounding to a whole grey level; each value stays within 1.5 grey levels of its
    block's exact mean, whatever the frame's size (far below the 12 levels that make a block
    changed, or the texture a code has)."""
    rng = np.random.default_rng(10)
    for (h, w), cell in (((1080, 1920), 8), ((720, 1280), 8), ((999, 1001), 8), ((240, 360), 6), ((90, 77), 3), ((5, 7), 8)):
        frame = cv2.GaussianBlur(rng.integers(0, 256, (h, w), dtype=np.uint8), (0, 0), 1.5)
        small = block_means(frame, cell)
        rows, cols = max(h // cell, 1), max(w // cell, 1)
        assert small.shape == (rows, cols)
        if h >= cell and w >= cell:
            exact = frame[:rows * cell, :cols * cell].reshape(rows, cell, cols, cell).mean(axis=(1, 3))
            assert np.abs(small - exact).max() <= 1.5


def test_snug_merging_keeps_every_box_covered_and_a_chain_of_neighbours_apart():
    rng = np.random.default_rng(4)
    for _ in range(300):
        boxes = [_random_box(rng) for _ in range(int(rng.integers(1, 12)))]
        out = snug_merged(boxes)
        assert all(any(contains(o, b) for o in out) for b in boxes if area(b))
        for n, a in enumerate(out):   # what is left apart would not merge snugly
            for b in out[n + 1:]:
                both = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                assert not overlap(a, b) or area(both) > 1.25 * (area(a) + area(b) - area(intersection(a, b)))
    chain = [(100 * n, 100 * n, 100 * n + 120, 100 * n + 120) for n in range(5)]   # cards down a diagonal
    assert snug_merged(chain) == chain
    assert snug_merged([(0, 0, 100, 100), (10, 0, 110, 100)]) == [(0, 0, 110, 100)]


def test_the_same_code_test_in_plain_python_is_the_numpy_one():
    rng = np.random.default_rng(6)
    for _ in range(500):
        a = Detection("T", rng.uniform(0, 200, (4, 2)).astype(np.float32))
        b = Detection(str(rng.choice(["T", "U"])), (a.corners + rng.normal(0, 30, (4, 2))).astype(np.float32))
        expected = a.text == b.text and np.hypot(*np.subtract(a.center, b.center)) < 0.5 * max(a.side_px(), 1)
        assert _same_code(a, b) == expected


def test_whether_a_code_changed_is_the_numpy_formulas_answer_with_or_without_the_frames_moved_blocks():
    rng = np.random.default_rng(8)
    decoder = IncrementalDecoder(make_decoder("zxing"))
    for _ in range(300):
        then = rng.integers(0, 256, (60, 80), dtype=np.uint8)
        now = then.copy()
        y, x = (int(v) for v in rng.integers(0, 55, 2))
        now[y:y + int(rng.integers(1, 6)), x:x + int(rng.integers(1, 6))] += 40   # a few blocks changed
        centre = rng.uniform((60, 60), (580, 420))   # within the 640 x 480 frame the blocks cover
        code = Detection("T", (centre + rng.uniform(-55, 55, (4, 2))).astype(np.float32))
        c = decoder.cell   # the formula as written in NumPy
        centre = code.corners.mean(axis=0)
        quad = (centre + (code.corners - centre) * 0.9) / c - 0.5
        x0, y0 = np.floor(quad.min(axis=0)).astype(int).clip(0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        moved = cv2.absdiff(then[y0:y1, x0:x1], now[y0:y1, x0:x1]) > decoder.threshold
        inside = np.zeros(moved.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round((quad - (x0, y0)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        expected = bool((moved & inside.astype(bool)).any())
        assert decoder._code_changed(code, then, now) == expected
        assert decoder._code_changed(code, then, now, cv2.absdiff(then, now) > decoder.threshold) == expected
