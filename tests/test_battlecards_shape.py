"""BATTLECARDS laid out as every converged game (issue 31): no rule that counts the seats to know which rules
are in play (the four-player rules are a hook unit). No import circle: test_architecture.py, for every game."""
from __future__ import annotations

import re
from pathlib import Path


PACKAGE = Path(__file__).resolve().parent.parent / "companion" / "rules" / "battlecards"


def test_no_rule_counts_the_seats_to_choose_its_rules():
    """The four-player rules are ``variants.CombinedSets``: the one place that counts seats is where the variant
    is chosen, when the seats are dealt."""
    counting = re.compile(r"len\((state\.)?(seats|armies)\)")
    found = [f"{path.name}:{n}" for path in sorted(PACKAGE.glob("*.py")) for n, line in
             enumerate(path.read_text().splitlines(), 1) if counting.search(line)]
    assert [f for f in found if not f.startswith("variants.py:")] == []
