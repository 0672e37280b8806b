"""Standings across tables, per game, and the next round's Swiss pairings for two-player games.

A player is known by name (as the table's seat list gives it). A finished game (a ``game_end``
result) scores a win for each winner and a game played for everyone at that table.

Swiss pairing (no well-kept Python library fits a small club evening: the ones on PyPI are
unmaintained or pull in a whole tournament manager): players in order of wins, then games; each
is paired with the next player below it whom it has not met yet, with backtracking when the last
ones would have to meet again (a bounded number of tries, then a greedy pairing); an odd player out
gets the bye, the lowest-placed player who has not had one.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

TWO_PLAYER_GAMES = ("stratego", "battlecards-pacific")


def standings(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per game: every player with games played and won, best first."""
    table: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for result in results:
        if result.get("kind") != "game_end":
            continue
        rows = table[result["game"]]
        for name in result.get("players", []):
            row = rows.setdefault(name, {"player": name, "played": 0, "won": 0, "tables": []})
            row["played"] += 1
            row["won"] += name in result.get("winner", [])
            if result["table"] not in row["tables"]:
                row["tables"].append(result["table"])
    return {game: sorted(rows.values(), key=lambda r: (-r["won"], r["played"], r["player"]))
            for game, rows in sorted(table.items())}


def met(results: list[dict[str, Any]], game: str) -> set[frozenset[str]]:
    """The pairs of players who have already played each other at this game."""
    pairs = set()
    for result in results:
        if result.get("kind") == "game_end" and result["game"] == game and len(result.get("players", [])) == 2:
            pairs.add(frozenset(result["players"]))
    return pairs


def swiss_pairings(order: list[str], already: set[frozenset[str]], byes: set[str] = frozenset()) -> dict[str, Any]:
    """The next round: ``{"pairs": [[a, b], ...], "bye": name or None}`` for players in standing
    order, avoiding rematches where any pairing allows it (or, where the search would take too
    long, where a greedy pairing finds one)."""
    players = list(order)
    bye = None
    if len(players) % 2:
        bye = next((p for p in reversed(players) if p not in byes), players[-1])
        players.remove(bye)
    opponents: dict[str, set[str]] = defaultdict(set)
    for pair in already:
        for player in pair:
            opponents[player] |= pair - {player}
    try:
        pairs = _pair(players, opponents, [SEARCH_STEPS])
    except _OutOfSteps:
        pairs = None
    if pairs is None:  # every pairing has a rematch, or finding one that has none would take too long
        pairs = _greedy(players, opponents)
    return {"pairs": pairs, "bye": bye}


# The search backtracks over pairings: where none avoids every rematch (one player has met all the
# others), it would try them all, (n-1)!! of them: hours at 22 players. It stops after this many
# tries (tens of milliseconds: `python -m companion.bench.pairings`, docs/hub.md) and pairs greedily.
SEARCH_STEPS = 10_000


class _OutOfSteps(Exception):
    pass


def _pair(players: list[str], opponents: dict[str, set[str]], steps: list[int]) -> list[list[str]] | None:
    if not players:
        return []
    first, rest = players[0], players[1:]
    met_first = opponents.get(first, set())
    for index, other in enumerate(rest):
        steps[0] -= 1
        if steps[0] < 0:
            raise _OutOfSteps
        if other in met_first:
            continue
        tail = _pair(rest[:index] + rest[index + 1:], opponents, steps)
        if tail is not None:
            return [[first, other], *tail]
    return None


def _greedy(players: list[str], opponents: dict[str, set[str]]) -> list[list[str]]:
    """Each player, best first, with the next one below not met yet, or else the next one below."""
    left, pairs = list(players), []
    while left:
        first = left.pop(0)
        other = next((p for p in left if p not in opponents.get(first, ())), left[0])
        left.remove(other)
        pairs.append([first, other])
    return pairs


def pairings(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The next round for every two-player game played at the hub's tables."""
    out = {}
    for game, rows in standings(results).items():
        if game in TWO_PLAYER_GAMES:
            out[game] = swiss_pairings([r["player"] for r in rows], met(results, game))
    return out
