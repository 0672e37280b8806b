"""Secret Weapon: one seat at a time, POWER cards face down, then revealed in turn.

"the player to the dealer's left begins the battle by laying down his chosen card(s). The
CHARACTER card(s) must be laid faceup but the POWER card will be laid facedown. Players continue
clockwise until the last player enters the battle. When the final player has laid down his cards,
each player in turn reveals his POWER card (if any) by turning it faceup. ... In each subsequent
battle, the next player in the circle goes first." (bom-battle.txt)

The camera cannot read a face-down card, so laying one is a tap (``face_down`` {"seat": N}) or a
tag read face down (``card_seen`` with ``"face_down": true``, kept out of the public view). Turning
it face up is the camera seeing the POWER card in that seat's zone. A seat that plays out of turn
is flagged (a ``Flag``, shown until the card leaves the table, and recorded in the battle's
outcome); the battle resolves only once every face-down card is revealed.
"""
from __future__ import annotations

from typing import Any, TypedDict

from .state import BomState, Flag, Turns
from .variants import BomVariant

# What a flag says happened (the view tells it): ``other`` is the seat named in the sentence.
REVEAL_EARLY = "reveal_early"            # turned its POWER card face up before every seat had played
REVEAL_OUT_OF_TURN = "reveal_out_of_turn"  # revealed before ``other``, who reveals first
AFTER_REVEALS = "after_reveals"          # laid a card after the reveals began
ADDED_LATE = "added_late"                # added a card after ``other`` had played
OUT_OF_TURN = "out_of_turn"              # played out of turn: it is ``other``'s turn
POWER_FACE_UP = "power_face_up"          # laid its POWER card face up
FLAGS = (REVEAL_EARLY, REVEAL_OUT_OF_TURN, AFTER_REVEALS, ADDED_LATE, OUT_OF_TURN, POWER_FACE_UP)


class SecretWeapon(BomVariant):
    option = "secret_weapon"
    title = "Secret Weapon"

    def start(self, state: BomState, game: Any, dealt: list[int]) -> None:
        state.turns = Turns(leader=state.options["first_seat"])

    def order(self, state: BomState, seats: list[int]) -> list[int]:
        """``seats`` clockwise, starting from this battle's leader (or the first seat after it)."""
        return state.in_turn_order(seats, state.secret_weapon().leader)

    def after_battle(self, state: BomState) -> None:
        """"In each subsequent battle, the next player in the circle goes first.\""""
        turns = state.secret_weapon()
        for candidate in state.clockwise(state.left_of(turns.leader)):
            if not state.seat(candidate).out:
                turns.leader = candidate
                break
        self.new_round(state)

    def new_round(self, state: BomState) -> None:
        """A new battle (or a mounting round): the first seat in order plays first, nothing face down."""
        turns = state.secret_weapon()
        turns.position, turns.face_down, turns.revealing = 0, {}, False

    def on_card(self, state: BomState, seat: int, key: str, is_power: bool, before: dict[int, list[str]]) -> None:
        from .battle import participants

        flag = check_play(state, seat, is_power, participants(state, self), before)
        if flag:
            state.flags.append(Flag(seat=seat, card=key, kind=flag[0], other=flag[1]))


def has_played(state: BomState, seat: int, plays: dict[int, list[str]]) -> bool:
    return bool(plays.get(seat)) or seat in state.secret_weapon().face_down or state.seat(seat).withdrawn


class TurnJSON(TypedDict):
    """Secret Weapon's turn: what is to be done (``play``, ``reveal`` a face-down POWER card, or ``resolve``),
    whose move it is (None when resolving), the battle's order of play and its leader."""

    phase: str
    seat: int | None
    order: list[int]
    leader: int


def whose_turn(state: BomState, seq: list[int], plays: dict[int, list[str]]) -> TurnJSON:
    """Whose move it is in this battle's order, and what it is."""
    for s in seq:
        if not has_played(state, s, plays):
            return {"phase": "play", "seat": s, "order": seq, "leader": state.secret_weapon().leader}
    pending = [s for s in seq if s in state.secret_weapon().face_down]
    if pending:
        return {"phase": "reveal", "seat": pending[0], "order": seq, "leader": state.secret_weapon().leader}
    return {"phase": "resolve", "seat": None, "order": seq, "leader": state.secret_weapon().leader}


def check_play(state: BomState, seat: int, is_power: bool, seq: list[int],
               plays: dict[int, list[str]]) -> tuple[str, int | None] | None:
    """A card the camera just saw in ``seat``'s zone (``plays`` as they were before it): the flag
    to raise, (kind, other seat), if any. A POWER card of a seat with one face down is its reveal."""
    turns = state.secret_weapon()
    if seat not in seq:
        return None
    everyone = all(has_played(state, s, plays) for s in seq)
    if is_power and seat in turns.face_down:
        del turns.face_down[seat]
        if not everyone:
            return REVEAL_EARLY, None
        turns.revealing = True
        earlier = [s for s in seq[:seq.index(seat)] if s in turns.face_down]
        return (REVEAL_OUT_OF_TURN, earlier[0]) if earlier else None
    if turns.revealing:
        return AFTER_REVEALS, None
    # ``position`` is the seat whose turn it is; it may add cards until the next seat plays. A seat
    # further on takes the turn when every seat before it has played (or withdrawn).
    index, position = seq.index(seat), turns.position
    if index < position:
        return ADDED_LATE, seq[index + 1]
    if index > position:
        waiting = [s for s in seq[position:index] if not has_played(state, s, plays)]
        if waiting or has_played(state, seat, plays):
            return OUT_OF_TURN, (waiting or [seq[position]])[0]
        turns.position = index
    return (POWER_FACE_UP, None) if is_power else None


def lay_face_down(state: BomState, seat: int, key: str, seq: list[int], plays: dict[int, list[str]]) -> None:
    """Record a face-down POWER card, flagged if it was laid out of turn."""
    flag = check_play(state, seat, False, seq, plays)
    state.secret_weapon().face_down[seat] = key
    if flag:
        state.flags.append(Flag(seat=seat, card=None, kind=flag[0], other=flag[1]))
