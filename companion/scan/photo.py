"""Reading a still photograph (`companion scan IMAGE`): one cheap read, then looks only where a code was left unread.

A photo larger than PHOTO_VIEW_SIDE is read first halved (by 2 x 2 means), by one plain zxing-cpp
pass (a quarter of the pixels; halved again if that shows nothing): when it reads a code, locates none
it cannot read and the finder check (below) finds none left, that is all (77 of the 271 photos
of the odd half of BoofCV's set). Otherwise a photo is read once by zxing-cpp, thoroughly
(rotated, inverted and downscaled retries), as plain zxing-cpp reads it (but not inverted unless
nothing was read). On most photos (181 of the 271, with those read halved) that is all, and the
photo costs about what plain zxing-cpp costs or less. Only when nothing was read, a code was located but not read, or
two finder patterns lie outside the codes read (sought on a coarse view), does the photo get
more, in the order of what each step read per CPU on that set:

1. the photo halved to about 1,000-1,400 px and locally equalised (CLAHE), read with zxing-cpp's
   global-histogram binariser: a lamp's bright spot darkens the rest of a phone photo and glare
   pales part of a code, which one threshold per code after equalising reads;
2. the places where a code must be: those zxing-cpp located, and those its finder patterns
   outline (finders.py). Each is read as a crop, cheapest reader first, until one reads it:
   scaled so that the code is about 150 px and equalised; rectified from its corners (which
   undoes an angle of view) at 200 and 300 px; ZBar on those; larger; with the local
   binariser. A place whose code has been read (by any step) gets no further look;
3. if a place is still unread (or nothing at all was read): the halved view read with the local
   binariser, then ZBar on it halved again (large damaged codes, ZBar's strength).

Every step is counted in looks, never timed, so a photo gives the same reads on a busy machine.
ZBar is imported on the first look that needs it.
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from companion.scan.decoders import Detection
from companion.scan.finders import MOST_CANDIDATES, NEIGHBOURHOODS, code_places, finder_patterns
from companion.scan.rescue import Ladder
from companion.scan.texture import plausible_codes

PHOTO_VIEW_SIDE = 1400   # the whole-photo views: halved until the longest side is at most this
ZBAR_VIEW_SIDE = 700     # ...and for ZBar halved again (where it reads a large damaged code)
FINDER_VIEW_SIDE = 1400  # ...and for finder patterns
QUICK_SCALES = (0.5, 0.25)  # the first read of a photo larger than PHOTO_VIEW_SIDE: halved, and halved again where that shows nothing
SMALL_CODE_PX = 160      # a code at most this wide that the crops do not read climbs the live ladder too
FINDER_CHECK_SIDE = 320  # the check for finders left over after a first read that located nothing else
BLOWN, BLOWN_SHARE = 250, 0.005  # ...equalised when more than this share of it is blown out (a lamp)
FINDER_CHECK_PX = 14     # ...coarse, but a finder the size of the codes read at least this many pixels across (its rings
                         # must outlast the 3 x 3 mean: 13.25 px were lost, rotations/image025's 53 px finders at a step
                         # of 4; 13.9 px found, brightness/image007's 111 px at a step of 8)
DIM = 128                # ...stretched first when its brightest percent is darker than this (a dim photo)
HALVING_ROWS = 256       # the quick read's halving by means: a strip of this many rows at a time, read through first
MOST_FITTED = 9         # corners fitted to the finders' outlines (3 codes x 3 module counts) looked at, at most
_EQUALISE_VIEW = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
_EQUALISE_CROP = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))


class PhotoReader:
    """``read(gray)``: every code in a photo (see the module's docstring). ``zxing``: a thorough
    ZxingDecoder. ``looks``: looks at places taken by the last photo (for the bench and tests)."""

    def __init__(self, zxing, use_pyzbar: bool = True):
        self.zxing = zxing
        self._ladder = Ladder(zxing, use_pyzbar)  # its ZBar too, imported on first use
        self.zbar = self._ladder.zbar
        self.looks = 0
        self.steps: list[str] = []

    def read(self, gray: np.ndarray) -> list[Detection]:
        self.looks, self.steps = 0, []
        self._pyramid = Pyramid(gray)
        quick = self._quick_read()
        if quick is not None:
            return quick
        # thorough, but not inverted: the inverted pass costs a fifth of the read and read no
        # code of BoofCV's half; a photo with nothing read gets it next (a light code on dark)
        found, misses = self.zxing.decode_with_misses(gray, invert=False)
        if not found:
            self.steps.append("inverted")
            found, more = self.zxing.decode_with_misses(cv2.bitwise_not(gray), invert=False)
            misses += more
        located = _plausible(misses, gray.shape)
        # (a code zxing-cpp found but could not even size, no corners, is no sign: on BoofCV's half
        # it came with 5 photos read whole, and their looks read nothing)
        if found and not located and not self._finders_left(gray, found):
            return found
        view, scale = self._pyramid.within(PHOTO_VIEW_SIDE)
        equalised = _EQUALISE_VIEW.apply(view)
        self.steps.append("equalised view, global")
        more, view_misses = self.zxing.decode_once_with_misses(equalised, self.zxing.binarizers.GlobalHistogram)
        found = _merge(found, [d.shifted(0, 0, scale=scale) for d in more])
        located += _plausible([m / scale for m in view_misses], gray.shape)
        # finders of the codes read belong to them; the others outline codes left unread
        # (the equalised view is the finder search's own view: it is not equalised twice)
        fview, fscale = _halved(equalised, FINDER_VIEW_SIDE)
        to_photo = 1 / scale / fscale
        finders = [(x * to_photo, y * to_photo, side * to_photo, outline * to_photo)
                   for x, y, side, outline in finder_patterns(fview, equalise=False, outlines=True)]
        outlined = code_places([f for f in finders if not _inside_any(f[:2], found)])
        places = ([(q, True) for q in located + outlined.quads] + [(s, False) for s in outlined.squares]
                  + [(q, True) for q in outlined.paired]
                  + [(q, True) for q in outlined.overlapping] + [(s, False) for s in outlined.across])
        places = _distinct(places)[:MOST_CANDIDATES]
        unread = [p for p in places if not _covered(p[0], found)]
        for quad, is_code in unread:
            if _covered(quad, found):
                continue   # read meanwhile (a look at a neighbouring place read it)
            found = _merge(found, self._look(gray, quad, is_code))
        for quad in outlined.fitted[:MOST_FITTED]:
            if not _covered(quad, found):
                found = _merge(found, self._look(gray, quad, True))
        # a small code still unread (a tag at a few pixels a module, soft): the live ladder's
        # sharpened and deconvolved crops (rescue.Ladder), where the scaled crops above are too coarse
        for quad, is_code in places:
            if is_code and _side(quad) <= SMALL_CODE_PX and not _covered(quad, found):
                found = _merge(found, self._ladder_look(gray, quad))
        if found and all(_covered(q, found) for q, _ in places):
            return found
        self.steps.append("equalised view, local")
        found = _merge(found, [d.shifted(0, 0, scale=scale) for d in self.zxing.decode_once(equalised)])
        if (not found or not all(_covered(q, found) for q, _ in places)) and self._ladder.has_zbar:
            small, small_scale = self._pyramid.within(ZBAR_VIEW_SIDE)
            self.steps.append("ZBar on the view halved")
            found = _merge(found, [d.shifted(0, 0, scale=small_scale) for d in self.zbar(small)])
        return found

    def _quick_read(self) -> list[Detection] | None:
        """A large photo's codes read from it halved, once, when that explains the photo: a code
        read, none located but unread, and no two finders left outside them (the check, on the
        halved photo). ``None`` otherwise, and for a photo within PHOTO_VIEW_SIDE (the
        thorough read costs little there, and on BoofCV's half read a code this plain pass did
        not: noncompliant 9). Where the halved photo shows nothing at all, it is halved once more
        (a code filling a close-up or a monitor's photo reads there, for a quarter of the CPU).
        Not a quarter at once: a tag at 3-4 px a module beside a large code went unread and
        unsought (the check's coarse view is scaled to the codes read); halved, only one at about
        2 px a module does.

        Halved by 2 x 2 means, not the Gaussian pyramid's step the looks use: on a 12-megapixel
        photo the Gaussian step was half this read's CPU (2.4 ms of 5, reading the whole photo
        from memory through a 5 x 5 kernel; the means 1.3, and 0.7-0.75 by strips:
        ``_halved_by_means``), and the same 592 codes of BoofCV's half are read. A photo this read
        does not explain pays for the pyramid's level as well."""
        photo = self._pyramid.levels[0]
        longest, shortest = max(photo.shape[:2]), min(photo.shape[:2])
        if longest <= PHOTO_VIEW_SIDE:
            return None
        view, scale, half = photo, 1.0, None
        for k in QUICK_SCALES:
            if shortest * k < 64:
                return None
            while scale > k:
                view, scale = _halved_by_means(view), scale / 2
            half = view if half is None else half
            found, misses = self.zxing.decode_once_with_misses(view)
            if misses:
                return None
            if found:
                found = [d.shifted(0, 0, scale=scale) for d in found]
                return None if self._finders_left(photo, found, halved=half) else found
        return None

    @staticmethod
    def _finders_left(gray: np.ndarray, found: list[Detection], halved: np.ndarray | None = None) -> bool:
        """Whether two finder patterns or more lie outside every code read: a code zxing-cpp
        neither read nor located (ZBar reads some such). Sought on a coarse view (every n-th
        pixel of the photo, or of ``halved``: the photo by 2 x 2 means, which the quick read just
        read, still in the cache), at most FINDER_CHECK_SIDE wide, one threshold well below the
        local mean, stretched first in a dim photo: on a 12-megapixel photo read halved about
        0.5-1.4 ms, against 11-16 for zxing-cpp's thorough read of it, and it finds none on the
        178 photos of BoofCV's half that zxing-cpp reads whole (stop 57)."""
        source, scale = (gray, 1.0) if halved is None else (halved, 0.5)
        longest = max(source.shape[:2])
        # ...but not so coarse that a finder of the codes read shrinks below a few pixels (a code
        # left unread is mostly one of their size: a sheet of small tags in a small photo), down
        # to a view twice as fine. A finder is 7 of the code's modules (21 for a version-1 code,
        # 25-45 for the URLs of most photos: taking every code for 21 made the view up to twice
        # as coarse as meant)
        finder = min(d.side_px() * 7 / (d.modules or 21) for d in found) * scale
        step = max(-(-longest // (2 * FINDER_CHECK_SIDE)), min(-(-longest // FINDER_CHECK_SIDE), int(finder / FINDER_CHECK_PX)), 1)
        view = np.ascontiguousarray(source[::step, ::step])
        # a lamp's bright spot (blown highlights) leaves the rest of the photo too dark for one
        # offset below the local mean: only then is the view equalised first
        glare = np.count_nonzero(view >= BLOWN) > BLOWN_SHARE * view.size
        if glare and halved is not None:
            # under a lamp, the photo itself: its view's faint finders beside a blown spot were
            # measured so (from the half at a coarser step, 2 codes of bright spots were lost)
            return PhotoReader._finders_left(gray, found)
        if not glare:
            # every n-th pixel aliases paper texture into specks, each a contour to walk; a 3 x 3
            # mean removes most (a finder's rings, a module each, stay darker than their
            # neighbourhood). Not under a lamp: the faint finders beside it did not survive it;
            # there only the lone pixels of the thresholded view go (more than half its contours, none a finder)
            view = cv2.blur(view, (3, 3))
            view = _stretched_if_dim(view)
        # the codes read are painted light (a tenth wider: their rim): their finders are theirs,
        # and their modules made most of the contours the search walked
        to_view = scale / step
        read = [((d.corners - d.corners.mean(axis=0)) * 1.1 + d.corners.mean(axis=0)) * to_view for d in found]
        left = [f for f in finder_patterns(view, NEIGHBOURHOODS[:1], equalise=glare, offset=10 if glare else 15, ignore=read,
                                           drop_lone_pixels=glare)
                if not _inside_any((f[0] / to_view, f[1] / to_view), found)]
        return len(left) >= 2

    def _ladder_look(self, gray: np.ndarray, quad: np.ndarray) -> list[Detection]:
        side = _side(quad)
        h, w = gray.shape[:2]
        (x0, y0), (x1, y1) = quad.min(axis=0) - 0.3 * side, quad.max(axis=0) + 0.3 * side
        x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1) + 1, w), min(int(y1) + 1, h)
        got, _ = self._ladder.look(gray[y0:y1, x0:x1], (x0, y0))
        self.looks += self._ladder.ran
        if got:
            self.steps.append("ladder")
        return got

    def _look(self, gray: np.ndarray, quad: np.ndarray, is_code: bool) -> list[Detection]:
        """A place's crop, read by one reader after another until one reads a code there."""
        for name, read in self._rungs(gray, quad, is_code):
            self.looks += 1
            got = read()
            if got:
                self.steps.append(name)
                return got
        return []

    def _rungs(self, gray: np.ndarray, quad: np.ndarray, is_code: bool) -> list[tuple[str, Callable[[], list[Detection]]]]:
        """The readers for one place, cheapest per code read first (measured on the odd half of
        BoofCV's photos, codes zxing-cpp left unread: scaled to 150 px and equalised read 18,
        rectified at 200 px and equalised 13, at 300 px 12, ZBar rectified at 150 px 21 for
        about five times the CPU). A square from two finders has no corners to rectify from:
        only the scaled crops."""
        zx, global_ = self.zxing, self.zxing.binarizers.GlobalHistogram
        side = _side(quad) if is_code else _side(quad) / 2   # a two-finder square is twice the code's side

        def crop(px: float, reader, equalise: bool = False):
            return lambda: _read_crop(self._pyramid, quad, side, px, reader, equalise)

        def warp(px: float, reader, equalise: bool = False):
            return lambda: _read_rectified(self._pyramid, quad, px, reader, equalise)

        def zxing_global(image: np.ndarray) -> list[Detection]:
            return zx.decode_once(image, global_)

        rungs = [("crop 150 px equalised, global", crop(150, zxing_global, True))]
        if is_code:
            rungs += [("rectified 200 px equalised, global", warp(200, zxing_global, True)),
                      ("rectified 300 px, global", warp(300, zxing_global))]
            if self._ladder.has_zbar:
                rungs.append(("ZBar rectified 150 px", warp(150, self.zbar)))
            rungs.append(("rectified 400 px equalised, global", warp(400, zxing_global, True)))
            # last: the local binariser on the rectified crop (4 codes of BoofCV's half, blurred and
            # dim, that no global threshold reads) for 4% more CPU on the photos with looks
            rungs.append(("rectified 300 px equalised, local", warp(300, zx.decode_once, True)))
        rungs.append(("crop 300 px, global", crop(300, zxing_global)))
        if self._ladder.has_zbar:
            rungs.append(("ZBar crop 150 px", crop(150, self.zbar)))
        return rungs


class Pyramid:
    """A photo and its halvings (Gaussian pyramid), made as a look first needs them: a crop of a
    large code is scaled down from the level just above its scale, not from the whole photo
    (scaling a 1,000 px crop down to 150 px cost more than reading it)."""

    def __init__(self, gray: np.ndarray):
        self.levels = [gray]

    def at(self, k: float) -> tuple[np.ndarray, float]:
        """The level to scale by k from: (image, its scale), the scale at least k."""
        scale = 1.0
        n = 0
        while k <= scale / 2 and min(self.levels[n].shape[:2]) >= 64:
            if n + 1 == len(self.levels):
                self.levels.append(cv2.pyrDown(self.levels[n]))
            n, scale = n + 1, scale / 2
        return self.levels[n], scale

    def within(self, most: int) -> tuple[np.ndarray, float]:
        """The first level whose longest side is at most ``most`` pixels, and its scale."""
        longest = max(self.levels[0].shape[:2])
        k = 1.0
        while longest * k > most:
            k /= 2
        return self.at(k)


def _read_crop(pyramid: Pyramid, quad, side, px, reader, equalise) -> list[Detection]:
    """The place's box (a quarter of the code around it), scaled so the code is about px wide."""
    k = px / max(side, 1.0)
    gray, s = pyramid.at(k)
    h, w = gray.shape[:2]
    (x0, y0), (x1, y1) = (quad.min(axis=0) - 0.25 * side) * s, (quad.max(axis=0) + 0.25 * side) * s
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1) + 1, w), min(int(y1) + 1, h)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    image = cv2.resize(gray[y0:y1, x0:x1], None, fx=k / s, fy=k / s, interpolation=cv2.INTER_AREA if k < s else cv2.INTER_CUBIC)
    if equalise:
        image = _EQUALISE_CROP.apply(image)
    return [d.shifted(x0 / s, y0 / s, scale=k) for d in reader(image)]


