"""Decoding as a pipeline: decode only what changed, look again where a code was nearly read.

A camera over a table mostly sees the same picture: cards lie still for seconds while a hand
moves somewhere. ``IncrementalDecoder`` keeps the codes it already read and, each frame:

1. compares a small copy of the frame (one value per ``cell`` x ``cell`` block) with the copy
   taken when each block was last decoded; blocks that changed by more than ``threshold``
   grey levels are *dirty* (sensor noise averages out over a block; a card, a hand does not);
2. grows the dirty blocks by about half a tag, adds the box of every recently lost tag they
   touch and every known one whose own blocks changed, merges boxes where that adds little, and
   decodes only those crops (the unchanged known codes in them painted out), or the whole frame
   when most of it changed: at once on the first frame (unless ``sweep_first``: a live camera's
   start), else (``cold_tile_px``) as a sweep of tiles, one a frame, the codes known staying
   known until their tile is read;
3. notes *places* where a code was expected but not read: codes the decoder located but could
   not decode (zxing-cpp reports those), and patches of the small copy with a QR code's
   texture that hold no code read (not on the calibration markers, not cut by the frame's
   edge). Each place is looked at again (rescue.py: other binarisers, ZBar, upscaled and
   sharpened crops, cheapest first), averaged over the frames in which it stays still, and
   never given up while it does: every frame at first, then every 2, 4, 8, 16 frames;
4. keeps the work per frame bounded: at most ``max_regions`` crops, and second looks only
   within a budget counted in work, not time (pixels handed to a reader, each rung's pixels
   weighted by what it costs, and each call's fixed part: rescue.RUNG_COST, CALL_COST), so
   that the same frames give the same reads on a quiet machine and a loaded one: none on a
   frame decoded whole (``look_share``: a cold frame costs about one decoder call and reads
   what it reads), and on the cheap frames after it ``look_share_after`` of the frame's pixels
   (as much again), at least ``look_floor_px``;
   a rung that would overrun waits for the next frame. The places a cold frame leaves are so
   read over the next frames, at about the cost of one decoder call a frame, until they are
   read or slow down;
5. decodes the whole frame anyway over every ``full_every`` frames, so nothing missed stays
   missed: one of ``sweep_tiles`` overlapping tiles every few frames (a code lies whole in one),
   so that no frame pays for a whole-frame decode it does not need (a 1080p one costs about
   10 ms here, 40-60 on a Pi 4, over a 30 fps frame's time).

A still photo (``photo``) is one cold frame with the budget its caller gives: its codes may be
of any size, its texture is sought in locally equalised blocks, and while its first read leaves a
code possibly unread, the whole photo is also read other ways (rescue.photo_views, one view at a
time, stopping once nothing is left) before the places zxing located, or as large as a code, are
looked at. `companion scan` no longer reads photos this way (photo.PhotoReader: cheaper, and it
reads more of BoofCV's photographs); this mode is kept for a caller that wants a photo's
textured places looked at.

Known codes whose boxes were not touched are carried over unchanged: that is what makes a
steady table cost about a millisecond a frame.

On a live table a frame's second looks (steps 3-4) are cut into ``look_shares`` shares by a fixed
rule, each with its part of the budget (``_shares``); on a live camera (``looks_apart``, the
pipeline's) they run on ``look_workers`` worker threads beside the next frame's own decode, on
copies of the places and known codes, and land on that next frame: the same reads one frame
later, whatever the load and however many workers; the frame thread keeps the decode of what
changed, a tile of the whole-frame pass, and the fusing.
"""
from __future__ import annotations

import copy
import math
import statistics
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.scan.boxes import (Box, area, box_around, clipped, contains, grown, intersection, snug_merged, mostly_within,
                    mostly_within_any, overlap, point_in)
from companion.scan.camera_health import TAG_MODULES
from companion.scan.decoders import Detection, ZxingDecoder
from companion.scan.occlusion import block_means
from companion.scan.rescue import Ladder, Place, photo_views
from companion.scan.texture import blobs, code_patches, painted_out, plausible_code, plausible_codes, texture_patches

_EQUALISE = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))
PHOTO_TEXTURE_CONTRAST = 25.0   # grey levels of spread between blocks, after equalising
KNOWN_MARGIN = 0.3                # a known code's box: its corners' box and this share of its side around
NARROW_COST = 2.0                 # a narrowed pixel's work in a look's weighted pixels (code_patches: 2.6 ms for 235k px here)
READ_MODULE_PX = 3.0             # a live box is read shrunk while its known tags' modules stay this large (see _read_scale)
HUGE_PLACE = 6.0                  # codes square: a place this large none of whose codes is read is narrowed before its first look


@dataclass
class DecodeStats:
    frames: int = 0
    full_decodes: int = 0
    regions: int = 0
    second_looks: int = 0
    second_look_reads: int = 0
    carried: int = 0
    tiles: int = 0
    cold_tiles: int = 0
    cold_sweeps: int = 0
    deferred: int = 0
    moving_waits: int = 0      # frames a region larger than a tile waited, still moving (a hand over the table)
    last_dirty_fraction: float = 0.0

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class _Known:
    detection: Detection
    box: Box                         # the code's box with a margin
    side: float                      # its side in pixels
    lost_at: int | None = None       # frame number when it stopped being read (kept a while)
    looked: bool = False             # read by a second look (a plain decode of the frame did not read it)
    moved: bool = False              # lost: its place changed since it was last read there (see _read_lost)


SWEEP_TILE_PX = 130_000    # the sweep's tiles (20 at 1080p: each 3.7-5.3 ms here plain), the pipeline's (pipeline.COLD_TILE_PX)
# A frame whose own decode read more pixels than this did a heavy job (a card's place at 3 px a module is
# about 40,000 px at 1080p, 1-2 ms here with its texture search): the periodic tile and marker check wait
LIGHT_FRAME_PX = 20_000
SWEEP_TILES_AT_LEAST = 4   # a frame of fewer tiles is decoded whole at once (640 x 360 at 130,000 px a tile: 2-3 ms here)


