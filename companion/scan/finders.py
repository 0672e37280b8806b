"""Where a photo's QR codes are, from their finder patterns, when no reader located them.

A QR code's three finder patterns are nested squares (dark 7 x 7 modules, light 5 x 5, dark
3 x 3), which survive glare on part of the code, a bent card and an angle far better than the
code's data: on the odd half of BoofCV's photographs, 114 of the 128 codes zxing-cpp leaves
unread show at least two of them, and 73 all three. Three finders at a right angle with equal
arms give the code's corners (its fourth corner opposite the corner finder, its size from the
arms and the finders' size), and a homography through their outlines' 12 corners fits them
closer (with each finder tried as the corner one: a steep angle bends the right angle); two
give the square the code must lie in and the three codes they can be corners of. The photo
reader (photo.py) reads those places as crops rectified and scaled for the readers.

The search runs on a halved view of the photo (photo.FINDER_VIEW_SIDE), locally equalised and
thresholded against its local mean at two neighbourhood sizes (a finder a few pixels across and
one a hundred are both found), as contours three deep whose areas stand in a finder's ratios.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

_EQUALISE = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
# the thresholds' neighbourhoods, in shares of the view's longest side
NEIGHBOURHOODS = (0.02, 0.06)
OFFSET = 15.0          # grey levels below the neighbourhood's mean that count as dark (5 read 1 code fewer for 23% more CPU)
MOST_CANDIDATES = 12   # places handed on at most per photo (a page of text can look like many)
MOST_TRIPLES = 12      # three-finder codes sharing a finder with a better one, at most
MOST_OTHER_CORNERS = 2  # corners fitted with another finder as the corner one, per code, at most


def finder_patterns(view: np.ndarray, neighbourhoods: tuple[float, ...] = NEIGHBOURHOODS,
                    equalise: bool = True, offset: float | None = None, outlines: bool = False,
                    ignore: list[np.ndarray] | None = None, drop_lone_pixels: bool = False) -> list[tuple]:
    """(x, y, side) of every finder-like nested square in a greyscale view, largest first.
    ``offset``: how much darker than its neighbourhood a pixel must be to count as dark (a
    larger one leaves fewer specks, so fewer contours to walk, and still every finder).
    ``outlines``: (x, y, side, its outer square's four corners) instead. ``ignore``: quads (view
    pixels) counted as light, so none of their modules is a contour to walk (codes already read:
    their modules made most of the contours of a photo read whole). ``drop_lone_pixels``: the
    thresholded view's lone pixels taken away first (``without_lone_pixels``: for a view left
    unblurred, whose texture is mostly those)."""
    offset = OFFSET if offset is None else offset
    h, w = view.shape[:2]
    equalised = _EQUALISE.apply(view) if equalise else view
    found: list[tuple[float, float, float]] = []
    for share in neighbourhoods:
        k = max(3, int(share * max(h, w)) | 1)
        dark = cv2.adaptiveThreshold(equalised, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, k, offset)
        for quad in ignore or ():
            cv2.fillConvexPoly(dark, np.round(quad).astype(np.int32), 0)
        if drop_lone_pixels:
            dark = without_lone_pixels(dark)
        contours, hierarchy = cv2.findContours(dark, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is None:
            continue
        found += _nested_squares(contours, hierarchy[0], outlines)
    distinct: list[tuple] = []
    for f in sorted(found, key=lambda f: -f[2]):
        if not any(math.hypot(f[0] - d[0], f[1] - d[1]) < 0.5 * d[2] for d in distinct):
            distinct.append(f)
    return distinct


_EIGHT_AROUND = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.uint8)
_FOUR_AROUND = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], np.uint8)


def without_lone_pixels(dark: np.ndarray) -> np.ndarray:
    """A thresholded view without its lone pixels: a dark pixel with no dark pixel among its eight
    neighbours made light, a light one with no light pixel among its four made dark (findContours
    joins dark pixels 8 ways and light ones 4). Each was a contour of its own with no area: never a
    finder's square, ring or core, but each walked. An unblurred view equalised under a lamp is
    mostly those (2,460 contours a view on BoofCV's half, 1,360 of them lone pixels). The border is
    cleared first, as findContours clears it."""
    dark = dark.copy()
    dark[0, :] = dark[-1, :] = 0
    dark[:, 0] = dark[:, -1] = 0
    lone_dark = cv2.bitwise_and(dark, cv2.bitwise_not(cv2.dilate(dark, _EIGHT_AROUND)))
    light = cv2.bitwise_not(dark)
    lone_light = cv2.bitwise_and(light, cv2.bitwise_not(cv2.dilate(light, _FOUR_AROUND)))
    return cv2.bitwise_or(cv2.bitwise_xor(dark, lone_dark), lone_light)


def _nested_squares(contours, hierarchy: np.ndarray, outlines: bool = False) -> list[tuple]:
    child = hierarchy[:, 2]
    # only contours with a grandchild can be a finder's outer square (most contours are specks)
    candidates = np.flatnonzero((child >= 0) & (hierarchy[np.maximum(child, 0), 2] >= 0))
    out = []
    for i in candidates:
        outer = contours[i]
        a0 = cv2.contourArea(outer)
        if a0 < 40:
            continue
        ring = _largest_child(contours, hierarchy, i)
        core = _largest_child(contours, hierarchy, ring)
        if core < 0:
            continue
        a1, a2 = cv2.contourArea(contours[ring]), cv2.contourArea(contours[core])
        # areas 49 : 25 : 9 modules (with the thresholding's give)
        if a2 <= 0 or not (1.3 < a0 / max(a1, 1.0) < 4.0 and 2.5 < a0 / a2 < 14):
            continue
        x, y, bw, bh = cv2.boundingRect(outer)
        # square, as far as an angle of view squashes it (a code seen steeply from the side has
        # finders three times taller than wide: 2.5 lost two perspective codes of BoofCV's half)
        if not 0.25 < bw / bh < 4 or a0 < 0.8 * cv2.contourArea(cv2.convexHull(outer)):
            continue
        m0, m2 = cv2.moments(outer), cv2.moments(contours[core])
        if not m0["m00"] or not m2["m00"]:
            continue
        cx, cy = m0["m10"] / m0["m00"], m0["m01"] / m0["m00"]
        side = math.sqrt(a0)
        if math.hypot(cx - m2["m10"] / m2["m00"], cy - m2["m01"] / m2["m00"]) > 0.25 * side:
            continue   # a finder's core sits in its middle
        out.append((cx, cy, side, _four_corners(outer)) if outlines else (cx, cy, side))
    return out


def _four_corners(contour) -> np.ndarray:
    """A finder's outer square as four corners (its convex hull simplified until four are left)."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.04, 0.06, 0.08, 0.1, 0.14):
        corners = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(corners) == 4:
            return corners.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def fitted_corners(a: tuple, b: tuple, c: tuple, versions_off: int = 0) -> np.ndarray | None:
    """A code's corners from the outer corners of its three finders (a the corner one, each
    (x, y, side, corners)): a homography fitted to those 12 points, with the module count
    rounded to a QR version's, undoes an angle of view that corners from the finders' centres
    (an affine guess) keep. None if the finders' corners do not fit a square grid."""
    fit = _fitted(a, b, c, versions_off)
    return None if fit is None else fit[0]


def _fitted(a: tuple, b: tuple, c: tuple, versions_off: int = 0) -> tuple[np.ndarray, float] | None:
    """fitted_corners, and how far (in modules, mean) the finders' corners lie from the grid fitted."""
    module = (a[2] + b[2] + c[2]) / 3 / 7
    arms = (math.hypot(b[0] - a[0], b[1] - a[1]) + math.hypot(c[0] - a[0], c[1] - a[1])) / 2
    modules = 17 + 4 * max(1, round((arms / module + 7 - 17) / 4) + versions_off)
    grid = np.float32([(x + dx, y + dy) for x, y in ((0, 0), (modules - 7, 0), (0, modules - 7))
                       for dx, dy in ((0, 0), (7, 0), (7, 7), (0, 7))])
    centres = np.float32([(3.5, 3.5), (modules - 3.5, 3.5), (3.5, modules - 3.5)])
    affine = cv2.getAffineTransform(centres, np.float32([a[:2], b[:2], c[:2]]))
    guess = grid @ affine[:, :2].T + affine[:, 2]
    seen = []
    for k, f in enumerate((a, b, c)):
        for j in range(4):   # each model corner: the finder's outline corner nearest its affine guess
            seen.append(f[3][int(np.linalg.norm(f[3] - guess[4 * k + j], axis=1).argmin())])
    fit, _ = cv2.findHomography(grid, np.float32(seen), 0)
    if fit is None:
        return None
    error = np.linalg.norm(cv2.perspectiveTransform(grid.reshape(-1, 1, 2), fit).reshape(-1, 2) - seen, axis=1).mean()
    if error > module:
        return None
    error /= module
    square = np.float32([[0, 0], [modules, 0], [modules, modules], [0, modules]])
    out = cv2.perspectiveTransform(square.reshape(-1, 1, 2), fit).reshape(4, 2)
    (ux, uy), (vx, vy) = out[1] - out[0], out[3] - out[0]
    if ux * vy - uy * vx < 0:   # clockwise in image coordinates, as the readers report
        out = out[[0, 3, 2, 1]]
    return out.astype(np.float32), float(error)


def _largest_child(contours, hierarchy: np.ndarray, i: int) -> int:
    best, child = -1, hierarchy[i][2] if i >= 0 else -1
    while child >= 0:
        if best < 0 or cv2.contourArea(contours[child]) > cv2.contourArea(contours[best]):
            best = child
        child = hierarchy[child][0]
    return best


class Places(NamedTuple):
    """Where codes are, from their finders (each place 4 x 2 corners, clockwise)."""
    quads: list[np.ndarray]         # corners from three finders (the corner one first), no finder in two
    squares: list[np.ndarray]       # squares from two finders, one at least in no quad, that hold the code whichever corners they are
    overlapping: list[np.ndarray]   # quads from three finders of which one is already in a better quad
    across: list[np.ndarray]        # squares from two finders each in a quad of its own (a quad may join two codes)
    fitted: list[np.ndarray]        # the quads' corners fitted to their finders' outlines (fitted_corners), 3 module counts each
    paired: list[np.ndarray]        # codes two finders of a square can be corners of (either side of them, or across them)


def code_places(finders: list[tuple]) -> Places:
    """Codes the finders outline (see Places); finders with outlines (finder_patterns(...,
    outlines=True)) also give fitted corners."""
    points = [np.array(f[:2]) for f in finders]
    sizes = [f[2] for f in finders]
    triples = []
    n = len(finders)
    for a in range(n):
        for b in range(n):
            for c in range(b + 1, n):
                if a in (b, c) or not all(0.5 < sizes[a] / sizes[o] < 2 for o in (b, c)):
                    continue
                ab, ac = points[b] - points[a], points[c] - points[a]
                dab, dac = float(np.linalg.norm(ab)), float(np.linalg.norm(ac))
                side = (sizes[a] + sizes[b] + sizes[c]) / 3
                if min(dab, dac) < 1.5 * side or max(dab, dac) > 30 * side or not 0.6 < dab / dac < 1.67:
                    continue
                cos = abs(float(np.dot(ab, ac))) / (dab * dac)
                if cos < 0.5:   # a right angle, as far as an angle of view bends it
                    triples.append((cos + abs(math.log(dab / dac)), a, b, c, side))
    used: set[int] = set()
    quads, overlapping, fitted = [], [], []
    owner: dict[int, int] = {}
    for _, a, b, c, side in sorted(triples):
        if used & {a, b, c}:
            # a finder already in a code: in a grid of codes the best triple may take finders of
            # two, and this may be the right one (looked at after the squares, see MOST_TRIPLES)
            if len(overlapping) < MOST_TRIPLES:
                overlapping.append(_corners(points[a], points[b], points[c], side))
            continue
        used |= {a, b, c}
        owner.update({a: len(quads), b: len(quads), c: len(quads)})
        quads.append(_corners(points[a], points[b], points[c], side))
        if len(finders[a]) > 3:
            fitted += _fits(finders, a, b, c)
    squares, across, paired = [], [], []
    for a in range(n):
        for b in range(a + 1, n):
            if a in used and b in used and owner[a] == owner[b]:
                continue   # two finders of one code's quad
            d = float(np.linalg.norm(points[a] - points[b]))
            side = (sizes[a] + sizes[b]) / 2
            if 0.5 < sizes[a] / sizes[b] < 2 and 1.5 * side < d < 30 * side:
                mid, half = (points[a] + points[b]) / 2, d + side
                square = np.array([mid + (-half, -half), mid + (half, -half), mid + (half, half), mid + (-half, half)], np.float32)
                # two finders each in a quad of its own: a quad may have taken finders of two codes
                (across if a in used and b in used else squares).append(square)
                if not (a in used and b in used):
                    paired += _paired(points[a], points[b], side)
    return Places(quads, squares, overlapping, across, fitted, paired)


def _paired(a: np.ndarray, b: np.ndarray, finder: float) -> list[np.ndarray]:
    """The codes two finders (centres a and b, their size) can be two corners of: the code on
    either side of the line between them, and the code with them on its diagonal. The square
    around them holds all three, but a crop of it is twice a code's size and keeps its angle;
    these can be rectified (a third finder under a lamp or a scratch is often missing)."""
    d = float(np.linalg.norm(b - a))
    u = (b - a) / d
    n = np.array([-u[1], u[0]])
    inset = finder / 2   # a finder's centre lies 3.5 modules in from the code's corner
    out = []
    for side in (n, -n):
        start, end = a - inset * (u + side), b + inset * (u - side)
        out.append(np.array([start, end, end + (d + finder) * side, start + (d + finder) * side]))
    middle, half = (a + b) / 2, d / 2 + inset * math.sqrt(2)
    out.append(np.array([middle - half * u, middle + half * n, middle + half * u, middle - half * n]))
    return [_clockwise(q).astype(np.float32) for q in out]


def _clockwise(out: np.ndarray) -> np.ndarray:
    (ux, uy), (vx, vy) = out[1] - out[0], out[3] - out[0]
    return out[[0, 3, 2, 1]] if ux * vy - uy * vx < 0 else out


def _fits(finders: list[tuple], a: int, b: int, c: int) -> list[np.ndarray]:
    """Corners fitted to three finders' outlines: with ``a`` as the corner finder at the module
    count its arms give and the versions either side, then with each of the other two as the
    corner, best fit first. A steep angle of view bends the right angle at the corner finder
    more than the one at another (the arms' ratio and angle chose the wrong corner on two
    perspective photos of BoofCV's half); the fit through 12 outline corners tells them apart."""
    out = [fit[0] for off in (0, -1, 1) if (fit := _fitted(finders[a], finders[b], finders[c], off)) is not None]
    others = [fit for corner, one, two in ((b, a, c), (c, a, b)) for off in (0, -1, 1)
              if (fit := _fitted(finders[corner], finders[one], finders[two], off)) is not None]
    return out + [corners for corners, _ in sorted(others, key=lambda fit: fit[1])[:MOST_OTHER_CORNERS]]


def _corners(a: np.ndarray, b: np.ndarray, c: np.ndarray, finder: float) -> np.ndarray:
    """A code's four corners from its finders' centres (a the corner one) and their size: the
    centres lie 3.5 modules inside the corners, on the diagonals through the code's middle."""
    module = finder / 7
    modules = (np.linalg.norm(b - a) + np.linalg.norm(c - a)) / 2 / module + 7
    middle = (b + c) / 2
    out = middle + (np.array([a, b, b + c - a, c]) - middle) * (modules / 2) / (modules / 2 - 3.5)
    (ux, uy), (vx, vy) = out[1] - out[0], out[3] - out[0]
    if ux * vy - uy * vx < 0:   # clockwise in image coordinates, as the readers report
        out = out[[0, 3, 2, 1]]
    return out.astype(np.float32)
