"""Book of Mormon's package has no circle of imports (lazy and type-checking imports counted): the
variants, the battle and the game each read without the others reading them back. (The general
rule in test_architecture.py still allows circles inside one game's package: BATTLECARDS has them.)"""
from __future__ import annotations

from tests.test_architecture import all_imports, circles


def test_no_circle_of_imports_inside_the_bom_package():
    edges: dict[str, set[str]] = {}
    for i in all_imports():
        edges.setdefault(i.source, set()).add(i.target)
    assert [c for c in circles(edges) if any(m.startswith("companion.rules.bom") for m in c)] == []
