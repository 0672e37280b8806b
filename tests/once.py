"""What the xdist workers of one pytest run share: a folder of the run's own, and a costly result
computed once in the run (each worker that got one of a module's tests made its module fixtures again)."""
from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def run_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder of this pytest run that every xdist worker sees (the workers' temporary folders share
    a parent, the run's own: never a folder left by an earlier run)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    folder.mkdir(exist_ok=True)
    return folder


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once in the whole run, its result shared by every worker (a lock and a pickle in
    the run's folder): for a costly module fixture that its tests only read."""
    shared = run_folder(tmp_path_factory, f"once-{name}")
    done = shared / "result.pickle"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            (shared / "result.tmp").write_bytes(pickle.dumps(compute()))
            (shared / "result.tmp").replace(done)
    return pickle.loads(done.read_bytes())
