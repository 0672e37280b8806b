"""Printable tag sheets: one sticker per physical copy, each with its QR tag and a label.

``build(catalog, layout, camera)`` places every copy of every card (``Catalog.refs()``) on pages
of a layout and chooses the QR module size from the camera geometry (card_tags/geometry.py):

- on card layouts (63 x 88, 57 x 89, 44 x 67 mm) each card-sized cell holds a small patch in the
  corner that the card's face leaves free of its name and value (card_tags/faces.py; bottom-right
  unless the deck says otherwise), as small as the camera can still read, cut out along its dashed
  line and stuck on the same corner of the card; the faint card name in the cell says which card;
- on sticker layouts (round and square sticker sheets, Stratego piece stickers) the code fills the
  sticker.

A tag that cannot be big enough for the camera (a small sticker, a high camera) is printed as big as
the sticker allows and reported in ``Sheet.warnings``.

A card a game keeps hidden is printed with the table's private tag (``private``: card_tags/private.py):
its code names no card, and its sticker says only the piece's colour, if it has one, and the
first characters of its code ("Red K7QM"), to find it again when a sheet is printed anew. Which
sticker goes on which card is said off the sticker: on card layouts by the faint card name in the
cell the patch is cut from, on sticker layouts by the page's header, listing the cards in sheet
order (meaningless once the stickers are peeled). Without ``private`` (tools and tests measuring
the camera) such a sheet is the old one: readable tags, "Red 17" and a key from numbers to ranks,
which give the pieces away to any phone.

The page is described once as a list of drawing items in millimetres from the top-left corner, then
rendered twice: ``to_pdf`` (reportlab) and ``to_svg`` (one SVG per page, sized in mm), so the two
files are the same drawing. Both are meant to be printed at 100% ("actual size"); every page
carries a 50 mm scale bar to check that.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union
from xml.sax.saxutils import escape

import segno

from . import faces, geometry
from .catalog import Catalog
from .names import HIDDEN_RANKS, card_names, hidden_key, hidden_names
from .payload import CardRef, encode

PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PT_PER_MM = 72 / 25.4
MM_PER_PT = 25.4 / 72

# Space kept free on a page of a layout without a fixed grid: the header with the scale bar on top.
TOP_MARGIN, SIDE_MARGIN, BOTTOM_MARGIN = 8.0, 4.0, 4.0
CARD_INSET = 3.0          # the patch sits this far from the card's right and bottom edges
STICKER_MARGIN = 0.8      # white kept between a sticker's edge and its code (beyond the quiet zone)
MIN_FONT_PT = 3.5
GUIDE_GREY = "#999999"
CARD_NAME_GREY = "#c8c8c8"


@dataclass(frozen=True)
class Layout:
    name: str
    title: str
    shape: str                        # "card" | "rect" | "round"
    size: tuple[float, float]         # one card or sticker, w x h mm (a round sticker: its diameter twice)
    gap: tuple[float, float] = (0.0, 0.0)
    grid: tuple[int, int] | None = None   # a pre-cut sheet: fixed columns x rows, centred on the paper
    paper: str = "a4"
    label_mm: float = 3.5             # height of the label strip under the code
    # Card layouts: the patch takes at most this share of the card width. 0.8 lets a poker-size card
    # carry the code the recommended camera needs (Module 3 Wide, 1920 px, 600 mm up: 1.30 px/mm, so
    # 2.5 / 1.30 = 1.93 mm modules, a 44.4 mm patch with its 1-module quiet zone = 0.70 of 63 mm).
    max_patch: float = 0.8

    @property
    def fixed_paper(self) -> bool:
        """A pre-cut sticker sheet has its paper size; card layouts fit any paper."""
        return self.grid is not None


LAYOUTS = {layout.name: layout for layout in (
    Layout("card-63x88", "poker-size cards, 63 x 88 mm", "card", (63.0, 88.0)),
    Layout("card-57x89", "57 x 89 mm cards", "card", (57.0, 89.0)),
    Layout("card-44x67", "mini cards, 44 x 67 mm", "card", (44.0, 67.0)),
    Layout("round-40", "round stickers, 40 mm, 24 per A4 sheet (4 x 6)", "round", (40.0, 40.0),
           gap=(7.0, 6.0), grid=(4, 6), label_mm=4.0),
    Layout("round-25", "round stickers, 25 mm, 70 per A4 sheet (7 x 10)", "round", (25.0, 25.0),
           gap=(3.0, 2.0), grid=(7, 10), label_mm=3.0),
    Layout("square-45", "square stickers, 45 mm, 24 per A4 sheet (4 x 6)", "rect", (45.0, 45.0),
           gap=(3.5, 2.0), grid=(4, 6), label_mm=4.5),
    Layout("square-25", "square stickers, 25 mm, 70 per A4 sheet (7 x 10)", "rect", (25.0, 25.0),
           gap=(3.0, 2.0), grid=(7, 10), label_mm=3.5),
    Layout("stratego", "Stratego piece stickers, 18 x 22 mm, cut from label paper", "rect", (18.0, 22.0),
           gap=(2.0, 2.0), label_mm=3.5),
)}
DEFAULT_LAYOUT = {"stratego": "stratego"}


def default_layout(game: str) -> str:
    return DEFAULT_LAYOUT.get(game, "card-63x88")


# -- drawing items (mm from the page's top-left corner) ---------------------------------------------
@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    stroke: str | None = None
    fill: str | None = None
    dashed: bool = False
    width: float = 0.15


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    stroke: str = GUIDE_GREY
    dashed: bool = False
    width: float = 0.15


@dataclass(frozen=True)
class Text:
    x: float
    y: float              # the baseline
    size_pt: float
    text: str
    anchor: str = "start"  # "start" | "middle"
    color: str = "#000000"


@dataclass(frozen=True)
class Code:
    """A QR code's dark modules as horizontal runs: (row, first column, length)."""

    x: float
    y: float
    module: float
    runs: tuple[tuple[int, int, int], ...]


