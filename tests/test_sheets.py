"""Printable tag sheets: the tag size comes from the camera geometry, every physical copy gets one
sticker, pages print at 100%, and the printed codes read back (zxing-cpp) as the right cards."""
from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
import zxingcpp

from card_tags import commands, faces, geometry, sheets
from card_tags.catalog import load_game
from card_tags.payload import GAME_CODES, decode

DPI = 150


@pytest.fixture(scope="module")
def warriors():
    return load_game("warriors")


def render_pdf_page(pdf: bytes, page: int = 0) -> np.ndarray:
    document = pypdfium2.PdfDocument(pdf)
    return document[page].render(scale=DPI / 72, grayscale=True).to_numpy()


def decoded_on(image: np.ndarray) -> dict[str, tuple[float, float]]:
    """Payload -> centre of the code on the page, in mm."""
    found = {}
    for result in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
        p = result.position
        xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
        ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
        found[result.text] = (sum(xs) / 4, sum(ys) / 4)
    return found


def assert_page_reads_back(sheet: sheets.Sheet, image: np.ndarray, page: int = 0) -> None:
    """Every sticker's code is read, says its own card and copy, and sits inside its own sticker."""
    px_per_mm = image.shape[1] / sheet.paper_size[0]
    found = decoded_on(image)
    placed = sheet.pages[page]
    assert set(found) == {p.payload for p in placed}
    w, h = sheet.layout.size
    for sticker in placed:
        assert decode(sticker.payload) == sticker.ref
        x, y = (c / px_per_mm for c in found[sticker.payload])
        assert sticker.x < x < sticker.x + w and sticker.y < y < sticker.y + h, \
            f"{sticker.label}: its code was read at ({x:.0f}, {y:.0f}) mm, outside its sticker"


# -- geometry ----------------------------------------------------------------------------------
def test_pixels_per_module_from_the_camera():
    """600 mm above the mat with a 66 degree lens sees 2 * 600 * tan(33) = 779.3 mm; 1920 px over
    that is 2.464 px/mm, so a 1.02 mm module covers 2.51 px."""
    camera = geometry.Camera(600, 1920, 1080, 66)
    assert camera.mat_width_mm == pytest.approx(779.3, abs=0.1)
    assert geometry.pixels_per_module(camera, 1.02) == pytest.approx(2.513, abs=0.001)
    assert geometry.min_module_mm(camera) == pytest.approx(2.5 / 2.4638, abs=1e-3)
    higher = geometry.Camera(1200, 1920, 1080, 66)
    assert geometry.pixels_per_module(higher, 1.02) == pytest.approx(2.513 / 2, abs=0.001)


def test_the_highest_camera_for_a_tag_reads_it_at_exactly_the_minimum():
    camera = geometry.Camera()
    height = geometry.max_camera_height_mm(camera, 0.8)
    at_limit = geometry.Camera(height, camera.width_px, camera.height_px, camera.hfov_deg)
    assert geometry.pixels_per_module(at_limit, 0.8) == pytest.approx(geometry.MIN_PIXELS_PER_MODULE)


def test_a_bad_camera_is_refused():
    with pytest.raises(ValueError, match="1920x1080"):
        geometry.parse_resolution("1920 by 1080")
    with pytest.raises(ValueError, match="field of view"):
        geometry.Camera(hfov_deg=200)


# -- the plan ----------------------------------------------------------------------------------
def test_every_code_is_a_version_1_qr_code(warriors):
    """21 x 21 modules, the smallest QR code, so the modules are as big as a sticker allows."""
    for page in sheets.build(warriors, "square-25").pages:
        for sticker in page:
            runs = sheets.qr_runs(sticker.payload)
            assert max(r for r, _, _ in runs) == 20 and max(c + n for _, c, n in runs) == 21


def test_one_sticker_per_physical_copy(warriors):
    sheet = sheets.build(warriors, "card-63x88")
    refs = [p.ref for page in sheet.pages for p in page]
    assert refs == list(warriors.refs()) and len(refs) == 152
    assert len(sheet.pages) == math.ceil(152 / 9)
    labels = [p.label for page in sheet.pages for p in page]
    assert "Sword  4/4" in labels and "Nephi  1/1" in labels


def test_cards_with_the_same_name_are_told_apart_by_id():
    sheet = sheets.build(load_game("battlecards-pacific"), "card-63x88")
    twice = [p for page in sheet.pages for p in page if p.name.startswith("Codebreakers")]
    assert len({p.name for p in twice}) > 1 and all(p.name == f"Codebreakers ({p.ref.card})" for p in twice)


