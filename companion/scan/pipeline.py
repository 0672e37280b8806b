"""The scan pipeline: frames in, debounced ``card_seen`` / ``card_gone`` events out.

    source ─▶ reader thread ─▶ latest frame ─▶ decode (incremental) ─▶ classify ─▶ mat position
                 (watchdog)                                                         (calibration)
                                                       on_event(kind, data) ◀─ tracker ◀─ zone

It runs in its own thread (``start``/``stop``); ``process(frame)`` does one frame synchronously
(tests, ``bench``). What it does with each code it reads:

- a tag of ours for the current game: placed on the mat through the calibration homography,
  assigned to a zone, and fed to the tracker, which debounces it into events. A private tag (a
  hidden card's, card_tags/private.py) is found in the table's map, ``private.lookup``: one dict
  lookup per code read. A readable tag of a card the game keeps hidden is an old sheet's: it
  still plays, and the devices panel says how many such cards were seen (they give themselves away);
- a tag of ours for another game, a damaged tag (its check character fails) and any foreign
  code (a URL, a product barcode...): ignored, and counted in ``stats()`` with its text and why.

The source is read and watched by ``watchdog.WatchedSource`` (the pipeline's base class): a
source that fails or stalls is reopened with a backoff while the rest of the service runs on.
Cards on the table are neither taken away during an outage nor counted again after it: the
tracker is simply not fed while there are no frames, and resumes with a fresh absence window.
"""
from __future__ import annotations

import collections
import logging
import math
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from card_tags import payload as tag_payload

from companion.scan.calibration import Calibration, marker_boxes
from companion.scan.camera_health import marker_focus, tag_px_per_module
from companion.scan.decoders import Detection, make_decoder
from companion.scan.incremental import SWEEP_TILE_PX, IncrementalDecoder
from companion.scan.occlusion import MotionMap, block_means
from companion.scan.sources import FrameSource, grey
from companion.scan.stillness import Stillness
from companion.scan.tracker import Sighting, Tracker, TrackerSettings
from companion.scan.watchdog import WatchedSource
from companion.scan.zones import ZoneMap

log = logging.getLogger(__name__)

EventSink = Callable[[str, dict], None]
RECENT_IGNORED = 8
IGNORED_MEMORY_S = 5.0
CARD_REACH_MM = 54.0   # half a 63 x 88 mm card's diagonal
STILL_FRAME_AGE_S = 1.0  # a camera whose last frame is older cannot say the table is still
# A frame after the first to decode whole (most of it changed: a lamp, a hand over most of the table, a
# bumped camera) is read as a sweep of tiles of about this many pixels, one a frame (IncrementalDecoder.
# cold_tile_px): decoded at once it is 15-34 ms here at 1080p, 60-200 on a Pi 4 (docs/scanning.md, "The
# sweep"). 0: at once (what the benches compare it with).
COLD_TILE_PX = SWEEP_TILE_PX


@dataclass
class Seen:
    """A code read in a frame, and what the pipeline made of it."""

    text: str
    kind: str                        # "card" | "other-game" | "damaged" | "foreign"
    reason: str
    corners: np.ndarray = field(repr=False)
    ref: tag_payload.CardRef | None = None
    mat_xy: tuple[float, float] | None = None
    zone: str | None = None
    angle: float | None = None       # degrees on the mat, from the tag's top edge (cards only)

    def as_dict(self) -> dict:
        return {"text": self.text, "kind": self.kind, "reason": self.reason,
                "card": self.ref.key if self.ref else None, "zone": self.zone,
                "mat_xy": None if self.mat_xy is None else [round(self.mat_xy[0], 1), round(self.mat_xy[1], 1)],
                "corners": np.round(self.corners, 1).tolist()}


