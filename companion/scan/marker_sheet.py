"""The printable marker sheet (`companion mat print`): the four corner markers at 100% scale;
with ``--game``, the whole mat of that game at true size.

One page (A4 or Letter) holds the four ArUco markers of calibration.py, each a 50 mm black square
inside a cut line that leaves the white border ArUco needs, labelled with its id and the corner
it goes to, plus a 100 mm bar to check that the printer did not scale the page. Written as PDF
(vector, by hand: no PDF library needed), SVG (vector) or PNG (300 dpi, with the resolution
recorded in the file so that image viewers print it at size).

The mat of a game (``mat_layout``): the 900 x 600 mm play area with the four markers where
calibration expects them and every zone the game declares (zones.py: each seat's area of the
battlefield, the centre pile, the covered scan tray) outlined and labelled, so that players
know where to lay what. As PDF it is tiled onto the paper (cut along the dashed edges, tape the
pages edge to edge: each page says which row and column it is); as SVG or PNG, one picture of
the whole mat at size (for a print shop, or to look at).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.scan.calibration import (MARKER_INSET_MM, MARKER_MM, MARKER_PAPER_MARGIN_MM, MARKER_IDS,
                                        marker_corners_mm, marker_image)

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CORNERS = {0: "far-left", 1: "far-right", 2: "near-right", 3: "near-left"}
PNG_DPI = 300
TILE_MARGIN_MM = 12.0   # what a home printer cannot print near the paper's edge, and room for the labels
# What each kind of zone is for, printed in it (the game's own words are on the tablet).
ZONE_WORDS = {
    "seat": "cards played here, face up: this seat's part of the battlefield",
    "center": "the shared pile, face up",
    "tray": "a hidden card lies here FACE UP under the cover; only the camera sees it",
}


@dataclass
class Shape:
    """A drawing instruction in page millimetres (origin top-left, y down)."""

    kind: str            # "rect" (filled black), "frame" (thin grey cut line), "text"
    x: float
    y: float
    w: float = 0.0
    h: float = 0.0
    text: str = ""
    size: float = 3.5    # text height, mm


def layout(paper: str = "a4") -> tuple[tuple[float, float], list[Shape]]:
    """The page size and everything on it, in millimetres."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    width, height = PAPERS[paper]
    shapes = [Shape("text", 15, 18, text="Table companion: play mat corner markers", size=5),
              Shape("text", 15, 25, text=f"Cut along the grey lines. Stick each marker in its corner of the play area, "
                                         f"its black square {MARKER_INSET_MM:.0f} mm from both edges,", size=3),
              Shape("text", 15, 30, text="with the label below it readable from the near edge (where seat 1 sits). "
                                         "Print at 100% (no 'fit to page').", size=3)]
    paper_mm = MARKER_MM + 2 * MARKER_PAPER_MARGIN_MM
    cells = 6  # a 4x4 ArUco marker is 6 x 6 cells with its black border
    cell = MARKER_MM / cells
    positions = {0: (25, 45), 1: (width - 25 - paper_mm, 45),
                 3: (25, 45 + paper_mm + 30), 2: (width - 25 - paper_mm, 45 + paper_mm + 30)}
    for marker_id in MARKER_IDS:
        px, py = positions[marker_id]
        shapes.append(Shape("frame", px, py, paper_mm, paper_mm))
        bits = marker_image(marker_id, cells)
        mx, my = px + MARKER_PAPER_MARGIN_MM, py + MARKER_PAPER_MARGIN_MM
        for row in range(cells):
            for col in range(cells):
                if bits[row, col] < 128:
                    shapes.append(Shape("rect", mx + col * cell, my + row * cell, cell, cell))
        shapes.append(Shape("text", px, py + paper_mm + 6, text=f"marker {marker_id}: {CORNERS[marker_id]} corner", size=3.5))
    bar_y = 45 + 2 * (paper_mm + 30) + 10
    shapes.append(Shape("rect", 25, bar_y, 100, 3))
    shapes.append(Shape("text", 25, bar_y + 9, text="this bar must measure 100 mm", size=3))
    shapes.append(Shape("text", 25, bar_y + 20, text="Then run `companion serve` and open the calibration page: "
                                                     "all four markers should show as found.", size=3))
    return (width, height), shapes


def _marker_cells(marker_id: int, x: float, y: float) -> list[Shape]:
    """A marker's black cells, its black square's top-left corner at (x, y) mm."""
    cells = 6
    cell = MARKER_MM / cells
    bits = marker_image(marker_id, cells)
    return [Shape("rect", x + col * cell, y + row * cell, cell, cell)
            for row in range(cells) for col in range(cells) if bits[row, col] < 128]


