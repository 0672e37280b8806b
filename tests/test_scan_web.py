"""The calibration page: a rate-limited live preview with markers, zones and codes drawn over it,
the calibration state as JSON, and a recalibration that needs the table PIN."""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.web.app import create_app
from companion.web import camera as web

from .scan_helpers import Table, card
from .timing import ManualClock

PIN = "4321"


@pytest.fixture
def table():
    t = Table(seats=2, width=960, height=540)
    t.put(card("GD500"), "seat:1")
    t.table.place_code("https://ex.co", t.zones.slot("seat:2", 0), 0)
    t.frames(3)
    return t


def client_for(pipeline, clock=None):
    web._cache.__init__(clock or ManualClock())  # no preview left over from another test
    app = create_app(SimpleNamespace(pipeline=pipeline, pin=PIN))
    client = app.test_client()
    client.environ_base["HTTP_X_TABLE_PIN"] = PIN  # the camera's preview and codes need the PIN
    return client


def test_the_preview_shows_the_frame_with_markers_and_codes_drawn(table):
    reply = client_for(table.pipeline).get("/api/camera/preview.jpg")
    assert reply.status_code == 200 and reply.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(reply.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (540, 960)
    green = np.all(np.abs(image.astype(int) - (80, 220, 80)) < 40, axis=2)
    for corners in table.pipeline.calibration.last_markers.values():  # each marker outlined in green
        x0, y0 = corners.min(axis=0).astype(int) - 3
        x1, y1 = corners.max(axis=0).astype(int) + 3
        assert green[y0:y1, x0:x1].sum() > 20


def test_the_preview_is_rate_limited_whoever_asks(table):
    clock = ManualClock()
    client = client_for(table.pipeline, clock)
    first = client.get("/api/camera/preview.jpg").data
    table.table.remove(card("GD500"))
    table.frames(2)
    clock.advance(web.PREVIEW_INTERVAL_S - 0.05)
    assert client.get("/api/camera/preview.jpg").data == first  # within the interval: the same image
    clock.advance(0.1)
    assert client.get("/api/camera/preview.jpg").data != first


def test_the_calibration_state_lists_markers_zones_and_codes(table):
    state = client_for(table.pipeline).get("/api/camera/calibration").get_json()
    assert state["calibration"]["status"] == "calibrated"
    assert sorted(state["markers"]) == ["0", "1", "2", "3"]
    assert {z["name"] for z in state["layout"]["zones"]} == {"seat:1", "seat:2", "tray"}
    kinds = sorted((c["kind"], c["card"], c["zone"]) for c in state["codes"])
    assert kinds == [("card", "GD500#1", "seat:1"), ("foreign", None, None)]


def test_recalibrating_needs_the_pin_and_then_looks_for_the_markers_again(table):
    client = client_for(table.pipeline)
    refused = client.post("/api/camera/recalibrate", json={}, headers={"X-Table-PIN": ""})
    assert refused.status_code == 403 and "PIN" in refused.get_json()["error"]
    assert table.pipeline.calibration.ready  # nothing changed
    done = client.post("/api/camera/recalibrate", json={}, headers={"X-Table-PIN": PIN})
    assert done.get_json()["ok"] and not table.pipeline.calibration.ready
    table.frames(1)
    assert table.pipeline.calibration.ready


def test_without_a_camera_the_page_says_so():
    client = client_for(None)
    assert client.get("/api/camera/preview.jpg").status_code == 404
    assert "no camera" in client.get("/api/camera/calibration").get_json()["error"]
    page = client.get("/calibration")
    assert page.status_code == 200 and b"Camera calibration" in page.data
