"""A virtual table camera: a play mat with QR-tagged cards, seen by a simulated camera.

It exists so that the demo, the tests and ``companion bench scan`` exercise the real scan path
(real QR codes from the real payload codec, real decoders, real calibration markers) without a
camera. It renders what a camera above a table would see:

- a wooden table and a 900 x 600 mm play mat with the four ArUco calibration markers at its
  corners (the same layout ``companion mat print`` prints; see calibration.MARKERS): this module;
- cards of 63 x 88 mm, each with its QR tag and its name printed under the tag, damaged tags
  (torn, scratched, half covered, smudged) and hands over the cards: virtual_cards.py;
- a pinhole camera ``CAMERA_HEIGHT_MM`` above the mat, tilted and rolled (perspective), with
  defocus blur, sensor noise, uneven lighting, an optional glare spot and JPEG compression:
  virtual_camera.py.

``VirtualTable`` holds what is on the table, composes each frame (mat, cards in the order they
were laid, hands, then the camera's look) and says what it knows of every tag in it
(``TagTruth``); ``random_layout`` lays cards out at random in the part of the mat in view.

Everything random comes from the ``seed``, so a benchmark run is reproducible. The table is
thread-safe: a demo script places and removes cards while a frame source renders it.

Geometry: mat millimetres have their origin at the far-left corner of the mat as the camera
sees it, x to the right, y towards the near edge (where seat 1 sits; see zones.py).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

import cv2
import numpy as np

from card_tags.payload import CardRef, encode

from companion.scan import calibration
from companion.scan.virtual_camera import (GLARE_WASHOUT, MAT_MM, Camera, Look, apply_optics, apply_sensor, glare_spot, light_gain,
                             mat_homography, noise_fields, project)
from companion.scan.virtual_cards import (CARD_MM, CARD_PX_PER_MM, DAMAGE_KINDS, TAG_MM, Hand, PlacedCard, card_label,
                            card_outline_mm, card_transform, hand_shapes, qr_matrix, render_card, tag_outline_mm)


@dataclass
class TagTruth:
    """What the renderer knows about a tag in the frame it just rendered (for tests and bench)."""

    text: str
    ref: CardRef | None
    corners: np.ndarray = field(repr=False)   # the QR symbol's corners in frame pixels
    px_per_module: float
    visible: float                            # fraction of the symbol in frame, uncovered, not washed out
    damage: str | None

    @property
    def readable(self) -> bool:
        """A tag a decoder should read: whole, in view, not covered."""
        return self.damage is None and self.visible >= 0.999


class VirtualTable:
    """The simulated table and camera. See the module docstring."""

    def __init__(self, width: int = 1280, height: int = 720, seed: int = 0, camera: Camera | None = None,
                 look: Look | None = None, mat_mm=MAT_MM, markers: bool = True):
        self.width, self.height = width, height
        self.seed = seed
        self.mat_mm = tuple(mat_mm)
        self.markers = markers
        self._lock = threading.Lock()
        self._items: dict[str, PlacedCard] = {}
        self._hands: dict[int, Hand] = {}
        self._next_hand = 1
        self._frame_no = 0
        self._card_cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._rng = np.random.default_rng(seed)
        self._noise: list[tuple[np.ndarray, np.ndarray]] = []
        # What is on the table changes the scene's number; the last scene's frame through the lens is kept.
        self._scene = 0
        self._still: tuple[int, np.ndarray | None] = (-1, None)
        self.camera = camera or Camera()
        self.look = look or Look()
        # A card's private tag where the table printed one (card_tags/private.py), else its readable tag.
        self.payloads: dict[CardRef, str] = {}
        self._rebuild()

    # --- what is on the table -------------------------------------------------------------

    def place(self, ref: CardRef, mat_xy, angle_deg: float = 0.0, damage: str | None = None) -> None:
        """Put a card (or move it) at mat_xy (mm, its centre), rotated by angle_deg."""
        self.place_code(self.payloads.get(ref) or encode(ref), mat_xy, angle_deg, label=card_label(ref), damage=damage,
                        ref=ref)

    def place_code(self, text: str, mat_xy, angle_deg: float = 0.0, label: str | None = None,
                   damage: str | None = None, ref: CardRef | None = None, key: str | None = None) -> None:
        """Put any QR-tagged card on the table: a foreign code (a URL), another game's tag...

        Things on the table are known by their text; give a ``key`` to lay a second card with the
        same text (a duplicated tag) and to remove it later."""
        if damage is not None and damage not in DAMAGE_KINDS:
            raise ValueError(f"unknown damage {damage!r}; choose one of {', '.join(DAMAGE_KINDS)}")
        item = PlacedCard(text, ref, label if label is not None else text[:16], (float(mat_xy[0]), float(mat_xy[1])),
                     float(angle_deg), damage, int(self._rng.integers(1 << 30)))
        with self._lock:
            self._items[key or text] = item
            self._scene += 1

    def remove(self, ref_or_key) -> bool:
        key = (self.payloads.get(ref_or_key) or encode(ref_or_key)) if isinstance(ref_or_key, CardRef) else ref_or_key
        with self._lock:
            self._scene += 1
            return self._items.pop(key, None) is not None

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._hands.clear()
            self._scene += 1

    def add_hand(self, mat_xy, angle_deg: float = 0.0, scale: float = 1.0) -> int:
        with self._lock:
            hand_id = self._next_hand
            self._next_hand += 1
            self._hands[hand_id] = Hand((float(mat_xy[0]), float(mat_xy[1])), float(angle_deg), float(scale))
            self._scene += 1
            return hand_id

    def move_hand(self, hand_id: int, mat_xy, angle_deg: float) -> None:
        with self._lock:
            hand = self._hands[hand_id]
            self._hands[hand_id] = Hand((float(mat_xy[0]), float(mat_xy[1])), float(angle_deg), hand.scale)
            self._scene += 1

    def remove_hand(self, hand_id: int) -> None:
        with self._lock:
            self._hands.pop(hand_id, None)
            self._scene += 1

    def placed(self) -> list[tuple[str, CardRef | None, tuple[float, float], float]]:
        with self._lock:
            return [(i.text, i.ref, i.xy, i.angle) for i in self._items.values()]

    # --- the camera ------------------------------------------------------------------------

    def set_camera(self, camera: Camera) -> None:
        """Move the camera (a bumped camera mount, in the calibration tests)."""
        with self._lock:
            self.camera = camera
            self._rebuild()

    def set_look(self, look: Look) -> None:
        with self._lock:
            self.look = look
            self._rebuild()

    @property
    def homography(self) -> np.ndarray:
        """Ground truth: mat mm -> frame pixels for the current camera."""
        return self._h.copy()

    def px_per_module(self, mat_xy=None) -> float:
        """How many frame pixels one QR module spans at a point of the mat (default: its centre)."""
        x, y = mat_xy if mat_xy is not None else (self.mat_mm[0] / 2, self.mat_mm[1] / 2)
        m = TAG_MM / 21
        p = project(self._h, [[x - m / 2, y - m / 2], [x + m / 2, y - m / 2], [x + m / 2, y + m / 2], [x - m / 2, y + m / 2]])
        return float(np.linalg.norm(np.roll(p, -1, axis=0) - p, axis=1).mean())

    def visible_mat_box(self, inset_mm: float = 0.0) -> tuple[float, float, float, float]:
        """The part of the mat (x0, y0, x1, y1 mm) that the frame shows, shrunk by inset_mm."""
        inverse = np.linalg.inv(self._h)
        frame = [[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]]
        corners = project(inverse, frame)
        xs, ys = np.sort(corners[:, 0]), np.sort(corners[:, 1])
        # the inner box of the (slightly trapezoidal) footprint, clipped to the mat
        x0, x1 = max(xs[1], 0.0) + inset_mm, min(xs[2], self.mat_mm[0]) - inset_mm
        y0, y1 = max(ys[1], 0.0) + inset_mm, min(ys[2], self.mat_mm[1]) - inset_mm
        return x0, y0, x1, y1

    # --- rendering -------------------------------------------------------------------------

    def render(self) -> np.ndarray:
        """A BGR camera frame of the table as it is now."""
        return self.render_with_truth(truth=False)[0]

    def render_with_truth(self, truth: bool = True) -> tuple[np.ndarray, list[TagTruth]]:
        with self._lock:
            items = list(self._items.values())
            hands = list(self._hands.values())
            h, look, frame_no, scene = self._h, self.look, self._frame_no, self._scene
            self._frame_no += 1
            gain, glare, noise = self._gain, self._glare, self._noise
            still = self._still if self._still[0] == scene else None
        hand_mask = self._hand_mask(hands, h) if hands else None
        if still is None:
            # A new scene: compose it and put it through the lens. A still one (most frames of a game)
            # reuses that, byte for byte, and only gets this frame's sensor noise.
            frame = self._background.copy()
            for item in items:
                self._draw_card(frame, item, h)
            if hand_mask is not None:
                frame[hand_mask > 127] = (120, 150, 200)
            still = (scene, apply_optics(frame, look, gain, glare))
            with self._lock:
                self._still = still
        frame = apply_sensor(still[1], look, noise, frame_no)
        truths = [self._truth(item, h, hand_mask, items[i + 1:]) for i, item in enumerate(items)] if truth else []
        return frame, truths

    def _hand_mask(self, hands: list[Hand], h: np.ndarray) -> np.ndarray:
        hand_mask = np.zeros((self.height, self.width), np.uint8)
        for hand in hands:
            for poly in hand_shapes(hand):
                cv2.fillPoly(hand_mask, [np.round(project(h, poly) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        return hand_mask

    def _draw_card(self, frame: np.ndarray, item: PlacedCard, h: np.ndarray) -> None:
        face, mask = self._card_texture(item, h)
        to_frame = h @ card_transform(item.xy, item.angle)
        ch, cw = mask.shape
        corners = project(to_frame, [[0, 0], [cw, 0], [cw, ch], [0, ch]])
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width), min(y1, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=float) @ to_frame
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(face, shift, size, flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(mask, shift, size, flags=cv2.INTER_LINEAR)
        roi = frame[y0:y1, x0:x1]
        a = alpha.astype(np.float32)[..., None] * (1 / 255)
        roi[...] = (warped * a + roi * (1 - a)).astype(np.uint8)

    def _card_texture(self, item: PlacedCard, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The card's face, pre-blurred for the camera's scale so that warping it does not alias."""
        key = (item.text, item.label, item.damage, item.damage_seed, round(self._scale, 3))
        cached = self._card_cache.get(key)
        if cached is None:
            face, mask = render_card(item)
            ratio = CARD_PX_PER_MM / max(self._scale, 1e-6)
            if ratio > 1.5:
                face = cv2.GaussianBlur(face, (0, 0), 0.35 * ratio)
            if len(self._card_cache) > 64:  # textures of cards on the table now; each placement is new
                self._card_cache.clear()
            cached = self._card_cache[key] = (face, mask)
        return cached

    def _truth(self, item: PlacedCard, h: np.ndarray, hand_mask, above: list[PlacedCard]) -> TagTruth:
        """Where the tag lies in the frame and how much of it shows: in the frame, not under a
        hand or a card laid on top of it, not washed out by glare. The check covers the symbol
        and one module of quiet zone around it (a finger on the quiet zone spoils a read too)."""
        corners = project(h, tag_outline_mm(item.xy, item.angle))
        side = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
        modules = qr_matrix(item.text).shape[0]
        region = project(h, tag_outline_mm(item.xy, item.angle, TAG_MM / modules)).astype(np.float32)
        frame_box = np.array([[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]], np.float32)
        in_frame = cv2.intersectConvexConvex(region, frame_box)[0] / max(cv2.contourArea(region), 1.0)
        (x0, y0), (x1, y1) = np.floor(region.min(axis=0)).astype(int), np.ceil(region.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width), min(y1, self.height)
        visible = 0.0
        if x1 > x0 and y1 > y0 and in_frame > 0:
            offset = np.array([x0, y0])
            tag = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(tag, [np.round(region - offset).astype(np.int32)], 255)
            cover = np.zeros_like(tag)
            for other in above:
                cv2.fillPoly(cover, [np.round(project(h, card_outline_mm(other.xy, other.angle)) - offset).astype(np.int32)], 255)
            if hand_mask is not None:
                cover |= np.where(hand_mask[y0:y1, x0:x1] > 127, 255, 0).astype(np.uint8)
            if self._glare is not None:  # where the lamp's reflection washes black modules out
                cover |= np.where(self._glare[y0:y1, x0:x1, 0] > GLARE_WASHOUT, 255, 0).astype(np.uint8)
            shown = cv2.countNonZero(tag)
            hidden = cv2.countNonZero(cv2.bitwise_and(tag, cover))
            visible = in_frame * (1 - hidden / max(shown, 1))
        return TagTruth(item.text, item.ref, corners.astype(np.float32), side / modules,
                        max(0.0, min(1.0, visible)), item.damage)

    # --- what stays the same from frame to frame ---------------------------------------------

    def _rebuild(self) -> None:
        """Recompute what depends only on the camera and the look (called under the lock)."""
        self._scene += 1
        self._h = mat_homography(self.width, self.height, self.camera, self.mat_mm)
        centre = (self.mat_mm[0] / 2, self.mat_mm[1] / 2)
        self._scale = self.px_per_module(centre) * 21 / TAG_MM
        self._background = self._render_background()
        self._gain = light_gain(self.width, self.height, self.look)
        self._glare = glare_spot(self.width, self.height, self.look)
        self._noise = noise_fields(self.width, self.height, self.seed, self.look)

    def _render_background(self) -> np.ndarray:
        rng = np.random.default_rng(self.seed + 1)
        w, h = self.width, self.height
        grain = cv2.resize(rng.normal(0, 1, (max(h // 24, 2), max(w // 3, 2))).astype(np.float32), (w, h))
        table = np.empty((h, w, 3), np.uint8)
        for channel, base in enumerate((45, 85, 130)):  # warm wood, BGR
            table[..., channel] = np.clip(base + 14 * grain, 0, 255).astype(np.uint8)
        mat_px = 1.0  # mat texture: px per mm; it is blurred by the camera anyway
        mw, mh = int(self.mat_mm[0] * mat_px), int(self.mat_mm[1] * mat_px)
        mat = np.empty((mh, mw, 3), np.uint8)
        mat[...] = (78, 62, 40)  # a dark blue-grey cloth play mat
        mat[:, :, 1] = np.clip(62 + rng.normal(0, 3, (mh, mw)), 0, 255).astype(np.uint8)
        cv2.rectangle(mat, (int(75 * mat_px), int(5 * mat_px)), (int((self.mat_mm[0] - 75) * mat_px), int((self.mat_mm[1] - 5) * mat_px)),
                      (95, 80, 60), 1, cv2.LINE_AA)
        scale = np.diag([mat_px, mat_px, 1.0])
        to_frame = self._h @ np.linalg.inv(scale)
        cv2.warpPerspective(mat, to_frame, (w, h), dst=table, borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_LINEAR)
        if self.markers:
            self._draw_markers(table)
        return table

    def _draw_markers(self, frame: np.ndarray) -> None:
        """The four ArUco markers, each on its white paper square, warped into the frame."""
        for marker_id, corners_mm in calibration.MARKERS.items():
            side_mm = calibration.MARKER_MM
            px = 8.0  # marker texture: px per mm
            paper_mm = side_mm + 2 * calibration.MARKER_PAPER_MARGIN_MM
            paper = np.full((round(paper_mm * px), round(paper_mm * px)), 240, np.uint8)
            marker = calibration.marker_image(marker_id, round(side_mm * px))
            m = round(calibration.MARKER_PAPER_MARGIN_MM * px)
            paper[m:m + marker.shape[0], m:m + marker.shape[1]] = np.where(marker > 127, 240, 30)
            x0, y0 = corners_mm[0] - calibration.MARKER_PAPER_MARGIN_MM
            to_mat = np.array([[1 / px, 0, x0], [0, 1 / px, y0], [0, 0, 1]])
            scale = self._h @ to_mat
            ratio = px / max(self._scale, 1e-6)
            paper = cv2.GaussianBlur(paper, (0, 0), 0.35 * ratio) if ratio > 1.5 else paper
            bgr = cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)
            cv2.warpPerspective(bgr, scale, (self.width, self.height), dst=frame,
                                borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_LINEAR)


def random_layout(table: VirtualTable, refs: list, rng: np.random.Generator, gap_mm: float = 6.0,
                  inset_mm: float = 75.0, overlap: bool = False, tries: int = 600, existing=()) -> list[tuple]:
    """Random positions and angles (full circle) for cards in the part of the mat in view.

    ``overlap=False``: cards do not touch. ``overlap=True``: cards may lie over each other's
    name stripe, as at a crowded table, but never over another card's tag or its quiet zone.
    ``existing``: (ref, xy, angle) of cards already on the table, to keep clear of."""
    x0, y0, x1, y1 = table.visible_mat_box()
    radius = math.hypot(*CARD_MM) / 2
    x0, y0 = max(x0, inset_mm) + radius, max(y0, 5.0) + radius
    x1, y1 = min(x1, table.mat_mm[0] - inset_mm) - radius, min(y1, table.mat_mm[1] - 5.0) - radius
    placed: list[tuple] = list(existing)

    def fits(xy, angle) -> bool:
        outline = card_outline_mm(xy, angle, 0 if overlap else gap_mm / 2).astype(np.float32)
        for _, p, a in placed:
            other = (tag_outline_mm(p, a, 3.0) if overlap else card_outline_mm(p, a, gap_mm / 2)).astype(np.float32)
            if cv2.intersectConvexConvex(outline, other)[0] > 0:
                return False
            if overlap and cv2.intersectConvexConvex(tag_outline_mm(xy, angle, 3.0).astype(np.float32),
                                                     card_outline_mm(p, a).astype(np.float32))[0] > 0:
                return False  # keep the new tag off earlier cards too: their edges would cut its quiet zone
        return True

    for ref in refs:
        for _ in range(tries):
            xy = (float(rng.uniform(x0, max(x1, x0 + 1))), float(rng.uniform(y0, max(y1, y0 + 1))))
            angle = float(rng.uniform(0, 360))
            if fits(xy, angle):
                placed.append((ref, xy, angle))
                break
        else:
            raise ValueError(f"could not fit {len(refs)} cards in the {x1 - x0 + 2 * radius:.0f} x "
                             f"{y1 - y0 + 2 * radius:.0f} mm of mat in view")
    return placed[len(existing):]
