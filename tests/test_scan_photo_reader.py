"""Reading a still photograph: a code zxing-cpp leaves unread is found by its finder patterns and
read from a rectified crop; a photo read whole costs one read; ZBar's text is the code's text."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import segno

from companion.bench.photo_labels import code_at, read_quads
from companion.bench.scan_photos import load_photo
from companion.scan.decoders import make_decoder
from companion.scan.finders import code_places, finder_patterns
from companion.scan.photo import HALVING_ROWS, PhotoReader, _halved_by_means

BOOFCV = Path(__file__).parent / "data" / "boofcv_photos"


def rendered(text: str, scale: int = 6) -> np.ndarray:
    buf = io.BytesIO()
    segno.make_qr(text, error="m").save(buf, kind="png", scale=scale, border=4)
    return cv2.imdecode(np.frombuffer(buf.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)


def seen_at_an_angle(code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The code on a grey page, photographed from the side: (image, the symbol's true corners)."""
    h, w = code.shape
    border = 4 * 6
    symbol = np.float32([[border, border], [w - border, border], [w - border, h - border], [border, h - border]])
    page = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    seen = np.float32([[120, 90], [520, 140], [500, 470], [140, 430]])
    to_photo = cv2.getPerspectiveTransform(page, seen)
    photo = cv2.warpPerspective(code, to_photo, (640, 560), borderValue=170)
    return photo, cv2.perspectiveTransform(symbol.reshape(-1, 1, 2), to_photo).reshape(4, 2)


def test_three_finder_patterns_outline_a_code_seen_at_an_angle():
    photo, corners = seen_at_an_angle(rendered("https://example.org/finders"))
    quads = code_places(finder_patterns(photo)).quads
    assert len(quads) == 1
    side = np.linalg.norm(corners[1] - corners[0])
    # each corner estimated within a tenth of the code's side (an angle of view bends the square)
    distances = [min(np.linalg.norm(quads[0] - c, axis=1)) for c in corners]
    assert max(distances) < 0.1 * side, distances


def test_a_blurred_photo_zxing_reads_nothing_in_is_read_whole_from_its_finders():
    photo = load_photo(BOOFCV / "blurred-image027.jpg")
    quads = read_quads((BOOFCV / "blurred-image027.txt").read_text())
    zxing = make_decoder("zxing", thorough=True)
    assert [code_at(quads, d.center) for d in zxing.decode(photo)] == []
    reader = PhotoReader(zxing)
    read = sorted(n for n in (code_at(quads, d.center) for d in reader.read(photo)) if n is not None)
    assert read == [0, 1], reader.steps


def test_a_photo_read_whole_by_the_first_read_gets_no_other_look():
    photo, _ = seen_at_an_angle(rendered("TC1:BM:P010:1:J"))
    reader = PhotoReader(make_decoder("zxing", thorough=True))
    assert [d.text for d in reader.read(photo)] == ["TC1:BM:P010:1:J"]
    assert reader.steps == [] and reader.looks == 0


