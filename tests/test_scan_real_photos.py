"""Reading what any decoder reads, on real photographs of QR codes.

tests/data/real_photos holds camera photographs (ZXing's own test photos: codes on paper, cards,
T-shirts, a screen, a station poster and a rice cracker, at angles, out of focus, under uneven
light; see its README). The codes are foreign (URLs, contacts), not our tags: a read counts when
its text is the one the photo's source lists. On each photo the pipeline (`companion scan`'s
decoder: zxing-cpp with its ladder of second looks, no time budget) must read every code the
best single decoder reads, more in total than any of them, and nothing that is not there."""
from __future__ import annotations

import json

import pytest

from companion.bench.scan_figures import DECODERS, REAL_PHOTOS, read_photos
from companion.scan.sources import IMAGE_SUFFIXES


@pytest.fixture(scope="module")
def results():
    return read_photos(REAL_PHOTOS)


def true_reads(printed: set[str], texts: set[str]) -> int:
    return len(texts & printed)


def test_every_photo_in_the_folder_has_its_codes_listed():
    listed = set(json.loads((REAL_PHOTOS / "truth.json").read_text()))
    images = {p.name for p in REAL_PHOTOS.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES}
    assert images == listed


def test_on_every_photo_the_pipeline_reads_as_many_codes_as_the_best_single_decoder(results):
    for image, (printed, got) in results.items():
        best = max(true_reads(printed, got[n]) for n in DECODERS)
        assert true_reads(printed, got["pipeline"]) >= best, (image, {n: sorted(got[n]) for n in got})


def test_in_total_the_pipeline_reads_more_than_the_best_single_decoder(results):
    totals = {n: sum(true_reads(printed, got[n]) for printed, got in results.values()) for n in (*DECODERS, "pipeline")}
    assert totals["pipeline"] > max(totals[n] for n in DECODERS), totals


def test_the_pipeline_reads_nothing_that_is_not_in_the_photo(results):
    for image, (printed, got) in results.items():
        assert got["pipeline"] <= printed, image
