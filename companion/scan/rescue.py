"""Second looks: where a code should be but none was read, and every way we know to read it.

zxing-cpp reads most tags in one call. Where it does not, but a code is plainly there (it
located one and failed its checksum, or the patch has a code's dense black-and-white texture),
other readers and other views of the same pixels often succeed: another binariser, ZBar (which
reads some soft, low-contrast codes zxing-cpp does not), the crop upscaled and sharpened (small
tags), deconvolved (defocused ones), or with its contrast evened out (a shadow across the code). Each rung
costs more than the one before; the first that reads anything wins. A false read stays out of
the game anyway: our tags carry a check character, and the pipeline checks it.

A place that stays still is *fused*: its pixels are averaged over the frames in which nothing
there changed, so each later look sees less sensor noise (what makes small, soft tags read on
a still table where no single frame would). A place is never given up while it stays still: it
is looked at every frame at first, then every 2, 4, 8 and at most every 16 frames.
"""
from __future__ import annotations

import copy
import functools
import importlib.util
import math
import threading
import types

import cv2
import numpy as np

from companion.scan.boxes import Box
from companion.scan.decoders import Detection

# defocus of a real camera is not known: a sharp one (0.7 px), a soft one and a blurred one (1.3 px)
DEFOCUS_SIGMAS = (0.7, 1.0, 1.3)
# the rungs of each kind of look (the full ladder is the rest: a first look at a code-sized place)
# A big place (larger than a few tags) is mostly several codes side by side: the cheap zxing rungs
# split it by what they locate. It may also be one large code zxing-cpp cannot read at all (a real
# photo: a code baked on a rice cracker, which ZBar reads at once), hence ZBar on its pixels as they are.
SPLITTING_RUNGS = ("zxing histogram", "zxing 2x sharpened", "zbar")
FUSED_RUNGS = ("zxing 2x sharpened",) + tuple(f"zxing deconvolved {s}" for s in DEFOCUS_SIGMAS)   # a still place
# a still place joining several codes: deconvolved at 2x (at 3x a 500 px place costs more than a
# whole frame); the codes it locates but cannot read there split it into places of their own
# (its first looks climbed 2x sharpened already: that comes last)
FUSED_SPLITTING_RUNGS = tuple(f"zxing deconvolved {s} 2x" for s in DEFOCUS_SIGMAS) + ("zxing 2x sharpened",)


# A live table's order (a still place's first climb): its tags are small and soft, and on the
# bench's still tables (plain, blur, noise, tilt 35 at 2.0 px a module) every second read came
# from the histogram binariser, the sharpened crops or a deconvolution, none from ZBar or CLAHE
LIVE_ORDER = ("zxing histogram", "zxing 2x sharpened", "zxing deconvolved 1.0", "zxing deconvolved 1.3",
              "zxing deconvolved 0.7", "zxing 3x sharpened", "zxing local contrast", "zxing 1.5x sharpened",
              "zxing evened 2x", "zbar", "zbar 2x sharpened")


# What a rung costs per pixel it hands its reader, relative to zxing-cpp's, view included
# (measured here on the live bench's still tables, CPU time per weighted pixel of each rung over
# 30-frame clips: ZBar 12x, CLAHE and zxing-cpp on the view 4x, an unsharp mask 3-4x, 2x since
# it is taken before upscaling (_sharpened_first: at 3 the blurred still table was read whole 2
# frames later), a Wiener filter's rungs 3 per pixel of their upscaled view: so a weighted pixel costs
# about 5-8 ns here, whatever the rung, as a whole 1080p frame's decode, 7-16 ms, does). The
# deconvolved rungs were re-measured with the looks in shares (fusion and low-light clips, 3
# workers: 18-23 ns per upscaled pixel against the 2x sharpened rung's 12-13) and weigh 3, not 2:
# at 2 a share's budget spent on deconvolutions cost about 1.5x the CPU of one spent on the others.
# The others measured cheaper than weighed (3x sharpened 6 ns, evened 11, ZBar 2x 58: weights 1,
# 2, 9), but weighed so they read the blurred or the tilted fusion clip later: kept (docs/scanning.md,
# "The worker a frame behind whatever the weights"). A budget counts them: a live table's
# (`companion scan`'s photo reader gives its looks none).
RUNG_COST = {"zbar": 12.0, "deconvolved": 3.0, "sharpened": 2.0, "evened": 4.5, "contrast": 4.0}
# ...and every call of a rung costs about 0.1 ms whatever its crop's size (the view's set-up, the
# reader's own: 100-145 us here on a 24 px crop for every rung but the histogram binariser's, whose
# pixels weigh 2-7k), 15-25k weighted pixels at the 5-8 ns one costs on real tags. Uncounted, a
# tilted table's small places climbed rungs at 0.2-0.3 ms a call that their pixels hardly counted,
# and a share's CPU ran to 6-7 ms on frames its weighted pixels said cost 5. Counted as 25k, the
# fusion clips' dearest share alone is 3.4-5.1 ms (main 4.2-6.1; stop 44, a quiet spell of this machine, whose speed
# moves by a third within minutes), blurred and tilted tables read
# whole 1-2 frames later (docs/scanning.md, "A call's fixed cost").
CALL_COST = 25_000.0