def classify(text: str, game: str, private: dict | None = None) -> tuple[str, str, tag_payload.CardRef | None]:
    """What a code is to a table playing ``game``: (kind, reason, card). ``private``: the table's
    private tags (payload -> card)."""
    ref = private.get(text) if private else None
    if ref is not None:
        if ref.game != game:
            return "other-game", f"a private {ref.game} tag; this table is playing {game}", ref
        return "card", f"{ref.key} of {game} (private tag)", ref
    try:
        ref = tag_payload.decode(text)
    except tag_payload.PrivateTag as exc:
        return "other-table", str(exc), None
    except tag_payload.PayloadError as exc:
        return ("damaged" if tag_payload.is_ours(text) else "foreign"), str(exc), None
    if not game:
        return "other-game", f"a {ref.game} tag; no game is in play yet", ref
    if ref.game != game:
        return "other-game", f"a {ref.game} tag; this table is playing {game}", ref
    return "card", f"{ref.key} of {game}", ref


def default_look_workers() -> int:
    """Second looks' worker threads: the cores this process may use, less the frame thread's."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores - 1)


class ScanPipeline(WatchedSource):
    """See the module docstring. ``homography`` (frame px -> mat mm) skips marker calibration."""

    def __init__(self, source: FrameSource | None, decoder="zxing", zones: ZoneMap | None = None,
                 game: str = "bom-battle", on_event: EventSink | None = None, homography=None, *,
                 incremental: bool = True, tracker: TrackerSettings | None = None,
                 stall_timeout: float = 5.0, backoff: tuple[float, float] = (0.5, 30.0),
                 calibrate_every_s: float = 1.0, clock: Callable[[], float] = time.monotonic, private=None,
                 on_events: Callable[[list[tuple[str, dict]]], None] | None = None, look_workers: int | None = None,
                 spread_start: bool = False):
        super().__init__(source, stall_timeout=stall_timeout, backoff=backoff, clock=clock)
        self.base_decoder = make_decoder(decoder) if isinstance(decoder, str) else decoder
        # second looks on worker threads beside the frame's own decode (incremental.py: _hand_over_looks):
        # by default one a core besides the frame's own (a Pi 4: 3; the reads do not depend on it)
        workers = look_workers or default_look_workers()
        self.decoder = IncrementalDecoder(self.base_decoder, looks_apart=True, look_workers=workers,
                                          cold_tile_px=COLD_TILE_PX, sweep_first=spread_start) if incremental else None
        # The first frame's marker search and decode spread over frames, a tile a frame, as later ones are (the
        # service's: no frame over 6 ms here, the table read about a second after the camera starts); False: both
        # at once on the first frame (tests and benches that want the table read on it)
        self.spread_start = spread_start
        self.zones = zones or ZoneMap.for_game(game, 2)
        self.game = game
        self.on_event = on_event or (lambda kind, data: None)
        # A frame's events in one call, when the sink takes them so (the service: the watchers are
        # told of a frame's cards together, one public view for all): else one on_event each.
        self.on_events = on_events
        self.calibration = Calibration(self.zones.mat_mm, fixed=homography)
        self.tracker_settings = tracker or TrackerSettings()
        self.tracker = Tracker(self.zones, self.tracker_settings)
        self.motion = MotionMap()
        self.stillness = Stillness()  # consecutive frames the table lay still: what the settle reads
        self.calibrate_every_s = calibrate_every_s
        self.frames = 0
        self.events_sent = 0
        self.event_errors = 0
        self._frame_times: collections.deque[float] = collections.deque(maxlen=60)
        self._process_ms: collections.deque[float] = collections.deque(maxlen=120)
        self.ignored = {"foreign": 0, "other-game": 0, "damaged": 0, "other-table": 0}
        # The table's private tags (card_tags.private.PrivateTags: .lookup, .hidden_cards(game)).
        self.private = private
        self.old_sheet_cards: set[str] = set()  # hidden cards read from readable (old) tags
        self.recent_ignored: collections.deque[dict] = collections.deque(maxlen=RECENT_IGNORED)
        self._ignored_last: dict[str, float] = {}
        self._last_frame: np.ndarray | None = None
        self._last_seen: list[Seen] = []
        self._hold_reason = ""
        self._calibrate_at: float | None = None
        self._check_given = homography is not None
        self._check_now = False    # a check begun because most of the frame changed, under way
        self._looked: tuple[int, dict] = (0, {})   # (id of the frame measured, what was measured)
        self.smallest_tag: dict | None = None      # the last measured, kept while no card is in view

    @property
    def decoder_name(self) -> str:
        return self.decoder.name if self.decoder else self.base_decoder.name

    def start(self) -> None:
        self.warm_up()
        super().start()

    def warm_up(self) -> None:
        """What the first frames would otherwise pay once, paid before them: importing ZBar for
        the second looks (28 ms here, 100 or more on a Pi 4: a dropped frame), and each look
        worker's first narrowing and climb (IncrementalDecoder.warm_up)."""
        if self.decoder is not None and self.decoder.ladder is not None:
            self.decoder.ladder.load_zbar()
            self.decoder.warm_up()

    # --- one frame ----------------------------------------------------------------------------

    def prepare(self, frame: np.ndarray) -> np.ndarray | None:
        """On the reader thread, beside this one: the grey frame's block means, which the decoder and
        the motion map compare frame to frame (0.5-1.3 ms of a 1080p frame here, on every frame)."""
        return block_means(frame, self.decoder.cell) if self.decoder is not None else None

    def process(self, frame: np.ndarray, now: float | None = None, prepared: np.ndarray | None = None) -> list[tuple[str, dict]]:
        """Decode one frame, update the tracker, send and return the events it causes. ``prepared``:
        its block means from ``prepare`` (made here when not given)."""
        now = self.clock() if now is None else now
        started = time.perf_counter()
        gray = grey(frame)   # (the service's frames are grey already: its reader thread turned them)
        recalibrations = self.calibration.recalibrations
        busy = self._maybe_calibrate(gray, now)
        if self.calibration.recalibrations > recalibrations and self.decoder is not None:
            self.decoder.finish_sweep()   # the camera moved: no card left where the old calibration saw it
        detections = self.decoder.decode(gray, busy, prepared) if self.decoder else self.base_decoder.decode(gray)
        if not busy and self._periodic_check(gray, now) and self.decoder is not None:
            self.decoder.finish_sweep()   # (on the next frame)
        shared = self.decoder is not None and self.decoder.cell == self.motion.cell
        self.motion.update(gray, now, self.decoder.last_small if shared else None)
        with self._lock:
            seen = self._understand(detections)
            self._count_ignored(seen, now)
            events = self._track(seen, now)
            tracker = self.tracker
            self._last_frame, self._last_seen = frame, seen
            self.frames += 1
            self._frame_times.append(now)
            self._process_ms.append((time.perf_counter() - started) * 1000)
        if self.on_events is not None:
            if events and tracker is self.tracker:  # not when a new game was laid out meanwhile
                self._send_together(events)
            return events
        for kind, data in events:
            if tracker is not self.tracker:
                break  # a new game was laid out meanwhile: these were the old game's cards
            self._send(kind, data)
        return events

    def _maybe_calibrate(self, gray: np.ndarray, now: float) -> bool:
        """Calibrate or check the markers when due; whether it searched for any on this frame."""
        # most of the last frame changed (not merely: it was the first one). Not when only its
        # changed places took in most of it: a hand over the cards does that, and a check while it
        # covers a marker found the others moved (a view with fewer than 3 then holds every event)
        changed_a_lot = (self.decoder is not None and self.decoder.stats.frames > 1
                         and self.decoder.stats.last_dirty_fraction > 0.45)
        if self.decoder is not None and self.decoder.lost_waiting and self._calibrate_at is not None:
            return False   # a card a hand uncovered waited for the last marker step: read first (its absence counts)
        if self._check_given:
            # a given calibration is checked against the markers a second in, not on the cold
            # first frame (the marker search costs more there than decoding the frame)
            self._check_given = False
            self._calibrate_at = now + self.calibrate_every_s
            self._ignore_markers()
        if self._calibrate_at is None and self.spread_start:
            # a first calibration (the camera started, or asked again), searched a tile a frame as after a bump
            self._calibrate_at, self._check_now = now, True
        if self._calibrate_at is None:
            self.calibration.update(gray, now)   # a first calibration: at once
            self._calibrate_at = now + self.calibrate_every_s
            self._ignore_markers()
        elif changed_a_lot or self._check_now:
            # the camera may have moved: checked from now on, one marker a frame, the sweep that
            # reads the frame again waiting meanwhile (the four at once beside a tile: 8-9 ms here);
            # a marker missing or moved ends the check with the whole frame searched, as update does
            self._check_now = not self._check_step(gray, now)
        elif now >= self._calibrate_at and self.decoder is not None and self.decoder.sweeping:
            # the periodic check while a sweep reads the frame again (most of it changed: a bumped camera
            # among the reasons), a marker a frame, before the sweep's next tile, which waits (a check that
            # finds the markers moved calibrates again before the sweep reads the cards where they moved)
            self._check_step(gray, now)
        else:
            return False   # (the periodic check, if due, comes after this frame's decode: _periodic_check)
        return True

    def _periodic_check(self, gray: np.ndarray, now: float) -> bool:
        """The periodic check, one marker a frame, after the frame's decode and only when that did no
        heavy job (a tile of the whole-frame pass, a region of what changed): never two heavy jobs on
        one frame, scheduled by the pixels read, not by how long anything took. A check waiting
        meanwhile changes nothing: the camera bumped is noticed by most of the frame changing. Whether
        it calibrated the mat again (the markers moved)."""
        if self._calibrate_at is None or now < self._calibrate_at or (self.decoder is not None and self.decoder.heavy):
            return False
        recalibrations = self.calibration.recalibrations
        self._check_step(gray, now)
        return self.calibration.recalibrations > recalibrations

    def _check_step(self, gray: np.ndarray, now: float) -> bool:
        """One step of a marker check; once it is over, the next is due a second on. Whether it is over."""
        if not self.calibration.check_step(gray, now):
            return False
        self._calibrate_at = now + self.calibrate_every_s
        self._ignore_markers()
        return True

    def _ignore_markers(self) -> None:
        if self.decoder is not None:  # the markers' fine pattern is no tag: no second looks there
            markers = self.calibration.last_markers or self.calibration.expected_markers()
            self.decoder.ignore = marker_boxes(markers)

    def _understand(self, detections: list[Detection]) -> list[Seen]:
        """What each code is, and where each card of this game lies on the mat (one homography
        call for all of them)."""
        seen = []
        private = self.private.lookup if self.private is not None else None
        for d in detections:
            kind, reason, ref = classify(d.text, self.game, private)
            seen.append(Seen(d.text, kind, reason, d.corners, ref))
            if kind == "card" and self.private is not None and not (private and d.text in private) \
                    and ref.card in self.private.hidden_cards(self.game):
                self.old_sheet_cards.add(ref.key)
        cards = [s for s in seen if s.kind == "card"]
        if cards and self.calibration.homography is not None:
            corners = np.array([s.corners for s in cards])
            # each tag's centre and its top edge's two ends on the mat, in one call
            points = self.calibration.to_mat(np.concatenate([corners.mean(axis=1, keepdims=True), corners[:, :2]], axis=1))
            for s, ((x, y), (ax, ay), (bx, by)) in zip(cards, points.reshape(-1, 3, 2).tolist()):
                s.mat_xy = (x, y)
                s.zone = self.zones.zone_at(s.mat_xy)
                s.angle = math.degrees(math.atan2(by - ay, bx - ax))
        return seen

    def _count_ignored(self, seen: list[Seen], now: float) -> None:
        """Count each ignored code once per appearance, not once per frame it stays in view.

        A code read again within IGNORED_MEMORY_S of its last reading is the same appearance
        (a decoder may miss it for a frame or two)."""
        for s in seen:
            if s.kind == "card":
                continue
            last = self._ignored_last.get(s.text)
            self._ignored_last[s.text] = now
            if last is not None and now - last <= IGNORED_MEMORY_S:
                continue
            self.ignored[s.kind] += 1
            for entry in list(self.recent_ignored):
                if entry["text"] == s.text[:80]:
                    self.recent_ignored.remove(entry)
            self.recent_ignored.appendleft({"text": s.text[:80], "kind": s.kind, "why": s.reason})
        if len(self._ignored_last) > 256:  # forget codes long out of view
            self._ignored_last = {t: at for t, at in self._ignored_last.items() if now - at <= IGNORED_MEMORY_S}

    def _track(self, seen: list[Seen], now: float) -> list[tuple[str, dict]]:
        if not self.calibration.ready:
            # without a trustworthy mat position no zone can be trusted: hold what is reported
            self._hold_reason = self.calibration.detail
            return []
        self._hold_reason = ""
        placed = [s for s in seen if s.kind == "card" and s.mat_xy is not None]
        sightings = [Sighting(s.ref.key, s.mat_xy, s.angle) for s in placed]
        events = self.tracker.update(sightings, now, hidden=self._under_something_moving)
        held = collections.Counter(t.card for t in self.tracker.tracks if t.confirmed)
        self.stillness.update(self.motion.moved, [(s.ref.key, s.corners) for s in placed], held)
        return events

    def _under_something_moving(self, mat_xy: tuple[float, float]) -> bool:
        """Whether something (a hand) moves over the card lying at mat_xy: within a card's reach
        (its half diagonal, 54 mm) of the tag's centre."""
        centre, edge = self.calibration.to_frame([mat_xy, (mat_xy[0] + CARD_REACH_MM, mat_xy[1])])
        return self.motion.busy(centre, float(np.hypot(*(edge - centre))))

    def still_frames(self) -> int | None:
        """How many frames in a row have shown the table still (stillness.py: nothing moved, every
        card read where it lay), or None when the camera is not watching the mat now (not running,
        not calibrated, or its last frame too old to tell): the settle then cannot rely on it."""
        with self._lock:
            times = self._frame_times
            if self.state != "running" or not self.calibration.ready or not times \
                    or self.clock() - times[-1] > STILL_FRAME_AGE_S:
                return None
            return self.stillness.frames

    def _send(self, kind: str, data: dict) -> None:
        try:
            self.on_event(kind, data)
            self.events_sent += 1
        except Exception as exc:  # the game refusing or failing must not stop the camera
            self.event_errors += 1
            log.exception("the session did not take %s %s", kind, data)
            self.last_error = f"sending {kind} {data.get('card')}: {exc}"

    def _send_together(self, events: list[tuple[str, dict]]) -> None:
        try:
            self.on_events(events)
            self.events_sent += len(events)
        except Exception as exc:  # the game refusing or failing must not stop the camera
            self.event_errors += 1
            log.exception("the session did not take %s", events)
            sent = ", ".join(f"{kind} {data.get('card')}" for kind, data in events)
            self.last_error = f"sending {sent}: {exc}"

    # --- configuration while running -------------------------------------------------------------

    def set_layout(self, zones: ZoneMap, game: str) -> None:
        """A new game at the table: its zones, and a tracker that starts from what it then sees."""
        with self._lock:
            self.game = game
            self.zones = zones
            self.old_sheet_cards = set()
            self.tracker = Tracker(zones, self.tracker_settings)
            self.stillness.reset()
            # Frames already read (and the one being read) may show the cards lifted just before
            # the new game began: the new game's tracker starts from the frames after them.
            self.skip_frames_read_so_far()
            if self.calibration.mat_mm != zones.mat_mm:
                self.calibration = Calibration(zones.mat_mm)
                self._calibrate_at = None

    def recalibrate(self) -> str:
        """Forget the calibration and look for the markers again on the next frame."""
        with self._lock:
            self.calibration = Calibration(self.zones.mat_mm)
            self._calibrate_at = None
        return self.calibration.detail

    def resume(self, now: float) -> None:
        """Frames again after (re)opening the source: an outage is not an absence (nor stillness)."""
        self.tracker.resume(now)
        self.stillness.reset()

    # --- what the dashboard shows ----------------------------------------------------------------

    def stats(self) -> dict:
        with self._lock:
            times = list(self._frame_times)
            fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0.0
            stats = {
                "source": self.source.name if self.source else None,
                "source_info": self.source.describe() if self.source else None,
                "state": self.state,
                "last_error": self.last_error,
                "last_error_public": self.last_error_public,
                "last_error_at": self.last_error_at,
                "reopens": self.reopens,
                "next_retry_in_s": None if self.next_retry_at is None else round(max(self.next_retry_at - self.clock(), 0), 1),
                "fps": round(fps, 1),
                "decoder": self.decoder_name,
                "frames": self.frames,
                "ms_per_frame": round(statistics.median(self._process_ms), 2) if self._process_ms else None,
                "foreign_codes": self.ignored["foreign"],
                "other_game_tags": self.ignored["other-game"],
                "damaged_tags": self.ignored["damaged"],
                "other_table_tags": self.ignored["other-table"],
                # hidden cards read from old, readable tags: the Devices page warns they give themselves away
                "old_sheet_cards": len(self.old_sheet_cards),
                "recent_ignored": list(self.recent_ignored),
                "cards_tracked": len(self.tracker.tracked()),
                "cards": self.tracker.tracked(),
                "holding": self._hold_reason,
                "calibration": self.calibration.state().as_dict(),
                "decode": self.decoder.stats.as_dict() if self.decoder else None,
                "events_sent": self.events_sent,
                "event_errors": self.event_errors,
                "game": self.game,
            }
        return stats | self.delivery() | self.picture()

    def picture(self) -> dict:
        """The camera's picture as the Devices page shows it: its size, the focus on the mat's
        markers, and pixels per module of the smallest tag in view (once calibrated). Measured on
        the newest frame when asked, once per frame whoever asks: never on the per-frame path."""
        with self._lock:
            frame, seen, calibration = self._last_frame, list(self._last_seen), self.calibration
        if frame is None:
            return {"resolution": None, "focus": None, "smallest_tag_px_per_module": None}
        if self._looked[0] != id(frame):
            focus = marker_focus(frame, calibration.last_markers)
            tags = [tag_px_per_module(s.corners) for s in seen if s.kind == "card"]
            if tags and calibration.ready:
                self.smallest_tag = {"px_per_module": round(min(tags), 2), "tags_in_view": len(tags)}
            self._looked = (id(frame), {"focus": None if focus is None else round(focus)})
        return {"resolution": [int(frame.shape[1]), int(frame.shape[0])], **self._looked[1],
                "smallest_tag_px_per_module": self.smallest_tag["px_per_module"] if self.smallest_tag else None}

    def tracked(self) -> list[dict]:
        """Each confirmed card with its zone and mat position (mm), for the table view."""
        with self._lock:
            return self.tracker.tracked()

    def snapshot(self) -> tuple[np.ndarray | None, list[Seen], Calibration, ZoneMap]:
        """The newest frame and what was read in it, for the calibration preview."""
        with self._lock:
            return self._last_frame, list(self._last_seen), self.calibration, self.zones
