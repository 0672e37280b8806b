"""What the table's tablet shows. Nothing in this game is secret except face-down cards, which
the companion never sees (a Secret Weapon card read face down is kept out of it), and in Spy's
Trivia the card being read, whose name appears only once the card is won."""
from __future__ import annotations

from typing import Any

from . import piles, table, turns, variants
from .announce import announce
from .battle import check, participants, seat_problem, who_of
from .cards import Deck
from .plays import Play
from .trivia import QUESTION

State = dict[str, Any]


def public_view(deck: Deck, state: State) -> dict[str, Any]:
    current = table.plays(state)
    fighting = participants(state) if not state["over"] else []
    ready = _ready(deck, state)
    turn = turns.whose_turn(state, fighting, current) if turns.enabled(state) and fighting else None
    view = {
        "mode": state["mode"], "phase": _phase(state), "battle": state["battle"], "deck_size": state["deck_size"],
        "variants": variants.active(state["options"]), "options": state["options"],
        "seats": [_seat(deck, state, s, current, fighting) for s in state["seats"]],
        "conflicts": [_conflict(deck, state, c) for c in table.conflicts(state)],
        "flags": list(state["flags"]),
        "problems": [flag["why"] for flag in state["flags"]],
        "collecting": sorted(state["collecting"]),
        "turn": turn["seat"] if turn else None,
        "secret_weapon": turn,
        "mount": _mount(deck, state),
        "tiebreak": state["tiebreak"],
        "timer": _timer(state),
        "trivia": _trivia(deck, state) if state["mode"] == "trivia" else None,
        "last_outcome": state["last"], "recent": state["recent"],
        "ready_to_resolve": ready,
        "prompt": _prompt(deck, state, current, fighting, turn, ready),
        "standings": standings(state),
        "winner": state["winner"], "winners": state["winners"], "over": state["over"],
    }
    return view


def _names(state: State, seats: list[int]) -> str:
    who = who_of(state)
    named = [who(s) for s in seats]
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)


def _prompt(deck: Deck, state: State, current: dict[int, list[str]], fighting: list[int],
            turn: dict[str, Any] | None, ready: bool) -> str:
    """What happens next, in one sentence for the table."""
    who = who_of(state)
    if state["over"]:
        ends = [o["say"] for o in state["recent"] if o["kind"] == "game_over"]
        return ends[-1] if ends else "The game is over."
    if state["mode"] == "trivia" and not state["tiebreak"]:
        trivia = state["trivia"]
        current_card = trivia["current"]
        if current_card is None:
            return f"{who(trivia['reader'])} reads: put the top card of your pile in the scan tray."
        if current_card["tie"]:
            return QUESTION
        clues = list(deck.lookup(current_card["card"]).get("description") or [])
        n = current_card["clues"]
        return f"Clue {n} of {len(clues)}: {clues[n - 1]}" if clues else "Who is it?"
    if ready:
        return "Everyone has played: resolve the battle."
    if turn and turn["phase"] == "reveal":
        return f"{who(turn['seat'])}: turn your POWER card face up."
    if turn and turn["phase"] == "play":
        return f"{who(turn['seat'])}'s turn to play."
    waiting = [s for s in fighting if not current.get(s) and str(s) not in (state["turns"] or {}).get("face_down", {})]
    if state["tiebreak"]:
        return (f"Last battle after the timer: {_names(state, state['tiebreak']['seats'])} each draw one CHARACTER "
                f"card at random and play it.")
    if state["mount"]:
        return f"The battle mounts: {_names(state, state['mount']['seats'])} each play a new CHARACTER card."
    if waiting:
        return f"Battle {state['battle']}: waiting for {_names(state, waiting)}."
    return f"Battle {state['battle']}: fix the plays above before resolving."


def _conflict(deck: Deck, state: State, conflict: dict[str, Any]) -> dict[str, Any]:
    name = deck.view(conflict["card"])["name"]
    places = " and ".join(who_of(state)(s) for s in conflict["seats"])
    return {**conflict, "name": name,
            "say": f"{name} ({conflict['card']}) is seen at {places} at once: take the duplicate away."}


def _ready(deck: Deck, state: State) -> bool:
    if state["over"] or (state["mode"] == "trivia" and not state["tiebreak"]):
        return False
    return not check(deck, state)[1]