def mat_layout(game: str, seats: int) -> tuple[tuple[float, float], list[Shape]]:
    """The whole mat of a game at true size: markers where calibration expects them, zones labelled."""
    from companion.scan.zones import ZoneMap

    zones = ZoneMap.for_game(game, seats)
    width, height = zones.mat_mm
    shapes = [Shape("frame", 0, 0, width, height)]
    for marker_id, corners in marker_corners_mm(zones.mat_mm).items():
        x, y = corners[0]
        shapes += _marker_cells(marker_id, float(x), float(y))
        shapes.append(Shape("text", float(x), float(y) + MARKER_MM + 7, text=f"marker {marker_id}", size=4))
    for zone in zones.zones:
        kind = zone.name.partition(":")[0]
        shapes.append(Shape("frame", zone.x, zone.y, zone.w, zone.h))
        label = "covered scan tray" if kind == "tray" else zone.label or zone.name
        shapes.append(Shape("text", zone.x + 4, zone.y + 12, text=label, size=8))
        words = ZONE_WORDS.get(kind, "")
        for n, line in enumerate(_wrapped(words, max(int(zone.w / 2.2), 12))):
            shapes.append(Shape("text", zone.x + 4, zone.y + 20 + 6 * n, text=line, size=3.5))
    shapes.append(Shape("text", width / 2 - 70, height - 1.5, text=f"{game} mat, {seats} seats: this is the near "
                                                                    f"edge (seat 1 at the right)", size=3.5))
    return (width, height), shapes


