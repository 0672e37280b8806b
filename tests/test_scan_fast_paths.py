"""The cheap ways the scan pipeline computes things on every frame give what the plain ways give.

A first frame must cost little more than one zxing-cpp call, so a few steps use a cheaper
route than the obvious OpenCV or NumPy call; each is checked here against that call on many
random inputs."""
from __future__ import annotations

import cv2
import numpy as np

from companion.scan.incremental import _box, _mostly_within, _mostly_within_any, _percentiles
from companion.scan.rescue import _blobs


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
    corner = rng.uniform(0, 300, (1, 2))
    return _box(corner + rng.uniform(0, 80, (4, 2)), 0)


def test_places_mostly_within_a_code_are_found_as_one_by_one():
    rng = np.random.default_rng(9)
    for _ in range(500):
        places = [_random_box(rng) for _ in range(int(rng.integers(1, 8)))]
        codes = [_random_box(rng) for _ in range(int(rng.integers(0, 8)))]
        expected = [any(_mostly_within(p, c) for c in codes) for p in places]
        assert _mostly_within_any(np.array(places), np.array(codes).reshape(-1, 4)).tolist() == expected