def _phase(state: State) -> str:
    if state["over"]:
        return "over"
    if state["tiebreak"]:
        return "tiebreak"
    if state["mount"]:
        return "mounting"
    return "trivia" if state["mode"] == "trivia" else "battle"


def _seat(deck: Deck, state: State, s: dict[str, Any], current: dict[int, list[str]],
          fighting: list[int]) -> dict[str, Any]:
    n = s["seat"]
    cards = current.get(n, [])
    face_down = str(n) in (state["turns"] or {}).get("face_down", {})
    shown: dict[str, Any] = {
        "seat": n, "name": s["name"], "army": s["army"], "battalion": s["battalion"], "discard": s["discard"],
        "cards": piles.total(s), "total": piles.total(s), "eliminated": s["out"], "withdrawn": s["withdrawn"],
        "in_battle": n in fighting, "play": [deck.view(k) for k in cards], "face_down": face_down,
        "status": "waiting", "problem": None, "points": None, "announce": None, "say": None,
    }
    if state["mode"] == "trivia":
        won = state["trivia"]["won"][str(n)]
        shown.update(unread=state["trivia"]["unread"][str(n)], cards=won, total=won)
    if s["out"]:
        shown["status"] = "out"
    elif s["withdrawn"]:
        shown["status"] = "withdrawn"
    elif n not in fighting:
        shown["status"] = "sitting out" if not state["over"] else "waiting"
    else:
        result = seat_problem(deck, state, n, cards)
        if isinstance(result, Play):
            said = announce(result, deck.view)
            shown.update(status="ready", points=result.points, announce=said, say=said["text"])
        elif face_down:
            shown.update(status="face down", problem=result)
        elif cards:
            shown.update(status="problem", problem=result)
    return shown


def _mount(deck: Deck, state: State) -> dict[str, Any] | None:
    """The mounting battle: tied seats, round, face-down counts, the pot (every card already in the
    battle, face-down ones included) and the cards of earlier rounds the camera saw."""
    if not state["mount"]:
        return None
    return {**state["mount"], "pot": state["pot"], "cards": [deck.view(k) for k in state["held"]]}


def _timer(state: State) -> dict[str, Any] | None:
    minutes = state["options"]["shorter_game_minutes"]
    if not minutes:
        return None
    return {"minutes": minutes, "seconds": minutes * 60, "time_up": state["time_up"]}


def _trivia(deck: Deck, state: State) -> dict[str, Any]:
    """Never the card being read: its clues so far, how many there are, and the tie question."""
    trivia = state["trivia"]
    shown = {"reader": trivia["reader"], "read": len(trivia["read"]),
             "remaining": sum(trivia["unread"].values()), "current": None, "last": trivia["last"]}
    current = trivia["current"]
    if current:
        clues = list(deck.lookup(current["card"]).get("description") or [])
        shown["current"] = {"clues": clues[:current["clues"]], "clue_count": len(clues), "tie": current["tie"],
                            "question": _question(current)}
    return shown


def _question(current: dict[str, Any]) -> str | None:
    return QUESTION if current["tie"] else None


def standings(state: State) -> list[dict[str, Any]]:
    """The score: card counts per seat, most cards first."""
    rows = []
    for s in state["seats"]:
        row = {"seat": s["seat"], "name": s["name"], "cards": piles.total(s), "army": s["army"],
               "battalion": s["battalion"], "discard": s["discard"], "eliminated": s["out"]}
        if state["mode"] == "trivia":
            row = {"seat": s["seat"], "name": s["name"], "cards": state["trivia"]["won"][str(s["seat"])],
                   "unread": state["trivia"]["unread"][str(s["seat"])], "eliminated": False}
        rows.append(row)
    return sorted(rows, key=lambda r: (-r["cards"], r["seat"]))


def seat_view(deck: Deck, state: State, seat: int) -> dict[str, Any]:
    """The table's view, plus the identity of this seat's own face-down card if its tag was read."""
    view = public_view(deck, state)
    key = (state["turns"] or {}).get("face_down", {}).get(str(seat))
    view["my_face_down"] = deck.view(key) if key else None
    return view


__all__ = ["public_view", "seat_view", "standings", "who_of"]
