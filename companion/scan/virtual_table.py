"""A virtual table camera: a play mat with QR-tagged cards, seen by a simulated camera.

It exists so that the demo, the tests and ``companion bench scan`` exercise the real scan path
(real QR codes from the real payload codec, real decoders, real calibration markers) without a
camera. It renders what a camera above a table would see:

- a wooden table and a 900 x 600 mm play mat with the four ArUco calibration markers at its
  corners (the same layout ``companion mat print`` prints; see calibration.MARKERS);
- cards of 63 x 88 mm, each with its QR tag (``TAG_MM`` square, generated with segno from
  ``card_tags.payload.encode``) and its name printed under the tag;
- a pinhole camera ``CAMERA_HEIGHT_MM`` above the mat, tilted and rolled (perspective), with
  defocus blur, sensor noise, uneven lighting, an optional glare spot and JPEG compression;
- hands (skin-coloured blobs) over the cards, and damaged tags (torn, scratched, half covered,
  smudged) for the bad-input tests and the benchmark's false-read count.

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
import segno

from card_tags.payload import CardRef, encode

from . import calibration

MAT_MM = (900.0, 600.0)
CARD_MM = (63.0, 88.0)
TAG_MM = 52.0             # side of the QR symbol itself (21 modules; quiet zone is the card's white)
TAG_TOP_MM = 4.5          # from the card's top edge to the symbol
CAMERA_HEIGHT_MM = 700.0  # the lens above the mat's centre (50-80 cm at a real table)
MODULE_PX = 8             # card texture: pixels per QR module
CARD_PX_PER_MM = MODULE_PX * 21 / TAG_MM

DAMAGE_KINDS = ("torn", "scratched", "half", "smudged")
NOISE_PAD = 61            # noise fields are this much larger than the frame (see _apply_look)
GLARE_WASHOUT = 160       # glare adding more than this (of 255) leaves a black module nearly white


@dataclass(frozen=True)
class Camera:
    """Where the simulated camera is and how it looks at the mat.

    ``px_per_mm`` is the scale at the mat point seen at the frame's centre; None fits the whole
    mat (and its markers) in the frame. ``look_at_mm`` is that point (None: the mat's centre).
    """

    tilt_deg: float = 10.0
    roll_deg: float = 1.5
    height_mm: float = CAMERA_HEIGHT_MM
    px_per_mm: float | None = None
    look_at_mm: tuple[float, float] | None = None
    margin_mm: float = 12.0


@dataclass(frozen=True)
class Look:
    """Image conditions: optics, sensor, light."""

    blur_sigma: float = 0.7       # defocus, pixels
    noise_sigma: float = 3.0      # sensor noise, grey levels
    vignette: float = 0.25        # uneven lighting: fraction of light lost at the darkest corner
    glare: float = 0.0            # glare spot strength (0: none, 1: saturates at its core)
    glare_at: tuple[float, float] = (0.62, 0.45)   # where the lamp reflects, as frame fractions
    glare_radius: float = 0.10    # in frame widths
    jpeg_quality: int | None = None
    exposure: float = 1.0         # low light: the share of the light the sensor gets (noise is added after)


@dataclass
class _Item:
    """One thing on the table: a card (ref) or any other QR-tagged object (text only)."""

    text: str
    ref: CardRef | None
    label: str
    xy: tuple[float, float]
    angle: float
    damage: str | None = None
    damage_seed: int = 0


@dataclass
class _Hand:
    xy: tuple[float, float]
    angle: float
    scale: float


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


def qr_matrix(text: str) -> np.ndarray:
    """The QR symbol of a text as a 0/1 array (1 = dark), no quiet zone, like a printed tag."""
    code = segno.make_qr(text, error="m")
    return np.array(code.matrix, dtype=np.uint8)


def card_label(ref: CardRef) -> str:
    """The name printed on a card: from the game's reference catalog when there is one."""
    return _names(ref.game).get(ref.card, ref.card)


_NAME_CACHE: dict[str, dict[str, str]] = {}


def _names(game: str) -> dict[str, str]:
    if game not in _NAME_CACHE:
        try:
            from card_tags.catalog import load_game

            _NAME_CACHE[game] = {cid: card.name for cid, card in load_game(game).cards.items()}
        except Exception:  # no reference deck for this game yet: print the card id instead
            _NAME_CACHE[game] = {}
    return _NAME_CACHE[game]


def mat_homography(width: int, height: int, camera: Camera, mat_mm=MAT_MM) -> np.ndarray:
    """The 3x3 homography from mat millimetres to frame pixels for a pinhole camera."""
    mat_w, mat_h = mat_mm
    tilt, roll = math.radians(camera.tilt_deg), math.radians(camera.roll_deg)
    rx = np.array([[1, 0, 0], [0, math.cos(-tilt), -math.sin(-tilt)], [0, math.sin(-tilt), math.cos(-tilt)]])
    rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    rot = rz @ rx
    look = camera.look_at_mm or (mat_w / 2, mat_h / 2)
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], [0.0, 0.0, camera.height_mm]])
    to_look = np.array([[1, 0, -look[0]], [0, 1, -look[1]], [0, 0, 1]], dtype=float)
    unit = extrinsic @ to_look  # projection with focal length 1 and the look-at point on the axis
    if camera.px_per_mm is not None:
        f = camera.px_per_mm * camera.height_mm
        k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
        return k @ unit
    m = camera.margin_mm
    corners = np.array([[-m, -m], [mat_w + m, -m], [mat_w + m, mat_h + m], [-m, mat_h + m]], dtype=np.float64)
    projected = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), unit).reshape(-1, 2)
    (x0, y0), (x1, y1) = projected.min(axis=0), projected.max(axis=0)
    f = min(width / (x1 - x0), height / (y1 - y0))
    k = np.array([[f, 0, width / 2 - f * (x0 + x1) / 2], [0, f, height / 2 - f * (y0 + y1) / 2], [0, 0, 1]])
    return k @ unit


