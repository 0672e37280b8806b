"""The watchdog over a frame source (after Frigate's): frames are read in a thread of their own,
which the consumer never waits on for more than a fraction of a second.

A source that raises is *failed*; one that delivers no frame for ``stall_timeout`` seconds (5 by
default) is *stalled*. Either way the reader is abandoned (a read stuck in a driver is released
by closing the source from outside), and the source is reopened after a backoff (0.5 s, 1 s,
2 s... up to 30 s; from 0.5 s again once a reopened source ran for 10 s), while the rest of the
service (the dashboard, the game) runs on. ``state``: opening, running, stalled, failed,
reopening, ended (a file played to its end) or stopped.

``last_error`` is the whole error, for the journal and the PIN-holder; ``last_error_public`` is what
may be shown without the PIN: the source's own errors as they are (they name a device, never a
card), and None for any other (a frame that failed, an event the game refused), whose text may
carry a card the camera read, even one in the covered tray.

``WatchedSource`` is the base of ``pipeline.ScanPipeline``: it calls ``process(frame, now, prepared)``
for the newest frame each time (``prepared``: what ``prepare`` made of it on the reader thread), and
``resume(now)`` on the first frame after (re)opening.
"""
from __future__ import annotations

import collections
import logging
import threading
import time
from abc import ABC, abstractmethod
from typing import Callable

import numpy as np

from companion.scan.sources import EndOfSource, FrameSource, grey

log = logging.getLogger(__name__)


class _Reader(threading.Thread):
    """Opens a source and reads it, keeping only the newest frame, grey (``sources.grey``: the
    conversion runs here, beside the frame thread, not on it), with what ``prepare`` makes of it
    here too (ScanPipeline: the frame's block means). Never waited on for long."""

    def __init__(self, source: FrameSource, prepare: Callable[[np.ndarray], object] | None = None):
        super().__init__(name=f"scan-source {source.name}", daemon=True)
        self.source = source
        self.prepare = prepare
        self.cond = threading.Condition()
        self.frame: np.ndarray | None = None
        self.prepared: object = None
        self.seq = 0
        self.error: BaseException | None = None
        self.abandoned = False
        self.orphaned = False
        self.times: collections.deque[float] = collections.deque(maxlen=30)  # when frames arrived

    def run(self) -> None:
        try:
            self.source.open()
            while not self.abandoned:
                frame = self.source.read()
                if self.abandoned:
                    break
                if frame is None:
                    time.sleep(0.005)
                    continue
                frame = grey(frame)
                prepared = self.prepare(frame) if self.prepare is not None else None
                with self.cond:
                    self.frame, self.prepared, self.seq = frame, prepared, self.seq + 1
                    self.times.append(time.monotonic())
                    self.cond.notify_all()
        except BaseException as exc:  # the watchdog reports it and reopens the source
            with self.cond:
                self.error = exc
                self.cond.notify_all()
        finally:
            if not self.orphaned:
                _quietly(self.source.close)

    def next_frame(self, after_seq: int, timeout: float) -> tuple[np.ndarray | None, object, int, BaseException | None]:
        """The newest frame after ``after_seq`` and what ``prepare`` made of it, its number, or the error."""
        with self.cond:
            self.cond.wait_for(lambda: self.seq != after_seq or self.error is not None, timeout)
            if self.seq != after_seq:
                return self.frame, self.prepared, self.seq, None
            return None, None, self.seq, self.error

    def abandon(self, join_s: float = 1.0) -> None:
        """Stop reading. A reader stuck inside read() is closed from outside and left behind."""
        self.abandoned = True
        self.join(join_s)
        if self.is_alive():
            self.orphaned = True
            closer = threading.Thread(target=_quietly, args=(self.source.close,), daemon=True)
            closer.start()
            closer.join(join_s)


def _quietly(fn) -> None:
    try:
        fn()
    except Exception:  # closing a broken device: nothing more to do
        log.debug("closing a source failed", exc_info=True)


