"""`companion bench label-photos`: a truth.json for phone photographs of printed tag pages.

The scan bench scores decoders on folders of images with a truth.json (every text printed in
each image). Real photographs of our own printed tags are the set the project still lacks (no
camera here), so whoever has a phone and a printer can make one in minutes:

1. `companion tags print GAME` writes the sheet's PDF and STEM-pages.json (the codes of each page);
2. print the PDF at 100% and photograph whole pages (room light, at angles, out of focus: the
   hard photos are the useful ones), exported as JPEG or PNG;
3. `companion bench label-photos PHOTOS STEM-pages.json --out tests/data/printed_photos` writes
   the photos (shrunk to --max-side) and their truth.json;
4. `companion bench scan --only photos --photos tests/data/printed_photos` scores them.

Which page a photo shows: the page numbers in its file name (``p3``, ``page3``, ``page-3``;
several for a photo of several pages), or else every page holding a code that any decoder reads
in it. A photo where neither tells, where they disagree, or whose name gives a page the sheet
lacks is left out and named, so that it can be renamed: a photo nobody reads is the most useful kind, and its truth must not depend on what
was read.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.bench.scan_figures import DECODERS
from companion.scan.decoders import make_decoder
from companion.scan.sources import IMAGE_SUFFIXES

PAGE_IN_NAME = re.compile(r"(?:^|[^a-z0-9])p(?:age)?[-_ ]?(\d+)(?=$|[^0-9])", re.IGNORECASE)


class PagesError(ValueError):
    """A pages file that is not what `companion tags print` writes."""


@dataclass
class Labelled:
    codes: list[list[str]]                                      # the codes on each printed page
    pages: dict[str, list[int]] = field(default_factory=dict)  # image name -> its pages (1-based)
    how: dict[str, str] = field(default_factory=dict)          # image name -> "name" or "reads"
    unlabelled: list[str] = field(default_factory=list)        # photos no name or read places
    problems: list[str] = field(default_factory=list)          # unreadable files, wrong names (left out)

    @property
    def truth(self) -> dict[str, list[str]]:
        """Image name -> every code printed on its page(s): truth.json."""
        return {name: [t for n in pages for t in self.codes[n - 1]] for name, pages in self.pages.items()}


def load_pages(path: Path) -> list[list[str]]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PagesError(f"{path}: cannot read a pages file ({exc})") from exc
    pages = data.get("pages") if isinstance(data, dict) else None
    if not (isinstance(pages, list) and pages
            and all(isinstance(p, list) and all(isinstance(t, str) for t in p) for p in pages)):
        raise PagesError(f"{path}: not a pages file (`companion tags print` writes STEM-pages.json)")
    return pages


def pages_in_name(name: str) -> list[int]:
    """Page numbers written in a file name (none: an empty list)."""
    return sorted({int(n) for n in PAGE_IN_NAME.findall(Path(name).stem)})


def pages_read(gray, pages: list[list[str]], decoders) -> list[int]:
    """The pages holding a code that any decoder reads in the image."""
    texts = {d.text for decoder in decoders for d in decoder.decode(gray)}
    return [i + 1 for i, page in enumerate(pages) if texts & set(page)]


def photos_in(folder: Path) -> list[Path]:
    return sorted(p for p in Path(folder).iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def shrunk(gray, max_side: int):
    scale = max_side / max(gray.shape[:2]) if max_side else 1.0
    if scale >= 1.0:
        return gray
    size = (round(gray.shape[1] * scale), round(gray.shape[0] * scale))
    return cv2.resize(gray, size, interpolation=cv2.INTER_AREA)


def label(folder: Path, pages: list[list[str]], out: Path | None = None, max_side: int = 0) -> Labelled:
    """Label every photo of a folder with the codes of the page(s) it shows; with ``out``, also
    write each labelled photo there (greyscale, its longest side at most max_side)."""
    decoders = [make_decoder(n, thorough=True) for n in DECODERS]
    result = Labelled(pages)
    for path in photos_in(folder):
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if gray is None:
            result.problems.append(f"{path.name}: not an image OpenCV can read (a phone's HEIC? export it as JPEG)")
            continue
        gray = shrunk(gray, max_side)
        named = pages_in_name(path.name)
        if any(not 1 <= n <= len(pages) for n in named):
            result.problems.append(f"{path.name}: names page(s) {named}, but the sheet has pages 1-{len(pages)}; left out")
            continue
        seen = pages_read(gray, pages, decoders)
        if not named and not seen:
            result.unlabelled.append(path.name)
            continue
        if named and set(seen) - set(named):
            result.problems.append(f"{path.name}: named for page(s) {named} but shows codes of page(s) "
                                   f"{sorted(set(seen) - set(named))}: check its name; left out")
            continue
        name = path.with_suffix(".jpg").name if out is not None and max_side else path.name
        if name in result.pages:
            result.problems.append(f"{path.name}: another photo is also written as {name}: rename one")
            continue
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(Path(out) / name), gray, [cv2.IMWRITE_JPEG_QUALITY, 90])
        result.pages[name] = named or seen
        result.how[name] = "name" if named else "reads"
    return result


def write_truth(folder: Path, labelled: Labelled) -> Path:
    path = Path(folder) / "truth.json"
    path.write_text(json.dumps(labelled.truth, indent=1) + "\n", encoding="utf-8")
    return path


# --- photographs labelled with each code's corners (BoofCV's qrcodes_v3 layout) ---------------------

@dataclass
class CornerLabelled:
    """A photo whose codes are labelled by their corners (no payload): `condition/imageNNN.jpg`
    beside `imageNNN.txt`."""

    path: Path
    condition: str
    quads: list = field(default_factory=list)   # one 4 x 2 float array per code, image pixels as stored


def read_quads(text: str) -> list:
    """The codes' corners in a label file: after a ``SETS`` line one code a line (8 numbers),
    otherwise one corner a line (2 numbers), four lines a code; ``#`` lines are comments."""
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if rows and rows[0] == ["SETS"]:
        return [np.array(r, dtype=np.float32).reshape(4, 2) for r in rows[1:] if len(r) == 8]
    points = [r for r in rows if len(r) == 2]
    return [np.array(points[i:i + 4], dtype=np.float32) for i in range(0, len(points) - 3, 4)]


def is_corner_labelled(folder: Path) -> bool:
    """A folder of condition folders holding images with corner label files beside them."""
    folder = Path(folder)
    return folder.is_dir() and any(sub.is_dir() and any(sub.glob("*.txt")) for sub in folder.iterdir())


def corner_labelled(folder: Path, conditions: list[str] | None = None) -> list[CornerLabelled]:
    """Every labelled photo under ``folder`` (only the named conditions if given), by condition and name."""
    out = []
    for sub in sorted(p for p in Path(folder).iterdir() if p.is_dir()):
        if conditions and sub.name not in conditions:
            continue
        for image in photos_in(sub):
            labels = image.with_suffix(".txt")
            if labels.exists():
                out.append(CornerLabelled(image, sub.name, read_quads(labels.read_text(encoding="utf-8", errors="replace"))))
    return out


def code_at(quads: list, centre: tuple[float, float]) -> int | None:
    """The labelled code whose quad holds a read's centre (the set's rule for a read), or None."""
    for n, quad in enumerate(quads):
        if cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False) >= 0:
            return n
    return None
