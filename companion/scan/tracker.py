"""From per-frame sightings to debounced table events: ``card_seen`` and ``card_gone``.

A decoder's view of the table flickers: a tag is missed for a frame when a hand passes, read
twice at a zone boundary, glimpsed for one frame as a card is dealt past the camera. The game
log must not: every ``card_seen`` is a card a player put down, every ``card_gone`` one they took
away. So the tracker

- follows each physical tag as a *track* (its payload and where it lies on the mat), matching
  each frame's sightings to tracks by payload and distance, so that two physical copies of one
  payload (a duplicated tag) in two zones are two tracks, reported in both zones (the ruleset
  flags that conflict); a card that reappears far away while its track is out of view was
  moved, and its track follows it;
- confirms a track only after ``appear_frames`` consecutive frames (a glimpse is not a play);
- lets a confirmed track go only after it has been absent for ``vanish_s`` seconds *counted
  over frames actually processed* (a gap between two processed frames counts at most
  ``max_frame_gap_s``, so a service dropping frames does not shorten the window) and for at
  least ``vanish_frames`` of them; time during which something moves over the card's place (a
  hand: the ``hidden`` predicate the pipeline passes in) does not count, up to ``hidden_s``
  seconds (a hand passing over a card is not a take-back, nor one resting on it for a second);
- smooths each track's mat position and changes its zone only when the card lies clearly
  (``hysteresis_mm``) inside another zone for ``appear_frames`` frames, so a card on a line does
  not bounce between two seats;
- reports changes to the set of (card, zone) pairs, keyed by (payload, zone).

Time is passed in (``now``, seconds), so tests drive it frame by frame. When the camera drops
out, the pipeline does not feed the tracker at all and calls ``resume`` when frames come back:
absence is measured while the camera is watching, never across an outage.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from companion.scan.zones import ZoneMap


@dataclass(frozen=True)
class Sighting:
    """A tag of the current game seen in one frame: its card key and its mat position (mm)."""

    card: str                     # "GD500#1"
    mat_xy: tuple[float, float]
    angle: float | None = None    # degrees, when the decoder knows the tag's orientation


@dataclass
class Track:
    card: str
    xy: tuple[float, float]
    angle: float | None
    zone: str | None
    first_seen: float
    last_seen: float
    hits: int = 1                 # consecutive frames seen
    confirmed: bool = False
    absent_s: float = 0.0         # unseen time that counts towards a take-back (see the rule)
    absent_frames: int = 0        # processed frames that counted towards it
    hidden_s: float = 0.0         # unseen time with something moving over the card's place
    pending_zone: str | None = None
    pending_hits: int = 0

    def as_dict(self) -> dict:
        return {"card": self.card, "zone": self.zone, "x_mm": round(self.xy[0], 1), "y_mm": round(self.xy[1], 1),
                "angle": None if self.angle is None else round(self.angle, 1), "confirmed": self.confirmed}


@dataclass
class TrackerSettings:
    appear_frames: int = 2
    vanish_s: float = 0.5
    vanish_frames: int = 4        # ...and at least this many processed frames without the card
    max_frame_gap_s: float = 0.1  # a longer gap between processed frames counts as this much
    hidden_s: float = 1.5         # time under a moving hand that does not count towards vanish_s
    smoothing: float = 0.5        # weight of the newest position in the running average
    jump_mm: float = 40.0         # a move larger than this is a card moved: snap to it
    match_mm: float = 150.0       # a sighting this close to a track of the same payload is that track
    hysteresis_mm: float = 12.0


@dataclass
class Tracker:
    zones: ZoneMap
    settings: TrackerSettings = field(default_factory=TrackerSettings)
    tracks: list[Track] = field(default_factory=list)
    reported: dict[tuple[str, str], int] = field(default_factory=dict)
    last_frame_at: float | None = None

    def update(self, sightings: list[Sighting], now: float,
               hidden: Callable[[tuple[float, float]], bool] | None = None) -> list[tuple[str, dict]]:
        """Feed one frame's sightings; return the events this frame causes, gone before seen.

        ``hidden(mat_xy)`` says whether something moves over that place of the mat in this frame
        (a hand): a card not read there is then hidden, not absent."""
        step = 0.0 if self.last_frame_at is None else min(max(now - self.last_frame_at, 0.0), self.settings.max_frame_gap_s)
        self.last_frame_at = now
        matched = self._match(sightings)
        seen_tracks = set()
        for sighting, track in matched:
            if track is None:
                track = Track(sighting.card, sighting.mat_xy, sighting.angle, self.zones.zone_at(sighting.mat_xy), now, now)
                self.tracks.append(track)
            else:
                self._follow(track, sighting, now)
            seen_tracks.add(id(track))
            if not track.confirmed and track.hits >= self.settings.appear_frames:
                track.confirmed = True
        kept = []
        for track in self.tracks:
            if id(track) in seen_tracks:
                kept.append(track)
            elif track.confirmed and not self._vanished(track, step, hidden):
                track.hits = 0
                track.pending_hits = 0
                kept.append(track)
            # an unconfirmed track missed for a frame, or a confirmed one absent too long, goes
        self.tracks = kept
        return self._diff()

    def resume(self, now: float) -> None:
        """After a camera outage: give every confirmed card a fresh absence window from now."""
        self.last_frame_at = now
        for track in self.tracks:
            if track.confirmed:
                track.last_seen = max(track.last_seen, now)
                track.absent_s, track.absent_frames, track.hidden_s = 0.0, 0, 0.0

    def reset(self) -> None:
        """Forget everything without reporting (a new game starts from what is then seen)."""
        self.tracks.clear()
        self.reported.clear()

    def tracked(self) -> list[dict]:
        return [t.as_dict() for t in self.tracks if t.confirmed]

    # --- internals ---------------------------------------------------------------------------

    def _match(self, sightings: list[Sighting]) -> list[tuple[Sighting, Track | None]]:
        """Pair sightings with tracks of the same payload, nearest pairs first."""
        pairs = []
        for si, s in enumerate(sightings):
            for ti, t in enumerate(self.tracks):
                if t.card == s.card:
                    d = math.dist(s.mat_xy, t.xy)
                    if d <= self.settings.match_mm:
                        pairs.append((d, si, ti))
        pairs.sort()
        used_s, used_t, result = set(), set(), {}
        for _, si, ti in pairs:
            if si not in used_s and ti not in used_t:
                used_s.add(si)
                used_t.add(ti)
                result[si] = self.tracks[ti]
        # A card picked up and put down elsewhere: a sighting far from every track of its payload
        # takes over a confirmed track of that payload that is not in view, rather than starting
        # a second track (which would look like a duplicated tag until the first one vanished).
        for si, s in enumerate(sightings):
            if si in result:
                continue
            for ti, t in enumerate(self.tracks):
                if ti not in used_t and t.card == s.card and t.confirmed:
                    used_t.add(ti)
                    result[si] = t
                    break
        return [(s, result.get(i)) for i, s in enumerate(sightings)]

    def _vanished(self, track: Track, step: float, hidden) -> bool:
        """Count one more processed frame without the card; True once it is taken away."""
        s = self.settings
        if hidden is not None and hidden(track.xy):
            before = track.hidden_s
            track.hidden_s += step
            step = max(track.hidden_s - max(before, s.hidden_s), 0.0)  # only what is beyond hidden_s counts
            if step <= 0.0:
                return False
        track.absent_s += step
        track.absent_frames += 1
        return track.absent_s > s.vanish_s + 1e-9 and track.absent_frames >= s.vanish_frames

    def _follow(self, track: Track, sighting: Sighting, now: float) -> None:
        a = self.settings.smoothing
        if math.dist(track.xy, sighting.mat_xy) > self.settings.jump_mm:
            track.xy = sighting.mat_xy
        else:
            track.xy = (track.xy[0] + a * (sighting.mat_xy[0] - track.xy[0]),
                        track.xy[1] + a * (sighting.mat_xy[1] - track.xy[1]))
        track.angle = sighting.angle if sighting.angle is not None else track.angle
        track.last_seen = now
        track.absent_s, track.absent_frames, track.hidden_s = 0.0, 0, 0.0
        track.hits += 1
        self._rezone(track)

    def _rezone(self, track: Track) -> None:
        here = self.zones.zone_at(track.xy)
        if here == track.zone:
            track.pending_zone, track.pending_hits = None, 0
            return
        if not track.confirmed:  # not reported yet: nothing to debounce
            track.zone = here
            return
        clearly_out = track.zone is None or self.zones.depth_in(track.zone, track.xy) < -self.settings.hysteresis_mm
        clearly_in = here is None or self.zones.depth_in(here, track.xy) > self.settings.hysteresis_mm
        if not (clearly_out or clearly_in):
            track.pending_zone, track.pending_hits = None, 0
            return
        if track.pending_zone == here:
            track.pending_hits += 1
        else:
            track.pending_zone, track.pending_hits = here, 1
        if track.pending_hits >= self.settings.appear_frames:
            track.zone, track.pending_zone, track.pending_hits = here, None, 0

    def _diff(self) -> list[tuple[str, dict]]:
        now_pairs: dict[tuple[str, str], int] = {}
        for t in self.tracks:
            if t.confirmed and t.zone is not None:
                now_pairs[(t.card, t.zone)] = now_pairs.get((t.card, t.zone), 0) + 1
        gone = [p for p in self.reported if p not in now_pairs]
        seen = [p for p in now_pairs if p not in self.reported]
        self.reported = now_pairs
        events = [("card_gone", {"zone": zone, "card": card}) for card, zone in sorted(gone)]
        events += [("card_seen", {"zone": zone, "card": card}) for card, zone in sorted(seen)]
        return events
