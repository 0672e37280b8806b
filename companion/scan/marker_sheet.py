"""The printable marker sheet (`companion mat print`): the four corner markers at 100% scale.

One page (A4 or Letter) holds the four ArUco markers of calibration.py, each a 50 mm black square
inside a cut line that leaves the white border ArUco needs, labelled with its id and the corner
it goes to, plus a 100 mm bar to check that the printer did not scale the page. Written as PDF
(vector, by hand: no PDF library needed), SVG (vector) or PNG (300 dpi, with the resolution
recorded in the file so that image viewers print it at size).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.scan.calibration import MARKER_INSET_MM, MARKER_MM, MARKER_PAPER_MARGIN_MM, MARKER_IDS, marker_image

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CORNERS = {0: "far-left", 1: "far-right", 2: "near-right", 3: "near-left"}
PNG_DPI = 300


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


# --- writers -----------------------------------------------------------------------------------------

def write_sheet(path: Path, paper: str = "a4") -> None:
    suffix = path.suffix.lower()
    writers = {".pdf": _pdf, ".svg": _svg, ".png": _png}
    if suffix not in writers:
        raise ValueError(f"cannot write {path.name}: use a .pdf, .svg or .png file name")
    size, shapes = layout(paper)
    path.write_bytes(writers[suffix](size, shapes))


def _pdf(size, shapes) -> bytes:
    pt = 72 / 25.4
    w, h = size
    ops = []
    for s in shapes:
        if s.kind == "rect":
            ops.append(f"0 g {s.x * pt:.2f} {(h - s.y - s.h) * pt:.2f} {s.w * pt:.2f} {s.h * pt:.2f} re f")
        elif s.kind == "frame":
            ops.append(f"0.6 G 0.5 w [3 2] 0 d {s.x * pt:.2f} {(h - s.y - s.h) * pt:.2f} {s.w * pt:.2f} {s.h * pt:.2f} re S [] 0 d")
        else:
            text = s.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT /F1 {s.size * pt:.1f} Tf 0 g {s.x * pt:.2f} {(h - s.y) * pt:.2f} Td ({text}) Tj ET")
    content = "\n".join(ops).encode("latin-1", errors="replace")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w * pt:.2f} {h * pt:.2f}] "
        f"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".encode(),
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
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