def test_a_hidden_piece_prints_no_rank():
    """docs/decks/stratego.md: "the tag does not show the rank to the eye". A sticker says its
    colour and number in the army; the page's key (kept off the table) says which piece it goes on."""
    sheet = sheets.build(load_game("stratego"), "stratego")
    labels = [p.label for page in sheet.pages for p in page]
    assert labels[:3] == ["Red 1", "Red 2", "Red 3"] and "Blue 40" in labels
    ranks = ("Marshal", "General", "Colonel", "Major", "Captain", "Lieutenant", "Sergeant", "Miner", "Scout",
             "Spy", "Bomb", "Flag")
    assert not [label for label in labels if any(rank in label for rank in ranks)]
    assert sheet.key.startswith("1 Marshal, 2 General, 3-4 Colonel,") and sheet.key.endswith("34-39 Bomb, 40 Flag")
    drawn = [item.text for item in sheets.page_items(sheet, 0) if isinstance(item, sheets.Text)]
    assert any(sheet.key in text for text in drawn)


@pytest.mark.parametrize("name", list(sheets.LAYOUTS))
def test_every_layout_fits_its_paper_without_overlap(name, warriors):
    layout = sheets.LAYOUTS[name]
    sheet = sheets.build(warriors, layout, geometry.Camera(height_mm=300))
    pw, ph = sheet.paper_size
    w, h = layout.size
    cells = [(p.x, p.y) for p in sheet.pages[0]]
    assert all(0 <= x and x + w <= pw and 8 <= y and y + h <= ph for x, y in cells), "inside the page, below the header"
    for i, (x1, y1) in enumerate(cells):
        for x2, y2 in cells[i + 1:]:
            assert x1 + w <= x2 + 1e-6 or x2 + w <= x1 + 1e-6 or y1 + h <= y2 + 1e-6 or y2 + h <= y1 + 1e-6
    assert sheets.code_box_mm(sheet.module_mm) <= min(w, h)


def test_card_layouts_use_letter_paper_too(warriors):
    sheet = sheets.build(warriors, "card-57x89", paper="letter")
    assert sheet.paper_size == (215.9, 279.4) and len(sheet.pages[0]) == 9
    with pytest.raises(ValueError, match="pre-cut A4 sticker sheet"):
        sheets.build(warriors, "round-40", paper="letter")


# -- the tag size and the warning ----------------------------------------------------------------
def test_a_card_patch_is_as_small_as_the_camera_reads_well(warriors):
    camera = geometry.Camera(600, 1920, 1080, 66)
    sheet = sheets.build(warriors, "card-63x88", camera)
    assert sheet.module_mm == pytest.approx(1.02)
    assert sheet.fit.pixels_per_module >= 2.5 and sheet.warnings == []


def test_a_tag_too_small_for_the_camera_is_a_warning(warriors):
    """25 mm round stickers hold a 16.5 mm code with its 1-module quiet zone: 16.5 / 23 = 0.72 mm modules,
    1.77 px at 600 mm (2.46 px/mm), so the camera must come down to 600 x 1.77 / 2.5 = 424 mm."""
    sheet = sheets.build(warriors, "round-25", geometry.Camera(600, 1920, 1080, 66))
    assert len(sheet.warnings) == 1
    warning = sheet.warnings[0]
    assert "1.77 pixels per module, below the 2.5 needed" in warning
    assert "Mount the camera at most 424 mm above the mat" in warning
    assert sheets.build(warriors, "round-25", geometry.Camera(420, 1920, 1080, 66)).warnings == []
    assert sheets.build(warriors, "round-25", geometry.Camera(420, 1280, 720, 66)).warnings, "fewer pixels, too small again"


def test_a_forced_module_is_checked(warriors):
    sheet = sheets.build(warriors, "square-45", module_mm=0.5)
    assert sheet.module_mm == 0.5 and sheet.warnings
    with pytest.raises(ValueError, match="bigger than the square-25 layout allows"):
        sheets.build(warriors, "square-25", module_mm=2.0)


