"""`companion bench label-photos` turns phone photos of printed tag pages into a scored set: each
photo's truth is every code on the page it shows, from its file name or, failing that, from the
codes read in it; photos it cannot place are named, never guessed.

The "photos" here are renders of the printed pages (photo_like.sheet: the tags on paper, flat),
made unreadable where a test needs it: there is no camera on this machine."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from card_tags import geometry, sheets
from card_tags.catalog import load_game
from card_tags.payload import decode
from companion.cli import main
from companion.bench.scan_figures import photos as score_photos
from companion.bench.photo_labels import pages_in_name
from companion.bench.photo_like import sheet as paper_with


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The Book of Mormon Battle deck printed on card pages: its PDF, SVGs and pages file."""
    out = tmp_path_factory.mktemp("tags")
    sheet = sheets.build(load_game("bom-battle"), "card-63x88", geometry.Camera())
    sheets.write(sheet, out)
    return sheet, out / "bom-battle-card-63x88-pages.json"


def page_photo(texts: list[str], blur: int = 0) -> np.ndarray:
    paper, _ = paper_with(texts, module_mm=1.0, columns=3)
    return cv2.GaussianBlur(paper, (0, 0), blur) if blur else paper


def test_the_pages_file_lists_every_printed_tag_on_its_page(printed):
    sheet, pages_file = printed
    pages = json.loads(pages_file.read_text())["pages"]
    assert len(pages) == len(sheet.pages) > 1
    assert sum(len(p) for p in pages) == sheet.stickers
    assert len({t for p in pages for t in p}) == sheet.stickers  # one code per physical copy
    assert all(decode(t).game == "bom-battle" for p in pages for t in p)


@pytest.mark.parametrize("name, pages", [
    ("p3.jpg", [3]), ("page-2_tilted.jpg", [2]), ("Page7 dim.png", [7]), ("p2+p3.jpg", [2, 3]),
    ("IMG_p12.jpg", [12]), ("IMG_2023.jpg", []), ("top3.jpg", []), ("sharp3.jpg", []),
])
def test_a_page_number_in_the_file_name(name, pages):
    assert pages_in_name(name) == pages


