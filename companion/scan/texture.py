"""Where codes are: patches with a QR code's texture, found without decoding.

Two looks at the same question. ``texture_patches`` works on the small copy of the frame (one
mean per cell x cell block) that the incremental decoder keeps anyway: cheap enough for every
decode, but at that scale a card's outline on a dark mat is as textured as a code. The places
it finds are looked at again (rescue.py). ``code_patches`` works on a still place's own pixels:
a code is corners everywhere (its modules' edges run both ways), an outline is an edge running
one way; dearer, so only run on a place once codes in it are read, to find what is left unread.
"""
from __future__ import annotations

import cv2
import numpy as np

from companion.scan.boxes import Box
from companion.scan.decoders import Detection

_SQUARE_2 = np.ones((2, 2), np.uint8)
READ_RIM = 1.1


def texture_patches(small: np.ndarray, cell: int, tag_px: float, contrast: float = 20.0,
                    edges: tuple[bool, bool, bool, bool] = (False, False, False, False)) -> list[Box]:
    """Patches with the black-and-white texture of a QR code, found on the small copy of the
    frame (one value per cell x cell block) that the decoder keeps anyway.

    Inside a QR code neighbouring blocks hold different mixes of dark and light modules, so
    their means vary a lot; on a card's white, the mat or a hand they do not. Card edges make
    lines one block wide, which an opening removes. Returned in pixels of the image the small
    copy was made from. ``edges`` (left, top, right, bottom): which sides are the frame's own
    edges; a patch touching one is a code cut by the frame, which no second look can read."""
    if small.shape[0] < 3 or small.shape[1] < 3:
        return []
    # the variance of each 3 x 3 neighbourhood of blocks, in OpenCV calls (fewer than NumPy's)
    variance = cv2.sqrBoxFilter(small, cv2.CV_32F, (3, 3))
    mean = cv2.boxFilter(small, cv2.CV_32F, (3, 3))
    cv2.subtract(variance, cv2.multiply(mean, mean), dst=variance)
    textured = cv2.compare(variance, contrast * contrast, cv2.CMP_GT)
    textured = cv2.morphologyEx(textured, cv2.MORPH_OPEN, _SQUARE_2)
    rows, cols = small.shape
    smallest = 0.4 * tag_px / cell
    m = int(round(tag_px * 0.15))
    out = []
    for x, y, w, h in blobs(textured):
        if w < smallest or h < smallest:
            continue
        if any(edges) and _cut_by_edge(small, (x, y, w, h), edges, contrast):
            continue
        out.append((max(x * cell - m, 0), max(y * cell - m, 0),
                    min((x + w) * cell + m, cols * cell), min((y + h) * cell + m, rows * cell)))
    return out


