"""Book of Mormon's problems (a play not legal, a battle not ready: ``plays.Problem``) are shown in the
tablet's problems box, worded by ``refusals.PROBLEMS``. Like the games' refusal reasons (test_contract_words),
every code the rules can make has its words, and every worded code is one the rules make."""
from __future__ import annotations

import ast
from pathlib import Path

from companion.rules.bom import refusals

PACKAGE = Path(refusals.__file__).parent


def problem_codes() -> set[str]:
    """The code of every ``Problem(...)`` the package's modules make (a literal, or ``code=``)."""
    found: set[str] = set()
    for file in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(file.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Problem"):
                continue
            given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "code"), None)
            assert isinstance(given, ast.Constant) and isinstance(given.value, str), \
                f"{file.name}:{node.lineno}: a Problem whose code the scan cannot read"
            found.add(given.value)
    return found


def test_every_problem_the_rules_make_has_its_words():
    assert sorted(problem_codes() - set(refusals.PROBLEMS)) == []


def test_every_worded_problem_is_one_the_rules_make():
    assert sorted(set(refusals.PROBLEMS) - problem_codes()) == []
