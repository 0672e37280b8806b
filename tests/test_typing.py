"""mypy --strict on the referee contract and the games converged on it (the list is pyproject.toml's
[tool.mypy] files): a misspelt state field or a view part of the wrong shape fails here, not at a table."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_contract_and_the_converged_games_pass_mypy_strict(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"),
                          "--config-file", str(ROOT / "pyproject.toml")],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def test_the_whole_of_the_rules_and_card_tags_is_checked():
    """Issue 31: "mypy with --strict on companion/rules/ and card_tags/ passes and runs in the test command":
    the two packages are checked whole, never a list of their modules that a new one could miss."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert {"companion/rules", "card_tags"} <= set(config["files"])
