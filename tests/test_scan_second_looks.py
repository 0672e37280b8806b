"""Second looks on a still table: a place where a code's texture stays is never given up, and
its pixels are averaged over the frames in which it stays still."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from card_tags.payload import CardRef
from companion.scan.decoders import Detection, make_decoder
from companion.scan.incremental import IncrementalDecoder, _known_of
from companion.bench.scan_scenes import Scene, scene_seed, build_table
from companion.scan.boxes import box_around, contains
from companion.scan.rescue import CALL_COST, Ladder, Place, _deconvolved, _sharpened, parts, pixel_weight, rung_cost
from companion.scan.texture import code_patches
from companion.scan.virtual_camera import Camera, Look
from companion.scan.virtual_cards import TAG_MM
from companion.scan.virtual_table import VirtualTable


# these tests count frames a place needs, with no limit on what a look may spend
NO_TIME_BUDGET = dict(look_share=float("inf"), look_floor_px=float("inf"), slow_share=float("inf"), slow_savings=float("inf"))


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
    decoder = IncrementalDecoder(make_decoder("zxing"), **NO_TIME_BUDGET)
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


def small_blurred_tag():
    """One card whose tag is 2.0 px a module, defocused by 1.3 px: below what zxing reads."""
    table = VirtualTable(640, 360, seed=4, camera=Camera(px_per_mm=2.0 * 21 / TAG_MM, look_at_mm=(450, 300)),
                         look=Look(blur_sigma=1.3, noise_sigma=1.0, vignette=0.0), markers=False)
    table.place(CardRef("bom-battle", "GD100", 1), (450, 300), 20)
    frame, truth = table.render_with_truth()
    (tag,) = truth
    x0, y0 = np.floor(tag.corners.min(axis=0) - 12).astype(int)
    x1, y1 = np.ceil(tag.corners.max(axis=0) + 12).astype(int)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)[y0:y1, x0:x1], tag


def test_a_defocused_small_tag_is_read_once_its_blur_is_divided_out():
    """At 2 px a module with 1.3 px of defocus, neither the crop nor its sharpened 2x copy
    reads; the Wiener filter for that defocus restores the modules and the tag reads."""
    crop, tag = small_blurred_tag()
    assert 1.8 <= tag.px_per_module <= 2.2
    zxing = make_decoder("zxing")
    assert zxing.decode(crop) == []
    assert zxing.decode(_sharpened(crop, 2.0)) == []
    assert [d.text for d in zxing.decode(_deconvolved(crop, 1.3))] == [tag.text]


@pytest.mark.parametrize("condition", ["blur", "tilt 35"])
def test_a_still_table_of_small_tags_is_read_whole_within_a_second(condition):
    """The bench's hardest still tables: 20 cards at 2.0 px a module on a 1080p frame, many side
    by side (a place joining several codes), defocused by 1.3 px, or seen at a 35 degree tilt (the
    far tags about 1.5 px a module). Without a time budget, every readable tag is read within 30
    frames (a second), and no tag is read that is not there."""
    scene = Scene(1920, 1080, 20, condition, 2.0, scene_seed(1, 1920, 20, condition, 2.0))
    table, _, _ = build_table(scene)
    decoder = IncrementalDecoder(make_decoder("zxing"), **NO_TIME_BUDGET)
    read: set[str] = set()
    for _ in range(30):
        frame, truth = table.render_with_truth()
        read |= {d.text for d in decoder.decode(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))}
    readable = {t.text for t in truth if t.readable}
    assert len(readable) >= 18
    assert readable <= read                       # every readable tag (a partly covered one may read too)
    assert read <= {t.text for t in truth}        # nothing that is not on the table


def test_the_camera_s_defocus_is_learned_from_what_read_and_tried_first():
    """A camera has one focus: once a tag was read deconvolved for some defocus, a still
    place's next looks try that defocus before the others."""
    ladder = Ladder(make_decoder("zxing"))

    def sigmas_in_order():
        return [name.split()[2] for name, *_ in ladder._camera_defocus_first(ladder.rungs() + ladder.splitting_deconvolved())
                if name.startswith("zxing deconvolved")]

    assert sigmas_in_order()[:2] == ["1.0", "0.7"]            # the ladder's own order, before any read
    ladder.reads_by_rung = {"zxing deconvolved 1.3 2x": 2}    # a blurred camera: 1.3 px read twice
    assert sigmas_in_order()[:2] == ["1.3", "1.3"]
    crop, _ = small_blurred_tag()
    got, _ = ladder.look(crop, (0, 0), slow=True)             # so a still place's look reads by it first
    assert got and ladder.reads_by_rung["zxing deconvolved 1.3"] == 1


def two_cards_side_by_side():
    """Two cards side by side on the dark mat, tags at 3 px a module, sharp: the frame, and each
    tag as zxing reads it (left first)."""
    table = VirtualTable(640, 360, seed=5, camera=Camera(tilt_deg=0.0, roll_deg=0.0, px_per_mm=3.0 * 21 / TAG_MM,
                                                        look_at_mm=(450, 300)),
                         look=Look(noise_sigma=1.0, vignette=0.0), markers=False)
    table.place(CardRef("bom-battle", "GD100", 1), (415, 300))
    table.place(CardRef("bom-battle", "GD101", 1), (485, 300))
    gray = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
    left, right = sorted(make_decoder("zxing").decode(gray), key=lambda d: d.center[0])
    return gray, left, right