Item = Union[Box, Circle, Text, Code]


# -- the plan ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Placed:
    ref: CardRef
    name: str             # the card's name, with its id when another card has the same name
    copies: int
    payload: str
    x: float
    y: float
    hidden: bool = False  # a piece whose rank the sticker must not show
    shown: str | None = None  # a private tag's whole label ("Red K7QM"): its name stays off the sticker
    corner: str = "bottom-right"  # card layouts: the card's corner the patch goes in (card_tags/faces.py)

    @property
    def label(self) -> str:
        if self.shown is not None:
            return self.shown
        if self.hidden:  # "Red 17" is a hidden piece's whole label
            return self.name
        return f"{self.name}  {self.ref.copy}/{self.copies}"


@dataclass
class Sheet:
    title: str
    game: str
    layout: Layout
    paper_size: tuple[float, float]
    module_mm: float
    fit: geometry.TagFit
    camera: geometry.Camera
    pages: list[list[Placed]]
    warnings: list[str] = field(default_factory=list)
    key: str = ""  # hidden pieces: which sticker number goes on which piece (printed in the header)
    guides: list[list[str]] = field(default_factory=list)  # per page: the hidden cards in sheet order

    @property
    def stickers(self) -> int:
        return sum(len(page) for page in self.pages)


@dataclass(frozen=True)
class TagCode:
    """How a tag's QR code is made: its version, its error-correction level (raised to the highest
    the payload still fits when ``boost``) and the white quiet zone printed around it, in modules.
    ``companion bench tags`` measures the choices; ``TAG_CODE`` is the one printed."""

    version: int = 1
    error: str = "m"
    boost: bool = True
    quiet: int = geometry.QUIET_ZONE_MODULES

    @property
    def modules(self) -> int:
        """Modules across the code itself (21 for version 1, 4 more per version)."""
        return 17 + 4 * self.version

    @property
    def box_modules(self) -> int:
        """Modules across the code with its quiet zone."""
        return self.modules + 2 * self.quiet


