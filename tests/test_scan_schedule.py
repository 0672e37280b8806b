"""The live pipeline's periodic work is spread over frames: never two heavy jobs on one frame.

A Pi 4 has about 33 ms a frame at 30 fps, about 6 ms of this machine's CPU: a tile of the
whole-frame pass, a marker search and the narrowing of a cold frame's places each fit, two
together do not. The schedule is counted in frames and pixels, never in time, so these checks
count what each frame did rather than time it."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.bench.scan_scenes import Scene, build_table, scene_seed
from companion.scan import calibration
from companion.scan.pipeline import ScanPipeline
from companion.scan.texture import _median
from companion.scan.zones import ZoneMap


def _still_table_frames(monkeypatch, frames: int, relit_at: int | None = None):
    """A still 1080p table of 20 cards through the pipeline: per frame, whether it decoded a tile
    of the whole-frame pass or the whole frame, and how many marker crops it searched."""
    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    table, _, _ = build_table(scene)
    grays = [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(3)]
    table.set_look(replace(table.look, exposure=0.6))   # a lamp switched off (from relit_at on)
    relit = [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(3)]
    crops = []
    near = calibration.detect_markers_near
    monkeypatch.setattr(calibration, "detect_markers_near", lambda gray, expected: crops.append(len(expected)) or near(gray, expected))
    pipeline = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle",
                            homography=np.linalg.inv(table.homography))
    done = []
    for n in range(frames):
        stats = pipeline.decoder.stats
        tiles, whole, cold, searched = stats.tiles, stats.full_decodes, stats.cold_tiles, sum(crops)
        pipeline.process((relit if relit_at is not None and n >= relit_at else grays)[n % 3], now=n / 30)
        done.append({"tile": stats.tiles > tiles, "whole": stats.full_decodes > whole, "sweep": stats.cold_tiles > cold,
                     "marker crops": sum(crops) - searched})
    return pipeline, done


def test_the_marker_check_looks_for_one_marker_a_frame_and_never_on_a_tiles_frame(monkeypatch):
    """Three seconds of a still table: the markers are checked every second (all four found where
    expected: the calibration stays steady), one marker a frame, each on a frame without a tile;
    and the frame after the cold one decodes no tile (it has just read the whole frame)."""
    pipeline, done = _still_table_frames(monkeypatch, 95)
    checks = [n for n, d in enumerate(done) if d["marker crops"]]
    assert all(done[n]["marker crops"] == 1 and not done[n]["tile"] and not done[n]["whole"] for n in checks)
    assert len(checks) == 2 * 4   # at 1 s and 2 s (3 s is the 91st frame on: its check is under way)
    assert checks[0] >= 30
    assert done[0]["whole"] and not done[1]["tile"] and not done[1]["whole"]
    assert sum(d["tile"] for d in done) >= 40   # the sweep itself still runs (one tile every 2 frames)
    assert pipeline.calibration.ready and pipeline.calibration.detail.startswith("steady (4 of 4")


def test_the_service_s_camera_starts_a_tile_a_frame_and_reads_the_table_within_its_first_second(monkeypatch):
    """The service's camera (``spread_start``, wiring.py) starts on a 1080p table of 20 cards: its
    first marker search is spread a tile a frame, and its first frame read as a sweep of tiles, one
    a frame, the sweep waiting on the search's frames, as after a bump (its codes' textured places
    meanwhile read by the looks, on the workers). No frame searches more than one marker tile, none
    decodes more than one sweep tile (never both), nothing is reported before the mat is calibrated,
    and every card is seen within the first second (decoded at once, that first frame cost 12 ms
    here, its search 22-52 more: 100-300 ms on a Pi 4)."""
    from companion.scan.incremental import SWEEP_TILE_PX

    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    table, _, _ = build_table(scene)
    grays = [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(3)]
    at_once = []   # what a pipeline that reads its first frame at once reports (the cards on the zones)
    started = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle", lambda kind, data: at_once.append(data["card"]))
    for n in range(4):
        started.process(grays[n % 3], now=n / 30)
    searched = []
    in_tile = calibration.detect_markers_in_tile
    monkeypatch.setattr(calibration, "detect_markers_in_tile", lambda *a, **k: searched.append(1) or in_tile(*a, **k))
    whole = calibration.detect_markers
    monkeypatch.setattr(calibration, "detect_markers", lambda g, *a, **k: pytest.fail("the whole frame searched at once")
                        if g.shape == (1080, 1920) else whole(g, *a, **k))
    events = []
    pipeline = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle",
                            lambda kind, data: events.append((data["card"], pipeline.calibration.ready)), spread_start=True)
    decoder, done = pipeline.decoder, []
    for n in range(30):
        before, tiles = len(searched), decoder.stats.cold_tiles
        pipeline.process(grays[n % 3], now=n / 30)
        done.append({"marker tiles": len(searched) - before, "sweep tiles": decoder.stats.cold_tiles - tiles,
                     "px": decoder.frame_px, "calibrated": pipeline.calibration.ready})
    assert all(d["marker tiles"] <= 1 and d["sweep tiles"] <= 1 and not (d["marker tiles"] and d["sweep tiles"])
               for d in done)
    assert max(d["px"] for d in done) < 2 * SWEEP_TILE_PX and decoder.stats.full_decodes == 0
    first_search = calibration.search_tiles(1920, 1080, 192, calibration.FIRST_SEARCH_GRID)
    assert next(n for n, d in enumerate(done) if d["calibrated"]) == len(first_search) - 1   # a tile a frame
    assert sorted(card for card, _ in events) == sorted(at_once) and len(at_once) >= 15
    assert all(ready for _, ready in events)
    assert pipeline.calibration.detail.startswith("calibrated from 4 markers")


def test_a_blurred_table_is_read_whole_within_the_camera_s_first_second():
    """A blurred 1080p table of 20 cards when the service's camera starts: the first frame's places
    with a code's texture are noted at once and left to the looks (their budget, on the workers),
    and the sweep's tiles paint them out. Every readable code is known within the first 20 frames,
    where a sweep that handed them to its tiles knew 12 of 20 after its last tile, and spent 10-13
    ms here on a tile of blurred codes zxing-cpp locates and fails."""
    scene = Scene(1920, 1080, 20, "blur", 2.5, scene_seed(1, 1920, 20, "blur", 2.5))
    table, _, _ = build_table(scene)
    frame, truth = table.render_with_truth()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    readable = {t.text for t in truth if t.readable}
    pipeline = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle", spread_start=True)
    decoder = pipeline.decoder
    for n in range(20):
        pipeline.process(gray, now=n / 30)
    known = {d.text for d in decoder.finish_looks()}
    assert len(readable) == 20 and known >= readable and decoder.stats.full_decodes == 0


def test_a_card_slid_across_the_table_puts_off_the_periodic_tile_and_marker_check_never_beside_its_read(monkeypatch):
    """A card slid a few millimetres a frame for half a second, just as the marker check falls due:
    each frame reads the card's changed place (a region, more than LIGHT_FRAME_PX), so the periodic
    pass's tile and the marker check wait for frames that read little, the same tile then, and the
    check still ends with all four markers steady. (Both used to run beside such a read: 5-8 ms.)"""
    from companion.scan.incremental import LIGHT_FRAME_PX

    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    table, layout, _ = build_table(scene)
    ref, (x, y), angle = layout[0]
    crops = []
    near = calibration.detect_markers_near
    monkeypatch.setattr(calibration, "detect_markers_near", lambda gray, expected: crops.append(len(expected)) or near(gray, expected))
    pipeline = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle",
                            homography=np.linalg.inv(table.homography))
    decoder, done = pipeline.decoder, []
    for n in range(70):
        if 28 <= n < 44:
            table.remove(ref)
            table.place(ref, (x + 4.0 * (n - 27), y), angle)
        stats = decoder.stats
        tiles, regions, searched = stats.tiles, stats.regions, sum(crops)
        pipeline.process(cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY), now=n / 30)
        done.append({"tile": stats.tiles > tiles, "region": stats.regions > regions, "px": decoder.frame_px,
                     "marker crops": sum(crops) - searched})
    slid = [n for n in range(29, 45) if done[n]["region"] and done[n]["px"] > LIGHT_FRAME_PX]
    assert len(slid) >= 10   # the card's place read on most frames it moved
    assert not any(done[n]["tile"] or done[n]["marker crops"] for n in slid)
    checks = [n for n, d in enumerate(done) if d["marker crops"]]
    assert len(checks) == 4 and checks[0] > 30 and not any(done[n]["px"] > LIGHT_FRAME_PX for n in checks)
    assert sum(d["tile"] for d in done[45:]) >= 8 and pipeline.calibration.detail.startswith("steady (4 of 4")


def test_when_the_light_changes_the_frame_is_read_again_a_tile_a_frame_and_the_markers_checked_one_a_frame(monkeypatch):
    """A lamp is switched off over a still table: most of the frame changes, so it is read again as
    20 tiles (1080p: 5 x 4), one a frame, and the markers (the camera may have moved) are checked
    from the next frame on, one a frame, the tiles waiting meanwhile: never a marker and a tile on
    one frame (the four markers at once beside a tile: 8-9 ms here)."""
    pipeline, done = _still_table_frames(monkeypatch, 70, relit_at=40)
    assert [d["sweep"] for d in done[39:66]] == [False, True] + [False] * 4 + [True] * 19 + [False, False]
    assert not any(d["whole"] for d in done[1:])
    assert [d["marker crops"] for d in done[40:46]] == [0, 1, 1, 1, 1, 0]
    assert not any(d["marker crops"] and (d["sweep"] or d["tile"]) for d in done)
    assert pipeline.calibration.detail.startswith("steady (4 of 4")
    assert len(pipeline.snapshot()[1]) == 20


def test_no_frame_reads_two_tiles_when_a_sweep_begins_on_a_frame_due_a_tile_of_the_periodic_pass():
    """The periodic whole-frame pass reads a tile every other frame. The camera is knocked on such a
    frame (and on the next, in a second run): its changed places take in most of the frame, and the
    sweep that reads it again begins with its first tile there. The periodic pass's tile waits while
    the sweep is under way (the sweep reads the whole frame anyway): two tiles on one frame cost 8-10
    ms here."""
    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    table, _, _ = build_table(scene)
    gray = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
    bumped = np.full_like(gray, int(np.median(gray)))
    bumped[:, 40:] = gray[:, :-40]
    for knocked in (20, 21):
        decoder = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle").decoder
        both = []
        for n in range(30):
            tiles, cold = decoder.stats.tiles, decoder.stats.cold_tiles
            decoder.decode(gray if n < knocked else bumped)
            both.append(decoder.stats.tiles > tiles and decoder.stats.cold_tiles > cold)
        assert decoder.stats.cold_sweeps == 1 and not any(both)


def test_a_bumped_camera_is_calibrated_again_and_the_rest_of_the_sweep_read_on_that_frame():
    """The camera is knocked 40 px sideways: its changed places take in most of the frame, so it
    is read again as a sweep, from the first frame after the knock (on the frame it moved, a
    place larger than a tile waits until it is still). The periodic marker check (once a second, a marker a frame, the
    sweep's tile waiting on those frames) finds the first marker moved: the whole frame is
    searched, a twelfth a frame, the mat calibrated again once the last twelfth is, and the rest of the
    sweep read on that frame at once, so no code stays where the new calibration would misplace it
    (its card seen to jump zones)."""
    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    table, _, _ = build_table(scene)
    gray = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
    bumped = np.full_like(gray, int(np.median(gray)))
    bumped[:, 40:] = gray[:, :-40]
    pipeline = ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle")
    for n in range(20):
        pipeline.process(gray, now=n / 30)
    zones = {s.text: s.zone for s in pipeline.snapshot()[1]}
    decoder = pipeline.decoder
    pipeline.process(bumped, now=20 / 30)
    assert not decoder.sweeping and decoder.stats.moving_waits == 1   # the frame it moved on: read once still
    pipeline.process(bumped, now=21 / 30)
    assert decoder.sweeping and decoder.stats.last_dirty_fraction < 0.45   # a sweep, not yet a check
    for n in range(22, 50):
        pipeline.process(bumped, now=n / 30)
        if pipeline.calibration.recalibrations:
            break
    assert pipeline.calibration.recalibrations == 1 and n == 42   # the check due at 1 s, then 12 tiles
    assert not decoder.sweeping and not decoder._stale
    assert {s.text: s.zone for s in pipeline.snapshot()[1]} == zones and len(zones) == 20


def test_a_moved_marker_ends_the_check_with_a_search_of_the_whole_frame_a_tile_a_frame(monkeypatch):
    """When the marker checked is not where the calibration expects it (the camera was bumped),
    the check stops there and the whole frame is searched from the next frame, a twelfth of it a
    frame (4 x 3 tiles overlapping by one and a half markers): never the whole frame on one (8-14
    ms here at 1080p). The last tile's frame concludes, from the markers all twelve found."""
    pipeline, _ = _still_table_frames(monkeypatch, 2)
    gray = np.zeros((1080, 1920), np.uint8)     # nothing where the markers were
    searched = []
    monkeypatch.setattr(calibration, "detect_markers", lambda g, *a, **k: searched.append(g.shape) or {})
    steps = [pipeline.calibration.check_step(gray, now=1.0 + n / 30) for n in range(13)]
    assert steps == [False] * 12 + [True]
    assert len(searched) == 13 and (1080, 1920) not in searched   # the marker's crop, then the twelve tiles
    assert all(h * w < 0.2 * 1080 * 1920 for h, w in searched[1:])
    assert pipeline.calibration.detail.startswith("no mat markers in view")


def test_a_search_in_tiles_finds_every_marker_a_search_of_the_whole_frame_finds():
    """Each marker lies whole in one of the tiles whatever its place (the tiles overlap by one and a
    half markers), and each tile is searched as the whole frame would be (downscaled alike, the same
    smallest outline): the markers and their corners are the whole-frame search's."""
    side = 64
    for x, y in ((0, 0), (600, 300), (610, 330), (1280 - 84, 720 - 84), (400, 340)):
        frame = np.full((720, 1280), 200, np.uint8)
        frame[y + 10:y + 10 + side, x + 10:x + 10 + side] = calibration.marker_image(calibration.MARKER_IDS[1], side)
        whole = calibration.detect_markers(frame, min_perimeter_rate=4 * calibration.SEARCH_SMALLEST_SQUARE)
        tiled: dict = {}
        for tile in calibration.search_tiles(1280, 720, 1.3 * side):
            for i, c in calibration.detect_markers_in_tile(frame, tile).items():
                tiled.setdefault(i, c)
        assert set(whole) == set(tiled) == {calibration.MARKER_IDS[1]}
        assert np.allclose(whole[calibration.MARKER_IDS[1]], tiled[calibration.MARKER_IDS[1]], atol=0.5)


def test_the_texture_median_is_numpys():
    rng = np.random.default_rng(11)
    for n in range(300):
        values = rng.normal(0, 50, int(rng.integers(1, 40))).astype(np.float32 if n % 2 else np.float64)
        assert np.isclose(_median(values), float(np.median(values)), rtol=1e-6, atol=0)   # float32: to its precision


def test_one_marker_seen_away_from_where_it_was_is_looked_for_again_before_the_table_holds():
    """A search that finds one of the mat's markers where the calibration does not expect it, with
    too few to calibrate again, may have read a hand or a card's print as one: the next search
    decides. Seen again in the same place, the camera moved and the calibration is stale (every
    event held); not seen again, nothing changes."""
    side = 120
    marker = cv2.copyMakeBorder(calibration.marker_image(calibration.MARKER_IDS[0], side), 30, 30, 30, 30,
                                cv2.BORDER_CONSTANT, value=255)
    frame = np.full((720, 1280), 200, np.uint8)
    frame[300:300 + marker.shape[0], 600:600 + marker.shape[1]] = marker
    empty = np.full((720, 1280), 200, np.uint8)
    given = np.eye(3)   # the markers expected far from where this one lies
    for second in (frame, empty):
        cal = calibration.Calibration(fixed=given)
        cal.update(frame, 0.0)
        assert cal.ready and "looking again" in cal.detail
        cal.update(second, 1.0)
        assert cal.ready == (second is empty)


def test_a_calibrated_search_shrinks_to_its_markers_size_and_still_finds_them_at_half_that(monkeypatch):
    """A camera close over the table (the calibration expects black squares of 200 px) has
    its whole-frame search's tiles shrunk to a quarter (the smallest square expected 50 px there) and
    looks at no outline smaller than 40% of a marker: the detector walked every outline of a hand in a
    tile down to a few pixels (a median 4.1 ms a tile here, 12 at worst, in the close crossings). The
    camera moved back (squares of 100 px, all four in view): the search still finds all four, where
    they are (within 3 px: a pixel of the quarter is 4)."""
    close = np.diag([4.0, 4.0, 1.0])   # mat mm -> frame px: 4 px a mm (a 50 mm square is 200 px)
    calib = calibration.Calibration(fixed=np.linalg.inv(close))
    gray = np.full((1280, 1920), 200, np.uint8)   # (the mat at 2 px a mm: 1,800 x 1,200)
    drawn = {}
    for marker_id, corners in calibration.marker_corners_mm().items():
        x, y = (corners.min(axis=0) * 2.0 + (60, 60)).astype(int)   # 2 px a mm: 100 px squares
        gray[y:y + 100, x:x + 100] = calibration.marker_image(marker_id, 100)
        drawn[marker_id] = (x, y)
    shrunk, smallest = [], []
    plain = calibration.detect_markers

    def recorded(g, max_width=calibration.SEARCH_WIDTH, min_perimeter_rate=0.03, window=None):
        shrunk.append(max_width / g.shape[1])
        smallest.append(min_perimeter_rate * max(g.shape) / 4)   # the smallest square's side it looks at
        return plain(g, max_width, min_perimeter_rate, window)

    monkeypatch.setattr(calibration, "detect_markers", recorded)
    while not calib.search_step(gray, now=1.0):
        pass
    assert max(shrunk) <= 0.26   # a quarter of a side (within rounding)
    assert min(smallest) >= 0.4 * 200 - 1   # no outline under 40% of the squares expected
    assert set(calib.last_markers) == set(drawn)
    for marker_id, (x, y) in drawn.items():
        assert np.allclose(calib.last_markers[marker_id].min(axis=0), (x, y), atol=3)   # a quarter's pixel: 4 px; 1.5 mm


def test_the_calibration_page_never_reads_a_search_half_concluded(monkeypatch):
    """The calibration page reads the calibration's state from the web's threads while the camera's
    thread concludes a search. Read between the markers counted and the mat's homography set, the
    page said "waiting for markers - 4 of 4 markers in view" (a browser test that waits for "4 of 4"
    then saw no "calibrated"). A read during the conclusion waits for it to end and sees it whole."""
    import threading

    from companion.scan.virtual_table import VirtualTable

    gray = cv2.cvtColor(VirtualTable(960, 540, seed=4).render(), cv2.COLOR_BGR2GRAY)
    cal = calibration.Calibration()
    inside, read = threading.Event(), []
    # the reader has got as far as it can: read the state, or waits at the calibration's lock
    # (a condition, not a time: a reader slow to be scheduled holds the test back, never passes it)
    went_as_far_as_it_can = threading.Event()
    reader = threading.Thread(target=lambda: (inside.wait(), read.append(cal.state()), went_as_far_as_it_can.set()))

    class WatchedLock:
        """The calibration's own lock, telling when the reader comes to it."""
        def __init__(self, lock):
            self.lock = lock

        def __enter__(self):
            if threading.current_thread() is reader:
                went_as_far_as_it_can.set()
            return self.lock.__enter__()

        def __exit__(self, *exc):
            return self.lock.__exit__(*exc)

    cal._concluding = WatchedLock(cal._concluding)
    reader.start()
    solve = calibration.homography_from_markers

    def slow_solve(found, mat_mm):
        inside.set()                      # the markers are counted: the page reads now
        went_as_far_as_it_can.wait()
        return solve(found, mat_mm)

    monkeypatch.setattr(calibration, "homography_from_markers", slow_solve)
    cal.update(gray)
    reader.join()
    assert cal.state().status == "calibrated" and cal.state().markers_seen == 4
    assert (read[0].status, read[0].markers_seen) == ("calibrated", 4)


def test_the_first_search_finds_the_markers_of_the_widest_view_the_hardware_guide_lists():
    """hardware.md's widest view (a Camera Module 3 Wide 1 m above the mat: 2,470 mm of table across
    the frame) shows a 50 mm marker 2.0% of the frame's width: 26 px at 1280 x 720, 39 at 1920 x
    1080. The first search, with no calibration to say how large the markers are, finds all four
    there and calibrates, a tile a step."""
    from companion.scan.virtual_camera import Camera
    from companion.scan.virtual_table import VirtualTable

    for w, h in ((1280, 720), (1920, 1080)):
        table = VirtualTable(w, h, seed=3, camera=Camera(tilt_deg=0.0, px_per_mm=w / 2470, look_at_mm=(450, 300)))
        gray = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
        calib = calibration.Calibration()
        steps = 1
        while not calib.search_step(gray, now=1.0):
            steps += 1
        assert steps == len(calibration.search_tiles(w, h, w / 10, calibration.FIRST_SEARCH_GRID))
        assert calib.detail == "calibrated from 4 markers", (w, calib.detail)


def test_the_first_search_does_not_check_the_cards_codes_for_a_marker_s_bits(monkeypatch):
    """Every outline the marker detector takes for a candidate is checked for a marker's bits. With
    OpenCV's smallest (a square 0.75% of the frame's side, 14 px at 1080p) every code's finder
    patterns and the table's grain were candidates: a first search's tile of a 1080p table of 20 cards
    cost up to 6 ms here. Taking only squares of at least 1.2% of the side (the widest view the
    hardware guide lists shows markers of 2.0%), the first search of that table checks under 100
    outlines (214 with OpenCV's smallest, over its 12 tiles then) and finds all four markers."""
    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    table, _, _ = build_table(scene)
    gray = cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY)
    checked = []
    made = calibration._detector

    class Counted:
        def __init__(self, detector):
            self.detector = detector

        def detectMarkers(self, image):   # noqa: N802 (OpenCV's name)
            corners, ids, rejected = self.detector.detectMarkers(image)
            checked.append(len(rejected) + (0 if ids is None else len(ids)))
            return corners, ids, rejected

    monkeypatch.setattr(calibration, "_detector", lambda *a: Counted(made(*a)))
    calib = calibration.Calibration()
    while not calib.search_step(gray, now=1.0):
        pass
    assert calib.detail == "calibrated from 4 markers"
    assert len(checked) == 20 and sum(checked) < 100
