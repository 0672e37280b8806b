"""`companion scan` prints every QR code in images and videos with the card it names or why it
names none; `companion mat print` writes the corner markers at their true size."""
from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET

import cv2
import numpy as np
import pytest

from card_tags.payload import CardRef, encode
from companion.cli import main
from companion.scan.calibration import MARKER_MM, detect_markers, marker_corners_mm
from companion.scan.virtual_camera import Camera
from companion.scan.virtual_table import VirtualTable


def lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


@pytest.fixture
def photo(tmp_path):
    """A photo of the table: two Stratego pieces, a URL, a damaged tag, a card this deck lacks."""
    table = VirtualTable(1280, 720, seed=2, camera=Camera(px_per_mm=1.6, look_at_mm=(450, 300)))
    table.place(CardRef("stratego", "R10", 1), (300, 220), 15)
    table.place(CardRef("stratego", "B3", 2), (420, 220), -100)
    table.place_code("https://ex.co", (540, 220), 30)
    bad = encode(CardRef("stratego", "R9", 1))
    table.place_code(bad[:-1] + ("X" if bad[-1] != "X" else "Y"), (300, 370), 0)
    table.place(CardRef("stratego", "R99", 1), (420, 370), 0)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), table.render())
    return path, table


def test_scan_prints_every_code_in_a_photo_with_its_card_or_why_not(photo, capsys):
    path, _ = photo
    assert main(["scan", str(path), "--game", "stratego"]) == 0
    found = {line["text"]: line for line in lines(capsys)}
    assert len(found) == 5
    marshal = found[encode(CardRef("stratego", "R10", 1))]
    assert marshal["card"]["name"] == "Marshal" and marshal["why"] is None
    assert len(marshal["corners"]) == 4 and 2.0 < marshal["px_per_module"] < 5.0
    assert "not a table-companion tag" in found["https://ex.co"]["why"] and found["https://ex.co"]["card"] is None
    damaged = next(line for text, line in found.items() if text.startswith("TC1:ST:R9:"))
    assert "check character" in damaged["why"]
    unknown = found[encode(CardRef("stratego", "R99", 1))]
    assert "no card R99" in unknown["why"]


def test_scan_with_the_tables_data_folder_names_the_hidden_card_behind_a_private_tag(tmp_path, capsys):
    """A private tag names no card (card_tags/private.py); the owner of the table's data folder, at its
    terminal, learns which card a sticker stands for with --data, as the service would read it."""
    from card_tags.catalog import load_game
    from card_tags.private import PrivateTags

    data = tmp_path / "data"
    marshal = PrivateTags(data).codes_for(load_game("stratego"))[CardRef("stratego", "R10", 1)]
    elsewhere = PrivateTags(None).codes_for(load_game("stratego"))[CardRef("stratego", "B3", 1)]  # another table's
    table = VirtualTable(1280, 720, seed=2, camera=Camera(px_per_mm=1.6, look_at_mm=(450, 300)))
    table.place_code(marshal, (300, 220), 15)
    table.place_code(elsewhere, (420, 220), -20)
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), table.render())

    assert main(["scan", str(path), "--game", "stratego"]) == 0
    found = {line["text"]: line for line in lines(capsys)}
    assert found[marshal]["card"] is None and "names no card" in found[marshal]["why"] and "--data" in found[marshal]["why"]

    assert main(["scan", str(path), "--game", "stratego", "--data", str(data)]) == 0
    found = {line["text"]: line for line in lines(capsys)}
    card = found[marshal]["card"]
    assert (card["key"], card["name"], card["private"], found[marshal]["why"]) == ("R10#1", "Marshal", True, None)
    assert found[elsewhere]["card"] is None and "this table did not print" in found[elsewhere]["why"]


def test_scan_with_a_data_folder_holding_no_private_tags_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((100, 100), 200, np.uint8))
    main(["scan", str(empty), "--data", str(tmp_path / "data")])
    assert "no private tags in" in capsys.readouterr().err


def test_scan_reads_a_video_and_says_in_how_many_frames_each_code_was_read(tmp_path, capsys):
    table = VirtualTable(640, 360, seed=3, camera=Camera(px_per_mm=1.2, look_at_mm=(450, 300)))
    piece = CardRef("stratego", "R10", 1)
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 360))
    for n in range(8):
        if n == 4:
            table.place(piece, (450, 300), 0)
        writer.write(table.render())
    writer.release()
    assert main(["scan", str(path)]) == 0
    (line,) = lines(capsys)
    assert line["text"] == encode(piece)
    assert (line["first_frame"], line["frames_read"], line["frames_decoded"]) == (4, 4, 8)


def test_scan_reports_files_it_cannot_read_and_photos_without_codes(tmp_path, capsys):
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((100, 100), 200, np.uint8))
    assert main(["scan", str(tmp_path / "missing.jpg"), str(empty)]) == 2
    err = capsys.readouterr().err
    assert "missing.jpg: no such file" in err and "empty.png: no QR code found" in err


def test_scan_with_every_decoder_reads_a_kanji_code_and_goes_on_past_an_opencv_failure(tmp_path, capsys, monkeypatch):
    """A Kanji code's bytes are Shift JIS, not UTF-8 (OpenCV's binding raises on them); OpenCV
    stops with "mode 13 not implemented" on some damaged codes. Neither ends the batch: each
    file's codes are printed, whatever one decoder does."""
    import segno

    kanji = tmp_path / "a-kanji.png"
    segno.make_qr("日本", mode="kanji", error="m").save(str(kanji), scale=6, border=4)
    assert main(["scan", "--decoder", "all", str(kanji)]) == 0
    assert [line["text"] for line in lines(capsys)] == ["日本"]

    class Mode13:
        def detectAndDecodeMulti(self, gray):
            raise cv2.error("OpenCV(5.0.0) qrcode.cpp: error: (-213:The function/feature is not implemented) "
                            "mode 13 not implemented in function 'decode'")

    monkeypatch.setattr(cv2, "QRCodeDetector", Mode13)
    url = tmp_path / "b-url.png"
    segno.make_qr("https://ex.co", error="m").save(str(url), scale=6, border=4)
    assert main(["scan", "--decoder", "all", str(kanji), str(url)]) == 0
    assert [line["text"] for line in lines(capsys)] == ["日本", "https://ex.co"]


