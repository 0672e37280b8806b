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
