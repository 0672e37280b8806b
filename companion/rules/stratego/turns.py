"""Play: a turn is a move (told by a tap) or an attack (the attacker, then the defender, scanned);
a combat is decided as soon as its defender is scanned; the end is checked after every combat."""
from __future__ import annotations

from companion.rules.base import Outcome, Term
from companion.rules.contract import Refused

from .combat import decide, defender_shown
from .ranks import FLAG, IMMOBILE, Quote
from .state import OVER, Combat, End, Fighter, LastTurn, Pending, StrategoState, other
from .variants import ScoutMovesAndAttacks, StrategoVariant


def scout_window(state: StrategoState, variants: list[StrategoVariant], colour: str) -> bool:
    """True while ``colour`` has just made a plain move and, under the Scout variant, may still attack."""
    last = state.last_turn
    return (any(isinstance(v, ScoutMovesAndAttacks) for v in variants) and last is not None
            and last.colour == colour and last.kind == "move" and state.turn != colour)


def _on_board(state: StrategoState, key: str) -> None:
    piece = state.pieces[key]
    if not piece.alive:
        raise Refused("captured", combat=piece.captured_in)


def scan_attacker(state: StrategoState, variants: list[StrategoVariant], key: str, zone: str) -> tuple[Outcome, ...]:
    piece = state.pieces[key]
    colour = piece.colour
    in_window = scout_window(state, variants, colour)
    if colour != state.turn and not in_window:
        raise Refused("not_your_turn_to_attack", state.seat_of(colour), turn=state.turn, colour=colour)
    _on_board(state, key)
    if piece.rank in IMMOBILE:
        raise Refused("never_moves", state.seat_of(colour), colour=colour)  # a secret: the view words it
    if in_window:
        next(v for v in variants if isinstance(v, ScoutMovesAndAttacks)).attack_after_move(piece.rank)
    state.pending = Pending(colour=colour, piece=key, zone=zone)
    if not in_window:
        state.last_turn = None  # a new turn closes the last one's rescue
    return (Outcome("attack", data={"seat": state.seat_of(colour), "colour": colour}),)


def scan_defender(state: StrategoState, variants: list[StrategoVariant], key: str) -> tuple[Outcome, ...]:
    assert state.pending is not None
    colour = state.pending.colour
    if key == state.pending.piece:
        raise Refused("same_piece_twice", colour=colour)
    if state.pieces[key].colour == colour:
        raise Refused("friendly_piece", colour=colour)
    _on_board(state, key)
    return combat(state, variants, state.pending.piece, key)


def combat(state: StrategoState, variants: list[StrategoVariant], attacker_key: str,
           defender_key: str) -> tuple[Outcome, ...]:
    """The combat decided, recorded, and the turn passed (unless it finishes a Scout's move)."""
    attacker, defender = state.pieces[attacker_key], state.pieces[defender_key]
    verdict = decide(attacker.rank, defender.rank, variants)
    number = len(state.combats) + 1
    record = Combat(n=number, turn=state.turn_number, winner=verdict.winner, rule=verdict.rule,
                    attacker=Fighter(colour=attacker.colour, piece=attacker_key, rank=attacker.rank, shown=True),
                    defender=Fighter(colour=defender.colour, piece=defender_key, rank=defender.rank,
                                     shown=defender_shown(attacker.rank, verdict, variants)),
                    flag=defender.rank == FLAG and verdict.defender_removed)
    state.combats.append(record)
    for piece, side in ((attacker, record.attacker), (defender, record.defender)):
        piece.revealed = piece.revealed or side.shown
    if verdict.attacker_removed:
        attacker.alive, attacker.captured_in = False, number
    if verdict.defender_removed:
        defender.alive, defender.captured_in = False, number
    state.pending = None
    finishing_a_move = attacker.colour != state.turn  # a Scout attacking after its move
    already_rescued = bool(finishing_a_move and state.last_turn and state.last_turn.rescued)
    if not finishing_a_move:
        pass_turn(state)
    state.last_turn = LastTurn(colour=attacker.colour, kind="combat", rescued=already_rescued,
                               survivor=None if verdict.attacker_removed else attacker_key)
    told = {name: {"seat": state.seat_of(side.colour), "rank": side.rank if side.shown else None}
            for name, side in (("attacker", record.attacker), ("defender", record.defender))}
    outcome = Outcome("combat", data={"combat": number, "winner": verdict.winner, **told}, reveals=True)
    return (outcome, *check_end(state, record))


def pass_turn(state: StrategoState) -> None:
    state.turn = other(state.turn)
    state.turn_number += 1


def check_end(state: StrategoState, record: Combat | None) -> tuple[Outcome, ...]:
    """The Flag captured, or a side left with nothing that moves (the side to move first)."""
    if record is not None and record.flag:
        return (finish(state, record.attacker.colour, "flag", Quote.FLAG),)
    for colour in (state.turn, other(state.turn)):
        if state.movable_left(colour) == 0:
            return (finish(state, other(colour), "no_movable_piece", Quote.FORFEIT),)
    return ()


def finish(state: StrategoState, winner: str, reason: str, rule: str) -> Outcome:
    state.over, state.phase, state.pending = True, OVER, None
    state.winner = state.seat_of(winner)
    state.end = End(reason=reason, loser=other(winner), rule=rule)
    return Outcome("game_over", terms=(Term("rule", rule),),
                   data={"winner": state.winner, "reason": reason, "loser": other(winner)})


def move(state: StrategoState, seat: int) -> tuple[Outcome, ...]:
    colour = state.colours[seat]
    if state.pending is not None:
        raise Refused("combat_under_way", colour=state.pending.colour)
    if colour != state.turn:
        raise Refused("not_your_turn", seat, turn=state.turn, colour=colour)
    pass_turn(state)
    state.last_turn = LastTurn(colour=colour, kind="move", survivor="moved")
    return (Outcome("move", data={"seat": seat, "colour": colour, "next": state.turn}),)


def cancel(state: StrategoState, seat: int | None) -> tuple[Outcome, ...]:
    pending = state.pending
    if pending is None:
        raise Refused("no_combat_to_cancel")
    if seat is not None and state.colours[seat] != pending.colour:
        raise Refused("only_attacker_cancels", colour=pending.colour)
    state.pending = None
    return (Outcome("cancel", data={"seat": state.seat_of(pending.colour), "colour": pending.colour}),)


def resign(state: StrategoState, seat: int) -> tuple[Outcome, ...]:
    return (finish(state, other(state.colours[seat]), "resign", Quote.RESIGN),)
