"""Secret Weapon: one seat at a time, POWER cards face down, then revealed in turn.

"the player to the dealer's left begins the battle by laying down his chosen card(s). The
CHARACTER card(s) must be laid faceup but the POWER card will be laid facedown. Players continue
clockwise until the last player enters the battle. When the final player has laid down his cards,
each player in turn reveals his POWER card (if any) by turning it faceup. ... In each subsequent
battle, the next player in the circle goes first." (bom-battle.txt)

The camera cannot read a face-down card, so laying one is a tap (``face_down`` {"seat": N}) or a
tag read face down (``card_seen`` with ``"face_down": true``, kept out of the public view). Turning
it face up is the camera seeing the POWER card in that seat's zone. A seat that plays out of turn
is flagged (the flag is shown until the card leaves the table, and recorded in the battle's
outcome); the battle resolves only once every face-down card is revealed.

State: ``turns`` = {"leader": seat, "position": index in this round's order of the seat whose turn
it is, "face_down": {seat: card key or ""}, "revealing": bool}.
"""
from __future__ import annotations

from typing import Any, Callable

State = dict[str, Any]


def enabled(state: State) -> bool:
    return state["turns"] is not None


def order(state: State, seats: list[int]) -> list[int]:
    """``seats`` clockwise, starting from this battle's leader (or the first seat after it)."""
    n = len(state["seats"])
    leader = state["turns"]["leader"] if enabled(state) else state["options"]["first_seat"]
    return sorted(seats, key=lambda s: (s - leader) % n)


def has_played(state: State, seat: int, plays: dict[int, list[str]]) -> bool:
    return bool(plays.get(seat)) or str(seat) in state["turns"]["face_down"] or \
        state["seats"][seat - 1]["withdrawn"]


def whose_turn(state: State, seats: list[int], plays: dict[int, list[str]]) -> dict[str, Any]:
    """{"phase": "play" | "reveal" | "resolve", "seat": whose move it is (None when resolving)}."""
    seq = order(state, seats)
    for s in seq:
        if not has_played(state, s, plays):
            return {"phase": "play", "seat": s, "order": seq, "leader": state["turns"]["leader"]}
    pending = [s for s in seq if str(s) in state["turns"]["face_down"]]
    if pending:
        return {"phase": "reveal", "seat": pending[0], "order": seq, "leader": state["turns"]["leader"]}
    return {"phase": "resolve", "seat": None, "order": seq, "leader": state["turns"]["leader"]}


def check_play(state: State, seat: int, is_power: bool, seats: list[int], plays: dict[int, list[str]],
               who: Callable[[int], str]) -> tuple[str | None, bool]:
    """A card the camera just saw in ``seat``'s zone (``plays`` as they were before it): the flag
    to raise, if any, and whether it was a reveal."""
    turns = state["turns"]
    seq = order(state, seats)
    if seat not in seq:
        return None, False
    everyone = all(has_played(state, s, plays) for s in seq)
    if is_power and str(seat) in turns["face_down"]:
        del turns["face_down"][str(seat)]
        if not everyone:
            return f"{who(seat)} turned its POWER card face up before every seat had played.", True
        turns["revealing"] = True
        earlier = [s for s in seq[:seq.index(seat)] if str(s) in turns["face_down"]]
        if earlier:
            return f"{who(seat)} revealed out of turn: {who(earlier[0])} reveals first.", True
        return None, True
    if turns["revealing"]:
        return f"{who(seat)} laid a card after the reveals began.", False
    # ``position`` is the seat whose turn it is; it may add cards until the next seat plays. A seat
    # further on takes the turn when every seat before it has played (or withdrawn).
    index, position = seq.index(seat), turns["position"]
    if index < position:
        return f"{who(seat)} added a card after {who(seq[index + 1])} had played.", False
    if index > position:
        waiting = [s for s in seq[position:index] if not has_played(state, s, plays)]
        if waiting or has_played(state, seat, plays):
            return f"{who(seat)} played out of turn: it is {who((waiting or [seq[position]])[0])}'s turn.", False
        turns["position"] = index
    if is_power:
        return f"{who(seat)} laid its POWER card face up; under Secret Weapon it goes face down until the reveals.", False
    return None, False


def lay_face_down(state: State, seat: int, key: str, seats: list[int], plays: dict[int, list[str]],
                  who: Callable[[int], str]) -> str | None:
    """Record a face-down POWER card; returns the out-of-turn flag, if any."""
    flag, _ = check_play(state, seat, False, seats, plays, who)
    state["turns"]["face_down"][str(seat)] = key
    return flag


def next_leader(state: State) -> None:
    """"In each subsequent battle, the next player in the circle goes first.\""""
    n = len(state["seats"])
    leader = state["turns"]["leader"]
    for step in range(1, n + 1):
        candidate = (leader - 1 + step) % n + 1
        if not state["seats"][candidate - 1]["out"]:
            state["turns"]["leader"] = candidate
            break
    new_round(state)


def new_round(state: State) -> None:
    """A new battle (or a mounting round): the first seat in order plays first, nothing face down."""
    state["turns"].update(position=0, face_down={}, revealing=False)