def test_label_photos_by_name_or_by_reads_and_names_the_rest(printed, tmp_path, capsys):
    _, pages_file = printed
    pages = json.loads(pages_file.read_text())["pages"]
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "p2-flat.png"), page_photo(pages[1]))
    cv2.imwrite(str(photos / "IMG_0003.jpg"), page_photo(pages[2]))          # placed by its reads
    cv2.imwrite(str(photos / "p5-out-of-focus.jpg"), page_photo(pages[4], blur=9))  # nobody reads it
    cv2.imwrite(str(photos / "IMG_0004.jpg"), page_photo(pages[3], blur=9))  # neither: left out
    (photos / "IMG_0005.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    (photos / "notes.txt").write_text("page 2 flat, page 3 unnamed")

    assert main(["bench", "label-photos", str(photos), str(pages_file)]) == 1
    out, err = capsys.readouterr()
    truth = json.loads((photos / "truth.json").read_text())
    assert truth == {"p2-flat.png": pages[1], "IMG_0003.jpg": pages[2], "p5-out-of-focus.jpg": pages[4]}
    assert "IMG_0003.jpg: page(s) [3] by its reads" in out and "p2-flat.png: page(s) [2] by its name" in out
    assert "IMG_0004.jpg: no page in its name and no code read; rename it" in err
    assert "IMG_0005.jpg: not an image OpenCV can read" in err

    # the bench scores the set: the two sharp pages are read whole, the blurred one is the test
    scored = score_photos(photos)
    assert scored["printed"] == len(pages[1]) + len(pages[2]) + len(pages[4])
    assert scored["totals"]["pipeline"] >= len(pages[1]) + len(pages[2])
    assert scored["false_reads"] == 0 and scored["pipeline_behind_on"] == []

    # an existing truth.json is kept unless --force
    assert main(["bench", "label-photos", str(photos), str(pages_file)]) == 2
    assert "truth.json exists; --force replaces it" in capsys.readouterr().err


def test_the_name_says_what_is_printed_even_where_nothing_is_read(printed, tmp_path, capsys):
    """A photo of pages 6 and 7 whose page 7 is out of focus: its truth is both pages' codes."""
    _, pages_file = printed
    pages = json.loads(pages_file.read_text())["pages"]
    sharp, blurred = page_photo(pages[5]), page_photo(pages[6], blur=9)
    cv2.imwrite(str(tmp_path / "p6+p7.png"), np.vstack([sharp, blurred[:, :sharp.shape[1]]]))
    assert main(["bench", "label-photos", str(tmp_path), str(pages_file)]) == 0
    assert json.loads((tmp_path / "truth.json").read_text()) == {"p6+p7.png": pages[5] + pages[6]}


def test_a_photo_named_for_a_wrong_page_is_reported_and_left_out(printed, tmp_path, capsys):
    _, pages_file = printed
    pages = json.loads(pages_file.read_text())["pages"]
    cv2.imwrite(str(tmp_path / "p4.png"), page_photo(pages[1]))
    cv2.imwrite(str(tmp_path / "p1.png"), page_photo(pages[0]))
    cv2.imwrite(str(tmp_path / "p9.png"), page_photo(pages[2]))   # the deck prints 8 pages
    assert main(["bench", "label-photos", str(tmp_path), str(pages_file)]) == 1
    err = capsys.readouterr().err
    assert "p4.png: named for page(s) [4] but shows codes of page(s) [2]: check its name" in err
    assert f"p9.png: names page(s) [9], but the sheet has pages 1-{len(pages)}; left out" in err
    assert json.loads((tmp_path / "truth.json").read_text()) == {"p1.png": pages[0]}


def test_out_writes_small_greyscale_copies_and_leaves_the_originals(printed, tmp_path, capsys):
    _, pages_file = printed
    pages = json.loads(pages_file.read_text())["pages"]
    photos, kept = tmp_path / "phone", tmp_path / "kept"
    photos.mkdir()
    big = cv2.cvtColor(cv2.resize(page_photo(pages[0]), None, fx=2, fy=2), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(photos / "p1.png"), big)
    assert main(["bench", "label-photos", str(photos), str(pages_file), "--out", str(kept), "--max-side", "900"]) == 0
    small = cv2.imread(str(kept / "p1.jpg"), cv2.IMREAD_UNCHANGED)
    assert small.ndim == 2 and max(small.shape) == 900
    assert json.loads((kept / "truth.json").read_text()) == {"p1.jpg": pages[0]}
    assert not (photos / "truth.json").exists() and cv2.imread(str(photos / "p1.png")).shape == big.shape


def test_bad_arguments_get_a_clear_message(printed, tmp_path, capsys):
    _, pages_file = printed
    assert main(["bench", "label-photos", str(tmp_path / "none"), str(pages_file)]) == 2
    assert "is not a folder of photos" in capsys.readouterr().err
    not_pages = tmp_path / "x.json"
    not_pages.write_text('{"pages": "p1"}')
    assert main(["bench", "label-photos", str(tmp_path), str(not_pages)]) == 2
    assert "not a pages file" in capsys.readouterr().err
    assert main(["bench", "label-photos", str(tmp_path), str(pages_file), "--max-side", "800"]) == 2
    assert "--max-side needs --out" in capsys.readouterr().err


def test_corner_labels_in_both_of_boofcvs_layouts_place_a_read_inside_its_code(tmp_path):
    """BoofCV's label files: after SETS one code a line (8 numbers), else one corner a line, four
    lines a code; '#' lines are comments. A read counts for the code whose corners hold its centre."""
    from companion.bench.photo_labels import code_at, corner_labelled

    glare = tmp_path / "glare"
    glare.mkdir()
    cv2.imwrite(str(glare / "image001.jpg"), np.full((40, 40), 255, np.uint8))
    (glare / "image001.txt").write_text("# list of hand selected 2D points\n10 10\n30 10\n30 30\n10 30\n")
    cv2.imwrite(str(glare / "image003.jpg"), np.full((40, 40), 255, np.uint8))
    (glare / "image003.txt").write_text("# points\nSETS\n0 0 10 0 10 10 0 10\n20 20 30 20 30 30 20 30\n")
    first, second = corner_labelled(tmp_path)
    assert (first.condition, len(first.quads), len(second.quads)) == ("glare", 1, 2)
    assert code_at(first.quads, (20.0, 20.0)) == 0 and code_at(first.quads, (35.0, 20.0)) is None
    assert code_at(second.quads, (25.0, 25.0)) == 1 and code_at(second.quads, (15.0, 15.0)) is None


def test_bench_scan_refuses_a_photo_folder_that_is_not_there(tmp_path, capsys):
    # a mistyped --photos used to run the whole scene suite (minutes) in its place and score no photo
    assert main(["bench", "scan", "--photos", str(tmp_path / "none")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_photos_cpu_is_the_median_of_its_reads_and_its_codes_those_of_the_first(tmp_path, monkeypatch):
    """One read of each photo moved the bench's ratio between runs by a fifth: each reader reads it
    ``reads`` times, the readers taking turns, and the CPU figure is the median."""
    from companion.bench.photo_labels import corner_labelled
    from companion.bench import scan_photos
    from companion.scan.decoders import Detection

    glare = tmp_path / "glare"
    glare.mkdir()
    cv2.imwrite(str(glare / "image001.jpg"), np.full((40, 40), 255, np.uint8))
    (glare / "image001.txt").write_text("10 10\n30 10\n30 30\n10 30\n")
    turns: list[str] = []

    def reader(name: str):
        def read(gray):
            turns.append(name)
            return [Detection(f"read {turns.count(name)}", np.float32([[15, 15], [25, 15], [25, 25], [15, 25]]))]
        return read

    # the CPU seconds each read takes, in the readers' turns: zxing 5, 1, 3 and the pipeline 2, 8, 4
    clock = iter(np.cumsum([0, 5, 0, 2, 0, 1, 0, 8, 0, 3, 0, 4]).tolist())
    monkeypatch.setattr(scan_photos.time, "thread_time", lambda: next(clock))
    result = scan_photos.score_photo(corner_labelled(tmp_path)[0], {"zxing": reader("zxing"), "pipeline": reader("pipeline")},
                                     reads=3)
    assert turns == ["zxing", "pipeline"] * 3
    assert result.texts == {"zxing": ["read 1"], "pipeline": ["read 1"]}
    assert result.cpu_ms == {"zxing": 3000, "pipeline": 4000}
    assert result.first_ms == {"zxing": 5000, "pipeline": 2000}
