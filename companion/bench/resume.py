"""``companion bench resume``: a restart and an undo with snapshots, against folding from the start.

The games are real Book of Mormon "Battle" games: the simulated players of companion/demo play
the basic game at 3 seats through the referee (every card shown to the camera, every battle
resolved, every card taken away after it), and the benchmark takes the log's first 1,000 and
10,000 events (a game in progress). The log is written to a fresh database, then the session
folds it once as it would have been played, taking a snapshot every ``snapshots.EVERY`` events;
the snapshots of the last ``EVERY`` events are dropped, the worst case of a power cut just
before the next snapshot was due (no snapshot at shutdown). Then, in the same run, medians over
``--runs`` runs:

- resume: ``Session(store, game)`` (read the log, load the latest snapshot, fold the tail), against
  ``fold(store.events(game))`` (what a restart did before snapshots);
- undo: the session re-deriving the game without its latest command (from a snapshot), against
  ``fold`` of the log with that undo at its end (what an undo did before). Both leave out the
  durable append of the undo event, which is the same for both;
- take a snapshot: encode the state and entries and write them (done in the background).
"""
from __future__ import annotations

import copy
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bench.service import machine

SEATS = 3


class _Enough(Exception):
    """The game is long enough."""
NAMES = ["Ann", "Ben", "Cal"]


def register(bench_sub) -> None:
    resume = bench_sub.add_parser("resume", help="restart and undo with snapshots vs folding from the start")
    resume.add_argument("--sizes", default="1000,10000", help="game lengths in events (comma-separated)")
    resume.add_argument("--runs", type=int, default=5)
    resume.set_defaults(func=cmd_resume)


def played_game(length: int, first_seed: int = 3) -> tuple[int, list[Any]]:
    """The first ``length`` events of a game the simulated players play (the first seed whose game
    lasts that long), as the session would have logged them."""
    for seed in range(first_seed, first_seed + 50):
        events = _played(seed, length)
        if events is not None:
            return seed, events
    raise SystemExit(f"no simulated game reached {length} events")


def _played(seed: int, length: int) -> list[Any] | None:
    """The first ``length`` events of the game seed ``seed`` plays, or None if it ends sooner."""
    from companion import rules
    from companion.gamelog.store import Event
    from companion.rules import Action, Applied, Seat
    from companion.rules.bom.demo import SimulatedTable, play

    referee = rules.make("bom-battle")
    options = referee.resolve_options({})
    start = {"game": "bom-battle", "seats": [{"seat": n, "name": NAMES[n - 1]} for n in range(1, SEATS + 1)],
             "options": options}
    events = [Event(1, 1.7e9, "start", "dashboard", start)]
    table = {"state": referee.setup([Seat(n, NAMES[n - 1]) for n in range(1, SEATS + 1)], options)}

    def submit(kind: str, data: dict[str, Any], source: str) -> list[dict[str, Any]]:
        event = Event(len(events) + 1, 1.7e9 + len(events), kind, source, data)
        result = referee.apply(copy.deepcopy(table["state"]), Action(kind, data, source, event.seq))
        if not isinstance(result, Applied):
            raise ValueError(f"#{event.seq} {kind} refused: {result!r}")
        events.append(event)
        table["state"] = result.state
        if len(events) >= length:
            raise _Enough
        return [o.as_dict() for o in result.outcomes]

    try:
        play(SimulatedTable(seats=SEATS, seed=seed), submit, max_battles=length)
    except _Enough:
        return events
    except ValueError:
        return None
    return None


