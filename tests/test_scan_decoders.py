"""The three decoder backends read real tags from the virtual table, with corners in frame pixels."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from card_tags.payload import encode
from companion.scan.decoders import make_decoder
from companion.scan.virtual_camera import Camera, Look
from companion.scan.virtual_table import VirtualTable
from companion.scan.zones import ZoneMap

from .scan_helpers import card


def frame_with(cards, px_per_mm=None, look=None):
    zones = ZoneMap.for_game("bom-battle", 2)
    look_at = zones.slot("seat:1", 0)  # zoomed in on the first card
    table = VirtualTable(960, 540, seed=9, camera=Camera(px_per_mm=px_per_mm, look_at_mm=look_at),
                         look=look or Look(noise_sigma=2))
    for i, ref in enumerate(cards):
        table.place(ref, zones.slot("seat:1", i), 0)
    frame, truth = table.render_with_truth()
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), truth


@pytest.mark.parametrize("name", ["zxing", "pyzbar", "opencv"])
def test_each_backend_reads_a_large_tag_and_places_its_corners(name):
    ref = card("GD500")
    gray, truth = frame_with([ref], px_per_mm=2.2)  # about 5 px per module: every backend's comfort zone
    found = make_decoder(name).decode(gray)
    assert [d.text for d in found] == [encode(ref)]
    centre = truth[0].corners.mean(axis=0)
    assert np.hypot(*(np.array(found[0].center) - centre)) < 4
    assert found[0].corners.shape == (4, 2)


def test_zxing_reports_codes_it_located_but_could_not_read():
    gray, truth = frame_with([card("GD500")], px_per_mm=1.6)
    x0, y0 = truth[0].corners.min(axis=0).astype(int)
    x1, y1 = truth[0].corners.max(axis=0).astype(int)
    # scribble over the data area, leaving the three finder patterns intact
    cy = (y0 + y1) // 2
    gray[cy - 6:cy + 12, x0 + (x1 - x0) // 3:x1 - 2] = 255
    found, misses = make_decoder("zxing").decode_with_misses(gray)
    assert found == [] and len(misses) == 1
    assert np.hypot(*(misses[0].mean(axis=0) - truth[0].corners.mean(axis=0))) < 6


def test_an_unknown_decoder_name_lists_the_choices():
    with pytest.raises(ValueError, match="zxing, pyzbar, opencv"):
        make_decoder("zbar")
