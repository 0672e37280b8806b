"""Second looks on a still table: a place where a code's texture stays is never given up, and
its pixels are averaged over the frames in which it stays still."""
from __future__ import annotations

import cv2
import numpy as np

from card_tags.payload import CardRef
from companion.scan.decoders import make_decoder
from companion.scan.incremental import IncrementalDecoder
from companion.scan.rescue import Place
from companion.scan.virtual_camera import Camera, Look
from companion.scan.virtual_table import VirtualTable


def still_table(damage=None, noise=3.0):
    table = VirtualTable(640, 360, seed=3, camera=Camera(px_per_mm=1.3, look_at_mm=(450, 300)),
                         look=Look(blur_sigma=0.7, noise_sigma=noise, vignette=0.0), markers=False)
    table.place(CardRef("bom-battle", "GD100", 1), (450, 300), 20, damage=damage)
    return table


def test_a_still_place_that_reads_nothing_is_looked_at_again_and_again_ever_more_slowly():
    """A scratched tag (a code's texture, beyond repair) lies still for 90 frames, three
    whole-frame passes included: it is looked at on the first frames, then less and less often,
    but still in the last 30 frames."""
    table = still_table(damage="scratched")
    decoder = IncrementalDecoder(make_decoder("zxing"), look_share=float("inf"), look_floor_ms=float("inf"))
    looks_per_frame = []
    for _ in range(90):
        before = decoder.stats.second_looks
        decoder.decode(cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY))
        looks_per_frame.append(decoder.stats.second_looks - before)
    assert all(n >= 1 for n in looks_per_frame[:4])       # every frame at first
    assert sum(looks_per_frame[30:60]) < 15                # then slower...
    assert sum(looks_per_frame[60:]) >= 1                  # ...but never given up


def test_a_still_place_is_averaged_over_frames_so_its_noise_falls():
    """Ten frames of a still card with heavy sensor noise: the fused place is at least twice as
    close to the noiseless picture as any one frame."""
    table, clean = still_table(noise=9.0), still_table(noise=0.0)
    frames = [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(10)]
    noiseless = cv2.cvtColor(clean.render(), cv2.COLOR_BGR2GRAY).astype(np.float32)
    box = (260, 110, 380, 250)  # the card and its tag
    place = Place(box)
    for f in frames:
        place.add(f, most=16)
    x0, y0, x1, y1 = box
    single_error = np.std(frames[-1][y0:y1, x0:x1].astype(np.float32) - noiseless[y0:y1, x0:x1])
    fused_error = np.std(place.view(frames[-1]).astype(np.float32) - noiseless[y0:y1, x0:x1])
    assert fused_error < single_error / 2