def _wrapped(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def page_size(size: tuple[float, float], paper: str) -> tuple[float, float]:
    """The paper, upright or on its side: whichever takes fewer pages for the mat."""
    upright = PAPERS[paper]
    sideways = upright[::-1]
    return min(upright, sideways, key=lambda page: _count(size, page))


def _count(size: tuple[float, float], page: tuple[float, float]) -> int:
    return (int(np.ceil(size[0] / (page[0] - 2 * TILE_MARGIN_MM))) *
            int(np.ceil(size[1] / (page[1] - 2 * TILE_MARGIN_MM))))


def tiles(size: tuple[float, float], paper: str) -> list[tuple[str, float, float, float, float]]:
    """The paper pages a mat is printed on: (name, x, y, w, h) of the part of the mat each holds."""
    page_w, page_h = page_size(size, paper)
    step_w, step_h = page_w - 2 * TILE_MARGIN_MM, page_h - 2 * TILE_MARGIN_MM
    cols, rows = int(np.ceil(size[0] / step_w)), int(np.ceil(size[1] / step_h))
    return [(f"row {r + 1} of {rows}, column {c + 1} of {cols}", c * step_w, r * step_h,
             min(step_w, size[0] - c * step_w), min(step_h, size[1] - r * step_h))
            for r in range(rows) for c in range(cols)]


def write_mat(path: Path, game: str, seats: int, paper: str = "a4", dpi: int = PNG_DPI) -> int:
    """The mat of a game: a PDF tiled onto ``paper`` pages, or one SVG or PNG; the number of pages."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    suffix = path.suffix.lower()
    size, shapes = mat_layout(game, seats)
    if suffix == ".svg":
        path.write_bytes(_svg(size, shapes))
        return 1
    if suffix == ".png":
        ok, data = cv2.imencode(".png", render_png(size, shapes, dpi))
        if not ok:
            raise ValueError("could not encode the PNG")
        path.write_bytes(_with_dpi(data.tobytes(), dpi))
        return 1
    if suffix != ".pdf":
        raise ValueError(f"cannot write {path.name}: use a .pdf, .svg or .png file name")
    page_w, page_h = page_size(size, paper)
    pages = []
    m = TILE_MARGIN_MM
    for name, x, y, w, h in tiles(size, paper):
        moved = [Shape(s.kind, s.x - x + m, s.y - y + m, s.w, s.h, s.text, s.size) for s in shapes]
        label = Shape("text", m, m - 4, text=f"{game} mat, page {name}: cut along the dashed edge, tape edge to edge",
                      size=3)
        pages.append(([Shape("frame", m, m, w, h), label], moved, (m, m, w, h)))
    path.write_bytes(_pdf_pages((page_w, page_h), pages))
    return len(pages)


# --- writers -----------------------------------------------------------------------------------------

def write_sheet(path: Path, paper: str = "a4") -> None:
    suffix = path.suffix.lower()
    writers = {".pdf": _pdf, ".svg": _svg, ".png": _png}
    if suffix not in writers:
        raise ValueError(f"cannot write {path.name}: use a .pdf, .svg or .png file name")
    size, shapes = layout(paper)
    path.write_bytes(writers[suffix](size, shapes))


def _pdf(size, shapes) -> bytes:
    return _pdf_pages(size, [([], shapes, None)])


def _pdf_ops(h: float, shapes: list[Shape]) -> list[str]:
    pt = 72 / 25.4
    ops = []
    for s in shapes:
        if s.kind == "rect":
            ops.append(f"0 g {s.x * pt:.2f} {(h - s.y - s.h) * pt:.2f} {s.w * pt:.2f} {s.h * pt:.2f} re f")
        elif s.kind == "frame":
            ops.append(f"0.6 G 0.5 w [3 2] 0 d {s.x * pt:.2f} {(h - s.y - s.h) * pt:.2f} {s.w * pt:.2f} {s.h * pt:.2f} re S [] 0 d")
        else:
            text = s.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT /F1 {s.size * pt:.1f} Tf 0 g {s.x * pt:.2f} {(h - s.y) * pt:.2f} Td ({text}) Tj ET")
    return ops


def _pdf_pages(size, pages: list[tuple[list[Shape], list[Shape], tuple | None]]) -> bytes:
    """A PDF of pages, each (shapes drawn as they are, shapes clipped to the box, the box in mm or None)."""
    pt = 72 / 25.4
    w, h = size
    page_numbers = [4 + 2 * i for i in range(len(pages))]
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{' '.join(f'{n} 0 R' for n in page_numbers)}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for number, (plain, clipped, box) in zip(page_numbers, pages, strict=True):
        ops = _pdf_ops(h, plain)
        if box is not None:
            bx, by, bw, bh = box
            ops.append(f"q {bx * pt:.2f} {(h - by - bh) * pt:.2f} {bw * pt:.2f} {bh * pt:.2f} re W n")
        ops += _pdf_ops(h, clipped)
        if box is not None:
            ops.append("Q")
        content = "\n".join(ops).encode("latin-1", errors="replace")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w * pt:.2f} {h * pt:.2f}] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {number + 1} 0 R >>".encode())
        objects.append(b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _svg(size, shapes) -> bytes:
    w, h = size
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>']
    for s in shapes:
        if s.kind == "rect":
            parts.append(f'<rect x="{s.x:.3f}" y="{s.y:.3f}" width="{s.w:.3f}" height="{s.h:.3f}" fill="black"/>')
        elif s.kind == "frame":
            parts.append(f'<rect x="{s.x:.3f}" y="{s.y:.3f}" width="{s.w:.3f}" height="{s.h:.3f}" fill="none" '
                         f'stroke="#999" stroke-width="0.2" stroke-dasharray="1,0.7"/>')
        else:
            text = s.text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            parts.append(f'<text x="{s.x:.3f}" y="{s.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
                         f'font-size="{s.size:.2f}">{text}</text>')
    parts.append("</svg>")
    return "\n".join(parts).encode()


def render_png(size, shapes, dpi: int = PNG_DPI) -> np.ndarray:
    scale = dpi / 25.4
    w, h = size
    image = np.full((round(h * scale), round(w * scale)), 255, np.uint8)
    for s in shapes:
        x0, y0 = round(s.x * scale), round(s.y * scale)
        if s.kind == "rect":
            image[y0:round((s.y + s.h) * scale), x0:round((s.x + s.w) * scale)] = 0
        elif s.kind == "frame":
            cv2.rectangle(image, (x0, y0), (round((s.x + s.w) * scale), round((s.y + s.h) * scale)), 150, 2)
        else:
            font_scale = s.size * scale / 22.0
            cv2.putText(image, s.text, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, font_scale, 0, max(1, round(font_scale * 2)), cv2.LINE_AA)
    return image


def _png(size, shapes) -> bytes:
    ok, data = cv2.imencode(".png", render_png(size, shapes))
    if not ok:
        raise ValueError("could not encode the PNG")
    return _with_dpi(data.tobytes(), PNG_DPI)


def _with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk (pixels per metre) after IHDR, so the PNG prints at its true size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    end_of_ihdr = 8 + 4 + 4 + 13 + 4
    return png[:end_of_ihdr] + chunk + png[end_of_ihdr:]
