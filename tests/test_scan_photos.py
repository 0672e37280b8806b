"""Reading what any decoder reads, on photo-like images of printed tag sheets.

tests/data/photo_like holds SYNTHETIC photographs (perspective, defocus, uneven and low light,
noise, JPEG; see its README): no real photographs of our tags exist (real photographs of
foreign codes: test_scan_real_photos.py). On each image the pipeline (zxing-cpp with its ladder
of second looks) must read every tag that zxing-cpp or ZBar alone reads, more in total than
either, and never a tag that is not on the sheet."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from card_tags import payload as tag_payload
from companion.scan.decoders import make_decoder
from companion.scan.scanfiles import read_codes
from tests.once import once_per_run

PHOTOS = Path(__file__).parent / "data" / "photo_like"
TRUTH = json.loads((PHOTOS / "truth.json").read_text())


def reads(decoder_name: str, gray) -> set[str]:
    return {d.text for d in make_decoder(decoder_name, thorough=True).decode(gray)}


def pipeline_reads(gray) -> set[str]:
    return {d.text for d, _ in read_codes(gray, [make_decoder("zxing", thorough=True)])}


def read_every_photo() -> dict:
    out = {}
    for name, printed in TRUTH.items():
        gray = cv2.imread(str(PHOTOS / name), cv2.IMREAD_GRAYSCALE)
        out[name] = (set(printed), reads("zxing", gray), reads("pyzbar", gray), pipeline_reads(gray))
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Each photo's printed codes and what each reader reads of it: read once in the run."""
    return once_per_run(tmp_path_factory, "scan-photos", read_every_photo)


def test_the_pipeline_reads_every_code_either_decoder_reads_on_every_photo(results):
    for name, (printed, zxing, zbar, piped) in results.items():
        assert (zxing | zbar) & printed <= piped, name


def test_the_pipeline_reads_more_in_total_than_the_best_single_decoder(results):
    totals = [sum(len(r[i] & r[0]) for r in results.values()) for i in (1, 2, 3)]
    zxing, zbar, piped = totals
    assert piped > max(zxing, zbar)


def test_no_photo_yields_a_tag_that_is_not_on_its_sheet(results):
    for printed, *readings in results.values():
        for text in set().union(*readings) - printed:
            with pytest.raises(tag_payload.PayloadError):
                tag_payload.decode(text)  # only a read its check character rejects is harmless
