"""Connecting the table's hardware to the service: the camera's pipeline lays its zones out for
the game in play, and every card it sees or loses becomes an input of that game."""
from __future__ import annotations

from .service import Service


def zones_for(service: Service):
    from .scan.zones import ZoneMap

    session = service.session
    if session is None:
        return ZoneMap.for_game("bom-battle", 3)
    return ZoneMap.for_game(session.derived.start["game"], len(session.derived.start["seats"]))


def current_game(service: Service) -> str:
    return service.session.derived.start["game"] if service.session else "bom-battle"


def attach_camera(service: Service, source_spec, decoder: str = "zxing", **pipeline_options):
    """Open the camera (or a file, or the virtual table) and feed what it sees to the game.
    ``pipeline_options`` go to ScanPipeline (watchdog timeout, backoff, tracker settings)."""
    from .scan.pipeline import ScanPipeline
    from .scan.sources import open_source

    source = source_spec if hasattr(source_spec, "read") else open_source(source_spec)
    laid_out = {"game_id": service.session.game_id if service.session else None}

    def on_event(kind, data):
        # From the new game's start until the camera has its zones, what it reports is the old
        # game's table (the old layout's zones): never the new game's input.
        session = service.session
        if session is not None and session.game_id != laid_out["game_id"]:
            return None
        return service.table_input(kind, data, "camera")

    pipeline = ScanPipeline(source, decoder, zones_for(service), current_game(service), on_event=on_event,
                            **pipeline_options)
    service.pipeline = pipeline

    def relayout(session):
        pipeline.set_layout(zones_for(service), current_game(service))
        laid_out["game_id"] = session.game_id

    service.on_new_game(relayout)
    pipeline.start()
    return pipeline
