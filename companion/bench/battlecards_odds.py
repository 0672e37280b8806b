"""The battle odds' benchmark, ``companion bench battlecards-odds``: for every BATTLECARD of the Pacific set (and,
combined with a Western set, its battles fought by allies) the time of one odds query (the median of 5 askings),
the first of the battle (nothing counted yet) and the next one (a card turned, the battle's states memoised),
each battle's method (exact, or simulated with its error), the median and the worst by method; a 1-v-1 duel as
the same run's baseline; the fold of a whole demo game's log with the odds and without them; the machine's load
beside each."""
from __future__ import annotations

import copy
import os
import statistics
import time
from typing import Any

from card_tags.catalog import load_game

from companion.rules.base import Action, Refusal, Seat
from companion.rules.battlecards import Pacific, compiled, forecast, odds, simulate
from companion.rules.battlecards.cards import Deck
from companion.rules.battlecards.count import estimate, played
from companion.rules.battlecards.demo import DEMO
from companion.rules.battlecards.odds import AGGRESSOR, DEFENDER, Cards, Fighter, battle_odds, counts
from companion.rules.demo import Lay, Lift

TYPES = ("ground", "air", "sea")
REPEATS = 5     # each query timed afresh so many times, its median printed (this machine's speed drifts by 1.5x)
# Each side's deployed stacks: at setup (one unit of each type), and grown (two of each, a commander added).
ARMIES = {
    "setup": {"japan": ["JGUARDS#1", "JZERO#1", "JAKAGI#1"], "us": ["UMAR1#1", "UWILDCAT#1", "UENTERP#1"]},
    "grown": {"japan": ["JGUARDS#1", "JDIV2#1", "JZERO#1", "JVAL#1", "JAKAGI#1", "JYAMAMOT#1"],
              "us": ["UMAR1#1", "UMAR2#1", "UWILDCAT#1", "UDAUNTL#1", "UENTERP#1", "UFLETCH#1"]},
}
# Combined sets: a Western ally's units called in beside them (the Western set is an owner's custom deck; these
# stand for it, with the test deck's values: Attack 5, Defense 3 against every type).
ALLY = {"japan": ("germany", ["G1", "G2", "G3"]), "us": ("britain", ["B1", "B2", "B3"])}


def fighter(deck: Deck, key: str, side: str) -> Fighter:
    c = deck.card(key)
    return Fighter(key, side, c["unit_type"], tuple((t, c.get(f"attack_{t}")) for t in TYPES),
                   tuple((t, c.get(f"defense_{t}")) for t in TYPES), tuple(c["phases"]), deck.support_attack(key),
                   deck.support_defense(key), tuple(c.get("supports", [])))


def ally_unit(key: str, side: str, unit_type: str) -> Fighter:
    return Fighter(key, side, unit_type, tuple((t, 5) for t in TYPES), tuple((t, 3) for t in TYPES), (1,))


def forces(deck: Deck, card: str, army: str, combined: bool) -> list[Fighter]:
    battle = deck.card(card)
    found = []
    for side in ("japan", "us"):
        role = AGGRESSOR if battle["aggressor"] == side else DEFENDER
        found += [fighter(deck, k, role) for k in ARMIES[army][side] if deck.unit_type(k) in battle["units"]]
        if combined:
            found += [ally_unit(k, role, t) for k, t in zip(ALLY[side][1], TYPES, strict=True) if t in battle["units"]]
    return found


def clear() -> None:
    odds.forget()
    forecast.forget()