class WatchedSource(ABC):
    """Feeds the newest frame of ``source`` to ``process`` from a thread of its own, and reopens
    the source when it fails or stalls. Subclasses define ``process`` and ``resume``."""

    def __init__(self, source: FrameSource | None, *, stall_timeout: float = 5.0,
                 backoff: tuple[float, float] = (0.5, 30.0), clock: Callable[[], float] = time.monotonic):
        self.source = source
        self.stall_timeout = stall_timeout
        self.backoff = backoff
        self.clock = clock
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: _Reader | None = None
        self._stale: tuple[_Reader | None, int] = (None, 0)  # frames read before skip_frames_read_so_far
        self.state = "stopped"
        self._last_error = ""
        self.last_error_public: str | None = ""
        self.last_error_at: float | None = None
        self.reopens = 0
        self.next_retry_at: float | None = None
        self.started_at: float | None = None     # time.monotonic(), like the frames' arrival times
        self.last_frame_at: float | None = None

    @property
    def last_error(self) -> str:
        return self._last_error

    @last_error.setter
    def last_error(self, message: str) -> None:
        """An error set without saying what of it is public (``_fail`` says) stays off the public panel."""
        self._last_error, self.last_error_public = message, ("" if not message else None)

    @abstractmethod
    def process(self, frame: np.ndarray, now: float | None = None, prepared: object = None):
        """Decode one frame (ScanPipeline: decode, classify, place on the mat, track); ``prepared``:
        what ``prepare`` made of it on the reader thread."""

    def prepare(self, frame: np.ndarray) -> object:
        """What the reader thread works out from each grey frame for ``process`` (beside the frame
        thread, not on it): nothing by default."""
        return None

    def resume(self, now: float) -> None:
        """The first frame after (re)opening the source is about to be processed."""

    def skip_frames_read_so_far(self) -> None:
        """Process none of the frames already read (nor the one being read): they show the
        table as it was before a change the caller has just made. Call with ``_lock`` held."""
        reader = self._reader
        self._stale = (reader, reader.seq + 1) if reader is not None else (None, 0)

    def start(self) -> None:
        if self._thread and self._thread.is_alive():
            return
        self._stop.clear()
        self.started_at = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="scan-pipeline", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout)
        self.state = "stopped"

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            self._set_state("opening" if self.reopens == 0 and failures == 0 else "reopening")
            reader = _Reader(self.source, self.prepare)
            self._reader = reader
            reader.start()
            outcome, ran_for = self._consume(reader)
            reader.abandon()
            if outcome in ("stopped", "ended"):
                break
            failures = 0 if ran_for > 10.0 else failures + 1
            delay = min(self.backoff[0] * 2 ** max(failures - 1, 0), self.backoff[1])
            self.next_retry_at = self.clock() + delay
            self._stop.wait(delay)
            self.next_retry_at = None
            if not self._stop.is_set():
                self.reopens += 1
                self._set_state("reopening")
        if self.state not in ("ended",):
            self._set_state("stopped")

    def _consume(self, reader: _Reader) -> tuple[str, float]:
        """Process frames from one reader until it fails, stalls or the pipeline stops."""
        started = last_frame = self.clock()
        seq, got_any = 0, False
        while not self._stop.is_set():
            frame, prepared, seq, error = reader.next_frame(seq, timeout=0.2)
            now = self.clock()
            if frame is not None:
                if not got_any:
                    got_any = True
                    self.resume(now)
                    self._set_state("running")
                last_frame = now
                if self._stale[0] is reader and seq <= self._stale[1]:
                    continue
                try:
                    self.process(frame, now, prepared)
                except Exception as exc:  # a bad frame must not kill the camera thread
                    log.exception("processing a frame failed")
                    self._fail(f"processing a frame: {exc!r}", public=f"processing a frame failed ({type(exc).__name__})")
                continue
            if isinstance(error, EndOfSource):
                self._set_state("ended")
                self._last_error = self.last_error_public = str(error)  # a file played to its end: no failure
                return "ended", now - started
            if error is not None:
                message = f"{type(error).__name__}: {error}"
                self._fail(message, "failed", public=message)
                return "failed", now - started
            if now - last_frame > self.stall_timeout:
                waited = now - last_frame
                message = f"no frame from {self.source.name} for {waited:.1f} s"
                self._fail(message, "stalled", public=message)
                return "stalled", now - started
        return "stopped", self.clock() - started

    def delivery(self) -> dict:
        """What the source actually delivers: frames per second (over its last 30 frames) and
        seconds since its last frame, or since the start when none came yet."""
        reader = self._reader
        times = list(reader.times) if reader is not None else []
        if times:
            self.last_frame_at = max(self.last_frame_at or 0.0, times[-1])
        fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0.0
        since = self.last_frame_at or self.started_at
        age = None if since is None else time.monotonic() - since
        if age is not None and age > 1.5:   # no frame for a while: it delivers none now, whatever before
            fps = 0.0
        return {"delivered_fps": round(fps, 1),
                "last_frame_age_s": None if age is None else round(age, 1),
                "frames_ever": self.last_frame_at is not None}

    def _fail(self, message: str, state: str | None = None, *, public: str | None = None) -> None:
        """Record an error: ``message`` whole (journal, PIN-holder), ``public`` what may be shown to all (None: nothing of it)."""
        with self._lock:
            self._last_error, self.last_error_public = message, public
            self.last_error_at = time.time()
            if state:
                self.state = state
        log.warning("camera: %s", message)

    def _set_state(self, state: str) -> None:
        with self._lock:
            self.state = state