@pytest.mark.parametrize("per_block", [False, True], ids=["per pixel (photos)", "per block (a live table)"])
def test_a_code_s_fine_texture_is_found_and_a_card_s_outline_is_not(per_block):
    """With the left tag read, what is left of a code's texture in the pixels around both
    cards is the right tag, and only it: the cards' outlines on the dark mat (as textured as a
    code on the small copy of the frame) are edges running one way, not a code's corners. So
    with the texture taken per pixel (a photo's) and per block (a live table's, a sixth of the CPU)."""
    gray, left, right = two_cards_side_by_side()
    (patch,) = code_patches(gray, 8, left.side_px(), [left], (0, 0), per_block=per_block)
    x0, y0, x1, y1 = box_around(right.corners, 0)
    px0, py0, px1, py1 = patch
    assert px0 <= x0 + 8 and py0 <= y0 + 8 and px1 >= x1 - 8 and py1 >= y1 - 8   # the right tag, whole (to a block)
    # and not its card around it: the card reaches 0.6 of a tag below the tag (its label)
    margin = 0.4 * right.side_px()
    assert x0 - margin <= px0 and y0 - margin <= py0 and px1 <= x1 + margin and py1 <= y1 + margin
    assert code_patches(gray, 8, left.side_px(), [left, right], (0, 0), per_block=per_block) == []   # both read: nothing left


def test_a_place_joining_several_codes_narrows_to_what_is_left_unread():
    """The two cards make one place. Once the left tag is read, the place becomes a place about
    the right one only; once that is read too, no place is left: a table whose codes are all
    read (their cards' outlines included) is not looked at again."""
    gray, left, right = two_cards_side_by_side()
    decoder = IncrementalDecoder(make_decoder("zxing"), **NO_TIME_BUDGET)
    decoder._places = [Place(box_around(np.vstack([left.corners, right.corners]), 40))]
    decoder._remember(_known_of([left]), replaced=[])
    decoder._narrow_places(gray)
    (place,) = decoder._places
    assert contains(place.box, box_around(right.corners, 0))
    assert place.box[0] > left.center[0]                       # half a tag around it: not the left tag
    decoder._remember(_known_of([right]), replaced=[])
    decoder._narrow_places(gray)
    assert decoder._places == []


def test_a_dear_look_at_a_large_place_runs_part_by_part_over_frames_and_still_reads_its_code():
    """A deconvolution at 3x of a large place costs more than a frame's budget (issue 32: one
    such rung made a 35-55 ms frame). It runs on the place's parts instead, one frame's budget
    at a time, each part holding any code whole, and reads the tag in the far corner."""
    crop, tag = small_blurred_tag()
    place = np.full((360, 360), int(np.median(crop)), np.uint8)
    place[360 - crop.shape[0]:, 360 - crop.shape[1]:] = crop      # the tag in the bottom-right corner
    ladder = Ladder(make_decoder("zxing"))
    ladder.learn_order = True
    ladder.reads_by_rung = {"zxing deconvolved 1.3": 3}        # what reads on this (blurred) camera
    budget = rung_cost("zxing deconvolved 1.3", 360 * 360, 3.0) / 6   # weighted pixels: a sixth of the whole place's rung
    rung = piece = frames = 0
    got: list = []
    while not got and frames < 20:
        got, rung = ladder.look(place, (100, 50), rung, budget, piece=piece, piece_cost=budget,
                                code_px=21 * tag.px_per_module, learned=True, must=True)
        piece, frames = ladder.next_piece, frames + 1
        assert ladder.spent <= budget
    assert [d.text for d in got] == [tag.text]
    assert frames > 1                                              # spread over frames, not all at once
    corners = got[0].corners - np.array([100 + 360 - crop.shape[1], 50 + 360 - crop.shape[0]])
    assert np.abs(corners - (tag.corners - tag.corners.min(axis=0) + 12)).max() < 3   # where it lies


def test_each_call_of_a_rung_counts_its_fixed_cost_so_a_small_place_climbs_no_further_than_its_budget():
    """A rung's call costs about 0.1 ms whatever its crop's size (issue 32: a tilted table's far
    places, 26 px across, climbed rungs at 0.2-0.3 ms a call that their pixels hardly counted, and a
    share's looks ran to 6-8 ms). A budget that the whole ladder's pixels fit in, on a small crop
    that nothing reads, runs only the rungs whose calls fit in it too."""
    crop, _ = small_blurred_tag()
    small = np.ascontiguousarray(cv2.resize(crop, (26, 26), interpolation=cv2.INTER_AREA))
    ladder = Ladder(make_decoder("zxing"), use_pyzbar=False)
    ladder.learn_order = True
    rungs = ladder._ordered_rungs(False, False, False)
    budget = sum(small.size * pixel_weight(name, scale) for name, scale, _, _ in rungs)
    got, _ = ladder.look(small, (0, 0), 0, budget)
    assert got == []
    assert ladder.spent <= budget
    assert ladder.ran * CALL_COST <= ladder.spent
    assert ladder.ran < len(rungs)