# -- printing at 100% and reading back -----------------------------------------------------------
def test_pdf_pages_are_exactly_the_paper_size(warriors):
    sheet = sheets.build(warriors, "card-44x67")
    document = pypdfium2.PdfDocument(sheets.to_pdf(sheet))
    assert len(document) == len(sheet.pages)
    width_pt, height_pt = document[0].get_size()
    assert (width_pt * 25.4 / 72, height_pt * 25.4 / 72) == (pytest.approx(210, abs=0.01), pytest.approx(297, abs=0.01))
    svg = sheets.to_svg(sheet, 0)
    assert 'width="210mm" height="297mm" viewBox="0 0 210 297"' in svg
    assert '<rect x="{:.3f}" y="{:.3f}" width="44.000" height="67.000"'.format(sheet.pages[0][0].x, sheet.pages[0][0].y) in svg


@pytest.mark.parametrize("layout", ["card-63x88", "round-40", "square-25", "stratego"])
def test_every_tag_on_a_printed_page_reads_back_as_its_card(layout, warriors):
    catalog = load_game("stratego") if layout == "stratego" else warriors
    sheet = sheets.build(catalog, layout)
    assert_page_reads_back(sheet, render_pdf_page(sheets.to_pdf(sheet)))


def test_the_last_page_reads_back_too(warriors):
    sheet = sheets.build(warriors, "square-45")
    last = len(sheet.pages) - 1
    assert 0 < len(sheet.pages[last]) < 24
    assert_page_reads_back(sheet, render_pdf_page(sheets.to_pdf(sheet), last), last)


def test_the_svg_reads_back_too(tmp_path):
    """The SVG is drawn from the same items; rasterised by Chromium, its codes read as their cards."""
    from PIL import Image

    from tests.browser import chromium, picture

    sheet = sheets.build(load_game("battlecards-pacific"), "round-40")
    svg = sheets.to_svg(sheet, 0).replace('width="210mm" height="297mm"', 'width="1240" height="1754"', 1)
    with chromium() as browser:  # the session's one Chromium: a second Playwright in one process fails
        page = browser.tab({"width": 1240, "height": 1754})
        page.set_content(f'<html><body style="margin:0">{svg}</body></html>')
        png = picture(page, full_page=True)
    image = np.array(Image.open(io.BytesIO(png)).convert("L"))
    assert_page_reads_back(sheet, image)