TAG_CODE = TagCode()


def qr_matrix(payload: str, code: TagCode = TAG_CODE) -> list[list[bool]]:
    """The payload's QR code as rows of modules (True = dark), without its quiet zone."""
    qr = segno.make(payload, version=code.version, error=code.error, mode="alphanumeric", boost_error=code.boost)
    return [[bool(m) for m in row] for row in qr.matrix]


def qr_runs(payload: str, code: TagCode = TAG_CODE) -> tuple[tuple[int, int, int], ...]:
    """The dark modules of the payload's QR code, merged into horizontal runs."""
    runs = []
    for row, line in enumerate(qr_matrix(payload, code)):
        col = 0
        while col < len(line):
            if line[col]:
                start = col
                while col < len(line) and line[col]:
                    col += 1
                runs.append((row, start, col - start))
            else:
                col += 1
    return tuple(runs)


def code_box_mm(module_mm: float, code: TagCode = TAG_CODE) -> float:
    """Side of a printed code with its quiet zone."""
    return module_mm * code.box_modules


def patch_box(layout: Layout, module_mm: float, corner: str = "bottom-right") -> tuple[float, float, float, float]:
    """A card layout's patch (code, quiet zone and label strip) as x, y, w, h in mm from the card's
    top-left corner, CARD_INSET from the two edges of its corner."""
    w, h = layout.size
    side = code_box_mm(module_mm)
    x = CARD_INSET if corner.endswith("left") else w - CARD_INSET - side
    y = CARD_INSET if corner.startswith("top") else h - CARD_INSET - side - layout.label_mm
    return x, y, side, side + layout.label_mm


def max_module_mm(layout: Layout) -> float:
    """The biggest module whose code (with quiet zone) fits this layout's sticker or patch."""
    w, h = layout.size
    modules = TAG_CODE.box_modules
    if layout.shape == "card":
        side = min(w * layout.max_patch, h - layout.label_mm - 2 * CARD_INSET)
    elif layout.shape == "round":
        side = round_code_share(w)
    else:
        side = min(w - 2 * STICKER_MARGIN, h - layout.label_mm - 2 * STICKER_MARGIN)
    return side / modules


def round_code_share(diameter: float) -> float:
    # The code's square (with its quiet zone) is 0.66 D wide, its top 0.10 D below the rim: the dark
    # modules' corners stay well inside the circle (only quiet-zone corners touch the rim) and a band
    # is left under it for the label (see _round_sticker).
    return 0.66 * diameter


