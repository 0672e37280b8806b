"""Points and the end: a round won (every member of the winner's team scores), the next round,
the tie-break between players level at the target, and the game's winner.

"The first player to an agreed amount of points, such as 5, wins" (the ``target`` option). When
several players reach it together, they draw SAVE or ELIMINATE face down until one is left.
"""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import deal
from .state import BattleState, Phase, RoundResult, Tiebreak, TiebreakDraw


def win_round(state: BattleState, seat: int) -> tuple[Outcome, ...]:
    """``seat`` played their identity card: a point to every member of their team, all teams shown."""
    team = state.identity[seat].team
    teams = {s: state.identity[s].team for s in state.seat_numbers()}
    for s, member in teams.items():
        if member == team:
            state.points[s] += 1
    told = Outcome("round", data={"seat": seat, "team": str(team), "teams": {s: str(t) for s, t in teams.items()},
                                  "scores": dict(state.points)}, reveals=True)
    state.rounds.append(RoundResult(round=state.round, went_out=seat, team=team, teams=teams,
                                    points=dict(state.points)))
    state.phase, state.turn, state.pending, state.top = Phase.ROUND_OVER, None, None, None
    state.awaiting, state.step = None, None
    return (told, *_check_game_end(state))


def _check_game_end(state: BattleState) -> tuple[Outcome, ...]:
    target = state.options["target"]
    best = max(state.points.values())
    if best < target:
        return (Outcome("next_round", data={"round": state.round}),)
    leaders = [s for s, p in state.points.items() if p == best]
    if len(leaders) == 1:
        return _game_over(state, leaders[0])
    state.phase, state.tiebreak = Phase.TIEBREAK, Tiebreak(players=leaders)
    return (Outcome("tie", data={"players": list(leaders), "points": best}),)


def tiebreak_draw(state: BattleState, seat: int, drew: str) -> tuple[Outcome, ...]:
    """``tiebreak_draw {"seat": N, "card": "save" | "eliminate"}``: what a tying player drew."""
    tie = state.tie_break()
    if seat not in tie.players:
        raise Refused("not_tied", players=list(tie.players))
    if any(d.seat == seat for d in tie.drawn):
        raise Refused("already_drew_tiebreak", seat)
    card = drew.lower()
    if card not in ("save", "eliminate"):
        raise Refused("tiebreak_card", card=drew)
    tie.drawn.append(TiebreakDraw(seat=seat, card=card))
    told: tuple[Outcome, ...] = (Outcome("tiebreak_draw", data={"seat": seat, "drew": card}),)
    if len(tie.drawn) == len(tie.players):
        told += _settle_tiebreak(state, tie)
    return told


def _settle_tiebreak(state: BattleState, tie: Tiebreak) -> tuple[Outcome, ...]:
    """Every tying player has drawn: one SAVE wins; otherwise those still tied draw again."""
    survivors = [d.seat for d in tie.drawn if d.card == "save"]
    if len(survivors) == 1:
        return _game_over(state, survivors[0])
    if survivors:  # none: "start the process over"
        tie.players = survivors
    tie.drawn, tie.attempt = [], tie.attempt + 1
    return (Outcome("tiebreak_again", data={"players": list(survivors)}),)


def _game_over(state: BattleState, seat: int) -> tuple[Outcome, ...]:
    state.phase, state.over, state.winner, state.tiebreak = Phase.OVER, True, seat, None
    return (Outcome("game_over", data={"seat": seat, "points": state.points[seat]}),)


def new_round(state: BattleState, dealer: int | None) -> tuple[Outcome, ...]:
    """``new_round {"dealer"?: N}``: the cards are shuffled and dealt again; the deal passes left."""
    dealer = state.left_of(state.dealer) if dealer is None else dealer
    deal.new_round(state, dealer)
    return (Outcome("new_round", data={"round": state.round, "seat": dealer, "cards": state.deal.per_player}),)