def _project(h: np.ndarray, points) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, dtype=np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def _card_transform(xy, angle_deg: float) -> np.ndarray:
    """Card texture pixels -> mat mm: scale, centre the card, rotate, move it to xy."""
    s = 1.0 / CARD_PX_PER_MM
    a = math.radians(angle_deg)
    c, si = math.cos(a), math.sin(a)
    cw, ch = CARD_MM
    scale = np.array([[s, 0, -cw / 2], [0, s, -ch / 2], [0, 0, 1]])
    rotate = np.array([[c, -si, xy[0]], [si, c, xy[1]], [0, 0, 1]])
    return rotate @ scale


def tag_corners_card_mm() -> np.ndarray:
    """The QR symbol's corners on a card, in mm from the card's centre (TL, TR, BR, BL)."""
    cw, ch = CARD_MM
    x0, y0 = (cw - TAG_MM) / 2 - cw / 2, TAG_TOP_MM - ch / 2
    return np.array([[x0, y0], [x0 + TAG_MM, y0], [x0 + TAG_MM, y0 + TAG_MM], [x0, y0 + TAG_MM]])


def card_outline_mm(xy, angle_deg: float, inflate_mm: float = 0.0) -> np.ndarray:
    """The card's four corners on the mat (mm), optionally grown by a margin."""
    cw, ch = CARD_MM[0] / 2 + inflate_mm, CARD_MM[1] / 2 + inflate_mm
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]]) @ rot.T) + np.asarray(xy)