def _grid(layout: Layout, paper_size: tuple[float, float]) -> list[tuple[float, float]]:
    """Top-left corners of every cell of one page, row by row."""
    pw, ph = paper_size
    (w, h), (gx, gy) = layout.size, layout.gap
    if layout.grid is not None:
        cols, rows = layout.grid
        x0 = (pw - (cols * w + (cols - 1) * gx)) / 2
        y0 = (ph - (rows * h + (rows - 1) * gy)) / 2
    else:
        cols = int((pw - 2 * SIDE_MARGIN + gx) // (w + gx))
        rows = int((ph - TOP_MARGIN - BOTTOM_MARGIN + gy) // (h + gy))
        if cols < 1 or rows < 1:
            raise ValueError(f"a {layout.size[0]:g} x {layout.size[1]:g} mm cell does not fit on this paper")
        x0 = (pw - (cols * w + (cols - 1) * gx)) / 2
        y0 = TOP_MARGIN + (ph - TOP_MARGIN - BOTTOM_MARGIN - (rows * h + (rows - 1) * gy)) / 2
    return [(x0 + c * (w + gx), y0 + r * (h + gy)) for r in range(rows) for c in range(cols)]


def build(catalog: Catalog, layout: str | Layout, camera: geometry.Camera | None = None,
          module_mm: float | None = None, paper: str | None = None,
          min_ppm: float = geometry.MIN_PIXELS_PER_MODULE, private: dict[CardRef, str] | None = None,
          corner: str | None = None) -> Sheet:
    """Plan the sheets for every physical copy in the catalog; ``private``: the table's private
    payload of each hidden copy (card_tags/private.py), printed instead of its readable tag. On card
    layouts each patch goes in the corner its card's face leaves free (card_tags/faces.py), or in
    ``corner`` for every card."""
    if isinstance(layout, str):
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; layouts are {', '.join(LAYOUTS)}")
        layout = LAYOUTS[layout]
    camera = camera or geometry.Camera()
    if paper is not None and layout.fixed_paper and paper != layout.paper:
        raise ValueError(f"the {layout.name} layout is a pre-cut {layout.paper.upper()} sticker sheet; it cannot be "
                         f"printed on {paper}")
    paper = paper or layout.paper
    if paper not in PAPER:
        raise ValueError(f"unknown paper {paper!r}; papers are {', '.join(PAPER)}")
    needed = geometry.min_module_mm(camera, min_ppm)
    largest = max_module_mm(layout)
    warnings = []
    if module_mm is None:
        # A card patch is as small as reads well (it covers the card's art); a sticker is filled.
        wanted = math.ceil(needed * 100) / 100 if layout.shape == "card" else largest
        module_mm = min(wanted, largest)
    elif module_mm <= 0:
        raise ValueError("the module size must be positive")
    elif module_mm > largest:
        raise ValueError(f"a {module_mm:g} mm module makes a {code_box_mm(module_mm):.1f} mm code, bigger than the "
                         f"{layout.name} layout allows ({code_box_mm(largest):.1f} mm)")
    tag_fit = geometry.fit(camera, module_mm, min_ppm)
    warning = tag_fit.warning(camera, f"the tags on {layout.name}")
    if warning:
        warnings.append(warning)
    cells = _grid(layout, PAPER[paper])
    private = private or {}
    old_style = catalog.game in HIDDEN_RANKS and not private
    named = hidden_names(catalog) if old_style else card_names(catalog)
    if corner is not None and corner not in faces.CORNERS:
        raise ValueError(f"a patch goes in one of the corners {', '.join(faces.CORNERS)}, not {corner!r}")
    face = faces.deck_face(catalog.game)
    pages: list[list[Placed]] = []
    for index, ref in enumerate(catalog.refs()):
        if index % len(cells) == 0:
            pages.append([])
        name, copies = named[ref]
        x, y = cells[index % len(cells)]
        where = corner or (face.of(catalog[ref.card].kind).corner if face else "bottom-right")
        if ref in private:
            pages[-1].append(Placed(ref, name, copies, private[ref], x, y, True, private_label(catalog, ref, private[ref]),
                                    where))
        else:
            pages[-1].append(Placed(ref, name, copies, encode(ref), x, y, old_style, corner=where))
    key = hidden_key(catalog) if old_style else ""
    guides = [placement_guide(catalog, page) for page in pages] if private and layout.shape != "card" else []
    return Sheet(catalog.title, catalog.game, layout, PAPER[paper], module_mm, tag_fit, camera, pages, warnings, key,
                 guides)


def private_label(catalog: Catalog, ref: CardRef, payload: str) -> str:
    """A private tag's sticker text: the piece's colour if it has one (seen by all anyway) and the
    first four characters of its code; never its name or rank."""
    short = payload.split(":")[2][:4]
    colour = str(catalog[ref.card].attrs.get("colour", "")).capitalize()
    return f"{colour} {short}" if colour else short


def placement_guide(catalog: Catalog, page: list[Placed]) -> list[str]:
    """Which card each private sticker of a page goes on, in sheet order (row by row), one line per
    colour: "Red: Marshal, General, 2 Colonel...". It is printed in the page's margin, not on any
    sticker, and says nothing once the stickers are peeled."""
    runs: dict[str, list[list[Any]]] = {}
    for placed in page:
        if placed.shown is None:
            continue
        colour = str(catalog[placed.ref.card].attrs.get("colour", "")).capitalize()
        line = runs.setdefault(colour, [])
        if line and line[-1][0] == catalog[placed.ref.card].name:
            line[-1][1] += 1
        else:
            line.append([catalog[placed.ref.card].name, 1])
    return [(f"{colour}: " if colour else "") + ", ".join(f"{n} {name}" if n > 1 else name for name, n in line)
            for colour, line in runs.items()]


# -- drawing ----------------------------------------------------------------------------------------
def text_width_mm(text: str, size_pt: float) -> float:
    """Width of Helvetica text (the PDF's font; the SVG asks for Helvetica or Arial, whose widths match)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]  # reportlab has no stubs

    return float(stringWidth(text, "Helvetica", size_pt)) * MM_PER_PT


def fitted_text(text: str, x: float, y: float, max_w: float, max_h: float, anchor: str = "middle",
                color: str = "#000000", largest_pt: float = 7.0) -> Text:
    """The text at the biggest size up to largest_pt that fits max_w x max_h, shortened if it must be."""
    size = min(largest_pt, max_h / MM_PER_PT)
    while size > MIN_FONT_PT and text_width_mm(text, size) > max_w:
        size -= 0.25
    size = max(size, MIN_FONT_PT)
    while len(text) > 1 and text_width_mm(text, size) > max_w:
        text = text[:-2].rstrip() + "\u2026"
    return Text(x, y, round(size, 2), text, anchor, color)


def _code_items(placed: Placed, x: float, y: float, module: float) -> list[Item]:
    """A white quiet zone and the code, its top-left corner (of the quiet zone) at x, y."""
    quiet = TAG_CODE.quiet * module
    side = code_box_mm(module)
    return [Box(x, y, side, side, fill="#ffffff"),
            Code(x + quiet, y + quiet, module, qr_runs(placed.payload))]


def _card(placed: Placed, layout: Layout, module: float) -> list[Item]:
    w, h = layout.size
    x, y, side, _ = patch_box(layout, module, placed.corner)
    label = layout.label_mm
    px, py = placed.x + x, placed.y + y
    if placed.corner.startswith("bottom"):   # the card's name stays clear of a big patch
        name_y = min(placed.y + h * 0.32, py - 7)
    else:
        name_y = max(placed.y + h * 0.68, py + side + label + 7)
    items: list[Item] = [
        Box(placed.x, placed.y, w, h, stroke=GUIDE_GREY),                    # the card's outline
        fitted_text(placed.name, placed.x + w / 2, name_y, w - 8, 6, color=CARD_NAME_GREY, largest_pt=14),
        fitted_text(f"copy {placed.ref.copy} of {placed.copies}", placed.x + w / 2, name_y + 5,
                    w - 8, 3.5, color=CARD_NAME_GREY),
        Box(px, py, side, side + label, stroke="#000000", dashed=True),    # cut here
    ]
    items += _code_items(placed, px, py, module)
    items.append(fitted_text(placed.label, px + side / 2, py + side + label * 0.72, side - 1.6, label * 0.8))
    return items


def _rect_sticker(placed: Placed, layout: Layout, module: float) -> list[Item]:
    w, h = layout.size
    side = code_box_mm(module)
    cx = placed.x + w / 2
    top = placed.y + STICKER_MARGIN
    items: list[Item] = [Box(placed.x, placed.y, w, h, stroke=GUIDE_GREY)]
    items += _code_items(placed, cx - side / 2, top, module)
    items.append(fitted_text(placed.label, cx, top + side + layout.label_mm * 0.72, w - 2 * STICKER_MARGIN,
                             layout.label_mm * 0.8))
    return items


def _round_sticker(placed: Placed, layout: Layout, module: float) -> list[Item]:
    d = layout.size[0]
    side = code_box_mm(module)
    cx, cy = placed.x + d / 2, placed.y + d / 2
    top = placed.y + 0.10 * d + (round_code_share(d) - side) / 2
    items: list[Item] = [Circle(cx, cy, d / 2)]
    items += _code_items(placed, cx - side / 2, top, module)
    band = min(layout.label_mm, 0.13 * d)
    items.append(fitted_text(placed.label, cx, top + side + band * 0.8, 0.72 * d, band * 0.8))
    return items


DRAW = {"card": _card, "rect": _rect_sticker, "round": _round_sticker}


def _header(sheet: Sheet, index: int) -> list[Item]:
    pw = sheet.paper_size[0]
    y = 6.0
    fit = sheet.fit
    title = (f"{sheet.title} - {sheet.layout.title} - page {index + 1} of {len(sheet.pages)} - "
             f"print at 100% (actual size)")
    detail = (f"tags {geometry.tag_mm(sheet.module_mm):.1f} mm, {sheet.module_mm:.2f} mm/module: "
              f"{fit.pixels_per_module:.1f} px/module at {sheet.camera.height_mm:g} mm")
    bar_x = pw - 6 - 50
    items: list[Item] = [
        fitted_text(title, 6, y - 2.2, bar_x - 10, 2.6, anchor="start"),
        fitted_text(detail, 6, y + 0.8, bar_x - 10, 2.4, anchor="start", color="#555555"),
        Box(bar_x, y - 1.0, 50, 1.0, fill="#000000"),
        Text(bar_x + 25, y - 1.8, 5, "50 mm", "middle"),
    ]
    items += [Box(bar_x + 10 * i, y - 1.8, 0.2, 1.8, fill="#000000") for i in range(6)]
    if sheet.key:
        items.append(fitted_text(f"Key, the same for each colour (keep this sheet away from the table): {sheet.key}",
                                 6, y + 3.4, pw - 12, 2.4, anchor="start"))
    guide = sheet.guides[index] if index < len(sheet.guides) else []
    if guide:
        items.append(fitted_text("Stick on in sheet order, row by row; the stickers name nothing once peeled "
                                 "(keep this sheet away from the table):", 6, y + 3.4, pw - 12, 2.4, anchor="start"))
        items += [fitted_text(line, 6, y + 6.2 + 2.8 * i, pw - 12, 2.4, anchor="start") for i, line in enumerate(guide)]
    return items


def page_items(sheet: Sheet, index: int) -> list[Item]:
    draw = DRAW[sheet.layout.shape]
    items = _header(sheet, index)
    for placed in sheet.pages[index]:
        items += draw(placed, sheet.layout, sheet.module_mm)
    return items


# -- rendering --------------------------------------------------------------------------------------
def to_svg(sheet: Sheet, index: int) -> str:
    """One page as a standalone SVG whose user unit is the millimetre."""
    pw, ph = sheet.paper_size
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw:g}mm" height="{ph:g}mm" '
           f'viewBox="0 0 {pw:g} {ph:g}">',
           f'<title>{escape(sheet.title)}: {escape(sheet.layout.title)}, page {index + 1}</title>',
           f'<rect width="{pw:g}" height="{ph:g}" fill="#ffffff"/>']
    for item in page_items(sheet, index):
        out.append(_svg_item(item))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_stroke(stroke: str | None, width: float, dashed: bool) -> str:
    if not stroke:
        return 'stroke="none"'
    dash = ' stroke-dasharray="1.2 0.8"' if dashed else ""
    return f'stroke="{stroke}" stroke-width="{width:g}"{dash}'


def _svg_item(item: Item) -> str:
    if isinstance(item, Box):
        return (f'<rect x="{item.x:.3f}" y="{item.y:.3f}" width="{item.w:.3f}" height="{item.h:.3f}" '
                f'fill="{item.fill or "none"}" {_svg_stroke(item.stroke, item.width, item.dashed)}/>')
    if isinstance(item, Circle):
        return (f'<circle cx="{item.cx:.3f}" cy="{item.cy:.3f}" r="{item.r:.3f}" fill="none" '
                f'{_svg_stroke(item.stroke, item.width, item.dashed)}/>')
    if isinstance(item, Text):
        return (f'<text x="{item.x:.3f}" y="{item.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
                f'font-size="{item.size_pt * MM_PER_PT:.3f}" text-anchor="{item.anchor}" '
                f'fill="{item.color}">{escape(item.text)}</text>')
    m = item.module
    path = "".join(f"M{item.x + c * m:.3f} {item.y + r * m:.3f}h{n * m:.3f}v{m:.3f}h{-n * m:.3f}z"
                   for r, c, n in item.runs)
    return f'<path d="{path}" fill="#000000" shape-rendering="crispEdges"/>'


def to_pdf(sheet: Sheet) -> bytes:
    """Every page in one PDF, page size exactly the paper's, drawn in millimetres."""
    import io

    from reportlab.pdfgen import canvas  # type: ignore[import-untyped]

    buffer = io.BytesIO()
    pw, ph = sheet.paper_size
    pdf = canvas.Canvas(buffer, pagesize=(pw * PT_PER_MM, ph * PT_PER_MM), pageCompression=1)
    pdf.setTitle(f"{sheet.title}: {sheet.layout.title}")
    pdf.setCreator("table companion (card_tags.sheets)")
    for index in range(len(sheet.pages)):
        # Flip to millimetres with y growing downwards, as the items are written.
        pdf.translate(0, ph * PT_PER_MM)
        pdf.scale(PT_PER_MM, -PT_PER_MM)
        for item in page_items(sheet, index):
            _pdf_item(pdf, item)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _pdf_item(pdf: Any, item: Item) -> None:
    if isinstance(item, Code):
        path = pdf.beginPath()
        m = item.module
        for r, c, n in item.runs:
            path.rect(item.x + c * m, item.y + r * m, n * m, m)
        pdf.setFillColor("#000000")
        pdf.drawPath(path, stroke=0, fill=1)
        return
    if isinstance(item, Text):
        pdf.saveState()
        pdf.setFillColor(item.color)
        pdf.translate(item.x, item.y)
        pdf.scale(1, -1)  # text upright again in the flipped coordinates
        pdf.setFont("Helvetica", item.size_pt * MM_PER_PT)
        draw = pdf.drawCentredString if item.anchor == "middle" else pdf.drawString
        draw(0, 0, item.text)
        pdf.restoreState()
        return
    stroke = getattr(item, "stroke", None)
    fill = getattr(item, "fill", None)
    pdf.saveState()
    if stroke:
        pdf.setStrokeColor(stroke)
        pdf.setLineWidth(item.width)
        if item.dashed:
            pdf.setDash([1.2, 0.8])
    if fill:
        pdf.setFillColor(fill)
    if isinstance(item, Circle):
        pdf.circle(item.cx, item.cy, item.r, stroke=1 if stroke else 0, fill=0)
    else:
        pdf.rect(item.x, item.y, item.w, item.h, stroke=1 if stroke else 0, fill=1 if fill else 0)
    pdf.restoreState()


def pages_json(sheet: Sheet) -> str:
    """The text of every code on each page, in page order: what a photograph of a printed page
    must read (``companion bench label-photos`` makes a photo folder's truth.json from it)."""
    pages = [[placed.payload for placed in page] for page in sheet.pages]
    return json.dumps({"game": sheet.game, "layout": sheet.layout.name, "pages": pages}, indent=1) + "\n"


def write(sheet: Sheet, out_dir: str | Path, stem: str | None = None) -> list[Path]:
    """Write STEM.pdf, the SVG page(s) (STEM.svg, or STEM-p1.svg... for several pages) and
    STEM-pages.json (the codes on each page)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = stem or f"{sheet.game}-{sheet.layout.name}"
    written = [out_dir / f"{stem}.pdf"]
    written[0].write_bytes(to_pdf(sheet))
    for index in range(len(sheet.pages)):
        name = f"{stem}.svg" if len(sheet.pages) == 1 else f"{stem}-p{index + 1}.svg"
        path = out_dir / name
        path.write_text(to_svg(sheet, index), encoding="utf-8")
        written.append(path)
    written.append(out_dir / f"{stem}-pages.json")
    written[-1].write_text(pages_json(sheet), encoding="utf-8")
    return written