def test_mat_print_png_holds_the_four_markers_at_true_size(tmp_path, capsys):
    out = tmp_path / "markers.png"
    assert main(["mat", "print", "--out", str(out)]) == 0
    data = out.read_bytes()
    ppm = struct.unpack(">II", data[data.index(b"pHYs") + 4:data.index(b"pHYs") + 12])
    assert ppm == (11811, 11811)  # 300 dots per inch, recorded for printing at 100%
    image = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    found = detect_markers(image, max_width=image.shape[1])
    assert sorted(found) == [0, 1, 2, 3]
    px_per_mm = 300 / 25.4
    for corners in found.values():
        side_mm = np.linalg.norm(corners[1] - corners[0]) / px_per_mm
        assert abs(side_mm - MARKER_MM) < 0.5


def test_mat_print_svg_and_pdf_are_vector_pages_at_millimetre_scale(tmp_path):
    svg, pdf = tmp_path / "m.svg", tmp_path / "m.pdf"
    assert main(["mat", "print", "--out", str(svg)]) == 0
    root = ET.parse(svg).getroot()
    assert root.get("width") == "210.0mm" and root.get("viewBox") == "0 0 210.0 297.0"
    cells = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("fill") == "black"]
    assert {round(float(r.get("width")), 3) for r in cells} >= {round(MARKER_MM / 6, 3)}
    assert main(["mat", "print", "--out", str(pdf), "--paper", "letter"]) == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 612.00 792.00]" in data
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n", data[xref:])]
    assert [data[o:o + 7] for o in offsets] == [f"{n} 0 obj".encode() for n in range(1, 6)]


def test_mat_print_refuses_an_unknown_format(tmp_path, capsys):
    assert main(["mat", "print", "--out", str(tmp_path / "m.docx")]) == 2
    assert "use a .pdf, .svg or .png" in capsys.readouterr().err


def test_mat_print_for_a_game_draws_its_zones_at_true_size_beside_the_markers(tmp_path):
    from companion.scan.zones import ZoneMap

    out = tmp_path / "warriors.png"
    assert main(["mat", "print", "--game", "warriors", "--seats", "3", "--out", str(out), "--dpi", "100"]) == 0
    image = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    px_per_mm = 100 / 25.4
    assert abs(image.shape[1] / px_per_mm - 900) < 1 and abs(image.shape[0] / px_per_mm - 600) < 1
    found = detect_markers(image, max_width=image.shape[1])
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in marker_corners_mm().items():   # each marker where calibration expects it
        assert np.abs(found[marker_id] / px_per_mm - corners).max() < 1.0
    tray = ZoneMap.for_game("warriors", 3).by_name["tray"]
    edge = image[round((tray.y + tray.h / 2) * px_per_mm), round(tray.x * px_per_mm) - 2:round(tray.x * px_per_mm) + 3]
    assert edge.min() < 200   # the covered tray's outline, where the camera's zone begins


@pytest.mark.parametrize("game, seats, has_tray", [("bom-battle", 3, True), ("stratego", 2, True),
                                                   ("gt-battle", 4, True), ("warriors", 2, True),
                                                   ("battlecards-pacific", 2, False)])
def test_each_games_mat_outlines_every_zone_the_game_declares(game, seats, has_tray):
    from companion.scan.marker_sheet import mat_layout
    from companion.scan.zones import ZoneMap

    _, shapes = mat_layout(game, seats)
    frames = {(round(s.x, 1), round(s.y, 1), round(s.w, 1), round(s.h, 1)) for s in shapes if s.kind == "frame"}
    for zone in ZoneMap.for_game(game, seats).zones:
        assert (round(zone.x, 1), round(zone.y, 1), round(zone.w, 1), round(zone.h, 1)) in frames, zone.name
    texts = [s.text for s in shapes if s.kind == "text"]
    assert ("covered scan tray" in texts) == has_tray
    assert any("FACE UP under the cover" in t for t in texts) == has_tray


def test_mat_print_for_a_game_as_pdf_is_tiled_onto_pages_at_true_size(tmp_path, capsys):
    import pypdfium2

    out = tmp_path / "gt.pdf"
    assert main(["mat", "print", "--game", "gt-battle", "--out", str(out)]) == 0
    assert "on 15 pages" in capsys.readouterr().out
    pdf = pypdfium2.PdfDocument(str(out))
    assert len(pdf) == 15
    page = pdf[0].render(scale=200 / 72).to_pil().convert("L")   # the far-left corner: marker 0
    found = detect_markers(np.array(page), max_width=page.width)
    assert list(found) == [0]
    side_mm = np.linalg.norm(found[0][1] - found[0][0]) / (200 / 25.4)
    assert abs(side_mm - MARKER_MM) < 0.5


def test_mat_print_for_a_game_refuses_an_unknown_game_or_too_many_seats(capsys):
    assert main(["mat", "print", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["mat", "print", "--game", "stratego", "--seats", "3"]) == 2
    assert "2 to 2 players" in capsys.readouterr().err
