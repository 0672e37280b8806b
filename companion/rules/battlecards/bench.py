"""The battle odds' benchmark: ``python -m companion.rules.battlecards.bench`` prints, for every BATTLECARD of the
Pacific set (and, combined with a Western set, its battles fought by allies), the time of one odds query: the
first of the battle (nothing counted yet) and the next one (a card turned, the battle's states memoised), with
a 1-v-1 duel as the same run's baseline (median of 3) and the machine's load."""
from __future__ import annotations

import os
import statistics
import time

from card_tags.catalog import load_game

from . import odds
from .cards import Deck
from .odds import AGGRESSOR, DEFENDER, Cards, Fighter, battle_odds, counts

TYPES = ("ground", "air", "sea")
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


def timed(query, runs: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        odds._battle_odds.cache_clear()
        odds._engine.cache_clear()
        t0 = time.perf_counter()
        result = query()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, result


def next_query(fs: list[Fighter], first: Cards, second: Cards, numbers) -> float:
    """The next query of the same battle, its states memoised by the first (the engine kept, the answer not)."""
    times = []
    for _ in range(1):
        odds._battle_odds.cache_clear()
        odds._engine.cache_clear()
        battle_odds(fs, first, numbers=numbers)
        odds._battle_odds.cache_clear()
        t0 = time.perf_counter()
        battle_odds(fs, second, next_step=1, numbers=numbers)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    deck = Deck(load_game("battlecards-pacific"))
    numbers = tuple(deck.action_numbers())
    conflict = deck.copies(("battle", "keep", "draw", "intel"))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    duel = [fighter(deck, "JZERO#1", AGGRESSOR), fighter(deck, "UWILDCAT#1", DEFENDER)]
    full = Cards(counts(deck.action(k) for k in conflict if k != "PEARL#1"))
    base, result = timed(lambda: battle_odds(duel, full, numbers=numbers), 3)
    print(f"baseline, Zero v Wildcat, 53 cards: {base:.1f} ms ({result.method}, aggressor {result.aggressor:.4f})")
    rows = []
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
                ms, result = timed(lambda fs=fs, first=first: battle_odds(fs, first, numbers=numbers))
                later = next_query(fs, first, second, numbers) if result.method == "exact" else ms
                rows.append((ms, later, result))
                print(f"{'combined' if combined else 'pacific '} {army:5} {card:11} {len(fs):2} units: "
                      f"first {ms:7.1f} ms, next " + (f"{later:6.2f} ms" if result.method == "exact" else "     -   ")
                      + f", {result.method} "
                      f"(aggressor {result.aggressor:.4f}" + (f" ± {result.error:.4f}, {result.runs} runs)"
                                                              if result.method == "simulation" else ")"))
    exact = [r for r in rows if r[2].method == "exact"]
    sim = [r for r in rows if r[2].method == "simulation"]
    print(f"exact: {len(exact)} battles, first query median {statistics.median(r[0] for r in exact):.1f} ms, max "
          f"{max(r[0] for r in exact):.1f} ms; next query median {statistics.median(r[1] for r in exact):.2f} ms")
    if sim:
        print(f"simulated: {len(sim)} battles, median {statistics.median(r[0] for r in sim):.1f} ms, max "
              f"{max(r[0] for r in sim):.1f} ms, standard error at most {max(r[2].error for r in sim):.4f}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
