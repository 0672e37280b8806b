"""Pip constraints that keep the system's camera stack: run with the system's python3, it prints
``name==version`` for numpy, for every system distribution built against numpy (it requires
numpy), and for everything picamera2 requires, as installed (from apt) now.

Why: on Raspberry Pi OS, picamera2, simplejpeg and friends come from apt, compiled against apt's
numpy 1.x. A venv made with ``--system-site-packages`` sees them, but a plain ``pip install`` of
the project would put a numpy 2 in the venv that shadows apt's, and then picamera2 and simplejpeg
fail to import ("A module that was compiled using NumPy 1.x cannot be run in NumPy 2.x"). Pinned
to these versions, pip keeps the system's copies and picks wheels that work with them (an older
opencv-python-headless built for numpy 1.x, for instance).

    python3 scripts/system_pins.py [EXTRA_ROOT...]   # extra names are pinned with their requirements too
"""
from __future__ import annotations

import importlib.metadata as md
import re
import sys


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def system_distributions() -> dict[str, md.Distribution]:
    """Every distribution this interpreter sees, by canonical name (the first one wins, as in import)."""
    found: dict[str, md.Distribution] = {}
    for dist in md.distributions():
        name = dist.metadata["Name"]
        if name:
            found.setdefault(canonical(name), dist)
    return found


def requirement_names(dist: md.Distribution) -> list[str]:
    """The names a distribution requires unconditionally (extras and markers aside)."""
    names = []
    for line in dist.requires or []:
        if ";" in line and "extra" in line.split(";", 1)[1]:
            continue
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
        if match:
            names.append(canonical(match.group(1)))
    return names


def pins(extra_roots: list[str]) -> dict[str, str]:
    dists = system_distributions()
    if "numpy" not in dists:
        return {}
    roots = {"numpy", "picamera2", *map(canonical, extra_roots)}
    roots |= {name for name, dist in dists.items() if "numpy" in requirement_names(dist)}
    pinned: dict[str, str] = {}
    todo = [name for name in roots if name in dists]
    while todo:
        name = todo.pop()
        if name in pinned:
            continue
        pinned[name] = dists[name].version
        todo.extend(n for n in requirement_names(dists[name]) if n in dists and n not in pinned)
    return pinned


def main(argv: list[str]) -> int:
    for name, version in sorted(pins(argv).items()):
        print(f"{name}=={version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
