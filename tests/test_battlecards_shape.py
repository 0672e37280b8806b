"""BATTLECARDS laid out as every converged game (issue 31): no import circle inside its package, and no rule
that counts the seats to know which rules are in play (the four-player rules are a hook unit)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.test_architecture import all_imports, circles

PACKAGE = Path(__file__).resolve().parent.parent / "companion" / "rules" / "battlecards"


def test_no_import_circle_closes_inside_the_package():
    edges: dict[str, set[str]] = {}
    for i in all_imports():
        edges.setdefault(i.source, set()).add(i.target)
    found = [c for c in circles(edges) if c[0].startswith("companion.rules.battlecards")]
    assert found == []


def test_no_rule_counts_the_seats_to_choose_its_rules():
    """The four-player rules are ``variants.CombinedSets``: the one place that counts seats is where the variant
    is chosen, when the seats are dealt."""
    counting = re.compile(r"len\((state\.)?(seats|armies)\)")
    found = [f"{path.name}:{n}" for path in sorted(PACKAGE.glob("*.py")) for n, line in
             enumerate(path.read_text().splitlines(), 1) if counting.search(line)]
    assert [f for f in found if not f.startswith("variants.py:")] == []