# -- the command ---------------------------------------------------------------------------------
def test_tags_print_writes_pdf_and_svg_and_warns(tmp_path, capsys):
    code = commands.main(["tags", "print", "stratego", "--out", str(tmp_path), "--data", str(tmp_path / "data")])
    out, err = capsys.readouterr()
    assert code == 0
    assert (tmp_path / "stratego-stratego.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "stratego-stratego.svg").read_text().startswith("<svg")
    assert "80 tags for Stratego on 1 page(s)" in out and "Print at 100%" in out
    assert err.startswith("warning: the tags on stratego are 15.0 mm wide")   # 16.4 mm / 23 modules x 21
    code = commands.main(["tags", "print", "stratego", "--out", str(tmp_path), "--camera-height", "200",
                          "--data", str(tmp_path / "data")])
    assert code == 0 and "warning" not in capsys.readouterr().err


def test_tags_print_refuses_a_bad_deck_or_layout(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "warriors", "version": 1, "cards": []}')
    assert commands.main(["tags", "print", "warriors", "--deck", str(bad), "--out", str(tmp_path),
                          "--data", str(tmp_path / "data")]) == 1
    assert "field 'cards' must be a non-empty list" in capsys.readouterr().err
    assert commands.main(["tags", "print", "warriors", "--resolution", "big", "--out", str(tmp_path),
                          "--data", str(tmp_path / "data")]) == 1
    assert "resolution must look like 1920x1080" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.pdf"))


def test_tags_size_lists_what_each_layout_prints(capsys):
    assert commands.main(["tags", "size", "--camera-height", "600", "--fov", "66"]) == 0  # a standard Module 3
    out = capsys.readouterr().out
    assert "smallest reliable code: 21.3 mm (1.01 mm per module at 2.5 px per module)" in out
    assert "round-25" in out and "too small; camera at most 424 mm high" in out


@pytest.mark.parametrize("game", sorted(g for g in GAME_CODES if sheets.default_layout(g) != "stratego"))
def test_the_default_layout_reads_with_the_recommended_camera(game):
    """hardware.md recommends a Camera Module 3 Wide, 1920x1080, 600 mm above the mat: every card
    game's default tags must read there by the tool's own figure (2.5 pixels per module)."""
    catalog = load_game(game)  # every game has its reference deck: a broken one fails here
    sheet = sheets.build(catalog, sheets.default_layout(game), geometry.Camera())
    assert sheet.fit.pixels_per_module >= geometry.MIN_PIXELS_PER_MODULE and sheet.warnings == []


def test_tags_print_writes_into_a_folder_named_for_the_game(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert commands.main(["tags", "print", "bom-battle"]) == 0
    assert (tmp_path / "tags" / "bom-battle" / "bom-battle-card-63x88.pdf").exists()
    assert not list(tmp_path.glob("*.pdf")) and not list(tmp_path.glob("*.svg"))
    assert str(tmp_path / "tags" / "bom-battle") in capsys.readouterr().out


# -- where the sticker goes on a card (card_tags/faces.py) --------------------------------------
CARD_DECKS = sorted(faces.FACES)


def test_every_game_with_cards_says_where_its_cards_show_name_and_value():
    """Stratego alone has pieces, not cards; every other game's deck describes its card faces."""
    assert set(CARD_DECKS) == set(GAME_CODES) - {"stratego"}
    for game in CARD_DECKS:
        kinds = {card.kind for card in load_game(game).cards.values()}
        for kind in kinds:
            shown = {area.what for area in faces.FACES[game].of(kind).areas}
            assert "name" in shown, f"{game} {kind}: no name on its face"


def sticker_on_card(sheet: sheets.Sheet, placed: sheets.Placed, drawn: dict | None = None) -> tuple[float, float, float, float]:
    """The patch actually drawn for this card (its dashed cut line), in mm from the card's top-left corner.
    ``drawn``: each page's items already drawn, by page (a whole deck's check draws each page once)."""
    index = next(i for i, page in enumerate(sheet.pages) if placed in page)
    drawn = {} if drawn is None else drawn
    if index not in drawn:
        drawn[index] = sheets.page_items(sheet, index)
    cuts = [item for item in drawn[index]
            if isinstance(item, sheets.Box) and item.dashed
            and placed.x <= item.x < placed.x + sheet.layout.size[0] and placed.y <= item.y < placed.y + sheet.layout.size[1]]
    assert len(cuts) == 1
    return cuts[0].x - placed.x, cuts[0].y - placed.y, cuts[0].w, cuts[0].h


@pytest.mark.parametrize("game", CARD_DECKS)
def test_the_default_sticker_leaves_name_and_value_readable_and_reads_at_the_recommended_camera(game):
    """Each deck's default sheet: every patch lies inside its card, in the corner the deck's face
    names, covers none of the areas a player reads (name, value, rank, Action Number...), and its
    modules cover at least 2.5 pixels with the camera hardware.md recommends (Module 3 Wide,
    1920x1080, 600 mm above the mat)."""
    deck = faces.FACES[game]
    catalog = load_game(game)
    sheet = sheets.build(catalog, sheets.default_layout(game), geometry.Camera())
    assert sheet.layout.name == deck.layout and sheet.layout.size == deck.size
    assert geometry.pixels_per_module(geometry.Camera(), sheet.module_mm) >= geometry.MIN_PIXELS_PER_MODULE
    assert sheet.warnings == []
    w, h = deck.size
    drawn: dict = {}
    for page in sheet.pages:
        for placed in page:
            face = deck.of(catalog[placed.ref.card].kind)
            x, y, pw, ph = sticker_on_card(sheet, placed, drawn)
            assert 0 < x and x + pw < w and 0 < y and y + ph < h, f"{placed.label}: patch outside the card"
            vertical, horizontal = face.corner.split("-")
            assert (y + ph > h - 5) if vertical == "bottom" else (y < 5), f"{placed.label}: not at the {face.corner}"
            assert (x < 5) if horizontal == "left" else (x + pw > w - 5), f"{placed.label}: not at the {face.corner}"
            covered = [area.what for area in face.areas if area.overlaps(x, y, pw, ph)]
            assert covered == [], f"{placed.label}: the patch covers its {', '.join(covered)}"


def test_a_patch_over_the_name_is_caught():
    """The check above can fail: a patch in the top-left corner covers a Book of Mormon card's name."""
    catalog = load_game("bom-battle")
    sheet = sheets.build(catalog, "card-63x88", geometry.Camera(), corner="top-left")
    placed = sheet.pages[0][0]
    x, y, pw, ph = sticker_on_card(sheet, placed)
    assert [a.what for a in faces.FACES["bom-battle"].face.areas if a.overlaps(x, y, pw, ph)] == ["name", "value"]


def test_battlecards_conflict_and_unit_cards_put_their_patch_in_different_corners():
    """'Each CONFLICT Card has an Action Number in the upper left and lower right hand corners': its
    patch goes bottom-left; a unit's Attack Values are 'on the left side': its patch goes bottom-right."""
    catalog = load_game("battlecards-pacific")
    sheet = sheets.build(catalog, "card-63x88")
    corners = {catalog[p.ref.card].kind: p.corner for page in sheet.pages for p in page}
    assert corners["unit"] == "bottom-right"
    assert {corners[k] for k in ("battle", "keep", "draw", "intel")} == {"bottom-left"}


def test_stratego_pieces_are_too_small_for_the_recommended_camera_and_say_so():
    """hardware.md: an 18 x 22 mm piece sticker holds a 15.0 mm code at most, 0.92 px/module at 60 cm;
    Stratego is read by RFID, and its sheet warns rather than pretending."""
    sheet = sheets.build(load_game("stratego"), sheets.default_layout("stratego"), geometry.Camera())
    assert sheet.fit.pixels_per_module < geometry.MIN_PIXELS_PER_MODULE and sheet.warnings


def test_tags_print_puts_every_patch_in_the_corner_asked(tmp_path, capsys):
    assert commands.main(["tags", "print", "gt-battle", "--corner", "top-right", "--out", str(tmp_path)]) == 0
    with pytest.raises(SystemExit):
        commands.main(["tags", "print", "gt-battle", "--corner", "middle", "--out", str(tmp_path)])
    assert "invalid choice: 'middle'" in capsys.readouterr().err


def test_the_decks_readme_says_what_the_default_sheets_print():
    """docs/decks/README.md, "Where the tag goes on a card": each row's card size, patch and corner
    are those of the deck's default sheet (a CONFLICT card and an ARSENAL unit for BATTLECARDS)."""
    readme = (Path(__file__).resolve().parent.parent / "docs" / "decks" / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Where the tag goes on a card", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| `")]
    example = {"CONFLICT": "battle", "ARSENAL": "unit"}
    told = set()
    for deck, card_mm, patch_mm, corner, _ in rows:
        game = deck.split("`")[1]
        catalog = load_game(game)
        kind = next((example[word] for word in example if word in deck), None)
        sheet = sheets.build(catalog, sheets.default_layout(game), geometry.Camera())
        placed = next(p for page in sheet.pages for p in page if kind in (None, catalog[p.ref.card].kind))
        _, _, w, h = sticker_on_card(sheet, placed)
        assert card_mm == "%g x %g mm" % sheet.layout.size
        assert patch_mm == f"{w:.1f} x {h:.1f} mm"
        assert corner == placed.corner
        told.add(game)
    assert told == set(CARD_DECKS)


def test_printed_codes_carry_level_q_where_it_fits_and_m_otherwise():
    """docs/payload-format.md: level M raised to Q (25% of the code may be lost to glare or a scratch)
    for a payload of 16 characters or fewer, as `companion bench tags` chose; read back from the PDF."""
    catalog = load_game("bom-battle")   # GD100 ... BO5000: payloads of 16 to 19 characters
    sheet = sheets.build(catalog, "card-63x88")
    image = render_pdf_page(sheets.to_pdf(sheet), len(sheet.pages) - 1)
    levels = {r.text: r.ec_level for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)}
    assert {len(text) for text in levels} >= {16, 17}
    assert all(level == ("Q" if len(text) <= 16 else "M") for text, level in levels.items()), levels


def test_the_tag_benchmark_reads_every_printed_tag_of_a_plain_scene():
    """`companion bench tags` is only worth its figures if its scenes are fair: eight printed patches
    (the sheet's own code, quiet zone and label strip) at the recommended camera's 2.5 px/module, no
    glare, no bend, are all read by the pipeline; under strong glare fewer are."""
    from companion.bench import tag_choice

    camera = geometry.Camera()
    texts = tag_choice.default_payloads()[:tag_choice.CARDS_PER_SCENE]
    module = tag_choice.module_for(sheets.TAG_CODE, "module", camera)
    assert geometry.pixels_per_module(camera, module) == pytest.approx(2.5, abs=0.01)

    def read(condition: str, strength: float) -> int:
        params = [tag_choice.Params(30.0 * i, (0.5, 0.5, 1.0, 1.0, 0.3, strength) + (0.5,) * 6) for i in range(len(texts))]
        frames = tag_choice.scene_frames(texts, condition, params, sheets.TAG_CODE, module, camera.pixels_per_mm, 2, 7)
        return len(set(texts) & tag_choice.read_scene(frames))

    assert read("nominal", 0.0) == len(texts)
    assert read("glare", 1.0) < len(texts)