def _read_rectified(pyramid: Pyramid, quad, px, reader, equalise, margin: float = 0.15) -> list[Detection]:
    """The code warped from its four corners to a px square (with a margin for its quiet zone):
    an angle of view undone."""
    m = px * margin
    square = np.float32([[m, m], [m + px, m], [m + px, m + px], [m, m + px]])
    gray, s = pyramid.at(px / max(_side(quad), 1.0))
    to_square = cv2.getPerspectiveTransform(np.asarray(quad, np.float32) * s, square)   # from the level's pixels
    size = int(px + 2 * m)
    image = cv2.warpPerspective(gray, to_square, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if equalise:
        image = _EQUALISE_CROP.apply(image)
    back = np.linalg.inv(to_square @ np.diag([s, s, 1.0]))   # to the photo's pixels
    return [Detection(d.text, cv2.perspectiveTransform(d.corners.reshape(-1, 1, 2).astype(np.float64), back)
                      .reshape(4, 2).astype(np.float32), d.modules) for d in reader(image)]


def _halved_by_means(image: np.ndarray) -> np.ndarray:
    """The image halved by 2 x 2 means (cv2.INTER_AREA at exactly a half; an odd last row or column
    dropped), a strip of HALVING_ROWS rows at a time, each strip read through once first. A photo
    just loaded, or just read by another reader, is mostly out of the cache, and the halving's own
    reads (two rows at once) wait on memory: a 12-megapixel photo halved at once took 1.2-1.3 ms
    out of the cache against 0.35-0.45 in it, where one streaming read of it takes 0.35; read
    through and halved by strips, 0.7-0.75 in all, the same pixels out (an AMD EPYC; strips of 128
    or 512 rows were slower; not measured on a Pi's memory)."""
    h, w = image.shape[0] // 2 * 2, image.shape[1] // 2 * 2
    out = np.empty((h // 2, w // 2), image.dtype)
    for y in range(0, h, HALVING_ROWS):
        strip = image[y:min(y + HALVING_ROWS, h), :w]
        cv2.norm(strip, cv2.NORM_INF)   # the read-through: a streaming read brings the strip into the cache
        cv2.resize(strip, (w // 2, strip.shape[0] // 2), dst=out[y // 2:(y + strip.shape[0]) // 2],
                   interpolation=cv2.INTER_AREA)
    return out


def _stretched_if_dim(view: np.ndarray) -> np.ndarray:
    """A dim view's grey levels stretched so that its brightest percent is white: the finder
    search's offset below the local mean is in grey levels, and in a dark photo (paper at 35 of
    255: brightness/image007) a finder's rings and the paper between them are fewer apart than
    that, so the check saw none of a code left unread."""
    counts = cv2.calcHist([np.ascontiguousarray(view[::4, ::4])], [0], None, [256], [0, 256]).ravel().cumsum()
    bright = int(np.searchsorted(counts, 0.99 * counts[-1]))
    if bright >= DIM:
        return view
    return cv2.convertScaleAbs(view, alpha=255 / max(bright, 1))


def _halved(gray: np.ndarray, most: int) -> tuple[np.ndarray, float]:
    view, scale = gray, 1.0
    while max(view.shape[:2]) > most:
        view, scale = cv2.pyrDown(view), scale / 2
    return view, scale


def _plausible(misses: list[np.ndarray], shape) -> list[np.ndarray]:
    """Codes located but not read that look like a code (square enough, not tiny)."""
    if not misses:
        return []
    corners = np.array(misses, np.float32)
    return [m for m in corners[plausible_codes(corners, 0.0, min(shape[:2]))]]


def _side(quad: np.ndarray) -> float:
    return float(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1).mean())


def _covered(quad: np.ndarray, found: list[Detection]) -> bool:
    """Whether a code read lies at this place: its centre within half a code of the place's, or
    the place's centre inside the code (a two-finder square's centre lies between its finders)."""
    centre, side = quad.mean(axis=0), _side(quad)
    return (any(np.hypot(*(np.asarray(d.center) - centre)) < 0.5 * max(side, d.side_px()) for d in found)
            or _inside_any(centre, found))


def _inside_any(point, found: list[Detection]) -> bool:
    x, y = float(point[0]), float(point[1])
    return any(cv2.pointPolygonTest(d.corners.reshape(-1, 1, 2).astype(np.float32), (x, y), False) >= 0 for d in found)


def _distinct(places: list[tuple[np.ndarray, bool]]) -> list[tuple[np.ndarray, bool]]:
    """One place per code: a later place centred within half a code of an earlier one is the same."""
    out: list[tuple[np.ndarray, bool]] = []
    for quad, is_code in places:
        side = _side(quad)
        if not _covered(quad, [Detection("", q) for q, _ in out if 0.75 < _side(q) / side < 1.33]):
            out.append((quad, is_code))
    return out


def _merge(found: list[Detection], more: list[Detection]) -> list[Detection]:
    """``found`` and the codes of ``more`` not already in it (same text, centres within half a code)."""
    out = list(found)
    for d in more:
        if not any(o.text == d.text and np.hypot(*np.subtract(o.center, d.center)) < 0.5 * max(o.side_px(), 1) for o in out):
            out.append(d)
    return out