def rung_cost(name: str, pixels: int, scale: float) -> float:
    """A rung's work on a crop of so many pixels, in zxing-cpp pixels: the deterministic unit of
    every second-look budget. A call's fixed part, then its pixels, weighted."""
    return CALL_COST + pixels * pixel_weight(name, scale)


def pixel_weight(name: str, scale: float) -> float:
    """What each pixel of a crop weighs in a rung's work (its upscaled view's pixels, weighted)."""
    weight = next((w for kind, w in RUNG_COST.items() if kind in name), 1.0)
    return weight * scale * scale


def parts(height: int, width: int, most_px: float | None, code_px: float) -> list[Box]:
    """A crop cut into overlapping parts of at most ``most_px`` pixels each (None: the whole crop),
    so that a dear rung on a large place is run a part a frame instead of all at once. No part is
    narrower than two codes (``code_px``: a code's side with its quiet zone), and neighbours overlap
    by a code, so every code in the crop lies whole in one part."""
    if most_px is None or height * width <= most_px:
        return [(0, 0, width, height)]
    side = max(int(math.sqrt(most_px)), int(2 * code_px), 8)

    def cuts(length: int) -> list[tuple[int, int]]:
        if length <= side:
            return [(0, length)]
        count = math.ceil((length - code_px) / (side - code_px))
        step = (length - side) / (count - 1)
        return [(round(i * step), round(i * step) + side) for i in range(count)]

    return [(x0, y0, x1, y1) for y0, y1 in cuts(height) for x0, x1 in cuts(width)]


