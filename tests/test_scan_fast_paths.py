"""The cheap ways the scan pipeline computes things on every frame give what the plain ways give.

A first frame must cost little more than one zxing-cpp call, so a few steps use a cheaper
route than the obvious OpenCV or NumPy call; each is checked here against that call on many
random inputs."""
from __future__ import annotations

import cv2
import numpy as np

from companion.scan.boxes import mostly_within, mostly_within_any
from companion.scan.incremental import _percentiles
from companion.scan.occlusion import block_means
from companion.scan.texture import _blobs


def test_blobs_are_the_boxes_of_the_masks_connected_components():
    rng = np.random.default_rng(7)
    for n in range(400):
        h, w = (int(v) for v in rng.integers(3, 70, 2))
        mask = (rng.random((h, w)) < rng.uniform(0.05, 0.7)).astype(np.uint8)
        if n % 2:   # as texture_patches gives them: after an opening
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        expected = sorted((tuple(int(v) for v in s[:4]) for s in stats[1:count]), key=lambda b: (b[1], b[0], b[3], b[2]))
        assert _blobs(mask) == expected


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