@dataclass
class IncrementalDecoder:
    decoder: object
    cell: int = 8
    threshold: int = 12
    full_every: int = 60             # the whole frame decoded over about every so many frames (1080p: a 7 x 5 grid, 70 frames)...
    sweep_tiles: int = 30            # ...visited as about this many overlapping tiles, one every full_every / sweep_tiles frames
                                     # (until stop 53 15 over 30 frames: the tile was the still table's dearest job on the frame
                                     # thread, 1.5-2.9 ms, now 0.7-1.6; a tile every frame would leave the marker check no frame)
    cold_tile_px: float = 0.0        # a frame after the first that must be decoded whole (most of it changed): read
                                     # as tiles of about this many pixels, one a frame (0: at once; see _decode_whole)...
    cold_overlap_px: float = 120.0   # ...overlapping by at least this (a code up to this side lies whole in one tile)
    sweep_first: bool = False        # ...the first frame too (a live camera's start: see _decode_whole)
    full_fraction: float = 0.45
    max_regions: int = 12
    max_looks: int = 24              # second looks per frame at most
    look_share: float = 0.0          # second looks on a frame decoded whole: this share of the frame's pixels
    look_share_after: float = 1.0    # ...on the cheap frames after it (regions or nothing decoded): this share
                                     # (0.8: the 6-frame blurred clip lost a card for 2 frames, docs/scanning.md)...
    look_floor_px: float = 50_000    # ...and at least this many (weighted) pixels
    slow_share: float = 0.25         # slow retries of still places: on average this share a frame...
    slow_savings: float = 2.0        # ...saved up to this many whole-frame decodes (a big place's dear rungs)
    narrow_share: float = 0.08       # places narrowed by their fine texture a frame: at most this share of the frame's pixels
    small_place: float = 1.0         # a live table's place narrower than this many codes: see _small
    fast_tries: int = 4              # looks at a place on consecutive frames before slowing down
    slowest_every: int = 16          # a still place is looked at again at least this often (frames)
    fuse_frames: int = 16            # a still place's pixels are averaged over up to this many frames
    max_places: int = 64
    keep_lost_frames: int = 60
    use_pyzbar: bool = True
    look_at_edges: bool = False      # a live camera sees the rest of a code cut by the edge soon enough
    photo: bool = False              # a still photo: codes of any size up to the image's (a table's are alike), and
                                     # texture sought in locally equalised blocks (a code in a bright spot's shade)
    photo_texture: bool = True       # a photo: textured patches as large as a code read are worth views and looks
    looks_apart: bool = False        # a live camera: second looks on worker threads, landing one frame later (see _hand_over_looks)
    look_shares: int = 3             # a live table's looks a frame, cut into this many shares by a fixed rule (see _shares)...
    look_workers: int = 1            # ...run by this many worker threads (looks_apart): the reads do not depend on it
    stats: DecodeStats = field(default_factory=DecodeStats)

    def __post_init__(self):
        self._reference: np.ndarray | None = None
        self._known: list[_Known] = []
        self._lost: list[_Known] = []
        self._places: list[Place] = []
        self._frame = 0
        self._saved_px = 0.0   # what slow retries may still spend, in weighted pixels (see _look_again)
        self._narrow_over = True   # the first place narrowed a frame may overrun the allowance (see _narrow_places)...
        self._narrow_whole = self.narrow_share   # ...and in the other shares of a frame's looks, one within the whole allowance
        self._narrowed_over = 0.0  # pixels narrowed over the allowance this frame
        self._texture_contrast = 20.0
        self._decoded_whole = False
        self._whole_at = 0     # the frame last decoded whole: the sweep's tile after it would read it again
        self._cold_left: list[int] = []   # the tiles of a frame to decode whole still to decode, one a frame (by number,
        self._cold_count = 0              # of this many: _tile's grid)
        self._texture_due = False         # ...and its textured places, to note on the frame after the last
        self._busy = False                # the caller did other heavy work on this frame (see decode)
        self._sweep_now = False           # the rest of a sweep on the next frame at once (see finish_sweep)
        self._tile_owed: int | None = None   # a tile of the periodic pass that waited for a frame without a heavy read
        self.frame_px = 0                 # pixels this frame's own decode handed to the reader (not the looks')
        self._stale: dict[int, _Known] = {}   # ...and the codes known before it, by id (held: no id is reused meanwhile),
                                              # each replaced by the tile it lies in
        self.last_small: np.ndarray | None = None   # this frame's block means (the motion map shares them)
        self._previous_small: np.ndarray | None = None   # ...and the last frame's (what moves now: see _read_lost)
        self.lost_waiting = False   # lost codes due to be read again waited on this frame (a marker step): the
                                    # pipeline's next marker step waits for them (their absence is counting)
        self.can_look_again = isinstance(self.decoder, ZxingDecoder)
        self.ladder = Ladder(self.decoder, self.use_pyzbar) if self.can_look_again else None
        if self.ladder is not None:
            self.ladder.zbar_early = self.photo
            self.ladder.learn_order = self.ladder.sharpen_first = not self.photo
            self.ladder.deconvolve_scale = 3.0 if self.photo else 2.0
        self.ignore: list[Box] = []   # places never worth a second look (the calibration markers)
        self._workers: list[ThreadPoolExecutor] = []
        self._handed: _Handover | None = None   # the looks handed over on the last frame, not landed yet
        self.look_cpu_ms: dict[int, float] = {}    # each frame's looks: the busiest worker's CPU (ms), by frame (a bench reads it)
        self.look_total_ms: dict[int, float] = {}  # ...and all the workers' together
        self.look_share_ms: dict[int, float] = {}  # ...and its dearest share's (what a worker with a core of its own spends)

    @property
    def name(self) -> str:
        return f"{self.decoder.name}+pipeline"

    @property
    def sweeping(self) -> bool:
        """Whether a frame decoded whole is still being read, a tile a frame (``_begin_sweep``)."""
        return bool(self._cold_left)

    def reset(self) -> None:
        if self._handed is not None:   # what the workers are doing is about the old frames: waited for, dropped
            for future in self._handed.futures:
                future.result()
            self._handed = None
        self._reference = None
        self._known.clear()
        self._lost.clear()
        self._places.clear()
        self._cold_left.clear()
        self._stale.clear()
        self._texture_due = self._sweep_now = False
        self._tile_owed = None

    def decode(self, gray: np.ndarray, busy: bool = False, small: np.ndarray | None = None) -> list[Detection]:
        """Every code believed in view in this frame (read now or carried over unchanged).
        ``busy``: the caller did other heavy work on this frame (a marker step): a sweep's next
        tile waits for the next frame (never two heavy jobs on one frame). ``small``: the frame's
        block means at ``cell``, if made already (the service's reader thread makes them)."""
        self._busy = busy
        self._frame += 1
        self.frame_px = 0
        self.stats.frames += 1
        self._previous_small = self.last_small
        rows, cols = max(gray.shape[0] // self.cell, 1), max(gray.shape[1] // self.cell, 1)
        if small is None or small.shape[:2] != (rows, cols):
            small = block_means(gray, self.cell)
        self.last_small = small
        if self._previous_small is not None and self._previous_small.shape == small.shape:
            for k in self._lost:   # (a few codes, a box each)
                k.moved = k.moved or self._changed(k.box, self._previous_small, small)
        full_decodes = self.stats.full_decodes
        if self._reference is None or self._reference.shape != small.shape:
            self.stats.last_dirty_fraction = 1.0
            self._places.clear()
            self._decode_whole(gray, small)
        else:
            dirty = (cv2.absdiff(small, self._reference) > self.threshold).astype(np.uint8)
            fraction = float(np.count_nonzero(dirty)) / dirty.size
            self.stats.last_dirty_fraction = fraction
            self._forget_changed_places(small)
            sweeps = self.stats.cold_sweeps
            if fraction > self.full_fraction:
                self._decode_whole(gray, small)
            elif self._frame % self.full_every == 0 and self.sweep_tiles <= 1:
                self._decode_full(gray, small, keep_still=True)
            else:
                if fraction > 0.0:
                    self._decode_regions(gray, small, dirty)   # (which may begin a sweep: its first tile is this frame's)
                else:
                    self.stats.carried += len(self._known)
                began = self.stats.cold_sweeps != sweeps   # (its first tile, or the lost codes due, read on this frame)
                if (self._cold_left and not began) or self._texture_due:
                    self._advance_sweep(gray, small, busy)
                elif not began and self._read_lost(gray, small, read=not busy):
                    pass   # a lost code's place is still again after it changed: read there, the periodic tile waits
                elif (self._tile_due(self._frame) or self._tile_owed is not None) and not self._cold_left:
                    # (a sweep is a whole pass already.) Not beside a heavy read of what changed (a card put
                    # down): that tile waits for the next frame without one (never two heavy jobs on one frame)
                    tile = self._tile_number() if self._tile_owed is None else self._tile_owed
                    if self.heavy:
                        self._tile_owed = tile
                    else:
                        # the last frame's looks land first, as looks in the frame have: the tile then paints out the
                        # codes they read, is cut around the codes' size they show and notes places as in the frame
                        # (before them it noted other places, which were dealt into other shares: other reads)
                        self._tile_owed = None
                        self._land_apart(small)
                        self._decode_tile(gray, small, tile)
        self._decoded_whole = self.stats.full_decodes > full_decodes
        if self.looks_apart and not self.photo:
            self._land_looks(small)
            self._fuse_still_places(gray)
            if self._places and not (self._decoded_whole and self.look_share <= 0):
                self._hand_over_looks(gray, small)
            return [k.detection for k in self._known]
        if not self.photo:   # one photo: nothing to average
            self._fuse_still_places(gray)
        if self._places and (self.photo or self.look_shares <= 1):
            self._look_again(gray)
        elif self._places and not (self._decoded_whole and self.look_share <= 0):   # a live table: its shares, here and now
            shares = self._shares(*gray.shape[:2])
            for shadow, _ in shares:
                _run_looks([shadow], gray)
            self._land(shares, small, small)
        return [k.detection for k in self._known]

    # --- second looks in shares, on worker threads (a live camera) ---------------------------------

    def finish_looks(self) -> list[Detection]:
        """Wait for the looks handed over on the last frame and land them now (a clip that ends:
        a bench, a test): every code believed in view once they have."""
        if self._handed is not None:
            self._land_looks(self._handed.small)
        return [k.detection for k in self._known]

    def wait_for_looks(self) -> None:
        """Wait until the looks handed over on the last frame are done, without landing them (the
        next frame does): a bench that runs them with nothing of its own beside them."""
        if self._handed is not None:
            wait(self._handed.futures)

    def _hand_over_looks(self, gray: np.ndarray, small: np.ndarray) -> None:
        """This frame's second looks (narrowing included), exactly as they would run now, run on
        worker threads on a copy of what they read and change (the places, each with its fused
        pixels, and the known codes), while this thread reads the next frame; the next frame lands
        them (``_land_looks``), waiting for the workers if they are late. So the looks run beside
        the frame's own work (on other cores: zxing-cpp and OpenCV release the GIL) and their
        reads arrive one frame later, whatever the machine's load: what they do depends only on
        the frames, never on how long anything took. The looks are cut into ``look_shares``
        shares (``_shares``), share j run by worker j mod ``look_workers``: each worker's CPU a
        frame is about its shares' part of the budget, and the reads are the same whatever the
        number of workers."""
        shares = self._shares(*gray.shape[:2])
        workers = self._look_workers()
        futures = [w.submit(_run_looks, [shadow for shadow, _ in shares[n::len(workers)]], gray) for n, w in enumerate(workers)]
        self._handed = _Handover(futures, shares, {id(k) for k in self._known}, small, self._frame)

    def _look_workers(self) -> list[ThreadPoolExecutor]:
        """The worker threads that run a frame's shares: ``look_workers`` of them, or one a share
        if there are fewer shares."""
        workers = max(1, min(self.look_workers, self.look_shares))
        if len(self._workers) != workers:
            self._workers = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"second-looks-{n}") for n in range(workers)]
        return self._workers

    def warm_up(self) -> None:
        """Each look worker's first narrowing and climb, paid before the first frame (a live camera's):
        a fresh thread's first large arrays, DFTs and upscales cost it 2-3x what they cost later (the
        plain fusion clip's first share narrowed a 500 px cluster in 2.4 ms, the same again in 0.9), and
        its first looks are the start's, whose places a cold frame leaves by the dozen. Reads nothing:
        a made-up texture without a code, on a copy of the ladder."""
        if self.looks_apart and not self.photo and self.ladder is not None:
            wait([w.submit(_warm_looks, self.ladder.share(), self.cell) for w in self._look_workers()])

    def _shares(self, gray_h: int, gray_w: int) -> list[tuple[IncrementalDecoder, list[tuple[Place, Place]]]]:
        """This frame's looks as ``look_shares`` shares, by a fixed rule: the places in the order
        they are looked at (least tried first; a place too large to narrow within a share's
        allowance first of all: only the first share may narrow one), dealt out in turn. Each
        share is a copy of the decoder holding copies of its places (and their fused pixels), the
        known codes, its part of every budget (looks, slow retries' savings, narrowing, looks at
        most) and a copy of the ladder's learning; ``_land`` puts them together again. What a
        share does depends only on the frames, so the reads are the same however many threads
        run the shares, in any order."""
        k = max(1, self.look_shares)
        tag_px = self._tag_px()

        def rank(p: Place) -> tuple:   # a large place to narrow first (the first share's), then as looks take them
            large = area(grown(p.box, 0.5 * tag_px, (gray_h, gray_w))) > self.narrow_share * gray_h * gray_w
            return (not (large and self._to_narrow(p, tag_px)[0]), p.tries, not p.located, -p.rung, area(p.box))

        order = sorted(self._places, key=rank)
        shares = []
        for j in range(k):
            clones = [(p, p.copy()) for p in order[j::k]]
            shadow = copy.copy(self)
            shadow._places = [c for _, c in clones]
            shadow._known = list(self._known)
            shadow._lost = list(self._lost)
            shadow.stats = DecodeStats()
            shadow.ladder = self.ladder.share() if self.ladder is not None else None
            for name in ("look_share", "look_share_after", "look_floor_px", "slow_share", "slow_savings", "narrow_share"):
                setattr(shadow, name, getattr(self, name) / k)
            shadow._saved_px = self._saved_px / k
            shadow.max_looks = self.max_looks // k + (j < self.max_looks % k)   # together, max_looks
            # only the first share may narrow a place over its allowance (its first: so that no place waits
            # forever), as the looks in one piece did: three at once made the frame after a cold one 3x dearer
            shadow._narrow_over, shadow._narrow_whole = j == 0, self.narrow_share
            shadow._workers, shadow._handed, shadow.look_cpu_ms, shadow.look_total_ms, shadow.look_share_ms = [], None, {}, {}, {}
            shares.append((shadow, clones))
        return shares

    def _land_apart(self, small: np.ndarray) -> None:
        """A live camera's: the last frame's looks landed now (before this frame's tile)."""
        if self.looks_apart and not self.photo:
            self._land_looks(small)

    def _land_looks(self, small: np.ndarray) -> None:
        """What the last frame's looks did, applied to this frame's state (``_land``)."""
        handed, self._handed = self._handed, None
        if handed is None:
            return
        cpu = [f.result() for f in handed.futures]
        self.look_cpu_ms[handed.frame] = max(sum(shares) for shares in cpu)
        self.look_total_ms[handed.frame] = sum(sum(shares) for shares in cpu)
        self.look_share_ms[handed.frame] = max(ms for shares in cpu for ms in shares)
        self._land(handed.shares, handed.small, small, handed.known)

    def _land(self, shares: list, then: np.ndarray, small: np.ndarray, known: set[int] | None = None) -> None:
        """Shares' looks applied to the decoder: the places they looked at keep their schedule,
        those they read or narrowed go, and the codes they read and the places they found count
        where nothing changed since the frame they looked at (where something did, this frame's
        own decode has read it afresh); their learning and savings are added up."""
        known = {id(k) for k in self._known} if known is None else known

        def still(box: Box) -> bool:
            return not self._changed(box, then, small)

        fresh: list[_Known] = []
        self._saved_px = 0.0
        for shadow, clones in shares:
            for name in ("second_looks", "second_look_reads", "deferred"):
                setattr(self.stats, name, getattr(self.stats, name) + getattr(shadow.stats, name))
            self._saved_px += shadow._saved_px
            if self.ladder is not None:
                self.ladder.learn_from(shadow.ladder)
            left = {id(p) for p in shadow._places}
            cloned = {id(c) for _, c in clones}
            for original, clone in clones:
                if original not in self._places:   # something changed there meanwhile
                    continue
                if id(clone) in left:
                    original.take_schedule(clone)
                else:
                    self._places.remove(original)
            for p in shadow._places:
                if id(p) not in cloned and still(p.box):
                    self._note_place(p.box, better=p.narrowed, noted=p)
            fresh += [k for k in shadow._known if id(k) not in known and still(k.box)]
        if fresh:
            self._remember(_unique_known(fresh), replaced=[])

    def _advance_sweep(self, gray: np.ndarray, small: np.ndarray, busy: bool) -> None:
        """A sweep under way: its next tile (none on a busy frame), or all the tiles left once the
        camera moved (``finish_sweep``); on the frame after its last tile, the frame's textured places."""
        if busy and not self._sweep_now:
            self._read_lost(gray, small, read=False)
        if self._cold_left and (self._sweep_now or not busy):
            self._land_apart(small)   # as before a tile of the periodic pass
            if not self._sweep_now and self._read_lost(gray, small):
                return    # the tile waits for the next frame
            for _ in range(len(self._cold_left) if self._sweep_now else 1):
                self._decode_cold_tile(gray, small)
        elif not self._cold_left:
            self._texture_due = False
            self._note_textured_places(small, *gray.shape[1::-1])

    def finish_sweep(self) -> None:
        """The rest of a sweep under way read on the next frame at once: the camera moved and the
        mat was calibrated again, so a code known from before the sweep is no longer where the new
        calibration puts it (the tracker would see cards jump zones until their tiles came)."""
        self._sweep_now = bool(self._cold_left)

    @property
    def heavy(self) -> bool:
        """Whether this frame's own decode did a heavy job (a tile, a region of what changed: more than
        ``LIGHT_FRAME_PX`` read), so that periodic work (the pass's next tile, the marker check) waits
        for a frame without one. Counted in pixels: the same frames wait whatever the machine's load."""
        return self.frame_px > LIGHT_FRAME_PX

    @property
    def _tile_step(self) -> int:
        """Frames between two tiles of the periodic pass."""
        return max(1, self.full_every // self.sweep_tiles)

    def _tile_number(self) -> int:
        return self._frame // self._tile_step

    def _tile_due(self, frame: int) -> bool:
        step = self._tile_step
        return self.sweep_tiles > 1 and frame % step == 0 and frame - self._whole_at >= step

    # --- the two ways of decoding ---------------------------------------------------------------

    def _decode_whole(self, gray: np.ndarray, small: np.ndarray) -> None:
        """A frame to decode whole: at once, or (``cold_tile_px``, a live camera, after the first
        frame) as a sweep of tiles: the codes known stay known until their tile reads them again,
        and what changes meanwhile is read by the region decode, so what the players see hardly
        waits for it. The first frame is read at once (the table appears whole on it: what the
        benches' short clips and most tests want; swept, the 6-frame clips read 70-85% instead of
        89-100%), unless ``sweep_first`` (the service's camera, ``ScanPipeline(spread_start=True)``:
        the table is read over its first second, no frame paying a whole decode). The decoder is not
        reset while the service runs; a camera reopened is compared with the picture before it."""
        if self.cold_tile_px > 0 and gray.size > SWEEP_TILES_AT_LEAST * self.cold_tile_px and not self.photo \
                and (self._reference is not None or self.sweep_first):
            self._begin_sweep(gray, small)
        else:
            self._decode_full(gray, small)

    def _begin_sweep(self, gray: np.ndarray, small: np.ndarray) -> None:
        """A frame to decode whole, read as overlapping tiles of about ``cold_tile_px``, this one now and one
        each next frame (``_decode_cold_tile``), so that no frame pays a whole-frame decode (12-28
        ms here at 1080p, 50-170 on a Pi 4: frames dropped mid-game). A code that changes meanwhile
        is read by the region decode as on any frame; the codes known before stay known until the
        tile they lie in is read (a lamp switched on moves nothing: no card seems to leave)."""
        h, w = gray.shape[:2]
        dark, light = _percentiles(small, (1, 99))   # as _decode_full: the texture threshold follows the light
        self._texture_contrast = max(6.0, 0.1 * float(light - dark))
        first = self._reference is None
        self._reference = small
        self._stale = {id(k): k for k in self._known}
        self._tile_owed = None   # (the sweep reads it)
        self.stats.cold_sweeps += 1
        if first:
            # the camera's first frame (sweep_first): its places with a code's texture noted now, so that the
            # tiles paint them out and the looks read them within their budget, on the workers (a tile holding
            # blurred codes, which zxing-cpp locates and fails at about 1 ms each, cost 10-13 ms here)
            self._note_textured_places(small, w, h)
        count = math.ceil(gray.size / self.cold_tile_px)
        # begun again while under way (a hand over most of the table, frame after frame): the tiles not read yet
        # first, then the others, so that every tile is read in turn (begun from the first again, only the first
        # was read while the hand stayed)
        if count != self._cold_count:
            self._cold_left, self._cold_count = [], count
        self._cold_left = self._cold_left + [n for n in range(_grid_size(count, w, h)) if n not in self._cold_left]
        # the lost codes due are read even beside a marker step here: the frame a sweep begins is often the one
        # a hand left (made to wait for the next frame, a card in 14 close-view crossings was reported gone)
        if not self._read_lost(gray, small) and not self._busy:
            self._decode_cold_tile(gray, small)

    def _read_lost(self, gray: np.ndarray, small: np.ndarray, read: bool = True) -> bool:
        """The lost codes whose place changed since they were last read there and is still now (a hand left
        it) read in their boxes, as a frame decoded whole would read them; up to a tile's pixels (the first
        whatever its size), the latest lost first. A sweep makes the frame it begins on everyone's reference, so
        the place a hand left no longer shows as changed: such a card waited for its tile (up to 20 frames at
        1080p), or after the sweep for the periodic pass (30), its absence counting meanwhile: a false
        card_gone. Where something still moves (the hand) they wait: read there, they would be read on every
        frame of it. Whether it read any (then the frame's tile waits for the next frame). ``read`` False (a
        marker step's frame): none read, ``lost_waiting`` says whether any was due (the next marker step waits)."""
        self.lost_waiting = False
        if self._previous_small is None or self._previous_small.shape != small.shape:
            return False
        h, w = gray.shape[:2]
        due = [k for k in self._lost if k.moved and not self._changed(k.box, self._previous_small, small)]
        if not read:
            self.lost_waiting = bool(due)
            return False
        boxes, pixels = [], 0.0
        for k in sorted(due, key=lambda k: -(k.lost_at or 0)):
            box = clipped(k.box, w, h)
            if boxes and pixels + area(box) > self.cold_tile_px:
                break
            k.moved = False
            boxes.append(box)
            pixels += area(box)
        if not boxes:
            return False
        found: list[_Known] = []
        still = [k for k in self._known if id(k) not in self._stale and any(overlap(k.box, b) for b in boxes)]
        for box in boxes:
            self.stats.regions += 1
            found += self._read(gray, box, small, still=still)
            self._set_reference(small, box)
        self._remember(_unique_known(found), replaced=[])
        return True

    def _decode_cold_tile(self, gray: np.ndarray, small: np.ndarray) -> None:
        """The next tile of a frame to decode whole (``_begin_sweep``). Its codes known from before
        the sweep are replaced by what it reads; after the last tile those it held in none go."""
        h, w = gray.shape[:2]
        box = _tile(self._cold_left.pop(0), self._cold_count, w, h, max(self.cold_overlap_px, 1.5 * self._tag_px()))
        self.stats.cold_tiles += 1
        found = self._read(gray, box, small, tile=True)
        replaced = [k for k in self._known if contains(box, clipped(k.box, w, h))
                    and (id(k) in self._stale or self._changed(k.box, self._reference, small))]
        if not self._cold_left:
            self._whole_at, self._sweep_now = self._frame, False
            gone = {id(k) for k in replaced}
            replaced += [k for k in self._known if id(k) in self._stale and id(k) not in gone]
        for k in replaced:
            self._stale.pop(id(k), None)
        self._set_reference(small, box)
        self._remember(found, replaced)
        read = {k.detection.text for k in found}
        for k in replaced:   # a code the tile did not read again (one a look read): looked at again where it was
            if k.detection.text not in read:
                self._note_place(clipped(k.box, w, h), better=True, located=True)   # (its box known: not narrowed)
        self._texture_due = not self._cold_left   # the frame after the last tile (1-1.5 ms: not beside a tile)

    def _note_textured_places(self, small: np.ndarray, w: int, h: int) -> None:
        """The frame after a sweep: its patches with a code's texture and no code read, as a
        whole-frame decode notes them. A tile notes only those it holds whole, and a cluster of
        blurred codes wider than the tiles' overlap lay whole in none (a blurred 1080p table
        stayed at 12 tags of 20)."""
        c = self.cell
        flat = painted_out(small, [k.detection for k in self._known], c, (0, 0))
        for a, b, e, f in texture_patches(flat, c, self._tag_px(), self._texture_contrast, (True,) * 4):
            box = (a, b, min(e, w), min(f, h))
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            if not any(point_in(centre, i) for i in self.ignore) and not mostly_within_any([box], [k.box for k in self._known])[0]:
                self._note_place(box)   # a place noted there by a tile stays (with its fused frames) unless this is other

    def _set_reference(self, small: np.ndarray, box: Box) -> None:
        """The blocks of a box decoded now: what later frames are compared with there (and the lost codes it
        holds whole were read there now: see _read_lost)."""
        c = self.cell
        x0, y0, x1, y1 = box
        self._reference[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)] = small[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)]
        for k in self._lost:
            if k.moved and contains(box, k.box):
                k.moved = False

    def _decode_full(self, gray: np.ndarray, small: np.ndarray, keep_still: bool = False) -> None:
        """Decode the whole frame. ``keep_still``: the periodic pass over a mostly unchanged
        frame; codes whose place did not change stay known even if this one pass misses them
        (a second look read them, and nothing there moved since)."""
        self.stats.full_decodes += 1
        self._whole_at = self._frame
        self._cold_left, self._stale, self._texture_due, self._sweep_now = [], {}, False, False
        previous = self._reference
        # a code's texture is strong relative to the scene's light: in a dim room everything is
        # fainter, so the texture threshold follows the frame's range of grey levels
        dark, light = _percentiles(small, (1, 99))
        self._texture_contrast = max(6.0, 0.1 * float(light - dark))
        found = self._read(gray, (0, 0, gray.shape[1], gray.shape[0]), small)
        if self.photo:
            found = self._read_other_views(gray, found)
        self._reference = small
        self.lost_waiting = False
        for k in self._lost:
            k.moved = False
        replaced = list(self._known)
        if keep_still and previous is not None:
            replaced = [k for k in replaced if self._changed(k.box, previous, small)]
        self._remember(found, replaced=replaced)

    def _read_other_views(self, gray: np.ndarray, found: list[_Known]) -> list[_Known]:
        """A photo's other views (rescue.photo_views), one at a time while one may still read
        something: each view's codes take the places they cover off the list first."""
        views = photo_views(gray, self.decoder, self.ladder.zbar)
        while self._worth_other_views(found):
            view = next(views, None)
            if view is None:
                break
            found = _unique_known(found + _known_of(view))
            covered = mostly_within_any([p.box for p in self._places], [k.box for k in found])
            self._places = [p for p, done in zip(self._places, covered, strict=True) if not done]
        return found

    def _decode_tile(self, gray: np.ndarray, small: np.ndarray, n: int) -> None:
        """One tile of the periodic whole-frame pass: the frame cut into ``sweep_tiles`` tiles,
        overlapping by more than a code's side (each code lies whole in one), visited in turn, so
        the pass costs a tile's decode a frame instead of a whole frame's every ``full_every``
        frames. As in the whole pass, a code this tile misses stays known unless its place changed."""
        h, w = gray.shape[:2]
        box = _tile(n, self.sweep_tiles, w, h, 1.5 * self._tag_px())
        self.stats.tiles += 1
        found = self._read(gray, box, small, tile=True)
        replaced = [k for k in self._known if contains(box, clipped(k.box, w, h)) and self._changed(k.box, self._reference, small)]
        self._set_reference(small, box)
        self._remember(found, replaced)

    def _worth_other_views(self, found: list[_Known]) -> bool:
        """Whether a photo may hold a code its first read missed: nothing was read, a code was
        located but not read, or a patch with a code's texture is as large as the codes read
        (a photo's text makes small textured patches: those alone are not worth a view)."""
        if not found or any(p.located for p in self._places):
            return True
        if not self.photo_texture:
            return False
        smallest = 0.6 * min(k.side for k in found)
        return any(_short_side(p.box) >= smallest for p in self._places)

    def _decode_regions(self, gray: np.ndarray, small: np.ndarray, dirty: np.ndarray) -> None:
        h, w = gray.shape[:2]
        moved = cv2.absdiff(self._reference, small) > self.threshold
        changed = {id(k) for k in self._known if self._code_changed(k.detection, self._reference, small, moved)}
        boxes = self._still_enough(self._dirty_boxes(dirty, w, h, changed), small)
        if not boxes:
            self.stats.carried += len(self._known)
            return
        if len(boxes) > self.max_regions:
            self.stats.deferred += len(boxes) - self.max_regions
            boxes = sorted(boxes, key=area, reverse=True)[:self.max_regions]
        if sum(map(area, boxes)) > self.full_fraction * w * h:
            self._decode_whole(gray, small)
            return
        found: list[_Known] = []
        # a code the regions take in whole but whose own place did not change (a neighbour of the
        # card that moved) stays known whatever their decode reads, as in a tile, and is painted out
        # of it: a blurred code read by a second look is located and failed by zxing-cpp again
        # (about 2 ms each here), and was lost for a frame or more when its region missed it
        replaced = [k for k in self._known if any(contains(b, clipped(k.box, w, h)) for b in boxes) and id(k) in changed]
        still = [k for k in self._known if id(k) not in changed and any(overlap(k.box, b) for b in boxes)]
        for box in boxes:
            self.stats.regions += 1
            found += self._read(gray, box, small, still=still)
            self._set_reference(small, box)
        self._remember(_unique_known(found), replaced)
        self.stats.carried += len(self._known) - len(found)

    def _still_enough(self, boxes: list[Box], small: np.ndarray) -> list[Box]:
        """The boxes to read on this frame: a box larger than a sweep's tile where something still
        moves since the last frame (a hand over the table) waits, its reference kept, and is read on
        the first frame it is still: the codes known in it are carried meanwhile (a hand over them,
        as the occlusion tracker sees), and what the hand left or took is read once it has gone or
        stopped. A camera close over the cards decoded the hand's 800,000 px on every frame it moved
        (2-4 ms here), to read nothing under it. A smaller box (a card put down, slid or turned) is
        read at once, as before."""
        before = self._previous_small
        if before is None or before.shape != small.shape:
            return boxes
        kept = [b for b in boxes if area(b) <= SWEEP_TILE_PX or not self._changed(b, before, small)]
        self.stats.moving_waits += len(boxes) - len(kept)
        return kept

    # --- reading a box, and looking again --------------------------------------------------------

    def _read(self, gray: np.ndarray, box: Box, small: np.ndarray, tile: bool = False,
              still: list[_Known] | None = None) -> list[_Known]:
        """Decode a box of the frame; note the places in it where a code was expected but not read.
        ``tile``: a tile of the whole-frame pass, whose neighbours overlap it: a textured patch
        it cuts lies whole in a neighbour (noted there), and one already noted keeps its schedule.
        ``still``: known codes that did not change, painted out (a region's: see _decode_regions)."""
        x0, y0, x1, y1 = box
        crop = np.ascontiguousarray(gray[y0:y1, x0:x1])
        still_known: list[Detection] = []
        if tile or still:   # painted on a copy: the frame itself is the worker's to read (a full-width tile is no copy)
            crop = crop.copy() if np.shares_memory(crop, gray) else crop
        if tile:
            self._paint_out_places(crop, box)
            still_known = self._paint_out_known(crop, box, small)
        elif still:
            still_known = _paint_codes(crop, box, [k for k in still if overlap(k.box, box)])
        scale = self._read_scale() if min(crop.shape[:2]) >= 16 else 1   # (a sliver at the frame's edge: as it is)
        if scale > 1:   # (cut to whole blocks: OpenCV's fast path, 0.05 ms for a 500,000 px halving here)
            rows, cols = crop.shape[0] // scale, crop.shape[1] // scale
            crop = cv2.resize(crop[:rows * scale, :cols * scale], (cols, rows), interpolation=cv2.INTER_AREA)
        self.frame_px += crop.size
        if not self.can_look_again:
            return _known_of([d.shifted(x0, y0, 1 / scale) for d in self.decoder.decode(crop)])
        found, misses = self.decoder.decode_with_misses(crop)
        if x0 or y0 or scale > 1:
            found = [d.shifted(x0, y0, 1 / scale) for d in found]
            misses = [m * scale for m in misses]
        read = _known_of(found)
        tag_px = self._tag_px()
        c = self.cell
        cx0, cy0, cx1, cy1 = x0 // c, y0 // c, -(-x1 // c), -(-y1 // c)
        # Textured patches cover a whole code; a located-but-unread code counts where none does.
        # Codes already read are flattened first, so a patch joining a read code and an unread
        # neighbour still shows the neighbour.
        sides = (False,) * 4 if self.look_at_edges else (cx0 == 0, cy0 == 0, cx1 >= small.shape[1], cy1 >= small.shape[0])
        if tile:
            sides = (True,) * 4
        flat = painted_out(small[cy0:cy1, cx0:cx1], found + still_known, c, (cx0 * c, cy0 * c))
        contrast = self._texture_contrast
        if self.photo:
            flat, contrast = _EQUALISE.apply(flat), PHOTO_TEXTURE_CONTRAST
        places = [(a + cx0 * c, b + cy0 * c, min(e + cx0 * c, x1), min(f + cy0 * c, y1))
                  for a, b, e, f in texture_patches(flat, c, tag_px, contrast, sides)]
        located = [False] * len(places)   # where zxing located a code it could not read: looked at first
        if misses:
            corners = np.array(misses) + np.array([x0, y0], dtype=np.float32)
            for m in corners[plausible_codes(corners, tag_px, self.photo and min(gray.shape[:2]))]:
                centre = m.mean(axis=0)
                hit = [n for n, b in enumerate(places) if point_in(centre, b)]
                for n in hit:
                    located[n] = True
                if not hit:
                    places.append(grown(box_around(m, 0), max(tag_px, _side(m)) * 0.2, gray.shape))
                    located.append(True)
        if not places:
            return _unique_known(read)
        # a place mostly within a code read now (its box as known, with a margin) is that code's
        # card: not noted (it would be fused, then dropped before its first look)
        within = mostly_within_any(places, [k.box for k in read])
        for box, is_read, was_located in zip(places, within, located, strict=True):
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            if tile and any(overlap(p.box, box) for p in self._places):
                continue
            if not is_read and not any(point_in(centre, i) for i in self.ignore):
                self._note_place(box, located=was_located)
        return _unique_known(read)

    def _paint_out_places(self, crop: np.ndarray, box: Box) -> None:
        """A tile of the whole-frame pass does not read the still places second looks are at
        work on: each is painted its mean grey. A blurred code zxing-cpp locates but cannot read
        costs it a millisecond or more, and a tile of a dozen of them cost 17 ms here, against
        half a millisecond for a tile without (what the pass is for is a code nothing looks at)."""
        x0, y0 = box[:2]
        for p in self._places:
            part = intersection(p.box, box)
            if area(part) > 0:
                view = crop[part[1] - y0:part[3] - y0, part[0] - x0:part[2] - x0]
                view[:] = int(cv2.mean(view)[0])

    def _paint_out_known(self, crop: np.ndarray, box: Box, small: np.ndarray) -> list[Detection]:
        """Nor does it read again the codes known there whose place did not change since they were
        read (they stay known whatever the tile reads): each is painted its mean grey, with a
        module's rim. A blurred code read by a deconvolution is located and failed by zxing-cpp
        on the raw tile again: a tile over a dozen of them cost 14-17 ms here. Returned: those codes."""
        x0, y0, x1, y1 = box
        c = self.cell
        # the blocks of the tile that changed since they were last decoded, once for all its codes
        bx, by = x0 // c, y0 // c
        moved = cv2.absdiff(self._reference[by:-(-y1 // c), bx:-(-x1 // c)], small[by:-(-y1 // c), bx:-(-x1 // c)]) > self.threshold
        # a sweep's stale codes are read again, but for those a look read: a plain decode fails them
        # again (about 2 ms each for a blurred one), and they are looked at again where they were
        inside = [k for k in self._known if overlap(k.box, box) and (id(k) not in self._stale or k.looked)]
        still = [k for k in inside if not moved[max(max(k.box[1], 0) // c - by, 0):-(-k.box[3] // c) - by,
                                                max(max(k.box[0], 0) // c - bx, 0):-(-k.box[2] // c) - bx].any()]
        return _paint_codes(crop, box, still)   # (their blocks, as _changed takes them)

    def _note_place(self, box: Box, better: bool = False, codes_read_inside: int = 0, located: bool = False,
                    noted: Place | None = None) -> None:
        """A place to look at again; one already noted there keeps its fused frames, unless this
        box is ``better`` (found by a code's fine texture, where the one noted was a guess).
        ``noted``: that place itself, as the worker's looks left it (its schedule kept)."""
        for place in list(self._places):
            if not overlap(place.box, box):
                continue
            shared = area(intersection(place.box, box))
            if not better and shared >= 0.5 * max(area(box), area(place.box)):
                return
            if better and shared >= 0.8 * area(box):      # it holds this box already
                return
            if better and shared >= 0.8 * area(place.box):  # this box holds it, and more
                self._places.remove(place)
        if len(self._places) < self.max_places:
            self._places.append(noted or Place(box, codes_read_inside, located))
            self._places[-1].narrowed = better

    def _forget_changed_places(self, small: np.ndarray) -> None:
        """A place where something changed is no longer that place: the region decode notes it
        again if a code's texture is still there (and its fused frames start again)."""
        self._places = [p for p in self._places if not self._changed(p.box, self._reference, small)]

    def _changed(self, box: Box, then: np.ndarray, now: np.ndarray) -> bool:
        c = self.cell
        x0, y0, x1, y1 = max(box[0], 0), max(box[1], 0), box[2], box[3]
        a, b = then[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)], now[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)]
        return not a.size or int(cv2.absdiff(a, b).max()) > self.threshold

    def _code_changed(self, code: Detection, then: np.ndarray, now: np.ndarray,
                      moved: np.ndarray | None = None) -> bool:
        """Whether a block the code itself covers changed (not merely its box: a tilted code's box
        takes in a neighbouring card's edge, which moves when that card does). ``moved``: the
        blocks that changed, when the caller asks of several codes (compared once)."""
        c = self.cell
        corners = code.corners.tolist()   # in plain Python: a dozen NumPy calls on 4 points cost more
        mx, my = sum(p[0] for p in corners) / 4, sum(p[1] for p in corners) / 4
        quad = [((mx + (x - mx) * 0.9) / c - 0.5, (my + (y - my) * 0.9) / c - 0.5) for x, y in corners]   # its modules,
        xs, ys = [q[0] for q in quad], [q[1] for q in quad]                    # in blocks (block i's centre at i)
        x0, y0 = max(math.floor(min(xs)), 0), max(math.floor(min(ys)), 0)
        x1, y1 = math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1
        if moved is None:
            moved = cv2.absdiff(then[y0:y1, x0:x1], now[y0:y1, x0:x1]) > self.threshold
        else:
            moved = moved[y0:y1, x0:x1]
        if not moved.size:
            return True
        if not moved.any():   # most codes: nothing changed even in their box
            return False
        inside = np.zeros(moved.shape, np.uint8)
        points = np.array([(round((x - x0) * 16), round((y - y0) * 16)) for x, y in quad], np.int32)
        cv2.fillConvexPoly(inside, points, 1, cv2.LINE_8, 4)
        return bool((moved & inside.astype(bool)).any())

    def _fuse_still_places(self, gray: np.ndarray) -> None:
        for p in self._places:
            p.add(gray, self.fuse_frames)

    def _look_again(self, gray: np.ndarray) -> None:
        """Second looks at the places that are due, least tried first, within the work budget."""
        if self._decoded_whole and self.look_share <= 0:
            return   # a frame decoded whole reads what its decode reads: the places wait for the next
        if self._known:
            read = mostly_within_any([p.box for p in self._places], [k.box for k in self._known])
            self._places = [p for p, done in zip(self._places, read) if not done]
        waiting = {id(p) for p in self._narrow_places(gray)}   # not narrowed yet: not looked at yet either
        whole = float(gray.size)   # a whole-frame decode's work: the budgets' scale
        if self._decoded_whole:
            budget = self.look_share * whole
        else:
            budget = max(self.look_floor_px, self.look_share_after * whole)
        # no rung's part costs more than a frame's looks (a live table's: half of them): a dearer one is split
        # (rescue.parts). Half: a fused cluster's deconvolution no longer takes a share's whole budget at
        # once, and the blurred fusion clip is read whole a frame sooner (7 instead of 8; a third: 10)
        piece_cost = budget * (1.0 if self.photo else 0.5)
        if not self.photo:
            # a place narrowed over the allowance (a cluster of a dozen cards after a cold frame, 5-7 ms
            # here) is paid from this frame's looks: the share that narrowed it looks less this frame
            budget -= NARROW_COST * self._narrowed_over
        # places past their first looks (slow retries of a still place that read nothing so far)
        # are paid from savings: each frame puts slow_share of a whole-frame decode aside, so a
        # table full of such places stays cheap to watch on average, while the dear rungs of a
        # place joining several cards (deconvolved, 3x) still run every few frames
        self._saved_px = min(self._saved_px + self.slow_share * whole, self.slow_savings * whole)
        saved_up = self._saved_px >= self.slow_savings * whole
        # a photo's text and patterns make many small textured patches: there only the places
        # zxing located and those as large as a code read are worth a look; on a table, a place
        # narrower than the smallest code read (with a margin: a tilted table's far tags are
        # smaller) is a card's corner or a letter, never a tag of the same print (a 26 px speck
        # climbed the whole ladder and every later look on a still table of 45 px tags)
        smallest = 0.6 * min((k.side for k in self._known), default=0.0)
        due = sorted((p for p in self._places if id(p) not in waiting and p.due(self._frame, self.fast_tries, self.slowest_every)
                      and (p.located or (self.photo_texture or not self.photo) and _short_side(p.box) >= smallest)),
                     key=lambda p: (p.tries, not p.located, -p.rung, area(p.box)))
        found, read, hints = [], [], []
        tag_px = self._tag_px()

        def is_new(d: Detection) -> bool:  # a place joining known codes and an unread one reads the known
            return not any(_same_code(k.detection, d) for k in self._known) and not any(_same_code(f, d) for f in found)

        for n, p in enumerate(due):
            if found and mostly_within_any([p.box], [k.box for k in _known_of(found)])[0]:
                continue   # a code read by this frame's looks already: no look at a place once its code is read
            slow = p.tries >= self.fast_tries
            allowed = min(budget, self._saved_px) if slow else budget
            if n >= self.max_looks or allowed <= 0:
                self.stats.deferred += len(due) - n
                break
            # one found by a code's fine texture is mostly one code with a margin: all rungs (those
            # blurred tables whose codes are first found so read by frame 8 instead of 14)
            big = not p.narrowed and _joins_several_codes(p.box, tag_px)
            must = n == 0 and not self._decoded_whole and (saved_up or not slow)   # so that no place waits forever
            got, p.rung = self.ladder.look(p.view(gray), p.box[:2], p.rung, allowed, is_new, slow, big, must,
                                           p.piece, piece_cost, tag_px, learned=p.tries > 0 or self._small(p, tag_px))
            p.piece = self.ladder.next_piece
            budget -= self.ladder.spent
            if slow:
                self._saved_px -= self.ladder.spent
            if self.ladder.ran == 0:   # even its next rung would overrun this frame's budget
                self.stats.deferred += 1
                continue
            self.stats.second_looks += 1
            if p.rung == 0 and p.piece == 0:
                p.tries, p.last_try = p.tries + 1, self._frame
            got = [d for d in got if is_new(d)]
            if got:
                self.stats.second_look_reads += 1
                found += got
                if any(mostly_within(p.box, box_around(d.corners, 0)) for d in got):
                    read.append(p)
            hints += self.ladder.hints
        if found:
            self._places = [p for p in self._places if p not in read]
            fresh = _known_of(unique_detections(found))
            for k in fresh:
                k.looked = True
            self._remember(fresh, replaced=[])
        # a place joining several codes: the codes zxing located in it become places of their own
        for corners in hints:
            if plausible_code(corners, tag_px * 0.6) and not any(mostly_within(box_around(corners, 0), k.box) for k in self._known):
                self._note_place(grown(box_around(corners, 0), tag_px * 0.2, gray.shape))

    def _narrow_places(self, gray: np.ndarray) -> list[Place]:
        """Once codes are read in a place, what is left of a code's fine texture in its pixels
        with them left out is where the rest are (texture.code_patches). Nothing left, and the
        place is done (a read card's outline on a dark mat, or cards side by side whose codes
        were all read). Otherwise the place becomes one place per code left, half a code around
        each: a place joining several codes gets only a few rungs, a code-sized one every rung,
        and a place that cut a code (a guess from what zxing located) now holds all of it. A
        code-sized place that holds its one code whole keeps its fused frames. At most
        ``narrow_share`` of the frame's pixels are narrowed a frame (after a cold frame's many
        places that was 10 ms at once); returned: the places left for the next frames."""
        tag_px = self._tag_px()
        allowance = self.narrow_share * gray.size   # counted in pixels, so the same frames narrow the same places
        self._narrowed_over = 0.0
        waiting, due = [], []
        for p in self._places:
            narrow, first, inside = self._to_narrow(p, tag_px)
            if narrow:
                due.append((first, p, inside))
        for first, p, inside in sorted(due, key=lambda d: d[0]):
            if p not in self._places:   # replaced by a better one
                continue
            # looked for a little beyond the place: a code it cuts is then found whole
            x0, y0, x1, y1 = grown(p.box, 0.5 * tag_px, gray.shape)
            size = (x1 - x0) * (y1 - y0)
            # over this frame's allowance (the first place always fits, and one that overruns the rest; in the
            # other shares of a frame's looks only what fits): the next frame
            if allowance <= 0 or (size > allowance and not self._narrow_over and size > self._narrow_whole * gray.size):
                if not first:    # (one never narrowed is looked at as it is meanwhile: the splitting rungs)
                    waiting.append(p)
                continue
            self._narrowed_over += max(0.0, size - max(allowance, 0.0))
            allowance -= size
            patches = [(a + x0, b + y0, e + x0, f + y0) for a, b, e, f in
                       code_patches(gray[y0:y1, x0:x1], self.cell, tag_px, inside, (x0, y0), per_block=not self.photo)]
            if first and not patches:   # no code's fine texture stands out (a dim room): looked at as it is
                p.searched = True
                continue
            p.codes_read_inside, p.narrowed = len(inside), True
            if len(patches) == 1 and not _joins_several_codes(p.box, tag_px) and contains(p.box, patches[0]):
                continue
            self._places.remove(p)
            for q in patches:
                self._note_place(grown(q, 0.5 * tag_px, gray.shape), better=True, codes_read_inside=len(inside))
        return waiting

    # --- helpers ------------------------------------------------------------------------------------

    def _to_narrow(self, p: Place, tag_px: float) -> tuple[bool, bool, list[Detection]]:
        """Whether a place is due to be narrowed (codes were read in it since it last was, or it
        joins several codes none of which is read), whether it is of the second kind, and the codes
        read in it."""
        inside = [k.detection for k in self._known if overlap(k.box, p.box)]
        # a place joining several codes none of which is read yet (a cluster of blurred cards) is
        # narrowed too, once, after its first look (the cheap splitting rungs read what reads at
        # once) and after the places with codes read: a look at each code costs less than a look
        # at all of them at once. One over HUGE_PLACE codes square is narrowed before its first
        # look: zxing-cpp's 2x sharpened read of a cluster of a dozen blurred cards tries every
        # code it locates there (56 of them: 28-39 ms here, the looks' dearest single call)
        first = ((p.tries > 0 or area(p.box) > (HUGE_PLACE * tag_px) ** 2) and not p.narrowed and not p.searched
                 and not self.photo and not inside and _joins_several_codes(p.box, tag_px))
        return len(inside) != p.codes_read_inside or first, first, inside

    def _small(self, p: Place, tag_px: float) -> bool:
        """Whether a place is narrower than ``small_place`` codes on a live table: a tilted table's far
        tag, or a card's corner or a letter. Its first climb then takes only the rungs that have read
        on this camera, if any have, as a place's later looks do: a table's tags are alike, and the
        whole ladder on a 26 px speck is 11 reader calls, about 1.6 ms here for a few hundred pixels
        (which the budget counted as pixels only then, before each call's fixed cost: rescue.CALL_COST).
        On the tilted fusion clip: the same reads frame by frame, a tenth less CPU in its looks. A
        photo's places keep the whole ladder."""
        return not self.photo and _short_side(p.box) < self.small_place * tag_px

    def _read_scale(self) -> int:
        """The factor a live box is shrunk by before it is read: the smallest known tag's modules at
        least ``READ_MODULE_PX`` after it (the smallest: a tilted table's far tags are smaller). A
        camera close over the cards (the crossings' close view: 230-250 px tags, 11-12 px a module at
        1080p) read a region of 800,000 px in 2-4 ms here; read at half a side it is a quarter of the
        pixels and a tag's modules are 5.5-6 px. Halvings only: OpenCV's fastest shrink. A table whose
        tags are the usual 2-5 px a module is read as it is; so is a photo (photo.py halves its own)."""
        if self.photo or not self._known:
            return 1
        factor = min(k.side for k in self._known) / TAG_MODULES / READ_MODULE_PX
        return 1 << int(math.log2(factor)) if factor >= 2 else 1

    def _tag_px(self) -> float:
        sides = [k.side for k in self._known]
        return float(statistics.median(sides)) if sides else 52.0  # 21 modules at 2.5 px each

    def _dirty_boxes(self, dirty: np.ndarray, w: int, h: int, changed: set[int]) -> list[Box]:
        """Pixel boxes to decode: dirty blocks grown by half a tag, and every tag they cut that
        changed (``changed``: known codes' ids) or was lost, whole, in a box of its own (one that
        did not change stays known and is painted out: _decode_regions). Boxes are merged only
        where that adds little (``snug_merged``): merging each cut tag into a bounding box took in
        more tags, whose bounding box took in more (one card moved among 20 on a 1080p table: 30%
        of the frame, 4 ms of decode where the dirty places and the tags they cut are 7%)."""
        c = self.cell
        grow = max(1, int(round(self._tag_px() * 0.6 / c)))
        spread = cv2.dilate(dirty, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
        # (texture.blobs: the boxes of its connected parts from their outlines, 0.04 ms at 1080p here where
        # connectedComponentsWithStats took 0.28 on every frame something moved)
        boxes = [(x * c, y * c, (x + bw) * c, (y + bh) * c) for x, y, bw, bh in blobs(spread)]
        tags = [clipped(k.box, w, h) for k in self._known if id(k) in changed] + [clipped(k.box, w, h) for k in self._lost]
        cut = [t for t in tags if any(overlap(t, b) for b in boxes) and not any(contains(b, t) for b in boxes)]
        return [clipped(b, w, h) for b in snug_merged(boxes + cut)]

    def _remember(self, fresh: list[_Known], replaced: list[_Known]) -> None:
        """Replace the known codes in the decoded area by those read there now (``fresh``)."""
        gone = {id(k) for k in replaced}
        kept = [k for k in self._known if id(k) not in gone]
        by_text: dict[str, list[Detection]] = {}
        for f in fresh:
            by_text.setdefault(f.detection.text, []).append(f.detection)
        kept = [k for k in kept if not any(_same_code(k.detection, f) for f in by_text.get(k.detection.text, ()))]
        fresh_texts = {k.detection.text for k in fresh}
        for k in replaced:
            if k.detection.text not in fresh_texts:
                k.lost_at, k.moved = self._frame, False
                self._lost.append(k)
        self._lost = [k for k in self._lost if self._frame - (k.lost_at or 0) <= self.keep_lost_frames
                      and k.detection.text not in fresh_texts]
        self._known = kept + fresh


@dataclass
class _Handover:
    """A frame's second looks, handed to the workers: what they run on, and what it had then."""

    futures: list[Future]                   # one a worker: its CPU (ms) for each of its shares
    shares: list                            # each share's decoder copy, and its places with their copies
    known: set[int]                         # the known codes then (ids): the rest are the looks' reads
    small: np.ndarray                       # the frame's block means: what changed since is checked on landing
    frame: int


def _warm_looks(ladder: Ladder, cell: int) -> None:
    """What a look worker's first share would pay once (see ``IncrementalDecoder.warm_up``): a place's
    narrowing and every rung, on a blurred texture of random modules (no finder patterns: no code)."""
    modules = np.random.default_rng(0).integers(0, 2, (64, 64), dtype=np.uint8) * 255
    blurred = cv2.GaussianBlur(cv2.resize(modules, (512, 512), interpolation=cv2.INTER_NEAREST), (0, 0), 2.0)
    code_patches(blurred, cell, 64.0, [], (0, 0), per_block=True)
    ladder.look(blurred[:256, :256], (0, 0))


def _run_looks(shadows: list[IncrementalDecoder], gray: np.ndarray) -> list[float]:
    """A worker's job: a frame's looks for its shares, one after the other; each one's CPU in ms."""
    spent = []
    for shadow in shadows:
        cpu = time.thread_time()
        shadow._look_again(gray)
        spent.append((time.thread_time() - cpu) * 1000)
    return spent


def _tile(n: int, count: int, w: int, h: int, overlap: float) -> Box:
    """The ``n``th of ``count`` tiles of a w x h frame (a grid as square as the frame allows, row
    by row), grown by ``overlap`` / 2 pixels on each side (neighbours overlap by ``overlap``)."""
    cols = max(1, round(math.sqrt(count * w / h)))
    rows = max(1, -(-count // cols))
    r, c = divmod(n % (rows * cols), cols)
    box = (c * w // cols, r * h // rows, (c + 1) * w // cols, (r + 1) * h // rows)
    return grown(box, overlap / 2, (h, w))


def _grid_size(count: int, w: int, h: int) -> int:
    """The tiles of ``_tile``'s grid of ``count``, every one (rows x columns may be a few more)."""
    cols = max(1, round(math.sqrt(count * w / h)))
    return cols * max(1, -(-count // cols))


def _paint_codes(crop: np.ndarray, box: Box, codes: list[_Known]) -> list[Detection]:
    """Codes painted out of a crop of the frame at ``box``: each its mean grey, with a module's
    rim (what a reader then does not read again). Returned: those painted."""
    painted = []
    x0, y0 = box[:2]
    for k, quad in zip(codes, _corners([k.detection for k in codes]).tolist()):
        mx, my = sum(q[0] for q in quad) / 4, sum(q[1] for q in quad) / 4
        rim = [(round(mx + (qx - mx) * 1.12) - x0, round(my + (qy - my) * 1.12) - y0) for qx, qy in quad]
        xs, ys = [r[0] for r in rim], [r[1] for r in rim]
        around = crop[max(min(ys), 0):max(ys) + 1, max(min(xs), 0):max(xs) + 1]
        if around.size:
            cv2.fillConvexPoly(crop, np.array(rim, np.int32), int(cv2.mean(around)[0]))
            painted.append(k.detection)
    return painted


def _short_side(box: Box) -> int:
    return min(box[2] - box[0], box[3] - box[1])


def _side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())


def _joins_several_codes(box: Box, tag_px: float) -> bool:
    """A place bigger than 2.5 codes square: several cards side by side (or one large code)."""
    return area(box) > (2.5 * tag_px) ** 2


def _percentiles(image: np.ndarray, percents) -> list[float]:
    """np.percentile (linear) of a uint8 image, from its histogram: a quarter of the cost."""
    counts = np.cumsum(np.bincount(image.ravel(), minlength=256))
    n = int(counts[-1])
    ranks = [q / 100 * (n - 1) for q in percents]
    below = [math.floor(r) for r in ranks]
    # the grey levels of the values ranked `below` and the next one up (sorted ascending)
    levels = np.searchsorted(counts, [k for b in below for k in (b, min(b + 1, n - 1))], side="right").tolist()
    return [a + (b - a) * (r - k) for a, b, r, k in zip(levels[::2], levels[1::2], ranks, below)]


def _known_of(detections: list[Detection]) -> list[_Known]:
    """Codes read, as known codes: each with its box (and a margin) and its side. In plain Python
    over one list of all corners: for a frame's codes that is cheaper than NumPy's calls."""
    if not detections:
        return []
    known = []
    for d, corners in zip(detections, _corners(detections).tolist()):
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners
        side = (math.hypot(bx - ax, by - ay) + math.hypot(cx - bx, cy - by)
                + math.hypot(dx - cx, dy - cy) + math.hypot(ax - dx, ay - dy)) / 4
        m = side * KNOWN_MARGIN
        box = (int(min(ax, bx, cx, dx) - m), int(min(ay, by, cy, dy) - m),
               int(max(ax, bx, cx, dx) + m + 1), int(max(ay, by, cy, dy) + m + 1))
        known.append(_Known(d, box, side))
    return known


def _unique_known(known: list[_Known]) -> list[_Known]:
    """unique_detections for known codes."""
    kept = {id(d) for d in unique_detections([k.detection for k in known])}
    return [k for k in known if id(k.detection) in kept]


def _corners(detections) -> np.ndarray:
    """The corners of many detections as one N x 4 x 2 array."""
    return np.array([d.corners for d in detections]) if len(detections) else np.zeros((0, 4, 2), np.float32)


def _same_code(a: Detection, b: Detection) -> bool:
    """The same text, and centres closer than half a's side (in plain Python: cheaper on 4 points)."""
    if a.text != b.text:
        return False
    pa, pb = a.corners.tolist(), b.corners.tolist()
    dx = sum(p[0] for p in pa) / 4 - sum(p[0] for p in pb) / 4
    dy = sum(p[1] for p in pa) / 4 - sum(p[1] for p in pb) / 4
    side = sum(math.dist(pa[i], pa[i - 3]) for i in range(4)) / 4
    return math.hypot(dx, dy) < 0.5 * max(side, 1)


def unique_detections(detections: list[Detection]) -> list[Detection]:
    """One detection per physical code: same text and centres closer than half a code apart."""
    out: list[Detection] = []
    by_text: dict[str, list[Detection]] = {}
    for d in detections:
        same_text = by_text.setdefault(d.text, [])
        if not any(_same_code(o, d) for o in same_text):
            same_text.append(d)
            out.append(d)
    return out