def timed(query, runs: int = 1) -> tuple[float, float, object]:
    """(wall ms, CPU ms, answer) of a query asked afresh (nothing memoised): the median of ``runs``."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        clear()
        t0, c0 = time.perf_counter(), time.process_time()
        result = query()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000, result


def next_query(fs: list[Fighter], first: Cards, second: Cards, numbers, reference,
               runs: int = 1) -> tuple[float, float]:
    """(wall ms, CPU ms) of the next query of the same battle, its states memoised by the first (the engine
    kept, the answer not): the median of ``runs``."""
    walls, cpus = [], []
    for _ in range(runs):
        clear()
        battle_odds(fs, first, numbers=numbers, reference=reference)
        odds.forget(answers_only=True)
        t0, c0 = time.perf_counter(), time.process_time()
        battle_odds(fs, second, next_step=1, numbers=numbers, reference=reference)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


# -- the referee's fold: a whole demo game's log applied again from its start -----------------------------
def demo_log(seed: int) -> tuple[Pacific, list[Seat], dict[str, Any], list[Action]]:
    """A whole game the seeded demo players play straight into the referee (as the camera and the tablet would
    report their moves): the ruleset, the seats, the options and every input, in order."""
    game = Pacific(Pacific.load_catalog(None))
    players = DEMO(2, seed)
    seat_dicts, options = players.start()
    seats = [Seat(int(s["seat"]), s["name"]) for s in seat_dicts]
    options = game.resolve_options(options)
    state, log, lying = game.setup(seats, options), [], {}

    def submit(kind: str, data: dict[str, Any], source: str) -> None:
        nonlocal state
        action = Action(kind, data, source, len(log) + 1)
        log.append(action)
        result = game.apply(copy.deepcopy(state), action)
        if not isinstance(result, Refusal):
            state = result.state
            told = getattr(players, "told", None)    # optional in the demo protocol
            for outcome in result.outcomes if told else ():
                told(outcome.as_dict())

    for _ in range(20_000):
        if game.is_over(state):
            return game, seats, options, log
        view = {"actions": game.actions(state), **game.public_view(state)}
        moves = players.next_moves(view, {s.number: game.seat_view(state, s.number) for s in seats})
        if not moves:
            raise RuntimeError("the demo players have nothing to do and the game is not over")
        for move in moves:
            if isinstance(move, Lay):
                submit("card_seen", {"zone": move.zone, "card": move.card,
                                     **({"face_down": True} if move.face_down else {})}, "camera")
                lying[move.card] = move.zone
            elif isinstance(move, Lift):
                if move.card in lying:
                    submit("card_gone", {"zone": lying.pop(move.card), "card": move.card}, "camera")
            else:
                submit(move.kind, move.data, "dashboard")
    raise RuntimeError("the demo game did not end")


def fold(game: Pacific, seats: list[Seat], options: dict[str, Any], log: list[Action]) -> tuple[float, float, int]:
    """(wall s, CPU s, shots) of every input of a log applied again from the start (a copy of the state each, as
    the log's fold does), with the odds of every shot computed anew."""
    clear()
    shots = 0
    t0, c0 = time.perf_counter(), time.process_time()
    state = game.setup(seats, options)
    for action in log:
        result = game.apply(copy.deepcopy(state), action)
        if not isinstance(result, Refusal):
            state = result.state
            shots += sum(o.kind == "shot" for o in result.outcomes)
    return time.perf_counter() - t0, time.process_time() - c0, shots


def fold_time(seed: int = 1) -> None:
    """The fold a restart, a replay or an undo pays, with the odds and (the same run's baseline) without them."""
    game, seats, options, log = demo_log(seed)
    wall, cpu, shots = fold(game, seats, options, log)
    asked, noted = forecast.odds_before_shot, forecast.note_battle_odds
    forecast.odds_before_shot = lambda deck, state: None    # the referee without the odds in its outcomes
    forecast.note_battle_odds = lambda deck, state, outcomes: None
    try:
        bare_wall, bare_cpu, _ = fold(game, seats, options, log)
    finally:
        forecast.odds_before_shot, forecast.note_battle_odds = asked, noted
    print(f"fold of a whole demo game (seed {seed}): {len(log)} inputs, {shots} shots with their odds: {wall:.2f} s "
          f"({cpu:.2f} s of CPU, {1000 * (cpu - bare_cpu) / max(shots, 1):.1f} ms of it a shot for the odds); "
          f"without the odds {bare_wall:.2f} s ({bare_cpu:.2f} s of CPU); load {load()}")


def load() -> str:
    return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


COUNT_AT_MOST = 100_000     # a simulated battle whose exact count needs at most so many states is counted too
ESTIMATE_UP_TO = 10 ** 9    # the estimate of the exact count's states stops adding past this


def states(size: int) -> str:
    return f"over {ESTIMATE_UP_TO:,}" if size > ESTIMATE_UP_TO else f"{size:,}"


def printed(deck: Deck) -> tuple[int, ...]:
    """The whole deck's cards by Action Number: the policy's reference, as the referee's forecast passes it."""
    found = deck.action_counts()
    return tuple(found.get(n, 0) for n in range(max(found, default=0) + 1))


def exact_cost(fs: list[Fighter], first: Cards, numbers: tuple[int, ...], reference: tuple[int, ...],
               simulated: Any) -> tuple[int, tuple[float, float] | None, str]:
    """(the states the exact count may need, ``count.estimate``; (CPU ms, aggressor's chance) of counting it
    exactly with no budget where they are at most COUNT_AT_MOST, else None; a note for the row)."""
    plain = tuple(f.after_this_round() for f in fs)
    size = estimate(played(plain, (), numbers, reference), (1 << len(fs)) - 1, first.whole + (0,), ESTIMATE_UP_TO)
    if simulated.method != "simulation" or size > COUNT_AT_MOST:
        return size, None, f"exact count: {states(size)} states at most"
    clear()
    c0 = time.process_time()
    exact = odds.count(fs, first, numbers=numbers, reference=reference)
    cpu = (time.process_time() - c0) * 1000
    assert exact is not None
    return size, (cpu, exact.aggressor), (f"exact count: {states(size)} states at most, counted in {cpu:.0f} ms (aggressor "
                                          f"{exact.aggressor:.4f}, the simulation off by "
                                          f"{abs(exact.aggressor - simulated.aggressor):.4f})")


Row = tuple[str, float, float, Any, int, "tuple[float, float] | None", int]


def battles(deck: Deck, conflict: list[str], numbers: tuple[int, ...]) -> list[Row]:
    """Every battle's first and next query: (label, first CPU ms, next CPU ms, answer, the exact count's states at
    most, (CPU ms, aggressor's chance) of the exact count where counted, units), each printed."""
    rows = []
    reference = printed(deck)
    for combined in (False, True):
        for army in ARMIES:
            for card in deck.copies(("battle",)):
                fs = forces(deck, card, army, combined)
                if not any(f.side == AGGRESSOR for f in fs) or not any(f.side == DEFENDER for f in fs):
                    continue
                rest = [k for k in conflict if k != card]
                first = Cards(counts(deck.action(k) for k in rest))
                turned = deck.action(rest[0])
                second = Cards(counts(deck.action(k) for k in rest[1:]), discard=counts([turned]))
                ms, cpu, result = timed(lambda fs=fs, first=first: battle_odds(fs, first, numbers=numbers,
                                                                               reference=reference), REPEATS)
                later = next_query(fs, first, second, numbers, reference, REPEATS)
                size, counted, note = exact_cost(fs, first, numbers, reference, result)
                label = f"{'combined' if combined else 'pacific '} {army:5} {card:11} {len(fs):2} units"
                rows.append((label, cpu, later[1], result, size, counted, len(fs)))
                print(f"{label}: first {ms:7.1f} / {cpu:6.1f} ms, next {later[0]:6.1f} / {later[1]:6.1f} ms, "
                      f"{result.method} (aggressor {result.aggressor:.4f}"
                      + (f" ± {result.error:.4f}, {result.runs} runs)" if result.method == "simulation" else ")")
                      + f"; {note}", flush=True)
    return rows


def summary(rows: list[Row]) -> None:
    """The median and the worst query by method, first and next, and how many battles meet 5 ms."""
    for method in ("exact", "simulation"):
        found = [r for r in rows if r[3].method == method]
        if not found:
            continue
        first, after = [r[1] for r in found], [r[2] for r in found]
        worst = max(found, key=lambda r: r[1])[0].split(":")[0]
        print(f"{method}: {len(found)} of {len(rows)} battles, CPU ms a query: first median {statistics.median(first):.1f}, "
              f"worst {max(first):.1f} ({worst.strip()}); next median {statistics.median(after):.1f}, worst {max(after):.1f}"
              + (f"; error at most {max(r[3].error for r in found):.4f}" if method == "simulation" else "")
              + f"; load {load()}")
    counted = [(r[3], r[5]) for r in rows if r[5] is not None]
    if counted:
        ms = [c[0] for _, c in counted]
        print(f"simulated battles counted exactly as well (at most {COUNT_AT_MOST:,} states): {len(counted)}, CPU ms "
              f"median {statistics.median(ms):.0f}, least {min(ms):.0f}, most {max(ms):.0f}; the simulation off by at "
              f"most {max(abs(sim.aggressor - c[1]) for sim, c in counted):.4f}")
    for units in sorted({r[6] for r in rows}):
        sizes = [r[4] for r in rows if r[6] == units]
        print(f"{units:2} units: {len(sizes)} battles, the exact count's states at most: median "
              f"{states(int(statistics.median(sizes)))}, least {states(min(sizes))}, most {states(max(sizes))}")
    within = sum(r[1] <= 5 and r[2] <= 5 for r in rows)
    print(f"within 5 ms of CPU (first and next): {within} of {len(rows)} battles; "
          f"exact: {sum(r[3].method == 'exact' for r in rows)} of {len(rows)}")


def main(seed: int = 1, with_fold: bool = True) -> int:
    deck = Deck(load_game("battlecards-pacific"))
    numbers = tuple(deck.action_numbers())
    conflict = deck.copies(("battle", "keep", "draw", "intel"))
    print(f"load average {load()}")
    simulate.warm_up()      # as a table does when it opens (Pacific's constructor)
    built = compiled.library()
    print(f"play-outs: {'compiled (' + str(built._name) + ')' if built else 'in Python (no C compiler)'}")
    duel = [fighter(deck, "JZERO#1", AGGRESSOR), fighter(deck, "UWILDCAT#1", DEFENDER)]
    full = Cards(counts(deck.action(k) for k in conflict if k != "PEARL#1"))
    base, base_cpu, result = timed(lambda: battle_odds(duel, full, numbers=numbers, reference=printed(deck)), 3)
    print(f"baseline, Zero v Wildcat, 53 cards: {base:.1f} ms, {base_cpu:.1f} ms of CPU ({result.method}, "
          f"aggressor {result.aggressor:.4f})")
    print("times: wall ms / CPU ms; first: nothing memoised; next: a card later, the battle's states memoised")
    summary(battles(deck, conflict, numbers))
    if with_fold:
        fold_time(seed)
    print(f"load average {load()}")
    return 0


def register(bench) -> None:
    parser = bench.add_parser("battlecards-odds", help="BATTLECARDS odds: a query for every battle (median, worst), "
                                                       "the fold of a demo game with and without the odds")
    parser.add_argument("--seed", type=int, default=1, help="the demo game whose log is folded")
    parser.add_argument("--no-fold", action="store_true", help="time the queries only")
    parser.set_defaults(func=lambda args: main(args.seed, not args.no_fold))


if __name__ == "__main__":
    main()