def blobs(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The boxes (x, y, w, h) of a binary mask's 8-connected blobs, top to bottom, left to right:
    the boxes connectedComponentsWithStats gives, from the blobs' outer contours (half the cost)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    # two levels: blobs' outer contours (no parent) and their holes' (a blob in a hole is outer)
    return sorted((cv2.boundingRect(c) for c, (_, _, _, parent) in zip(contours, hierarchy[0].tolist()) if parent < 0),
                  key=lambda b: (b[1], b[0], b[3], b[2]))


def _cut_by_edge(small: np.ndarray, component, edges, contrast: float) -> bool:
    """Whether a textured patch runs out of the frame: the frame's outermost blocks along it are
    themselves textured (a patch that merely comes near the edge has white paper there)."""
    x, y, w, h = component
    rows, cols = small.shape
    strips = []
    if edges[0] and x == 0:
        strips.append(small[y:y + h, 0])
    if edges[1] and y == 0:
        strips.append(small[0, x:x + w])
    if edges[2] and x + w >= cols:
        strips.append(small[y:y + h, cols - 1])
    if edges[3] and y + h >= rows:
        strips.append(small[rows - 1, x:x + w])
    return any(strip.size > 1 and float(strip.astype(np.float32).std()) > contrast for strip in strips)


def painted_out(small: np.ndarray, codes: list[Detection], cell: int, origin: tuple[int, int]) -> np.ndarray:
    """A copy of the small copy with each code read (and a module-wide rim) made flat."""
    if not codes:
        return small
    out = small.copy()
    grown = _code_quads(codes, cell, origin)
    lows, highs = np.clip(grown.min(axis=1), 0, None).tolist(), (grown.max(axis=1) + 1).tolist()
    for quad, (x0, y0), (x1, y1) in zip(grown, lows, highs):
        around = small[y0:y1, x0:x1]
        paper = int(around.max()) if around.size else 128   # the white quiet zone around it
        cv2.fillConvexPoly(out, quad, paper)
    return out


def _code_quads(codes: list[Detection], cell: int, origin: tuple[int, int], grow: float = 1.25) -> np.ndarray:
    """Each code's quadrilateral grown ``grow`` times about its centre (a rim around it), in
    blocks of ``cell`` pixels from ``origin``: N x 4 x 2."""
    corners = np.array([d.corners for d in codes])
    centres = corners.mean(axis=1, keepdims=True)
    return np.round((centres + (corners - centres) * grow - np.asarray(origin)) / cell).astype(np.int32)


def code_patches(pixels: np.ndarray, cell: int, tag_px: float, codes: list[Detection],
                 origin: tuple[int, int], share: float = 0.3, per_block: bool = False) -> list[Box]:
    """Patches of a place's own pixels (``origin``: their top-left in the frame) with a code's
    fine texture, the codes read there (``codes``) left out; in the pixels' coordinates.

    The texture is the structure tensor's smaller eigenvalue (cv2.cornerMinEigenVal): large
    where edges run both ways, as between a code's modules, and near zero along a card's
    outline, which runs one way. Averaged per block, a code's blocks stand far above anything
    else on a table (20 times the 99th percentile of the rest, blurred, tilted or dim). How far
    depends on the light and the focus, so the bar is ``share`` of what the codes read in the
    same place show (of the place's brightest blocks if none is read yet). A card's corner or
    a letter of its label makes a lone block or two: an opening and a minimum size remove them.
    ``per_block`` (a live table): the smaller eigenvalue of each block's own structure tensor
    instead (``_block_min_eigen``: a sixth of the CPU, see there)."""
    rows, cols = pixels.shape[0] // cell, pixels.shape[1] // cell
    if rows < 2 or cols < 2:
        return []
    if per_block:
        blocks = _block_min_eigen(pixels[:rows * cell, :cols * cell], cell)
    else:
        eigen = cv2.cornerMinEigenVal(pixels, 5, 3)
        blocks = cv2.resize(eigen[:rows * cell, :cols * cell], (cols, rows), interpolation=cv2.INTER_AREA)
    read = np.zeros((rows, cols), np.uint8)
    for quad in (_code_quads(codes, cell, origin, READ_RIM) if codes else []):
        cv2.fillConvexPoly(read, quad, 1)
    inside = blocks[read > 0]
    level = _median(inside) if inside.size else _percentile(blocks, 95)
    textured = cv2.compare(blocks, share * level, cv2.CMP_GT)
    textured[read > 0] = 0
    textured = cv2.morphologyEx(textured, cv2.MORPH_OPEN, _SQUARE_2)
    smallest = 0.5 * tag_px / cell
    m = int(round(tag_px * 0.15))
    return [(max(x * cell - m, 0), max(y * cell - m, 0), min((x + w) * cell + m, cols * cell), min((y + h) * cell + m, rows * cell))
            for x, y, w, h in blobs(textured) if w >= smallest and h >= smallest]


def _block_min_eigen(pixels: np.ndarray, cell: int) -> np.ndarray:
    """The smaller eigenvalue of each cell x cell block's structure tensor (the gradients'
    products averaged over the block): large where a block's edges run both ways (a code's
    modules), near zero where they run one way (an outline). cv2.cornerMinEigenVal takes it per
    pixel over a 5 x 5 window and the blocks average that: 25 ns a pixel here, 5.8 ms on the
    500 x 470 cluster a blurred table's cold frame leaves; this takes the block's own, 1.0 ms (measured
    with float gradients; 16-bit ones, below, cost 0.55-0.8 of that)."""
    # the gradients of 8-bit pixels are whole numbers within +-1020: in 16 bits they are exact and
    # half the memory of floats, and their products (under 2^24) exact in floats, so the blocks are
    # the same as from float gradients, for 0.55-0.8 of the CPU (240 x 320 px: 368 against 656 us here;
    # 464 x 496: 1.98 against 2.42 ms). Both in one pass (cv2.spatialGradient: the same 3 x 3 Sobel
    # sums, the same border): a quarter to a third of two cv2.Sobel calls' CPU (300 x 300 px: 56
    # against 149 us), a fifth to a quarter off the whole narrowing
    gx, gy = cv2.spatialGradient(pixels, ksize=3)
    size = (pixels.shape[1] // cell, pixels.shape[0] // cell)
    xx = cv2.resize(cv2.multiply(gx, gx, dtype=cv2.CV_32F), size, interpolation=cv2.INTER_AREA)
    xy = cv2.resize(cv2.multiply(gx, gy, dtype=cv2.CV_32F), size, interpolation=cv2.INTER_AREA)
    yy = cv2.resize(cv2.multiply(gy, gy, dtype=cv2.CV_32F), size, interpolation=cv2.INTER_AREA)
    half = (xx - yy) * 0.5
    return (xx + yy) * 0.5 - np.sqrt(half * half + xy * xy)


def _median(values: np.ndarray) -> float:
    """np.median of a non-empty array, without it: np.median's first call in a process imports
    numpy.ma (about 17 ms here), which landed on the frame after the cold one."""
    n = values.size
    middle = np.partition(values.ravel(), [(n - 1) // 2, n // 2])
    return float((float(middle[(n - 1) // 2]) + float(middle[n // 2])) / 2)


def _percentile(values: np.ndarray, q: float) -> float:
    """np.percentile (linear) of a non-empty array, without it: its first call in a process
    imports numpy.ma as np.median's does (74 ms here, on a live frame)."""
    flat = values.ravel()
    rank = q / 100 * (flat.size - 1)
    below = int(rank)
    above = min(below + 1, flat.size - 1)
    part = np.partition(flat, [below, above])
    return float(part[below] + (part[above] - part[below]) * (rank - below))


def plausible_code(corners: np.ndarray, tag_px: float) -> bool:
    """zxing's failed attempts include junk (a point, a quadrilateral across three cards): keep
    those shaped like a code of a plausible size, a square seen at most 45 degrees off."""
    return bool(plausible_codes(corners[None], tag_px)[0])


def plausible_codes(corners: np.ndarray, tag_px: float, largest: float = 0) -> np.ndarray:
    """plausible_code for many at once: N x 4 x 2 corners -> N booleans. ``largest``: the
    longest side allowed (a photo's codes come in any size), else four tags' side."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=1) - corners, axis=2)
    shortest, longest = sides.min(axis=1), sides.max(axis=1)
    return (shortest >= 21 * 1.5) & (longest <= (largest or 4 * max(tag_px, 52.0))) & (longest <= 1.5 * shortest)
