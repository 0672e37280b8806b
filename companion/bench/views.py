"""``companion bench views``: what a public view and the tablet's buttons cost per state, in every game.

Each game's simulated players play a seeded demo game straight into a session (``play_direct``, as
the camera would report the cards) for ``--rounds`` rounds of moves; then, for every state the
game passed through, the benchmark times a first ask (nothing kept) of:

- the buttons alone, ``actions(state)``;
- the public view the tablet receives, its buttons included (``actions`` + ``public_view``, as
  the session's ``public_view`` makes it);
- the buttons asked again for the same state (the offers kept for it: the prompt, the buttons and
  the auto-resolve all ask).

The same-run baseline is the old way of finding the buttons: every candidate dry-run through
``apply`` on a ``copy.deepcopy`` of the state, with no check first. Old and new are timed state by
state, alternately, so the machine's load weighs on both alike; each figure is the best of
``--repeats`` asks, and the load (/proc/loadavg) is printed before and after.
"""
from __future__ import annotations

import copy
import statistics
import tempfile
import time
import types
from typing import Any, Callable

from companion.bench.service import machine

SEATS = {"bom-battle": 3, "stratego": 2, "gt-battle": 4, "warriors": 2, "battlecards-pacific": 2}
ROUNDS = {"stratego": 80}  # its armies are scanned first: combats start after about 35 rounds


def register(bench_sub) -> None:
    views = bench_sub.add_parser("views", help="public view and buttons per state of each game's demo, vs the deepcopy dry run")
    views.add_argument("--games", default=",".join(SEATS), help="comma-separated game ids")
    views.add_argument("--rounds", type=int, default=60, help="rounds of the demo players' moves per game")
    views.add_argument("--seed", type=int, default=3)
    views.add_argument("--repeats", type=int, default=3, help="asks per state and way; the best is kept")
    views.set_defaults(func=cmd_views)


def load() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def demo_states(game: str, rounds: int, seed: int) -> tuple[Any, list[Any]]:
    """The referee of a seeded demo game and the states it passed through, round by round."""
    from companion import rules
    from companion.gamelog.session import Session, open_store
    from companion.rules.demo import play_direct

    players = rules.demo_players(game)(SEATS.get(game, 2), seed)
    seats, options = players.start()
    session = Session.start(open_store(tempfile.mkdtemp(prefix="bench-views-")), game, seats, options)
    states = [session.state]
    try:
        play_direct(players, session, max_rounds=rounds, after=lambda s: states.append(s.state))
    except RuntimeError:  # not over in that many rounds: the states so far are the sample
        pass
    return session.ruleset, states


def deepcopy_would_take(game: Any, state: Any, spec: Any, data: dict[str, Any]) -> bool:
    """The old way: the candidate dry-run through ``apply`` on a deepcopy, without a check first."""
    from companion.rules import Action, Applied

    return isinstance(game.apply(copy.deepcopy(state), Action(spec.kind, data, "offer")), Applied)


def best(ask: Callable[[], Any], repeats: int, forget: Callable[[], None] | None) -> float:
    """The shortest of ``repeats`` asks, in ms (``forget`` first: a first ask every time)."""
    times = []
    for _ in range(repeats):
        if forget is not None:
            forget()
        start = time.perf_counter()
        ask()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def measure(game: Any, states: list[Any], repeats: int) -> dict[str, list[float]]:
    """Per state, the figures of both ways (timed alternately)."""
    figures: dict[str, list[float]] = {k: [] for k in ("view_old", "view_new", "actions_old", "actions_new", "again")}
    old = types.MethodType(deepcopy_would_take, game)
    for state in states:
        for way in ("old", "new"):
            if way == "old":
                game.would_take = old  # this referee only, for this ask
            else:
                vars(game).pop("would_take", None)
            figures[f"actions_{way}"].append(best(lambda s=state: game.actions(s), repeats, game.forget_offers))
            figures[f"view_{way}"].append(best(lambda s=state: {"actions": game.actions(s), **game.public_view(s)},
                                               repeats, game.forget_offers))
        game.actions(state)
        figures["again"].append(best(lambda s=state: game.actions(s), repeats, None))
    return figures


def pair(figures: dict[str, list[float]], key: str) -> str:
    """"old -> new" medians and worsts of one figure, and how many times faster the median is."""
    old, new = figures[f"{key}_old"], figures[f"{key}_new"]
    ratio = statistics.median(old) / max(statistics.median(new), 1e-6)
    return f"{statistics.median(old):6.2f} -> {statistics.median(new):5.2f} / {max(old):6.1f} -> {max(new):5.1f} ({ratio:4.1f}x)"


def cmd_views(args) -> int:
    print(f"companion bench views: {machine()}; load before {load()}")
    print(f"each game's seeded demo game (seed {args.seed}), every state after a round of moves; ms per first ask, "
          f"best of {args.repeats}; old = deepcopy dry run of every candidate (same run)")
    print(f"{'game':20} {'states':>6}  {'public view median / worst':>34}  {'actions median / worst':>34}  "
          f"{'asked again':>11}")
    for game_id in [g.strip() for g in args.games.split(",") if g.strip()]:
        game, states = demo_states(game_id, ROUNDS.get(game_id, args.rounds), args.seed)
        f = measure(game, states, args.repeats)
        print(f"{game_id:20} {len(states):6}  {pair(f, 'view'):>34}  {pair(f, 'actions'):>34}  "
              f"{statistics.median(f['again']):8.3f} ms", flush=True)
    print(f"load after {load()}")
    return 0