def median_seconds(work, runs: int, setup=None) -> float:
    times = []
    for _ in range(runs):
        argument = setup() if setup else None
        started = time.perf_counter()
        work(argument)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(events: list[Any], folder: Path, runs: int) -> dict[str, Any]:
    from companion.gamelog import snapshots
    from companion.gamelog.fold import fold
    from companion.gamelog.session import Session
    from companion.gamelog.store import Event, Store

    store = Store(folder / "companion.db")
    game_id = store.new_game("bom-battle")
    with store._lock:  # one transaction: the benchmark loads a whole log at once
        store.db.execute("BEGIN")
        store.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                             [(game_id, e.seq, e.ts, e.kind, e.source, json.dumps(e.data)) for e in events])
        store.db.execute("COMMIT")
    played = Session(store, game_id)   # folds the log once, snapshotting as it goes
    played.snapshots.flush()
    # the worst case: the power went just before the next snapshot was due
    store.drop_snapshots(game_id, len(events) - snapshots.EVERY + 1)
    latest = max(store.snapshot_seqs(game_id), default=0)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(folder / "companion.db", folder / "played.db")

    copies = []

    def fresh_store() -> Store:  # a resume or an undo may write snapshots: each run starts from the played game
        for session in copies:
            session.snapshots.flush()
            session.store.close()
        copies.clear()
        for name in ("run.db", "run.db-wal", "run.db-shm"):
            (folder / name).unlink(missing_ok=True)
        shutil.copy(folder / "played.db", folder / "run.db")
        return Store(folder / "run.db")

    resumed = Session(fresh_store(), game_id)
    assert resumed.snapshots.resumed_from == latest and resumed.derived.entries == fold(events).entries
    copies.append(resumed)
    resume = median_seconds(lambda store: copies.append(Session(store, game_id)), runs, setup=fresh_store)
    resume_fold = median_seconds(lambda _: fold(store.events(game_id)), runs)

    undo = Event(len(events) + 1, events[-1].ts + 1, "undo", "dashboard", {})
    with_undo = [*events, undo]
    reference = fold(with_undo)
    assert reference.entries[-1].status == "undo", "the game's latest command can be undone"

    def fresh_session() -> Session:
        copies.append(Session(fresh_store(), game_id))
        return copies[-1]

    def undo_from_snapshot(session: Session) -> None:
        undone = session.snapshots.advance(session.derived, undo, lambda: with_undo)
        assert undone.entries == reference.entries and undone.state == reference.state
    undo_snap = median_seconds(undo_from_snapshot, runs, setup=fresh_session)
    undo_fold = median_seconds(lambda _: fold(with_undo), runs)

    def take(session: Session) -> None:
        session.snapshots.take(session.derived)
        session.snapshots.flush()
    take_s = median_seconds(take, runs, setup=fresh_session)
    fresh_store().close()
    rows = [store.load_snapshot(game_id, seq) for seq in store.snapshot_seqs(game_id)]
    state_kb = len(rows[0][1]) / 1024 if rows else 0
    total_kb = sum(len(r[1]) + len(r[2]) for r in rows) / 1024
    store.close()
    return {"events": len(events), "latest_snapshot_at": latest, "resume_folds_events": len(events) - latest,
            "resume_s": round(resume, 4), "resume_fold_from_start_s": round(resume_fold, 4),
            "resume_ratio": round(resume_fold / resume, 1),
            "undo_s": round(undo_snap, 4), "undo_fold_from_start_s": round(undo_fold, 4),
            "undo_ratio": round(undo_fold / undo_snap, 1),
            "take_snapshot_s": round(take_s, 4),
            "snapshot_state_kb": round(state_kb), "all_snapshots_kb": round(total_kb)}


def cmd_resume(args) -> int:
    from companion.gamelog import snapshots

    sizes = sorted(int(s) for s in args.sizes.split(","))
    started = time.perf_counter()
    seed, game = played_game(sizes[-1])
    made = time.perf_counter() - started
    results = []
    for size in sizes:
        folder = Path(tempfile.mkdtemp(prefix="bench-resume-"))
        try:
            results.append(measure(game[:size], folder, args.runs))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps({"machine": machine(), "game": f"bom-battle, {SEATS} seats, simulated players seed {seed} "
                                                   f"(made in {made:.0f} s)",
                      "snapshot_every": snapshots.EVERY, "runs": args.runs, "results": results,
                      "target": "a 10,000-event game resumes in under 0.5 s"}, indent=2))
    return 0