def test_zbar_is_not_imported_for_a_photo_read_whole():
    script = ("import io, sys\n"
              "import cv2, numpy as np, segno\n"
              "from companion.scan.decoders import make_decoder\n"
              "from companion.scan.scanfiles import read_codes\n"
              "buf = io.BytesIO(); segno.make_qr('plain', error='m').save(buf, kind='png', scale=6, border=4)\n"
              "code = cv2.imdecode(np.frombuffer(buf.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)\n"
              "assert [d.text for d, _ in read_codes(code, [make_decoder('zxing', thorough=True)])] == ['plain']\n"
              "print('pyzbar' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parent.parent)
    assert out.stdout.strip() == "False"


def test_zbar_gives_a_chinese_utf8_code_s_text_not_its_shift_jis_mojibake():
    text = "正宗铁观音茶叶 乐品乐茶"
    assert [d.text for d in make_decoder("pyzbar").decode(rendered(text))] == [text]
    assert [d.text for d in make_decoder("pyzbar").decode(rendered("日本語のテキスト"))] == ["日本語のテキスト"]


PHOTO_LIKE = Path(__file__).parent / "data" / "photo_like"


def tags_read(sheet: str) -> tuple[set[str], set[str]]:
    """(the texts printed on a photo-like sheet, the texts the photo reader reads in it)."""
    import json

    printed = set(json.loads((PHOTO_LIKE / "truth.json").read_text())[sheet])
    photo = cv2.imread(str(PHOTO_LIKE / sheet), cv2.IMREAD_GRAYSCALE)
    return printed, {d.text for d in PhotoReader(make_decoder("zxing", thorough=True)).read(photo)}


def test_small_tags_left_unread_beside_read_ones_in_a_small_photo_are_looked_for():
    # a 640 x 480 photo of a sheet at an angle: the first read reads 3 tags of 6 and locates none
    # of the others; their finders (about 13 px) vanish on a 320 px view, so the check for finders
    # left over is made at the scale of the codes read (it used to stop at the 3)
    printed, read = tags_read("sheet06.jpg")
    assert read <= printed
    assert len(read) >= 5, sorted(read)


def test_a_grid_of_tags_is_read_where_the_best_finder_triple_joins_two_codes():
    # sheet13: zxing-cpp reads none of the 6 tags; the right-angled triple of finders with equal
    # arms that fits best takes finders of two neighbouring tags, and the tags' own triples
    # (sharing a finder with it) used to be dropped: 2 read
    printed, read = tags_read("sheet13.jpg")
    assert read <= printed
    assert len(read) >= 4, sorted(read)


def test_a_light_code_on_dark_is_read_though_the_first_read_does_not_invert():
    code = cv2.bitwise_not(rendered("TC1:BM:P011:1:K"))
    reader = PhotoReader(make_decoder("zxing", thorough=True))
    assert [d.text for d in reader.read(code)] == ["TC1:BM:P011:1:K"]
    assert reader.steps == ["inverted"]


def test_a_large_code_under_a_lamp_beside_codes_read_is_looked_for():
    # bright_spots/image005: zxing-cpp reads the two small codes and neither reads nor locates the
    # large one; on the coarse check view the lamp's blown highlights leave its finders too faint
    # for one offset below the local mean, so the photo used to stop at the two codes read
    photo = load_photo(BOOFCV / "bright_spots-image005.jpg")
    quads = read_quads((BOOFCV / "bright_spots-image005.txt").read_text())
    zxing = make_decoder("zxing", thorough=True)
    assert sorted(code_at(quads, d.center) for d in zxing.decode(photo)) == [1, 2]
    reader = PhotoReader(zxing)
    assert sorted(n for n in (code_at(quads, d.center) for d in reader.read(photo)) if n is not None) == [0, 1, 2], reader.steps


def test_lone_pixels_go_and_nothing_else_changes():
    """The finder search's speck remover (for a view left unblurred under a lamp) takes away a dark
    pixel alone among its eight neighbours and a light one alone among its four, and nothing that
    findContours joins to anything: a diagonal step of a thin ring (8-connected) stays, a two-pixel
    speck stays, and the border is cleared as findContours clears it."""
    from companion.scan.finders import without_lone_pixels

    dark = np.zeros((12, 12), np.uint8)
    dark[2, 2] = 255                          # alone: goes
    dark[5, 5] = dark[6, 6] = dark[7, 7] = 255   # a diagonal line: one contour, stays
    dark[2, 8] = dark[2, 9] = 255             # a two-pixel speck: stays
    dark[8:11, 1:4] = 255
    dark[9, 2] = 0                            # a one-pixel hole in a dark square: filled
    dark[0, 5:7] = 255                        # on the border: cleared
    kept = without_lone_pixels(dark)
    expected = dark.copy()
    expected[2, 2], expected[9, 2] = 0, 255
    expected[0, 5:7] = 0
    assert np.array_equal(kept, expected)


def test_the_check_under_a_lamp_finds_the_same_finders_without_its_lone_pixels():
    """bright_spots/image005's check view (blown highlights: equalised, not blurred) thresholded into
    texture: the lone pixels taken away, the finders found are the very same (the large code's, which
    the check exists for)."""
    photo = load_photo(BOOFCV / "bright_spots-image005.jpg")
    view = np.ascontiguousarray(photo[::4, ::4])
    assert np.count_nonzero(view >= 250) > 0.005 * view.size   # the check's test for a lamp
    with_them = finder_patterns(view, (0.02,), equalise=True, offset=10, outlines=True)
    without = finder_patterns(view, (0.02,), equalise=True, offset=10, outlines=True, drop_lone_pixels=True)
    assert len(with_them) >= 3
    assert [f[:3] for f in without] == [f[:3] for f in with_them]
    assert all(np.array_equal(a[3], b[3]) for a, b in zip(without, with_them))


def test_corners_fitted_to_the_finders_outlines_undo_a_steep_angle_of_view():
    code = rendered("https://example.org/steep")
    h, w = code.shape
    symbol = np.float32([[24, 24], [w - 24, 24], [w - 24, h - 24], [24, h - 24]])
    page = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    steep = cv2.getPerspectiveTransform(page, np.float32([[150, 60], [560, 150], [560, 420], [150, 520]]))
    photo = cv2.warpPerspective(code, steep, (700, 600), borderValue=170)
    corners = cv2.perspectiveTransform(symbol.reshape(-1, 1, 2), steep).reshape(4, 2)
    side = np.linalg.norm(corners[1] - corners[0])
    finders = finder_patterns(photo, outlines=True)
    places = code_places(finders)
    centres, fitted = places.quads, places.fitted
    assert len(centres) == 1 and fitted

    def worst(quad):
        return max(min(np.linalg.norm(quad - c, axis=1)) for c in corners)

    # corners from the finders' centres are an affine guess: off by more than a module here
    assert worst(fitted[0]) < 0.03 * side < worst(centres[0]), (worst(fitted[0]), worst(centres[0]), side)


def test_a_code_seen_so_steeply_that_another_finder_looks_like_the_corner_is_read():
    # perspective/image029: the three finders are found, but the angle and arms at a side finder
    # look more like a code's corner than those at the corner finder: the corners from that
    # triple miss the code by two thirds of its side. A fit through the finders' outlines with
    # the true corner finder places it (zxing-cpp reads nothing in this photo)
    photo = load_photo(BOOFCV / "perspective-image029.jpg")
    quads = read_quads((BOOFCV / "perspective-image029.txt").read_text())
    zxing = make_decoder("zxing", thorough=True)
    assert zxing.decode(photo) == []
    reader = PhotoReader(zxing)
    assert [code_at(quads, d.center) for d in reader.read(photo)] == [0], reader.steps


def test_a_code_under_glare_with_two_finders_found_is_read_from_the_code_they_are_corners_of():
    # glare/image039: zxing-cpp reads nothing; the finder search finds two of the code's three
    # finders. The square around them is twice the code and keeps its angle (read by no reader);
    # the code on one side of them, rectified, is read
    photo = load_photo(BOOFCV / "glare-image039.jpg")
    quads = read_quads((BOOFCV / "glare-image039.txt").read_text())
    zxing = make_decoder("zxing", thorough=True)
    assert zxing.decode(photo) == []
    reader = PhotoReader(zxing)
    assert [code_at(quads, d.center) for d in reader.read(photo)] == [0], reader.steps


def test_finders_squashed_by_a_steep_angle_still_count_as_finders():
    # perspective/image031: two of the code's finders are three times taller than wide on the
    # photo; the search took only finders at most 2.5 times, found one, and read nothing
    photo = load_photo(BOOFCV / "perspective-image031.jpg")
    quads = read_quads((BOOFCV / "perspective-image031.txt").read_text())
    inside = [f for f in finder_patterns(photo) if cv2.pointPolygonTest(quads[0].reshape(-1, 1, 2), f[:2], False) >= 0]
    assert len(inside) == 3
    zxing = make_decoder("zxing", thorough=True)
    assert zxing.decode(photo) == []
    reader = PhotoReader(zxing)
    assert [code_at(quads, d.center) for d in reader.read(photo)] == [0], reader.steps


def test_a_blurred_code_is_read_rectified_and_equalised_with_the_local_binariser():
    # a crop of blurred/image021 around its code 2 (halved): zxing-cpp reads nothing; of the photo
    # reader's crops only the rectified one at 300 px, equalised, thresholded locally reads it
    photo = load_photo(BOOFCV / "blurred-image021-code2.jpg")
    quads = read_quads((BOOFCV / "blurred-image021-code2.txt").read_text())
    zxing = make_decoder("zxing", thorough=True)
    assert zxing.decode(photo) == []
    reader = PhotoReader(zxing)
    assert [code_at(quads, d.center) for d in reader.read(photo)] == [0], reader.steps


def test_two_finders_in_different_codes_still_outline_a_square_to_look_in():
    # two codes' worth of finders side by side: each triple makes a code, and a finder of each
    # (which a wrong triple may have taken from a third code) still gives the square between them
    left = [(100.0, 100.0, 30.0), (200.0, 100.0, 30.0), (100.0, 200.0, 30.0)]
    right = [(400.0, 100.0, 30.0), (500.0, 100.0, 30.0), (400.0, 200.0, 30.0)]
    places = code_places(left + right)
    assert len(places.quads) == 2 and places.squares == []
    centres = [tuple(np.round(s.mean(axis=0))) for s in places.across]
    assert (300.0, 100.0) in centres   # between the left code's right finder and the right code's corner finder


def test_a_small_tag_beside_a_large_code_in_a_large_photo_is_read_too():
    # a 12-megapixel photo is read first halved; a tag at 3 px a module (1.5 on the halved
    # photo) beside a large code must not be taken as read whole from the large code alone
    photo = np.full((3024, 4032), 235, np.uint8)
    large, small = rendered("https://example.org/a-large-code", scale=40), rendered("TC1:BM:P010:1:J", scale=3)
    photo[300:300 + large.shape[0], 300:300 + large.shape[1]] = large
    photo[2000:2000 + small.shape[0], 3000:3000 + small.shape[1]] = small
    photo = cv2.GaussianBlur(photo, (3, 3), 0.8)
    read = {d.text for d in PhotoReader(make_decoder("zxing", thorough=True)).read(photo)}
    assert read == {"https://example.org/a-large-code", "TC1:BM:P010:1:J"}


def test_the_quick_read_halves_a_photo_by_its_two_by_two_means_with_no_seam_between_strips():
    # halved a strip of rows at a time (for the cache): every pixel of the half is still the mean of
    # its 2 x 2 pixels, rounded, across each strip's edge and in a short last strip; an odd last row
    # and column have no pair and are left out
    rows, cols = 2 * HALVING_ROWS + 101, 777
    photo = np.random.default_rng(3).integers(0, 256, (rows, cols), dtype=np.uint8)
    half = _halved_by_means(photo)
    pairs = photo[:rows // 2 * 2, :cols // 2 * 2].astype(np.int32).reshape(rows // 2, 2, cols // 2, 2)
    means = pairs.sum(axis=(1, 3)) / 4
    assert half.shape == (rows // 2, cols // 2)
    assert np.abs(half - means).max() <= 0.5


def dim_photo_of_three_codes() -> tuple[np.ndarray, list[str]]:
    """A 12-megapixel photo of three codes on a sheet in a dark room (like BoofCV's
    brightness/image007): the paper at 35 of 255, the ink at 8, a little blur and sensor noise."""
    texts = ["https://example.org/left", "https://example.org/top-right", "https://example.org/bottom-right"]
    photo = np.full((3024, 4032), 230, np.uint8)
    for text, (y, x) in zip(texts, [(1500, 700), (1500, 1900), (2300, 1900)]):
        code = rendered(text, scale=16)
        photo[y:y + code.shape[0], x:x + code.shape[1]] = code
    photo = 8 + cv2.GaussianBlur(photo, (0, 0), 2.0).astype(np.float32) * (27 / 230)
    photo += np.random.default_rng(7).normal(0, 1.5, photo.shape)
    return np.clip(photo, 0, 255).astype(np.uint8), texts


def test_the_check_finds_a_code_left_unread_in_a_dim_photo():
    # the check's dark means "this much darker than around it", in grey levels: in a dark room a
    # finder's rings and the paper between them are fewer levels apart than that, so the check
    # saw no finders of the third code, and the photo stopped at the two codes read halved
    photo, texts = dim_photo_of_three_codes()
    zxing = make_decoder("zxing", thorough=True)
    read = zxing.decode(photo)
    assert sorted(d.text for d in read) == sorted(texts)
    two = [d for d in read if d.text != texts[2]]
    assert PhotoReader._finders_left(photo, two)
    assert not PhotoReader._finders_left(photo, read)
    # ...and from the photo halved by means, as the quick read hands it over
    halved = _halved_by_means(photo)
    assert PhotoReader._finders_left(photo, two, halved=halved)
    assert not PhotoReader._finders_left(photo, read, halved=halved)
