"""Boxes in frame pixels (x0, y0, x1, y1): the small geometry the incremental decoder's regions,
known codes and places are made of."""
from __future__ import annotations

import numpy as np

Box = tuple[int, int, int, int]   # x0, y0, x1, y1 in frame pixels


def area(box: Box) -> int:
    return max(box[2] - box[0], 0) * max(box[3] - box[1], 0)


def box_around(corners: np.ndarray, margin: float) -> Box:
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return int(x0 - margin), int(y0 - margin), int(x1 + margin + 1), int(y1 + margin + 1)


def mostly_within_any(places: list[Box], codes: list[Box]) -> list[bool]:
    """For each place: whether it is mostly within any of the codes (mostly_within). A place
    more than twice the biggest code's area cannot be (the big places joining several cards):
    only the others are compared, all at once."""
    out = [False] * len(places)
    if not codes:
        return out
    if len(places) * len(codes) <= 300:   # a share's few places: a loop costs a half of NumPy's set-up
        return [any(mostly_within(p, k) for k in codes) for p in places]
    biggest = max(map(area, codes))
    candidates = [i for i, p in enumerate(places) if area(p) <= 2 * biggest]
    if not candidates:
        return out
    p = np.array([places[i] for i in candidates])[:, None, :]
    k = np.array(codes)[None, :, :]
    touching = (p[..., 0] < k[..., 2]) & (k[..., 0] < p[..., 2]) & (p[..., 1] < k[..., 3]) & (k[..., 1] < p[..., 3])
    w = np.maximum(np.minimum(p[..., 2], k[..., 2]) - np.maximum(p[..., 0], k[..., 0]), 0)
    h = np.maximum(np.minimum(p[..., 3], k[..., 3]) - np.maximum(p[..., 1], k[..., 1]), 0)
    place_area = np.maximum(p[..., 2] - p[..., 0], 0) * np.maximum(p[..., 3] - p[..., 1], 0)
    for i, within in zip(candidates, (touching & (w * h >= 0.5 * place_area)).any(axis=1).tolist()):
        out[i] = within
    return out


def grown(box: Box, margin: float, shape) -> Box:
    h, w = shape[:2]
    m = int(round(margin))
    return max(box[0] - m, 0), max(box[1] - m, 0), min(box[2] + m, w), min(box[3] + m, h)


def contains(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def clipped(box: Box, w: int, h: int) -> Box:
    return max(box[0], 0), max(box[1], 0), min(box[2], w), min(box[3], h)


def point_in(point, box: Box) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def intersection(a: Box, b: Box) -> Box:
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def mostly_within(place: Box, code: Box) -> bool:
    """Whether most of a place is a code already read (what is left of it is no code)."""
    return overlap(place, code) and area(intersection(place, code)) >= 0.5 * area(place)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def snug_merged(boxes: list[Box], slack: float = 1.25) -> list[Box]:
    """Overlapping boxes merged into their bounding box where it is at most ``slack`` times the
    area they cover together (two boxes much alike, one mostly within the other); the others kept
    apart, so a chain of neighbours does not become one box over all of them (their overlaps are
    decoded twice: cheaper than the empty corners of a bounding box)."""
    boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    joined = True
    while joined:
        joined = False
        out: list[Box] = []
        for b in boxes:
            for i, o in enumerate(out):
                both = (min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3]))
                if overlap(b, o) and area(both) <= slack * (area(b) + area(o) - area(intersection(b, o))):
                    out[i], joined = both, True
                    break
            else:
                out.append(b)
        boxes = out
    return boxes
