"""Connecting the table's hardware to the service: the camera's pipeline lays its zones out for
the game in play, and every card it sees or loses becomes an input of that game."""
from __future__ import annotations

import logging

from companion.service import Service

log = logging.getLogger(__name__)


def zones_for(service: Service):
    from companion.scan.zones import ZoneMap

    session = service.session
    if session is None:  # no game yet: no zones, so nothing the camera sees is anyone's play
        return ZoneMap([])
    return ZoneMap.for_game(session.derived.start["game"], len(session.derived.start["seats"]))


def current_game(service: Service) -> str:
    """The game in play, or "" before the first game starts (every tag is then another game's)."""
    return service.session.derived.start["game"] if service.session else ""


def attach_camera(service: Service, source_spec, decoder: str = "zxing", size: tuple[int, int] | None = None,
                  **pipeline_options):
    """Open the camera (or a file, or the virtual table) and feed what it sees to the game.
    ``size``: what the camera is asked for (None: the best it offers, sources.best_size).
    ``pipeline_options`` go to ScanPipeline (watchdog timeout, backoff, tracker settings)."""
    import functools

    from companion.scan.pipeline import ScanPipeline
    from companion.scan.sources import open_source

    opener = functools.partial(open_source, size=size)
    source = source_spec if hasattr(source_spec, "read") else _source(source_spec, opener)
    laid_out = {"game_id": service.session.game_id if service.session else None}

    def on_event(kind, data):
        # From the new game's start until the camera has its zones, what it reports is the old
        # game's table (the old layout's zones): never the new game's input.
        session = service.session
        if session is not None and session.game_id != laid_out["game_id"]:
            return None
        return service.table_input(kind, data, "camera")

    def on_events(events):
        # A frame's cards together: the dashboard is told once, with one public view (the same
        # check as on_event's: never the old game's table as the new game's input).
        session = service.session
        if session is not None and session.game_id != laid_out["game_id"]:
            return None
        return service.table_inputs(events, "camera")

    pipeline_options.setdefault("private", getattr(service, "private_tags", None))
    # a live camera: its first marker search and first frame a tile a frame, never a frame over 6 ms
    pipeline_options.setdefault("spread_start", True)
    pipeline = ScanPipeline(source, decoder, zones_for(service), current_game(service), on_event=on_event,
                            on_events=on_events, **pipeline_options)
    service.pipeline = pipeline

    def relayout(session):
        pipeline.set_layout(zones_for(service), current_game(service))
        laid_out["game_id"] = session.game_id

    service.on_new_game(relayout)
    pipeline.start()
    return pipeline


def _source(spec: str, open_source):
    """The camera for ``--source``. One missing at startup (unplugged, a file not there yet) is not
    fatal: it is reported on the devices panel and looked for again with the pipeline's backoff,
    exactly like a camera that fails later."""
    from companion.scan.sources import SourceError

    try:
        return open_source(spec)
    except SourceError as exc:
        log.warning("camera: %s (looked for again with the pipeline's backoff)", exc)
        return LateSource(spec, open_source)


class LateSource:
    """A FrameSource that finds its camera on each ``open`` (the pipeline retries a failed open)."""

    def __init__(self, spec: str, open_source):
        self.spec = spec
        self._open_source = open_source
        self.inner = None
        self.name = spec

    def open(self) -> None:
        if self.inner is None:
            self.inner = self._open_source(self.spec)  # raises SourceError: the watchdog reports it
            self.name = self.inner.name
        self.inner.open()

    def read(self):
        return self.inner.read()

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()

    def describe(self) -> dict:
        if self.inner is not None:
            return self.inner.describe()
        return {"name": self.spec, "kind": "not found yet"}
