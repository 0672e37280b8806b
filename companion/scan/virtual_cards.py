"""What lies on the virtual table: cards with their QR tags, damaged tags, and hands.

A card is 63 x 88 mm with its QR tag (``TAG_MM`` square, generated with segno from the text the
real payload codec encodes) and its name printed under the tag. ``render_card`` draws its face
top-down at ``CARD_PX_PER_MM``, spoiled as ``DAMAGE_KINDS`` says (torn, scratched, half covered,
smudged) for the bad-input tests and the benchmark's false-read count. A hand is a palm, four
fingers and a thumb as polygons on the mat. The geometry helpers give a card's and its tag's
outline on the mat in millimetres (see virtual_table.py for the mat's axes).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import segno

from card_tags.payload import CardRef

CARD_MM = (63.0, 88.0)
TAG_MM = 52.0             # side of the QR symbol itself (21 modules; quiet zone is the card's white)
TAG_TOP_MM = 4.5          # from the card's top edge to the symbol
MODULE_PX = 8             # card texture: pixels per QR module
CARD_PX_PER_MM = MODULE_PX * 21 / TAG_MM

DAMAGE_KINDS = ("torn", "scratched", "half", "smudged")


@dataclass
class PlacedCard:
    """One thing on the table: a card (ref) or any other QR-tagged object (text only)."""

    text: str
    ref: CardRef | None
    label: str
    xy: tuple[float, float]
    angle: float
    damage: str | None = None
    damage_seed: int = 0


@dataclass
class Hand:
    xy: tuple[float, float]
    angle: float
    scale: float


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


# --- where a card and its tag lie on the mat -------------------------------------------------------

def card_transform(xy, angle_deg: float) -> np.ndarray:
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


def tag_outline_mm(xy, angle_deg: float, inflate_mm: float = 0.0) -> np.ndarray:
    """A card's QR symbol on the mat (mm), optionally grown by a margin (its quiet zone)."""
    corners = tag_corners_card_mm()
    centre = corners.mean(axis=0)
    corners = centre + (corners - centre) * (1 + 2 * inflate_mm / TAG_MM)
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return corners @ rot.T + np.asarray(xy)


# --- what a card and a hand look like --------------------------------------------------------------

def render_card(item: PlacedCard) -> tuple[np.ndarray, np.ndarray]:
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


def _damage(face, mask, item: PlacedCard, tag_box) -> None:
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


def hand_shapes(hand: Hand) -> list[np.ndarray]:
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
