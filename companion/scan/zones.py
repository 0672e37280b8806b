"""Zones of the play mat, in mat millimetres: which seat's area a card lies in.

Zones are rectangles on the mat (origin at the far-left corner, x to the right, y towards the
near edge), so they do not depend on where the camera is: calibration turns frame pixels into
mat millimetres, and ``zone_at`` does the rest.

Layout for N seats (``ZoneMap.for_game``): seats are numbered clockwise around the table, as
seen from above with the far edge at the top. ceil(N/2) seats sit along the near edge, numbered
right to left, and the rest along the far edge, numbered left to right; each seat's zone is its
part of the battlefield, in front of it. A game that uses a shared centre pile gets a "center"
band across the middle, and one that shows cards on a scan tray gets a "tray" on the right.
The corners hold the calibration markers, so no zone reaches into them::

      far edge
    ┌──┬──────────┬──────────┬──────────┬──┐
    │0 │  seat:4  │  seat:5  │  seat:6  │ 1│
    │  ├──────────┴──────────┴──────────┤  │
    │  │        center (if used)        │  │
    │  ├──────────┬──────────┬──────────┤  │
    │3 │  seat:3  │  seat:2  │  seat:1  │ 2│
    └──┴──────────┴──────────┴──────────┴──┘
      near edge (seat 1 at the right)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from companion.scan.calibration import MAT_MM, MARKER_INSET_MM, MARKER_MM, marker_corners_mm

CARD_MM = (63.0, 88.0)
SLOT_GAP_MM = 16.0   # room for neighbouring cards turned up to about 10 degrees
EDGE_MM = 5.0
SIDE_MM = MARKER_INSET_MM + MARKER_MM + 10.0   # keep zones clear of the marker columns
CENTER_BAND_MM = 124.0   # one row of cards with their slot gaps
TRAY_MM = (110.0, 300.0)

MAX_SEATS = 10


@dataclass(frozen=True)
class Zone:
    name: str
    x: float
    y: float
    w: float
    h: float
    label: str = ""

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    def distance_inside(self, x: float, y: float) -> float:
        """How far (mm) a point lies inside this zone; negative when outside."""
        return min(x - self.x, self.x + self.w - x, y - self.y, self.y + self.h - y)

    def as_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "x": round(self.x, 1), "y": round(self.y, 1),
                "w": round(self.w, 1), "h": round(self.h, 1)}


class ZoneMap:
    """The zones of one game's mat layout. Build one with ``ZoneMap.for_game``."""

    def __init__(self, zones: list[Zone], mat_mm=MAT_MM, game: str = "", seats: int = 0):
        names = [z.name for z in zones]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate zone names in {names}")
        self.zones = list(zones)
        self.by_name = {z.name: z for z in zones}
        self.mat_mm = tuple(mat_mm)
        self.game = game
        self.seats = seats

    @classmethod
    def for_game(cls, game: str, seats: int, mat_mm=MAT_MM, kinds: tuple[str, ...] | None = None) -> "ZoneMap":
        """The mat laid out for a game: a zone per seat, plus the zone kinds the game declares
        (``tray``, ``center``), taken from the game registry unless ``kinds`` is given."""
        if not 1 <= int(seats) <= MAX_SEATS:
            raise ValueError(f"a table has 1 to {MAX_SEATS} seats, not {seats}")
        if kinds is None:
            from companion.rules import zones as declared_zones  # the registry's data, not its rules

            kinds = declared_zones(game)
        extras = tuple(kinds)
        w, h = mat_mm
        left, right = SIDE_MM, w - SIDE_MM
        zones: list[Zone] = []
        if "tray" in extras:
            tw, th = TRAY_MM
            zones.append(Zone("tray", right - tw, (h - th) / 2, tw, th, "scan tray"))
            right -= tw + SLOT_GAP_MM
        top, bottom = EDGE_MM, h - EDGE_MM
        if "center" in extras:
            band_top = (h - CENTER_BAND_MM) / 2
            zones.append(Zone("center", left, band_top, right - left, CENTER_BAND_MM, "centre pile"))
            far_rows = (top, band_top)
            near_rows = (band_top + CENTER_BAND_MM, bottom)
        else:
            far_rows = (top, h / 2)
            near_rows = (h / 2, bottom)
        near = math.ceil(seats / 2)  # the near edge takes the odd seat
        zones += cls._row(range(1, near + 1), left, right, near_rows, right_to_left=True)
        zones += cls._row(range(near + 1, seats + 1), left, right, far_rows, right_to_left=False)
        return cls(zones, mat_mm, game, seats)

    @staticmethod
    def _row(seat_numbers, left: float, right: float, rows: tuple[float, float], right_to_left: bool) -> list[Zone]:
        seats = list(seat_numbers)
        if not seats:
            return []
        edges = [left + (right - left) * i / len(seats) for i in range(len(seats))] + [right]
        zones = []
        for i, seat in enumerate(seats):
            position = len(seats) - 1 - i if right_to_left else i
            x0, x1 = edges[position], edges[position + 1]
            zones.append(Zone(f"seat:{seat}", x0, rows[0], x1 - x0, rows[1] - rows[0], f"seat {seat}"))
        return zones

    def zone_at(self, mat_xy) -> str | None:
        """The zone a mat point (mm) lies in, or None (off the zones: a player's side, the corners)."""
        x, y = float(mat_xy[0]), float(mat_xy[1])
        for zone in self.zones:
            if zone.contains(x, y):
                return zone.name
        return None

    def depth_in(self, name: str, mat_xy) -> float:
        """How far (mm) a point lies inside the named zone (negative: outside). For hysteresis."""
        return self.by_name[name].distance_inside(float(mat_xy[0]), float(mat_xy[1]))

    def capacity(self, name: str) -> int:
        cols, rows = self._grid(self.by_name[name])
        return cols * rows

    def slot(self, zone: str, index: int) -> tuple[float, float]:
        """Where (card centre, mm) the index-th card of a zone lies without overlapping the others."""
        z = self.by_name.get(zone)
        if z is None:
            raise KeyError(f"no zone {zone!r} on this mat; zones are {', '.join(self.by_name)}")
        cols, rows = self._grid(z)
        if not 0 <= index < cols * rows:
            raise IndexError(f"zone {zone} holds {cols * rows} cards side by side; no slot {index}")
        pitch_x, pitch_y = CARD_MM[0] + SLOT_GAP_MM, CARD_MM[1] + SLOT_GAP_MM
        x0 = z.x + (z.w - (cols * pitch_x - SLOT_GAP_MM)) / 2 + CARD_MM[0] / 2
        y0 = z.y + (z.h - (rows * pitch_y - SLOT_GAP_MM)) / 2 + CARD_MM[1] / 2
        row, col = divmod(index, cols)
        return (x0 + col * pitch_x, y0 + row * pitch_y)

    @staticmethod
    def _grid(z: Zone) -> tuple[int, int]:
        cols = int((z.w - SLOT_GAP_MM) // (CARD_MM[0] + SLOT_GAP_MM))
        rows = int((z.h - SLOT_GAP_MM) // (CARD_MM[1] + SLOT_GAP_MM))
        return max(cols, 0), max(rows, 0)

    def to_json(self) -> dict:
        """The layout for the dashboard to draw: mat size, zones and the markers' squares."""
        return {"game": self.game, "seats": self.seats, "mat_mm": list(self.mat_mm),
                "zones": [z.as_dict() for z in self.zones],
                "markers": {str(i): c.round(1).tolist() for i, c in marker_corners_mm(self.mat_mm).items()}}