def test_every_code_lies_whole_in_one_part_of_a_place_cut_for_a_dear_rung():
    code = 60
    cuts = parts(300, 500, 150 * 150, code)
    assert len(cuts) > 1 and all((x1 - x0) * (y1 - y0) <= 150 * 150 for x0, y0, x1, y1 in cuts)
    for x in range(0, 500 - code + 1, 7):
        for y in range(0, 300 - code + 1, 7):
            assert any(contains(c, (x, y, x + code, y + code)) for c in cuts), (x, y)
    assert parts(300, 500, None, code) == [(0, 0, 500, 300)]


def test_moving_one_card_leaves_its_blurred_neighbours_read():
    """A defocused table whose tags only second looks read (1080p, 20 cards at 2.0 px a module):
    once all are read, one card is moved. The frame it moves in decodes the region around it
    again, where a plain decode reads none of the blurred neighbours; they lay still, so they
    stay read (a card unread for a frame holds up the settle, which needs every card read)."""
    from companion.bench.scan_scenes import random_layout_one
    from companion.scan.pipeline import ScanPipeline

    scene = Scene(1920, 1080, 20, "blur", 2.0, scene_seed(1, 1920, 20, "blur", 2.0))
    table, layout, rng = build_table(scene)
    decoder = ScanPipeline(None, "zxing").decoder   # the live pipeline's, its looks on the worker thread
    for _ in range(12):
        read = {d.text for d in decoder.decode(cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY))}
    assert len(read) == 20
    ref, _, _ = layout[0]
    table.remove(ref)
    _, xy, angle = random_layout_one(table, layout[1:], ref, rng)
    table.place(ref, xy, angle)
    moved = table.payloads.get(ref) or next(t for t in read if ref.card in t)
    after = {d.text for d in decoder.decode(cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY))}
    assert decoder.stats.last_dirty_fraction < 0.45            # a region around the card was decoded, not the frame
    assert after >= read - {moved}


def test_a_place_smaller_than_a_code_first_climbs_only_the_rungs_that_read_on_this_camera():
    """A live table whose tags have been read by the 2x sharpened rung: a speck two thirds of a
    code wide (no code in it) is looked at by that rung alone, where a code-sized place's first
    look climbs the whole ladder, and a photo's small place too."""
    def first_look(size: int, photo: bool = False) -> int:
        gray = np.full((360, 640), 200, np.uint8)
        rng = np.random.default_rng(7)
        gray[100:100 + size, 300:300 + size] = rng.integers(0, 256, (size, size), dtype=np.uint8)   # texture, no code
        decoder = IncrementalDecoder(make_decoder("zxing"), photo=photo, **NO_TIME_BUDGET)
        decoder.ladder.reads_by_rung = {"zxing 2x sharpened": 5}
        corners = np.array([[20, 20], [72, 20], [72, 72], [20, 72]], dtype=np.float32)     # a code read, 52 px
        decoder._remember(_known_of([Detection("BCP1:GD100#1", corners)]), replaced=[])
        decoder._places = [Place((300, 100, 300 + size, 100 + size))]
        decoder._look_again(gray)
        return decoder.ladder.ran

    assert first_look(36) == 1                 # 0.7 of a code: the rung that reads on this camera
    assert first_look(60) > 5                  # a code-sized place: the whole ladder
    assert first_look(36, photo=True) > 5      # a photo's codes come in every size


def test_the_blocks_texture_from_16_bit_gradients_is_the_float_gradients_to_the_last_bit():
    """The narrowing's texture per block is taken from 16-bit gradients (exact for 8-bit
    pixels): the same values as from float gradients, on a blurred table's crop and on noise."""
    from companion.scan.texture import _block_min_eigen

    def from_floats(pixels, cell):
        gx, gy = cv2.Sobel(pixels, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(pixels, cv2.CV_32F, 0, 1, ksize=3)
        size = (pixels.shape[1] // cell, pixels.shape[0] // cell)
        xx, xy, yy = (cv2.resize(cv2.multiply(a, b), size, interpolation=cv2.INTER_AREA) for a, b in ((gx, gx), (gx, gy), (gy, gy)))
        half = (xx - yy) * 0.5
        return (xx + yy) * 0.5 - np.sqrt(half * half + xy * xy)

    crop, _ = small_blurred_tag()
    noise = np.random.default_rng(5).integers(0, 256, (96, 160), dtype=np.uint8)
    extremes = np.kron(np.indices((12, 20)).sum(axis=0) % 2 * 255, np.ones((8, 8))).astype(np.uint8)   # 0/255 blocks
    for pixels in (crop[:crop.shape[0] // 8 * 8, :crop.shape[1] // 8 * 8], noise, extremes):
        assert np.array_equal(_block_min_eigen(np.ascontiguousarray(pixels), 8), from_floats(np.ascontiguousarray(pixels), 8))
