"""The tablet's buttons for the commands that make sense right now (``Ruleset.actions``).
Every button still goes through ``apply``; a "choose" sends the seat as text, which the
commands accept."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from . import table, turns
from .battle import participants
from .cards import Deck

State = dict[str, Any]


def _seats(state: State, numbers) -> list[dict[str, Any]]:
    return [{"value": str(n), "label": state["seats"][n - 1]["name"]} for n in numbers]


def _choose(label: str, kind: str, state: State, numbers, **extra) -> list[dict[str, Any]]:
    numbers = list(numbers)
    if not numbers:
        return []
    return [{"label": label, "kind": kind, "data": {}, "choose": {"field": "seat", "options": _seats(state, numbers)},
             **extra}]


def offer(deck: Deck, state: State) -> list[dict[str, Any]]:
    if state["over"]:
        return []
    buttons: list[dict[str, Any]] = []
    if state["mode"] == "trivia" and not state["tiebreak"]:
        buttons += _trivia(state)
    elif not state["tiebreak"]:
        buttons += _battle(state)
    if state["options"]["shorter_game_minutes"] and not state["time_up"]:
        buttons.append({"label": "Time is up", "kind": "time_up", "data": {},
                        "confirm": "End the game now: the most cards wins?"})
    if state["mode"] == "young":
        buttons.append({"label": "Stop playing", "kind": "stop", "data": {},
                        "confirm": "Stop now: the player with the most cards wins?"})
    return buttons


def _battle(state: State) -> list[dict[str, Any]]:
    current = table.plays(state)
    active = [s["seat"] for s in state["seats"] if not s["out"]]
    buttons: list[dict[str, Any]] = []
    if state["mount"]:
        tied = state["mount"]["seats"]
        buttons += _choose("No CHARACTER card for the tie (swap two POWER cards)", "no_character", state, tied)
        buttons += _choose("Surrenders (not enough cards for the tie)", "surrender", state, tied,
                           confirm="Surrender every remaining card?")
        return buttons
    if state["mode"] == "battle":
        free = [n for n in active if not state["seats"][n - 1]["withdrawn"] and not current.get(n)
                and str(n) not in (state["turns"] or {}).get("face_down", {})]
        buttons += _choose("Sits out: no CHARACTER card", "withdraw", state, free)
        buttons += _choose("Too many POWER cards (2 to the discard, draw 2)", "too_many_powers", state,
                           [n for n in active if state["seats"][n - 1]["battalion"] - len(current.get(n, [])) >= 4])
    if turns.enabled(state):
        laid = state["turns"]["face_down"]
        buttons += _choose("Laid a POWER card face down", "face_down", state,
                           [n for n in participants(state) if str(n) not in laid])
    return buttons


def _trivia(state: State) -> list[dict[str, Any]]:
    trivia = state["trivia"]
    current = trivia["current"]
    if current is None:
        return []
    guessers = [s["seat"] for s in state["seats"] if s["seat"] != trivia["reader"]]
    buttons = [{"label": "Next clue", "kind": "trivia_clue", "data": {}}]
    pool = current["tie"] or guessers
    buttons += _choose("Guessed it first", "trivia_award", state, pool)
    if not current["tie"] and len(guessers) >= 2:
        pairs = [{"value": f"{a},{b}", "label": f"{state['seats'][a - 1]['name']} and {state['seats'][b - 1]['name']}"}
                 for a, b in combinations(guessers, 2)]
        buttons.append({"label": "Tie: ask for the book and chapter", "kind": "trivia_tie", "data": {},
                        "choose": {"field": "seats", "options": pairs}})
    buttons.append({"label": "Nobody knew (the reader keeps it)", "kind": "trivia_nobody", "data": {}})
    return buttons