def _sharpened(region: np.ndarray, scale: float) -> np.ndarray:
    big = cv2.resize(region, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    soft = cv2.GaussianBlur(big, (0, 0), 0.9 * scale)
    return cv2.addWeighted(big, 3.5, soft, -2.5, 0)  # unsharp mask: restores module edges


def _sharpened_first(region: np.ndarray, scale: float) -> np.ndarray:
    """_sharpened for a live table: the unsharp mask taken before upscaling, in floats (an
    upscale is linear, so this is the mask of the upscaled crop with a blur ``scale`` times wider,
    within a grey level or two). The blur runs on 1/scale^2 of the pixels: the 3x view of a
    code-sized crop costs a half to a quarter as much. (Photos keep _sharpened: their figures
    were measured with it.) Clipped to grey levels before the upscale, which then runs on 8 bits
    (within 0.2 grey levels on average; a third of the float upscale on a 160 px crop)."""
    lo = region.astype(np.float32)
    lo = cv2.addWeighted(lo, 3.5, cv2.GaussianBlur(lo, (0, 0), 0.9), -2.5, 0)
    return cv2.resize(np.clip(lo, 0, 255).astype(np.uint8), None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)


def _deconvolved(region: np.ndarray, sigma: float, noise: float = 0.002, scale: float = 3.0,
                 eight_bit: bool = False) -> np.ndarray:
    """A Wiener filter undoing a defocus (a Gaussian blur of ``sigma`` pixels), then upscaled.

    At 2 px a module a defocused tag's finest pattern keeps under a tenth of its contrast:
    no binariser sees it, but dividing it back out in the frequency domain restores it, and
    ``noise`` (the noise-to-signal ratio allowed for) keeps the sensor noise from being
    amplified with it, which is why this pays most on a still place's fused pixels. The crop is
    mirrored at its edges first so that its borders do not ring, to a size OpenCV's DFT is fast
    at (half the time of NumPy's FFT at the crop's own size; the filter is kept per size).
    ``eight_bit`` (a live table): clipped to grey levels before the upscale, not after, which then
    runs on 8 bits (cubic on uint8 is SIMD: a half to a third of the float upscale on a place)."""
    h, w = region.shape
    # a live table's: one mirror for every defocus, so that a climb's deconvolutions share the crop's DFT
    pad = int(np.ceil(3 * (max(DEFOCUS_SIGMAS) if eight_bit else sigma))) + 2
    rows, cols = cv2.getOptimalDFTSize(h + 2 * pad), cv2.getOptimalDFTSize(w + 2 * pad)
    spectrum = _spectrum(region, pad, rows, cols)
    restored = cv2.idft(spectrum * _wiener(rows, cols, sigma, noise), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    restored = restored[pad:pad + h, pad:pad + w]
    if eight_bit:
        return cv2.resize(np.clip(restored, 0, 255).astype(np.uint8), None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    big = cv2.resize(restored, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return np.clip(big, 0, 255).astype(np.uint8)


_LAST_SPECTRUM = threading.local()


def _spectrum(region: np.ndarray, pad: int, rows: int, cols: int) -> np.ndarray:
    """The DFT of ``region`` mirrored by ``pad`` at its edges to rows x cols. The deconvolved rungs
    one after the other on the same crop (a place's first climb takes two or three defocuses)
    share it: the last one each thread took is kept (a third of a deconvolved view's CPU)."""
    last = getattr(_LAST_SPECTRUM, "value", None)
    if last is not None and last[0] is region and last[1] == (pad, rows, cols):
        return last[2]
    h, w = region.shape
    padded = cv2.copyMakeBorder(region, pad, rows - h - pad, pad, cols - w - pad, cv2.BORDER_REFLECT).astype(np.float32)
    spectrum = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT)
    _LAST_SPECTRUM.value = (region, (pad, rows, cols), spectrum)
    return spectrum


@functools.lru_cache(maxsize=256)
def _wiener(rows: int, cols: int, sigma: float, noise: float) -> np.ndarray:
    """The Wiener filter for a Gaussian defocus, in cv2.dft's layout (real and imaginary parts).
    A Gaussian's transfer function is the product of one along each axis: two short exponentials
    and their outer product (a fifth of the CPU of the 2D one on a code-sized crop; a live table's
    places come in many sizes, and a quarter of the deconvolved views computed a new filter)."""
    k = -2 * np.pi ** 2 * sigma ** 2
    fy, fx = _frequencies(rows), _frequencies(cols)
    psf = np.outer(np.exp(k * fy * fy).astype(np.float32), np.exp(k * fx * fx).astype(np.float32))
    gain = psf / (psf * psf + np.float32(noise))
    return cv2.merge([gain, gain])


def _frequencies(n: int) -> np.ndarray:
    """np.fft.fftfreq(n) without NumPy's fft module: NumPy imports it on first use, which cost the
    first frame with a deconvolution 3-6 ms here (the plain fusion clip's busiest worker's worst)."""
    return ((np.arange(n) + n // 2) % n - n // 2) / n


def _local_contrast(region: np.ndarray) -> np.ndarray:
    """Contrast equalised per quarter of the crop (CLAHE): a lamp's glare or a bright spot over
    part of a code leaves the rest too dark or too pale for one threshold."""
    return cv2.createCLAHE(clipLimit=3.0, tileGridSize=(4, 4)).apply(region)


PHOTO_VIEW_SIDE = 1400   # a photo's whole-image views are halved until their longest side is at most this


ZBAR_VIEW_SIDE = 700     # ...and for ZBar halved again, to at most this (where it reads a large damaged code)


def photo_views(gray: np.ndarray, zxing, zbar=None):
    """Codes read in a whole photo seen other ways, one view at a time (a generator: the caller
    stops once nothing is left unread, so a photo whose first read left little pays little):
    halved (Gaussian pyramid) to about 1000-1400 px and locally equalised (CLAHE), then read with
    zxing-cpp's global and local binarisers, then ZBar on it halved again (the order of their
    measured yield per CPU). A lamp's bright spot
    darkens the rest of a phone photo and glare pales part of a code: one threshold per code
    (after equalising) reads what the local one does not. At that size a large code's modules
    are a few pixels, which is what the readers like, and the views cost about a third of a
    thorough read of a 12-megapixel photo."""
    view, scale = gray, 1.0
    while max(view.shape[:2]) > PHOTO_VIEW_SIDE:
        view, scale = cv2.pyrDown(view), scale / 2
    equalised = _PHOTO_EQUALISE.apply(view)
    # the global binariser first: on half of BoofCV's set it read 5 codes no other view had read
    # for 33 ms CPU in all, the local one 3 for 255 ms (the equalising included), ZBar 5 for 273 ms
    yield [d.shifted(0, 0, scale=scale) for d in zxing.decode_once(equalised, zxing.binarizers.GlobalHistogram)]
    yield [d.shifted(0, 0, scale=scale) for d in zxing.decode_once(equalised)]
    if zbar is not None:
        # ZBar reads some large, damaged or oddly printed codes that zxing-cpp reads in no view,
        # best at a few pixels a module: the view halved again (about 10 ms on a 0.4 MP view)
        while max(view.shape[:2]) > ZBAR_VIEW_SIDE:
            view, scale = cv2.pyrDown(view), scale / 2
        yield [d.shifted(0, 0, scale=scale) for d in zbar(view)]


_PHOTO_EQUALISE = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))


def _evened(region: np.ndarray, sharpened=_sharpened) -> np.ndarray:
    """Contrast stretched locally (a shadow or a lamp's falloff across the code), then 2x."""
    clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(2, 2))
    return sharpened(clahe.apply(region), 2.0)


_NO_READER = types.SimpleNamespace(decode=None, decode_hard=None)   # _rung_order's ladder reads nothing: names only


@functools.lru_cache(maxsize=1024)
def _rung_order(slow: bool, big: bool, learned: bool, learn_order: bool, has_zbar: bool, zbar_early: bool,
                reads: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The order of a look's rungs for these flags and this learning (Ladder._ordered_rungs): the
    names only, so that one worked-out order serves every ladder and every share's copy."""
    ladder = Ladder(_NO_READER, use_pyzbar=False)
    ladder.has_zbar, ladder.zbar_early, ladder.learn_order = has_zbar, zbar_early, learn_order
    ladder.reads_by_rung = dict(reads)
    return ladder._worked_out_order(slow, big, learned)


@functools.cache
def _pyzbar_installed() -> bool:
    """Whether pyzbar can be imported (asked once: a search of the import path costs 0.1 ms, a tenth
    of a small photo's read, and a photo's reader is made for every photo)."""
    return importlib.util.find_spec("pyzbar") is not None


class Ladder:
    """The rungs for a zxing-cpp decoder, with ZBar when pyzbar is installed."""

    def __init__(self, zxing, use_pyzbar: bool = True):
        self.zxing = zxing
        # ZBar is loaded on the first look that climbs to it (importing it costs a cold decode)
        self.has_zbar = use_pyzbar and _pyzbar_installed()
        self._pyzbar = None
        self.zbar_early = False
        self.learn_order = False  # the rungs that read on this camera first (a live table: IncrementalDecoder)
        self.sharpen_first = False  # sharpened before upscaling (a live table: cheaper, see _sharpened_first)
        # the deconvolved rungs' upscale: 3x for a photo; 2x for a live table, whose fusion clips it read as
        # fast or faster (blur whole from frame 7 instead of 11, tilt 35 from 5 instead of 6) at 4/9 of the pixels
        self.deconvolve_scale = 3.0
        self.reads_by_rung: dict[str, int] = {}
        self._learned_from: dict[str, int] = {}   # a share's copy: the learning it started from
        self.hints: list[np.ndarray] = []
        self._misses: list[np.ndarray] = []

    def share(self) -> "Ladder":
        """A copy for one share of a frame's looks (incremental.py: _shares): the same readers,
        what has read so far, its own learning from now on (``learn_from`` adds it back)."""
        twin = copy.copy(self)
        twin.reads_by_rung = dict(self.reads_by_rung)
        twin._learned_from = dict(self.reads_by_rung)
        twin.hints, twin._misses = [], []
        return twin

    def learn_from(self, twin: "Ladder") -> None:
        """What a share's copy read, by rung, added to this ladder's learning."""
        before = twin._learned_from
        for name, n in twin.reads_by_rung.items():
            if n > before.get(name, 0):
                self.reads_by_rung[name] = self.reads_by_rung.get(name, 0) + n - before.get(name, 0)

    def rungs(self):
        """(name, scale, view, reader) from the cheapest to the dearest."""
        zx = self.zxing
        sharpened = _sharpened_first if self.sharpen_first else _sharpened
        d, e = self.deconvolve_scale, self.sharpen_first   # a live table's deconvolved views upscale 8 bits
        out = [("zxing histogram", 1.0, lambda r: r, zx.decode_hard),
               ("zxing local contrast", 1.0, _local_contrast, zx.decode),
               ("zxing 2x sharpened", 2.0, lambda r: sharpened(r, 2.0), self._decode_noting_misses),
               ("zxing deconvolved 1.0", d, lambda r: _deconvolved(r, 1.0, scale=d, eight_bit=e), zx.decode),
               ("zxing 1.5x sharpened", 1.5, lambda r: sharpened(r, 1.5), zx.decode)]
        if self.has_zbar:
            zbar = [("zbar", 1.0, lambda r: r, self.zbar), ("zbar 2x sharpened", 2.0, lambda r: sharpened(r, 2.0), self.zbar)]
            # a photo's unread code is mostly a large one with its own trouble, which ZBar reads as
            # it is (a table's are small and soft: the sharpened zxing rungs come first there)
            out = out[:2] + zbar + out[2:] if self.zbar_early else out + zbar
        out += [("zxing evened 2x", 2.0, lambda r: _evened(r, sharpened), zx.decode),
                ("zxing deconvolved 0.7", d, lambda r: _deconvolved(r, 0.7, scale=d, eight_bit=e), zx.decode),
                ("zxing deconvolved 1.3", d, lambda r: _deconvolved(r, 1.3, scale=d, eight_bit=e), zx.decode),
                ("zxing 3x sharpened", 3.0, lambda r: sharpened(r, 3.0), zx.decode)]
        return out

    def zbar(self, image: np.ndarray) -> list[Detection]:
        """ZBar's reading of an image (nothing if pyzbar or its library is missing)."""
        if not self.load_zbar():
            return []
        return self._pyzbar.decode(image)

    def load_zbar(self) -> bool:
        """Import pyzbar now, if it is there and not imported yet (about 28 ms here): whether
        ZBar can be used. A live pipeline calls it before its first frame, so that no frame pays."""
        if self.has_zbar and self._pyzbar is None:
            try:
                from companion.scan.decoders import PyzbarDecoder

                self._pyzbar = PyzbarDecoder()
            except ImportError:  # the package is there but not its library (libzbar0): no ZBar rungs
                self.has_zbar = False
        return self.has_zbar

    def splitting_deconvolved(self):
        """The deconvolved rungs at 2x for a still place joining several codes (FUSED_SPLITTING_RUNGS):
        what they locate but cannot read splits the place, as the 2x sharpened rung does."""
        return [(f"zxing deconvolved {s} 2x", 2.0, lambda r, s=s: _deconvolved(r, s, scale=2.0, eight_bit=self.sharpen_first),
                 self._decode_noting_misses)
                for s in DEFOCUS_SIGMAS]

    def _camera_defocus_first(self, rungs: list) -> list:
        """The deconvolved rungs, in their places in the ladder, reordered so that the defocus
        that has read most codes so far comes first: a camera has one focus, soon learned."""
        def reads(sigma: str) -> int:
            return sum(n for name, n in self.reads_by_rung.items() if name.split()[:3] == ["zxing", "deconvolved", sigma])

        at = [i for i, r in enumerate(rungs) if r[0].startswith("zxing deconvolved ")]
        best = sorted((rungs[i] for i in at), key=lambda r: -reads(r[0].split()[2]))
        out = list(rungs)
        for i, r in zip(at, best):
            out[i] = r
        return out

    def _camera_rungs_first(self, rungs: list) -> list:
        """The rungs that have read codes on this camera first, most reads first, the rest in
        their order: a table's tags are alike (one camera, one focus, one print), so what read
        one mostly reads the next, and a look that tries it first spends a fraction of a climb."""
        reads = self.reads_by_rung
        return sorted(rungs, key=lambda r: -reads.get(r[0], 0))

    def _decode_noting_misses(self, image: np.ndarray) -> list[Detection]:
        """zxing on the upscaled crop; codes it locates there but cannot read become hints (in
        the crop's pixels): a place joining several codes splits into one place per code."""
        found, misses = self.zxing.decode_with_misses(image)
        self._misses = misses
        return found

    def _ordered_rungs(self, slow: bool, big: bool, learned: bool) -> list:
        """The rungs a look climbs (see ``look``), in the order it climbs them: the order is worked
        out once for what it depends on (a look's kind and what has read so far; about 40 us
        each time here, a look's own overhead), the rungs are this ladder's (their readers are its methods)."""
        names = _rung_order(slow, big, learned, self.learn_order, self.has_zbar, self.zbar_early,
                            tuple(sorted(self.reads_by_rung.items())))
        rungs = {r[0]: r for r in self.rungs()}
        if slow:
            rungs.update((r[0], r) for r in self.splitting_deconvolved())
        return [rungs[name] for name in names]

    def _worked_out_order(self, slow: bool, big: bool, learned: bool) -> tuple[str, ...]:
        """The names of ``_ordered_rungs``, worked out (on a ladder with these flags and this learning)."""
        rungs = self.rungs()
        if slow:   # a big place too: a blurred table gives the splitting rungs nothing to split by
            kind = FUSED_SPLITTING_RUNGS if big else FUSED_RUNGS
            rungs = sorted((r for r in rungs + self.splitting_deconvolved() if r[0] in kind), key=lambda r: kind.index(r[0]))
        elif big:
            rungs = [r for r in rungs if r[0] in SPLITTING_RUNGS]
        elif self.learn_order:
            rungs = sorted(rungs, key=lambda r: LIVE_ORDER.index(r[0]))
        rungs = self._camera_defocus_first(rungs)
        if self.learn_order:
            rungs = self._camera_rungs_first(rungs)
            if learned and not slow and any(self.reads_by_rung.get(r[0]) for r in rungs):
                rungs = [r for r in rungs if self.reads_by_rung.get(r[0])]
        return tuple(r[0] for r in rungs)

    def look(self, region: np.ndarray, origin: tuple[int, int], first: int = 0,
             budget: float | None = None, is_new=None, slow: bool = False,
             big: bool = False, must: bool = False, piece: int = 0, piece_cost: float | None = None,
             code_px: float = 52.0, learned: bool = False) -> tuple[list[Detection], int]:
        """Read a crop (frame pixels from ``origin``) by the first rung, from ``first`` on, that
        reads a new code (``is_new``; default: any), within ``budget`` (work: weighted pixels,
        see rung_cost; None: no limit; what was spent: ``self.spent``). Returns what was read and the rung to start from
        next time (0: the ladder was climbed). Codes located but not read: ``self.hints``.
        ``slow``: a retry of a still place; only the rungs that its fused pixels make better
        (sharpened and deconvolved) are climbed, at 2x for a big one. ``big``: a place joining
        several codes; only the cheap rungs, whose located-but-unread codes split it into places
        of their own, and ZBar (one big code zxing-cpp cannot read).
        A rung that would overrun the budget waits for the next frame, unless ``must`` (the
        first look of a frame: so that no place waits forever). ``piece_cost``: no rung costs more
        than this at once; a dearer one runs on the crop's parts (see ``parts``: ``code_px`` is a
        code's side there), one after the other, over as many frames as the budget takes, from
        part ``piece`` of rung ``first``; the part to go on from next time: ``self.next_piece``.
        ``learned``: only the rungs that have read codes on this camera, if any have (a place's
        looks after its first climb, while its fused pixels improve)."""
        self.hints: list[np.ndarray] = []
        self.ran = 0   # rungs (or their parts) run in this look (0: it all waits for the next frame)
        self.spent = 0.0
        self.next_piece = 0
        if region.shape[0] < 8 or region.shape[1] < 8:
            return [], 0
        region = np.ascontiguousarray(region)
        rungs = self._ordered_rungs(slow, big, learned)
        height, width = region.shape
        for n in range(first, len(rungs)):
            name, scale, view, reader = rungs[n]
            most = None if piece_cost is None else max(piece_cost - CALL_COST, 1.0) / pixel_weight(name, scale)
            cuts = parts(height, width, most, 1.2 * code_px)
            for k in range(piece if n == first else 0, len(cuts)):
                x0, y0, x1, y1 = cuts[k]
                part = region if len(cuts) == 1 else np.ascontiguousarray(region[y0:y1, x0:x1])
                cost = rung_cost(name, part.size, scale)
                if budget is not None and self.spent + cost > budget and not (must and self.ran == 0):
                    self.next_piece = k
                    return [], n
                self.ran += 1
                self.spent += cost
                self._misses = []
                at = (origin[0] + x0, origin[1] + y0)
                got = [d.shifted(at[0], at[1], scale=scale) for d in reader(view(part))]
                self.hints += [m / scale + np.array(at, dtype=np.float32) for m in self._misses]
                if any(is_new is None or is_new(d) for d in got):
                    self.reads_by_rung[name] = self.reads_by_rung.get(name, 0) + 1
                    return got, 0
            if budget is not None and self.spent >= budget and n + 1 < len(rungs):
                return [], n + 1
        return [], 0


class Place:
    """A place worth looking at again: its box in the frame, its fused pixels, its schedule."""

    def __init__(self, box: Box, codes_read_inside: int = 0, located: bool = False):
        self.box = box
        self.located = located        # zxing located a code here but could not read it
        self.tries = 0                # times the whole ladder was climbed here
        self.rung = 0                 # where the look interrupted by the budget goes on
        self.piece = 0                # ...and the part of that rung's crop (rescue.parts)
        self.last_try = 0
        self.frames = 0
        self.codes_read_inside = codes_read_inside   # codes read in it when it was last narrowed down
        self.narrowed = False         # found by a code's fine texture (or narrowed so already)
        self.searched = False         # ...or searched for one in vain (looked at as it is)
        self._mean: np.ndarray | None = None

    def add(self, gray: np.ndarray, most: int) -> None:
        """One more frame in which nothing changed here: average it in (the last ``most``)."""
        x0, y0, x1, y1 = self.box
        crop = gray[y0:y1, x0:x1]
        if self._mean is None or self._mean.shape != crop.shape:
            self._mean, self.frames = crop.astype(np.float32), 1
            return
        self.frames += 1
        # the 8-bit pixels averaged in as they are (OpenCV converts them on the way, to the same floats):
        # a float copy of the crop first cost as much again (0.2 ms a frame for a place of 500 x 500)
        cv2.accumulateWeighted(crop, self._mean, 1.0 / min(self.frames, most))

    def copy(self) -> "Place":
        """A copy the worker's looks may change while this one goes on fusing frames."""
        twin = copy.copy(self)
        twin._mean = None if self._mean is None else self._mean.copy()
        return twin

    def take_schedule(self, twin: "Place") -> None:
        """What a copy's looks changed: where the next look goes on, how often it is looked at,
        and whether it was narrowed or searched."""
        for name in ("tries", "rung", "piece", "last_try", "codes_read_inside", "narrowed", "searched"):
            setattr(self, name, getattr(twin, name))

    def view(self, gray: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.box
        if self._mean is None or self.frames < 2:
            return gray[y0:y1, x0:x1]
        return (self._mean + 0.5).astype(np.uint8)   # a mean of grey levels: within 0..255, no clip needed

    def due(self, frame: int, fast_tries: int, slowest: int) -> bool:
        """Every frame for the first fast_tries looks, then every 2, 4, 8... up to slowest frames."""
        if self.tries < fast_tries or self.rung or self.piece:
            return True
        return frame - self.last_try >= min(2 ** (self.tries - fast_tries + 1), slowest)