def _render_card(item: _Item) -> tuple[np.ndarray, np.ndarray]:
    """The card face (BGR) and its mask (255 = card), top-down at CARD_PX_PER_MM."""
    p = CARD_PX_PER_MM
    w, h = round(CARD_MM[0] * p), round(CARD_MM[1] * p)
    face = np.full((h, w, 3), 246, np.uint8)
    mask = np.zeros((h, w), np.uint8)
    radius = round(3 * p)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius), (w - 1 - radius, h - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1)
    cv2.rectangle(face, (round(1.2 * p), round(60 * p)), (w - round(1.2 * p), h - round(1.5 * p)), (70, 120, 190), -1)
    matrix = qr_matrix(item.text)
    tag_px = round(TAG_MM * p)
    tag = cv2.resize((1 - matrix) * 255, (tag_px, tag_px), interpolation=cv2.INTER_NEAREST)
    tx, ty = round(((CARD_MM[0] - TAG_MM) / 2) * p), round(TAG_TOP_MM * p)
    face[ty:ty + tag_px, tx:tx + tag_px] = np.clip(tag, 25, 246)[..., None]
    label = item.label[:16]
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, 1.0, 2)
    scale = min((w - 8 * p) / tw, 11 * p / th)  # as large as the name stripe allows
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(face, label, ((w - tw) // 2, round(60 * p + (h - 61.5 * p + th) / 2)),
                cv2.FONT_HERSHEY_DUPLEX, scale, (250, 250, 250), 2, cv2.LINE_AA)
    _damage(face, mask, item, (tx, ty, tag_px))
    return face, mask


def _damage(face, mask, item: _Item, tag_box) -> None:
    """Spoil a tag the way real tags get spoiled, reproducibly (item.damage_seed)."""
    if item.damage is None:
        return
    rng = np.random.default_rng(item.damage_seed)
    tx, ty, side = tag_box
    if item.damage == "torn":  # a corner of the card torn away across the tag: the mat shows through
        cut = rng.uniform(0.45, 0.7) * side
        tri = np.array([[tx + side, ty + side - cut * 1.6], [tx + side, ty + side + 40], [tx + side - cut * 1.6, ty + side + 40]], np.int32)
        cv2.fillPoly(mask, [tri], 0)
    elif item.damage == "scratched":  # modules flipped at random, beyond what error correction can repair
        module = side / 21
        for _ in range(int(rng.integers(60, 110))):
            mx, my = rng.integers(0, 21, size=2)
            x0, y0 = round(tx + mx * module), round(ty + my * module)
            patch = face[y0:y0 + round(module), x0:x0 + round(module)]
            patch[...] = 271 - patch.astype(np.int16)
    elif item.damage == "half":  # half the tag under a sticker (or a thumb)
        if rng.random() < 0.5:
            face[ty:ty + side, tx + side // 2:tx + side] = (150, 170, 205)
        else:
            face[ty + side // 2:ty + side, tx:tx + side] = (150, 170, 205)
    elif item.damage == "smudged":  # a greasy smudge: the tag blurred past reading
        region = face[ty:ty + side, tx:tx + side]
        region[...] = cv2.GaussianBlur(region, (0, 0), side / 21 * 1.6)
    else:
        raise ValueError(f"unknown damage {item.damage!r}; choose one of {', '.join(DAMAGE_KINDS)}")


def _hand_shapes(hand: _Hand) -> list[np.ndarray]:
    """A hand as mat-mm polygons: a palm and four fingers reaching forward, one thumb."""
    s = hand.scale
    shapes = [cv2.ellipse2Poly((0, 0), (int(42 * s), int(50 * s)), 0, 0, 360, 12)]
    for dx, length in ((-30, 70), (-10, 82), (10, 78), (29, 62)):
        finger = cv2.ellipse2Poly((int(dx * s), int(-50 * s)), (int(9 * s), int(length * s / 2)), 0, 0, 360, 15)
        shapes.append(finger)
    shapes.append(cv2.ellipse2Poly((int(48 * s), int(-5 * s)), (int(12 * s), int(32 * s)), -35, 0, 360, 15))
    a = math.radians(hand.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return [poly.astype(np.float64) @ rot.T + np.asarray(hand.xy) for poly in shapes]


class VirtualTable:
    """The simulated table and camera. See the module docstring."""

    def __init__(self, width: int = 1280, height: int = 720, seed: int = 0, camera: Camera | None = None,
                 look: Look | None = None, mat_mm=MAT_MM, markers: bool = True):
        self.width, self.height = width, height
        self.seed = seed
        self.mat_mm = tuple(mat_mm)
        self.markers = markers
        self._lock = threading.Lock()
        self._items: dict[str, _Item] = {}
        self._hands: dict[int, _Hand] = {}
        self._next_hand = 1
        self._frame_no = 0
        self._card_cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._rng = np.random.default_rng(seed)
        self._noise: list[tuple[np.ndarray, np.ndarray]] = []
        self.camera = camera or Camera()
        self.look = look or Look()
        self._rebuild()

    # --- what is on the table -------------------------------------------------------------

    def place(self, ref: CardRef, mat_xy, angle_deg: float = 0.0, damage: str | None = None) -> None:
        """Put a card (or move it) at mat_xy (mm, its centre), rotated by angle_deg."""
        self.place_code(encode(ref), mat_xy, angle_deg, label=card_label(ref), damage=damage, ref=ref)

    def place_code(self, text: str, mat_xy, angle_deg: float = 0.0, label: str | None = None,
                   damage: str | None = None, ref: CardRef | None = None, key: str | None = None) -> None:
        """Put any QR-tagged card on the table: a foreign code (a URL), another game's tag...

        Things on the table are known by their text; give a ``key`` to lay a second card with the
        same text (a duplicated tag) and to remove it later."""
        if damage is not None and damage not in DAMAGE_KINDS:
            raise ValueError(f"unknown damage {damage!r}; choose one of {', '.join(DAMAGE_KINDS)}")
        item = _Item(text, ref, label if label is not None else text[:16], (float(mat_xy[0]), float(mat_xy[1])),
                     float(angle_deg), damage, int(self._rng.integers(1 << 30)))
        with self._lock:
            self._items[key or text] = item

    def remove(self, ref_or_key) -> bool:
        key = encode(ref_or_key) if isinstance(ref_or_key, CardRef) else ref_or_key
        with self._lock:
            return self._items.pop(key, None) is not None

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._hands.clear()

    def add_hand(self, mat_xy, angle_deg: float = 0.0, scale: float = 1.0) -> int:
        with self._lock:
            hand_id = self._next_hand
            self._next_hand += 1
            self._hands[hand_id] = _Hand((float(mat_xy[0]), float(mat_xy[1])), float(angle_deg), float(scale))
            return hand_id

    def move_hand(self, hand_id: int, mat_xy, angle_deg: float) -> None:
        with self._lock:
            hand = self._hands[hand_id]
            self._hands[hand_id] = _Hand((float(mat_xy[0]), float(mat_xy[1])), float(angle_deg), hand.scale)

    def remove_hand(self, hand_id: int) -> None:
        with self._lock:
            self._hands.pop(hand_id, None)

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
        p = _project(self._h, [[x - m / 2, y - m / 2], [x + m / 2, y - m / 2], [x + m / 2, y + m / 2], [x - m / 2, y + m / 2]])
        return float(np.linalg.norm(np.roll(p, -1, axis=0) - p, axis=1).mean())

    def visible_mat_box(self, inset_mm: float = 0.0) -> tuple[float, float, float, float]:
        """The part of the mat (x0, y0, x1, y1 mm) that the frame shows, shrunk by inset_mm."""
        inverse = np.linalg.inv(self._h)
        frame = [[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]]
        corners = _project(inverse, frame)
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
            h, look, frame_no = self._h, self.look, self._frame_no
            self._frame_no += 1
            frame = self._background.copy()
            gain, glare, noise = self._gain, self._glare, self._noise
        for item in items:
            self._draw_card(frame, item, h)
        hand_mask = None
        if hands:
            hand_mask = np.zeros((self.height, self.width), np.uint8)
            for hand in hands:
                for poly in _hand_shapes(hand):
                    cv2.fillPoly(hand_mask, [np.round(_project(h, poly) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
            frame[hand_mask > 127] = (120, 150, 200)
        frame = self._apply_look(frame, look, gain, glare, noise, frame_no)
        truths = [self._truth(item, h, hand_mask, items[i + 1:]) for i, item in enumerate(items)] if truth else []
        return frame, truths

    def _draw_card(self, frame: np.ndarray, item: _Item, h: np.ndarray) -> None:
        face, mask = self._card_texture(item, h)
        to_frame = h @ _card_transform(item.xy, item.angle)
        ch, cw = mask.shape
        corners = _project(to_frame, [[0, 0], [cw, 0], [cw, ch], [0, ch]])
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

    def _card_texture(self, item: _Item, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The card's face, pre-blurred for the camera's scale so that warping it does not alias."""
        key = (item.text, item.label, item.damage, item.damage_seed, round(self._scale, 3))
        cached = self._card_cache.get(key)
        if cached is None:
            face, mask = _render_card(item)
            ratio = CARD_PX_PER_MM / max(self._scale, 1e-6)
            if ratio > 1.5:
                face = cv2.GaussianBlur(face, (0, 0), 0.35 * ratio)
            if len(self._card_cache) > 64:  # textures of cards on the table now; each placement is new
                self._card_cache.clear()
            cached = self._card_cache[key] = (face, mask)
        return cached

    def _truth(self, item: _Item, h: np.ndarray, hand_mask, above: list[_Item]) -> TagTruth:
        """Where the tag lies in the frame and how much of it shows: in the frame, not under a
        hand or a card laid on top of it, not washed out by glare. The check covers the symbol
        and one module of quiet zone around it (a finger on the quiet zone spoils a read too)."""
        corners = _project(h, tag_outline_mm(item.xy, item.angle))
        side = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
        modules = qr_matrix(item.text).shape[0]
        region = _project(h, tag_outline_mm(item.xy, item.angle, TAG_MM / modules)).astype(np.float32)
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
                cv2.fillPoly(cover, [np.round(_project(h, card_outline_mm(other.xy, other.angle)) - offset).astype(np.int32)], 255)
            if hand_mask is not None:
                cover |= np.where(hand_mask[y0:y1, x0:x1] > 127, 255, 0).astype(np.uint8)
            if self._glare is not None:  # where the lamp's reflection washes black modules out
                cover |= np.where(self._glare[y0:y1, x0:x1, 0] > GLARE_WASHOUT, 255, 0).astype(np.uint8)
            shown = cv2.countNonZero(tag)
            hidden = cv2.countNonZero(cv2.bitwise_and(tag, cover))
            visible = in_frame * (1 - hidden / max(shown, 1))
        return TagTruth(item.text, item.ref, corners.astype(np.float32), side / modules,
                        max(0.0, min(1.0, visible)), item.damage)

    def _apply_look(self, frame, look: Look, gain, glare, noise, frame_no: int) -> np.ndarray:
        if look.blur_sigma > 0:
            frame = cv2.GaussianBlur(frame, (0, 0), look.blur_sigma)
        if gain is not None:
            frame = cv2.multiply(frame, gain, scale=1 / 255)
        if look.exposure != 1.0:
            frame = cv2.convertScaleAbs(frame, alpha=look.exposure)
        if glare is not None:
            frame = cv2.add(frame, glare)
        if noise:
            # a different window of a field larger than the frame each time: noise that does not
            # repeat from frame to frame (what averaging frames of a still table relies on)
            plus, minus = noise[frame_no % len(noise)]
            dx, dy = (frame_no * 37) % NOISE_PAD, (frame_no * 53 + frame_no // NOISE_PAD) % NOISE_PAD
            h, w = frame.shape[:2]
            frame = cv2.subtract(cv2.add(frame, plus[dy:dy + h, dx:dx + w]), minus[dy:dy + h, dx:dx + w])
        if look.jpeg_quality:
            ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return frame

    # --- what stays the same from frame to frame ---------------------------------------------

    def _rebuild(self) -> None:
        """Recompute what depends only on the camera and the look (called under the lock)."""
        self._h = mat_homography(self.width, self.height, self.camera, self.mat_mm)
        centre = (self.mat_mm[0] / 2, self.mat_mm[1] / 2)
        self._scale = self.px_per_module(centre) * 21 / TAG_MM
        self._background = self._render_background()
        self._gain = self._render_gain(self.look)
        self._glare = self._render_glare(self.look)
        self._noise = self._render_noise(self.look)

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

    def _render_gain(self, look: Look):
        if look.vignette <= 0:
            return None
        w, h = self.width, self.height
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        # a lamp off to one side: light falls off with distance from (0.35 w, 0.2 h)
        d = np.hypot((xx - 0.35 * w) / w, (yy - 0.2 * h) / w)
        gain = 1.0 - look.vignette * np.clip(d / d.max(), 0, 1) ** 1.5
        g = np.clip(gain * 255, 0, 255).astype(np.uint8)
        return cv2.merge([g, g, g])

    def _render_glare(self, look: Look):
        if look.glare <= 0:
            return None
        w, h = self.width, self.height
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = look.glare_at[0] * w, look.glare_at[1] * h
        r = look.glare_radius * w
        d2 = ((xx - gx) ** 2 + (yy - gy) ** 2) / (r * r)
        spot = look.glare * 230 * np.exp(-d2 * 2.0)
        g = np.clip(spot, 0, 255).astype(np.uint8)
        return cv2.merge([g, g, g])

    def _render_noise(self, look: Look) -> list[tuple[np.ndarray, np.ndarray]]:
        if look.noise_sigma <= 0:
            return []
        rng = np.random.default_rng(self.seed + 2)
        pool = []
        for _ in range(3):  # luminance noise (what a sensor's Y plane shows), a few fields reused
            n = rng.standard_normal((self.height + NOISE_PAD, self.width + NOISE_PAD), dtype=np.float32) * look.noise_sigma
            plus, minus = cv2.convertScaleAbs(np.maximum(n, 0)), cv2.convertScaleAbs(np.maximum(-n, 0))
            pool.append((cv2.merge([plus] * 3), cv2.merge([minus] * 3)))
        return pool


def tag_outline_mm(xy, angle_deg: float, inflate_mm: float = 0.0) -> np.ndarray:
    """A card's QR symbol on the mat (mm), optionally grown by a margin (its quiet zone)."""
    corners = tag_corners_card_mm()
    centre = corners.mean(axis=0)
    corners = centre + (corners - centre) * (1 + 2 * inflate_mm / TAG_MM)
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return corners @ rot.T + np.asarray(xy)


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


