"""Decoding files for `companion scan`: every QR code in images and videos, explained.

For an image, one record per code: its text, corners, size in pixels per module, and the card
it names, or why it names none (a foreign code, a damaged tag, another game's tag, a card the
reference deck does not have). For a video, one record per distinct code: the frame it was
first read in and in how many of the decoded frames it was read, which tells how reliably the
camera reads that tag under that light.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from card_tags import payload as tag_payload

from companion.scan.decoders import Detection, ZxingDecoder, make_decoder
from companion.scan.incremental import unique_detections
from companion.scan.photo import PhotoReader
from companion.scan.sources import IMAGE_SUFFIXES


def _decoders(name: str):
    names = ["zxing", "pyzbar", "opencv"] if name == "all" else [name]
    return [make_decoder(n, thorough=True) for n in names]


def read_codes(gray: np.ndarray, decoders, failures: list[str] | None = None) -> list[tuple[Detection, str]]:
    """Every code any of the decoders reads, with the decoder that read it first. zxing reads
    it as a photo (photo.PhotoReader: more looks only where a code was left unread).
    A decoder that fails on the image reads nothing in it (what it raised: ``failures``); the
    others still read it."""
    found: list[tuple[Detection, str]] = []
    for decoder in decoders:
        try:
            if isinstance(decoder, ZxingDecoder):
                detections = PhotoReader(decoder).read(gray)
            else:
                detections = decoder.decode(gray)
        except Exception as exc:  # a reader's bug on one image must not end a batch
            if failures is not None:
                failures.append(f"{decoder.name} failed: {type(exc).__name__}: {exc}")
            continue
        for d in unique_detections(detections):
            if not any(o.text == d.text and np.hypot(*np.subtract(o.center, d.center)) < 0.5 * max(o.side_px(), 1)
                       for o, _ in found):
                found.append((d, decoder.name))
    return found


def explain(text: str, game: str | None, private: dict[str, tag_payload.CardRef] | None = None) -> dict:
    """The card a code names, or why it names none. ``private``: the table's private tags (payload ->
    card, card_tags/private.py), which name the hidden cards only to whoever can read its data folder."""
    ref = private.get(text) if private else None
    if ref is None:
        try:
            ref = tag_payload.decode(text)
        except tag_payload.PrivateTag as exc:
            hint = "" if private is not None else "; --data names the table's own private tags"
            return {"card": None, "why": f"{exc}{hint}"}
        except tag_payload.PayloadError as exc:
            return {"card": None, "why": str(exc)}
    card = {"game": ref.game, "card": ref.card, "copy": ref.copy, "key": ref.key, "name": None,
            "private": private is not None and text in private}
    if game and ref.game != game:
        return {"card": card, "why": f"a {ref.game} tag, not a {game} tag"}
    try:
        from card_tags.catalog import CatalogError, load_game

        catalog = load_game(ref.game)
    except (CatalogError, OSError) as exc:
        return {"card": card, "why": f"valid tag; no reference deck to name it ({exc})"}
    try:
        card["name"] = catalog.lookup(ref).name
    except KeyError as exc:
        return {"card": card, "why": str(exc).strip("'\"")}
    return {"card": card, "why": None}


def _record(path: Path, d: Detection, decoder: str, game: str | None, private: dict | None = None) -> dict:
    side = d.side_px()
    modules = 21
    try:
        import segno

        modules = segno.make_qr(d.text, error="m").symbol_size(border=0)[0]
    except Exception:  # a code segno cannot re-encode (binary data): assume version 1
        pass
    return {"file": str(path), "text": d.text, "corners": np.round(d.corners, 1).tolist(),
            "px_per_module": round(side / modules, 2), "decoder": decoder, **explain(d.text, game, private)}


def _frames(path: Path, every: int) -> Iterator[tuple[int | None, np.ndarray | None, str | None]]:
    """(frame number or None for an image, greyscale frame, error)."""
    if path.suffix.lower() in IMAGE_SUFFIXES:
        image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if image is None:
            yield None, None, "cannot read this image"
        else:
            yield None, image, None
        return
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        yield None, None, "not an image or a video OpenCV can read"
        return
    number = 0
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            if number % every == 0:
                yield number, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame, None
            number += 1
    finally:
        cap.release()


def _expand(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            yield path


def scan_paths(paths: list[Path], decoder: str = "zxing", game: str | None = None, every: int = 1,
               private: dict[str, tag_payload.CardRef] | None = None) -> Iterator[dict]:
    """Records for `companion scan`: one per code (image) or per distinct code (video);
    a record with "error" for an unreadable file, or with text None when nothing was found.
    ``private``: the table's private tags, to name the hidden cards they stand for."""
    decoders = _decoders(decoder)
    for path in _expand(paths):
        if not path.exists():
            yield {"file": str(path), "error": "no such file"}
            continue
        video: dict[str, dict] = {}
        frames_decoded = 0
        any_found = False
        warned: set[str] = set()
        for number, gray, error in _frames(path, every):
            if error:
                yield {"file": str(path), "error": error}
                break
            frames_decoded += 1
            failures: list[str] = []
            for d, name in read_codes(gray, decoders, failures):
                any_found = True
                if number is None:
                    yield _record(path, d, name, game, private)
                elif d.text not in video:
                    video[d.text] = {**_record(path, d, name, game, private), "first_frame": number, "frames_read": 1}
                else:
                    video[d.text]["frames_read"] += 1
            for failure in failures:
                if failure not in warned:   # once per file, not once per frame of a video
                    warned.add(failure)
                    yield {"file": str(path), "frame": number, "warning": failure}
        else:
            for record in video.values():
                yield {**record, "frames_decoded": frames_decoded}
            if not any_found:
                yield {"file": str(path), "text": None, "why": f"no QR code found in {frames_decoded} frame(s)"}
