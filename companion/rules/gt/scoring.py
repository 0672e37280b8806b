"""Points and the end: a round won (every member of the winner's team scores), the next round,
the tie-break between players level at the target, and the game's winner.

"The first player to an agreed amount of points, such as 5, wins" (the ``target`` option). When
several players reach it together, they draw SAVE or ELIMINATE face down until one is left.
"""
from __future__ import annotations

from ..base import State, Term
from . import deal, seats
from .cards import Deck
from .report import Refuse, Report
from .rulebook import TEAM_CARD, TEAM_PLURAL


def win_round(state: State, seat: int, report: Report) -> None:
    """``seat`` played their identity card: a point to every member of their team, all teams shown."""
    team = state["identity"][seat - 1]["team"]
    teams = [known["team"] for known in state["identity"]]
    for s, member in enumerate(teams, 1):
        if member == team:
            state["points"][s - 1] += 1
    terms = tuple(Term(seats.name(state, s), TEAM_CARD[member],
                       f"{state['points'][s - 1]} point(s)" + (" (+1)" if member == team else ""))
                  for s, member in enumerate(teams, 1))
    report.say("round", f"{seats.name(state, seat)} plays their {TEAM_CARD[team]} card: the {TEAM_PLURAL[team]} "
                        f"{'save the world' if team == 'superhero' else 'achieve world domination'}! A point to "
                        f"every {TEAM_CARD[team]}.", terms, seat=seat, team=team, teams=teams,
               points=list(state["points"]))
    report.reveals = True
    state["rounds"].append({"round": state["round"], "went_out": seat, "team": team, "teams": teams,
                            "points": list(state["points"])})
    state.update(phase="round_over", turn=None, pending=None, top=None, awaiting=None, step=None)
    _check_game_end(state, report)


def _check_game_end(state: State, report: Report) -> None:
    target = state["options"]["target"]
    best = max(state["points"])
    if best < target:
        report.say("next_round", f"Round {state['round']} is over. Shuffle, deal new identity cards and tap "
                                 f"New round.")
        return
    leaders = [s for s, p in enumerate(state["points"], 1) if p == best]
    if len(leaders) == 1:
        _game_over(state, leaders[0], report)
        return
    state.update(phase="tiebreak", tiebreak={"players": leaders, "drawn": [], "pass": 1})
    report.say("tie", f"A tie for game winner at {best} points: {seats.names(state, leaders)}. \"Randomly place "
                      f"one SAVE card and one ELIMINATE card face down. A tying player will draw one of the two "
                      f"cards. This is repeated with each tying player.\"", players=leaders)


def on_tiebreak_draw(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``tiebreak_draw {"seat": N, "card": "save" | "eliminate"}``: what a tying player drew."""
    tie = state["tiebreak"]
    if state["phase"] != "tiebreak":
        raise Refuse("There is no tie-break: it happens when players tie for game winner.")
    seat = seats.data_seat(state, data, "seat")
    if seat not in tie["players"]:
        raise Refuse(f"Only the tying players draw: {seats.names(state, tie['players'])}.")
    if any(d["seat"] == seat for d in tie["drawn"]):
        raise Refuse(f"{seats.name(state, seat)} has already drawn in this tie-break round.")
    card = str(data.get("card", "")).lower()
    if card not in ("save", "eliminate"):
        raise Refuse(f"A tie-break draw is \"card\": \"save\" or \"eliminate\", not {data.get('card')!r}.")
    tie["drawn"].append({"seat": seat, "card": card})
    report.say("tiebreak_draw", f"{seats.name(state, seat)} draws {card.upper()}"
                                f"{': they are out' if card == 'eliminate' else ''}.", seat=seat, card=card)
    if len(tie["drawn"]) < len(tie["players"]):
        return
    _settle_tiebreak(state, tie, report)


def _settle_tiebreak(state: State, tie: dict, report: Report) -> None:
    """Every tying player has drawn: one SAVE wins; otherwise those still tied draw again."""
    survivors = [d["seat"] for d in tie["drawn"] if d["card"] == "save"]
    if len(survivors) == 1:
        _game_over(state, survivors[0], report)
        return
    if not survivors:
        report.say("tiebreak_again", "\"If all tying players draw the ELIMINATE card in the same round, start the "
                                     "process over.\"")
    else:
        report.say("tiebreak_again", f"{seats.names(state, survivors)} all drew SAVE and are still tied: they draw "
                                     f"again.")
        tie["players"] = survivors
    tie.update(drawn=[], **{"pass": tie["pass"] + 1})


def _game_over(state: State, seat: int, report: Report) -> None:
    state.update(phase="over", over=True, winner=seat, tiebreak=None)
    report.say("game_over", f"{seats.name(state, seat)} wins the game with {state['points'][seat - 1]} points!",
               winner=seat)


def on_new_round(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``new_round {"dealer"?: N}``: the cards are shuffled and dealt again; the deal passes left."""
    if state["phase"] != "round_over":
        raise Refuse("A new round starts once a round is won (a player plays their identity card).")
    dealer = seats.data_seat(state, data, "dealer") if "dealer" in data else seats.left_of(state, state["dealer"])
    deal.new_round(state, dealer)
    report.say("new_round", f"Round {state['round']}: {seats.name(state, dealer)} deals "
                            f"{state['deal']['per_player']} cards each and a new identity card to everyone. Show "
                            f"your identity card privately, then flip the first discard.", dealer=dealer)
