"""Points and the end: a round won (every member of the winner's team scores), the next round,
the tie-break between players level at the target, and the game's winner.

"The first player to an agreed amount of points, such as 5, wins" (the ``target`` option). When
several players reach it together, they draw SAVE or ELIMINATE face down until one is left.
"""
from __future__ import annotations

from typing import Any

from ..contract import Refused
from . import deal, seats
from .cards import Deck
from .report import Report
from .state import BattleState, Phase, RoundResult, Tiebreak, TiebreakDraw


def win_round(state: BattleState, seat: int, report: Report) -> None:
    """``seat`` played their identity card: a point to every member of their team, all teams shown."""
    team = state.identity[seat].team
    teams = {s: state.identity[s].team for s in state.seat_numbers()}
    for s, member in teams.items():
        if member == team:
            state.points[s] += 1
    report.tell("round", reveals=True, seat=seat, team=str(team), teams={s: str(t) for s, t in teams.items()},
                scores=dict(state.points))
    state.rounds.append(RoundResult(round=state.round, went_out=seat, team=team, teams=teams,
                                    points=dict(state.points)))
    state.phase, state.turn, state.pending, state.top = Phase.ROUND_OVER, None, None, None
    state.awaiting, state.step = None, None
    _check_game_end(state, report)


def _check_game_end(state: BattleState, report: Report) -> None:
    target = state.options["target"]
    best = max(state.points.values())
    if best < target:
        report.tell("next_round", round=state.round)
        return
    leaders = [s for s, p in state.points.items() if p == best]
    if len(leaders) == 1:
        _game_over(state, leaders[0], report)
        return
    state.phase, state.tiebreak = Phase.TIEBREAK, Tiebreak(players=leaders)
    report.tell("tie", players=leaders, points=best)


def on_tiebreak_draw(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``tiebreak_draw {"seat": N, "card": "save" | "eliminate"}``: what a tying player drew."""
    tie, seat = state.tie_break(), data["seat"]
    if seat not in tie.players:
        raise Refused("not_tied", players=list(tie.players))
    if any(d.seat == seat for d in tie.drawn):
        raise Refused("already_drew_tiebreak", seat)
    card = data["card"].lower()
    if card not in ("save", "eliminate"):
        raise Refused("tiebreak_card", card=data["card"])
    tie.drawn.append(TiebreakDraw(seat=seat, card=card))
    report.tell("tiebreak_draw", seat=seat, drew=card)
    if len(tie.drawn) == len(tie.players):
        _settle_tiebreak(state, tie, report)


def _settle_tiebreak(state: BattleState, tie: Tiebreak, report: Report) -> None:
    """Every tying player has drawn: one SAVE wins; otherwise those still tied draw again."""
    survivors = [d.seat for d in tie.drawn if d.card == "save"]
    if len(survivors) == 1:
        _game_over(state, survivors[0], report)
        return
    report.tell("tiebreak_again", players=survivors)  # none: "start the process over"
    if survivors:
        tie.players = survivors
    tie.drawn, tie.attempt = [], tie.attempt + 1


def _game_over(state: BattleState, seat: int, report: Report) -> None:
    state.phase, state.over, state.winner, state.tiebreak = Phase.OVER, True, seat, None
    report.tell("game_over", seat=seat, points=state.points[seat])


def on_new_round(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``new_round {"dealer"?: N}``: the cards are shuffled and dealt again; the deal passes left."""
    dealer = data.get("dealer", seats.left_of(state, state.dealer))
    deal.new_round(state, dealer)
    report.tell("new_round", round=state.round, seat=dealer, cards=state.deal.per_player)
