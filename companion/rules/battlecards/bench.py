"""The battle odds' benchmark: ``python -m companion.rules.battlecards.bench`` prints the exact DP's time
for a 1-v-1 duel (the baseline) and a 6-unit battle, and the seeded simulation's, medians in one run."""
from __future__ import annotations

import statistics
import time

from card_tags.catalog import load_game

from .cards import Deck
from .odds import AGGRESSOR, DEFENDER, Fighter, _battle_odds, battle_odds, counts, simulate


def main() -> None:

    deck = Deck(load_game("battlecards-pacific"))
    pool = counts(deck.action(k) for k in deck.copies(("battle", "keep", "draw", "intel")))

    def fighter(key: str, side: str) -> Fighter:
        c = deck.card(key)
        return Fighter(key, side, c["unit_type"], tuple((t, c.get(f"attack_{t}")) for t in ("ground", "air", "sea")),
                       tuple((t, c.get(f"defense_{t}")) for t in ("ground", "air", "sea")), tuple(c["phases"]),
                       c.get("support_attack", 0) or 0, c.get("support_defense", 0) or 0, tuple(c.get("supports", [])))

    one = [fighter("JZERO#1", AGGRESSOR), fighter("UWILDCAT#1", DEFENDER)]
    six = [fighter(k, AGGRESSOR) for k in ("JZERO#1", "JAKAGI#1", "JYAMAMOT#1")] + \
          [fighter(k, DEFENDER) for k in ("UWILDCAT#1", "UENTERP#1", "UFLETCH#1")]
    for name, fs in (("1 v 1 (baseline)", one), ("3 v 3 (6 units)", six)):
        times = []
        for _ in range(5):
            _battle_odds.cache_clear()   # time the computation, not the cache
            t0 = time.perf_counter()
            odds = battle_odds(fs, pool)
            times.append(time.perf_counter() - t0)
        print(f"{name}: aggressor {odds.aggressor:.4f} ({odds.method}, {odds.states} states), "
              f"median {statistics.median(times) * 1000:.1f} ms over 5 runs")
    base = statistics.median(times)
    sim = []
    for _ in range(3):
        t0 = time.perf_counter()
        s = simulate(tuple(six), pool, (), (1 << 6) - 1)
        sim.append(time.perf_counter() - t0)
    print(f"3 v 3 simulated ({s.runs} runs): aggressor {s.aggressor:.4f} ± {s.error:.4f}, median "
          f"{statistics.median(sim) * 1000:.1f} ms ({statistics.median(sim) / base:.1f}x the exact DP)")


if __name__ == "__main__":
    main()
