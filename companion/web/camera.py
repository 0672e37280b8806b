"""The dashboard's calibration page: a live preview of the camera with markers, zones and codes.

- ``GET /calibration``: the page (web/templates/calibration.html, web/static/calibration.js).
- ``GET /api/camera/preview.jpg``: the newest frame with the overlay, at most every
  ``PREVIEW_INTERVAL_S`` seconds whoever asks (tablets share one cached image), encoded in the
  request's thread from a frame the pipeline no longer touches: it never slows decoding.
- ``GET /api/camera/calibration``: calibration state, zones (mat mm) and the markers found.
- ``POST /api/camera/recalibrate``: forget the calibration and look for the markers again
  (needs the table PIN).
"""
from __future__ import annotations

import threading
import time

from flask import Blueprint, Response, current_app, jsonify, render_template

from companion.web.app import require_pin

from companion.scan import preview

bp = Blueprint("scan", __name__)

PREVIEW_INTERVAL_S = 0.5


class _PreviewCache:
    """One encoded preview shared by every viewer, renewed at most every PREVIEW_INTERVAL_S of
    ``clock`` (a test moves its own)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.lock = threading.Lock()
        self.data: bytes | None = None
        self.at = 0.0
        self.pipeline_id = None

    def get(self, pipeline) -> bytes | None:
        with self.lock:
            fresh = self.clock() - self.at < PREVIEW_INTERVAL_S and self.pipeline_id == id(pipeline)
            if self.data is not None and fresh:
                return self.data
            frame, seen, calibration, zones = pipeline.snapshot()
            if frame is None:
                return None
            self.data = preview.jpeg(preview.draw(frame, seen, calibration, zones))
            self.at, self.pipeline_id = self.clock(), id(pipeline)
            return self.data


_cache = _PreviewCache()


def _pipeline():
    return getattr(current_app.config["SERVICE"], "pipeline", None)


@bp.get("/calibration")
def calibration_page():
    return render_template("calibration.html", page="calibration")


@bp.get("/api/camera/preview.jpg")
def camera_preview():
    pipeline = _pipeline()
    if pipeline is None:
        return jsonify({"ok": False, "error": "no camera in use (start with --source)"}), 404
    data = _cache.get(pipeline)
    if data is None:
        return jsonify({"ok": False, "error": "the camera has not delivered a frame yet"}), 404
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/camera/calibration")
def camera_calibration():
    pipeline = _pipeline()
    if pipeline is None:
        return jsonify({"ok": False, "error": "no camera in use (start with --source)"}), 404
    frame, seen, calibration, zones = pipeline.snapshot()
    stats = pipeline.stats()
    return jsonify({
        "ok": True,
        "calibration": calibration.state().as_dict(),
        "markers": {str(i): c.round(1).tolist() for i, c in calibration.last_markers.items()},
        "frame_size": None if frame is None else [int(frame.shape[1]), int(frame.shape[0])],
        "layout": zones.to_json(),
        "codes": [s.as_dict() for s in seen],
        "camera": {k: stats[k] for k in ("source", "state", "last_error", "fps", "decoder", "ms_per_frame",
                                         "cards_tracked", "holding")},
    })


@bp.post("/api/camera/recalibrate")
@require_pin
def camera_recalibrate():
    pipeline = _pipeline()
    if pipeline is None:
        return jsonify({"ok": False, "error": "no camera in use (start with --source)"}), 404
    return jsonify({"ok": True, "detail": pipeline.recalibrate()})
