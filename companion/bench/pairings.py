"""`python -m companion.bench.pairings`: how long the hub's next-round Swiss pairing takes, in the
worst case (one player has met every other, so no pairing avoids a rematch and the search must
give up), for 16 to 64 players, with the unbounded search it replaced as the same-run baseline
(on fields small enough for it to finish)."""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

from companion.hub import standings


def field(players: int, seed: int = 1) -> tuple[list[str], set[frozenset[str]]]:
    """Players in standing order; the last has met every other, and three random rounds were played."""
    names = [f"P{n:02}" for n in range(players)]
    met = {frozenset((names[-1], other)) for other in names[:-1]}
    rng = random.Random(seed)
    for _ in range(3 * players // 2):
        met.add(frozenset(rng.sample(names, 2)))
    return names, met


def unbounded(players: list[str], already: set[frozenset[str]]) -> list[list[str]] | None:
    """The search as it was: every pairing tried before giving up."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in already:
            continue
        tail = unbounded(rest[:index] + rest[index + 1:], already)
        if tail is not None:
            return [[first, other], *tail]
    return None


def median_ms(run, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("players  now (ms)  rematches  before (ms)")
    for players in (10, 12, 14, 16, 22, 32, 48, 64):
        names, met = field(players)
        now = median_ms(lambda n=names, m=met: standings.swiss_pairings(n, m))
        pairs = standings.swiss_pairings(names, met)["pairs"]
        rematches = sum(frozenset(p) in met for p in pairs)
        # Each two players more multiply the unbounded search's tries by about 15: not run past 14.
        before = f"{median_ms(lambda n=names, m=met: unbounded(n, m), 1):11.1f}" if players <= 14 else "    not run"
        print(f"{players:7}  {now:8.1f}  {rematches:9}  {before}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
