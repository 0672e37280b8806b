"""Resolving a battle: what stops it, who wins, and what happens to everyone's cards afterwards.

"The player with the card(s) having the highest value wins and takes all the cards from the
battlefield. The winner places these cards faceup in a personal discard pile. Each player then
draws enough cards from the top of his ARMY to replenish the number in his BATTALION to five."
"If a player only has a BATTALION (5 cards or fewer) left, he must play the card(s) for his attack
and then lay the remaining cards facedown. If he loses the attack, the remaining cards are taken by
the winner as the "spoils of war," and that player is done." (bom-battle.txt)

Everything here returns data (``Outcome`` kind and data); refusals are raised with their reason.
Mounting Battles (mounting.py) and the Shorter Game's last battle (``tiebreak``) use ``finish``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base import Outcome
from ..contract import Refused
from . import piles, table
from .judge import Verdict, judge
from .plays import Play, Problem, evaluate
from .state import BomState as State

if TYPE_CHECKING:
    from .variants import BomVariant, Referee, Rules

def participants(state: State, rules: "Rules | BomVariant") -> list[int]:
    """The seats fighting the current round, in turn order."""
    if state.tiebreak is not None:
        seats = list(state.tiebreak)
    elif state.mount:
        seats = list(state.mount.seats)
    else:
        seats = [s.seat for s in state.piles if not s.out and not s.withdrawn]
    order = rules.order(state, seats)
    return seats if order is None else order


def seat_problem(game: "Referee", state: State, seat: int, cards: list[str]) -> Problem | Play:
    """A seat's play this round, or what is wrong with it (a ``Problem`` not naming the seat)."""
    rules = game.rules(state)
    if state.turns and seat in state.turns.face_down:
        return Problem("face_down_waiting")
    if not cards:
        return Problem("not_played")
    found = [(key, game.deck.card(key)) for key in cards]
    one = rules.one_card(state)
    if one and (len(found) != 1 or found[0][1].kind != "character"):
        return Problem("one_card", {"one": one})
    hand = rules.hand(state, state.seat(seat))
    if len(cards) > hand:
        return Problem("battalion_overplayed", {"hand": hand, "count": len(cards)})
    if surrenders_battalion(game, state, seat, cards):
        return Play(seat, (), None, 0, tuple(cards))
    return evaluate(seat, found)


def surrenders_battalion(game: "Referee", state: State, seat: int, cards: list[str]) -> bool:
    """"If a player only has a BATTALION (5 cards or fewer) left, he must play the card(s) for his
    attack": a seat whose last cards are all POWER cards cannot attack, so it lays them all down and
    loses them to the winner (companion's decision; the rulebook says "They cannot be played
    individually")."""
    s = state.seat(seat)
    return (game.rules(state).battalion() and not state.mount and state.tiebreak is None and piles.only_battalion(s)
            and len(cards) == s.battalion and all(game.deck.is_power(k) for k in cards))


def check(game: "Referee", state: State) -> tuple[list[Play], list[Problem]]:
    """Every seat's play, and every reason the battle cannot be resolved yet."""
    if state.over:
        return [], [Problem("over")]
    rules = game.rules(state)
    if not rules.battles(state):
        return [], [Problem("trivia_no_battles")]
    problems = [Problem("same_card_twice", {"card": key, "at_seats": list(seats)})
                for key, _, seats in table.conflicts(state)]
    seats = participants(state, rules)
    if not seats:
        problems.append(Problem("all_withdrawn"))
    current = table.plays(state)
    plays = []
    for seat in seats:
        result = seat_problem(game, state, seat, current.get(seat, []))
        if isinstance(result, Play):
            plays.append(result)
        elif result.code == "not_played":
            # the hint to withdraw: only in the basic game's open battle
            hint = not rules.one_card(state)
            problems.append(Problem("seat_not_played", {"player": seat, "withdraw_hint": hint}))
        elif result.code == "face_down_waiting":
            problems.append(Problem("seat_face_down", {"player": seat}))
        else:
            problems.append(Problem("seat_play", {"player": seat, "why": result.as_data()}))
    if seats and not problems and not any(p.fighters for p in plays):
        problems.append(Problem("nobody_attacks"))
    return plays, problems


def resolve(game: "Referee", state: State) -> tuple[Outcome, ...]:
    plays, problems = check(game, state)
    if problems:
        raise Refused("not_ready", problems=[p.as_data() for p in problems])
    rules = game.rules(state)
    fighting = [p for p in plays if p.fighters]
    if state.tiebreak is not None:
        return _tiebreak(game, state, fighting)
    verdict = judge(fighting, mounting=rules.by_value_only())
    if verdict.winner is None:
        return rules.on_tie(game, state, fighting, verdict)
    return finish(game, state, verdict.winner, verdict, fighting)


def verdict_data(verdict: Verdict, plays: list[Play]) -> dict[str, Any]:
    """What the view needs to tell a verdict: each seat's play, the tie, the deciding card."""
    return {"values": {str(k): v for k, v in verdict.values.items()}, "rule": verdict.rule,
            "plays": {str(p.seat): list(p.keys) for p in plays}, "tied": list(verdict.tied),
            "card": verdict.deciding_card.key if verdict.deciding_card else None, "versus": verdict.versus,
            "no_gold": verdict.no_gold, "by": verdict.by}


def _round_cards(game: "Referee", state: State) -> dict[int, list[str]]:
    current = table.plays(state)
    return {seat: current.get(seat, []) for seat in participants(state, game.rules(state))}


def commit_round(game: "Referee", state: State) -> int:
    """This round's cards leave their owners' hands for the battlefield; returns how many."""
    rules = game.rules(state)
    count = 0
    for seat, cards in _round_cards(game, state).items():
        rules.commit(state.seat(seat), len(cards))
        count += len(cards)
    return count


def finish(game: "Referee", state: State, winner: int, verdict: Verdict | None, plays: list[Play],
           extra: dict[str, Any] | None = None) -> tuple[Outcome, ...]:
    """The winner takes the battlefield; spoils of war; BATTALIONs refilled; the end of the game."""
    rules = game.rules(state)
    battlefield = [key for cards in _round_cards(game, state).values() for key in cards] + list(state.held)
    pot = state.pot + commit_round(game, state)
    champion = state.seat(winner)
    champion.discard += pot
    spoils, out = {}, []
    for s in state.piles:
        if s.out or s.seat == winner:
            continue
        if rules.spoils() and piles.only_battalion(s):
            spoils[str(s.seat)] = s.battalion
            champion.discard += s.battalion
            s.battalion = 0
    for s in state.piles:
        if s.out:
            continue
        rules.refill(s)
        piles.reshuffle_if_empty(s)
        if s.total == 0:
            s.out = True
            out.append(s.seat)
    out += list((state.mount.surrendered if state.mount else {}).keys())
    mounted = state.mount
    data = {"battle": state.battle, "winner": winner, **(verdict_data(verdict, plays) if verdict else
                                                            {"values": {}, "rule": "surrender"}),
            "cards_taken": pot + sum(spoils.values()), "cards": battlefield,
            "face_down": {str(k): v for k, v in (mounted.face_down if mounted else {}).items()},
            "rounds": mounted.round if mounted else 1, "spoils": spoils, "eliminated": out,
            "flags": [{"seat": f.seat, "card": f.card, "flag": f.kind, "other": f.other} for f in state.flags],
            **(extra or {})}
    outcomes = [Outcome("battle", data=data)]
    _close_battle(game, state)
    outcomes += end_if_one_left(state)
    if state.time_up and not state.over:  # the timer went off during this mounting battle
        outcomes += end_by_cards(game, state, "time_up")
    return tuple(outcomes)


def _close_battle(game: "Referee", state: State) -> None:
    table.close_battle(state)
    state.pot, state.mount, state.flags = 0, None, []
    for s in state.piles:
        s.withdrawn = False
    game.rules(state).after_battle(state)
    state.battle += 1


def end_if_one_left(state: State) -> list[Outcome]:
    """"The winner is the player who acquires all the other cards in battle.\""""
    left = [s for s in state.piles if not s.out]
    if len(left) != 1:
        return []
    winner = left[0].seat
    state.over, state.winner, state.winners = True, winner, [winner]
    return [Outcome("game_over", data={"winner": winner, "cards": left[0].total, "deck": state.deck_size})]


# -- the Shorter Game's last battle --------------------------------------------------------------------
def _tiebreak(game: "Referee", state: State, plays: list[Play]) -> tuple[Outcome, ...]:
    """"In case of a tie, tied players shuffle their CHARACTER cards and draw one card randomly for
    battle." Their card counts do not change; the battle names the game's winner. Under Mounting
    Battles equal values tie again, and the still-tied players draw again."""
    rules = game.rules(state)
    verdict = judge(plays, mounting=rules.by_value_only())
    table.close_battle(state)
    state.flags = []
    rules.new_round(state)
    if verdict.winner is None:
        state.tiebreak = list(verdict.tied)
        return (Outcome("tiebreak", data={"tied": list(verdict.tied), **verdict_data(verdict, plays)}),)
    winner = verdict.winner
    state.over, state.winner, state.winners, state.tiebreak = True, winner, [winner], None
    battle = Outcome("battle", data={"battle": "after the timer", "winner": winner, **verdict_data(verdict, plays)})
    return battle, Outcome("game_over", data={"winner": winner})


# -- the end of a game that stops before one player holds every card -------------------------------
def card_counts(state: State) -> dict[int, int]:
    """Cards each seat holds (in Spy's Trivia, the cards it has won)."""
    if state.trivia is not None:
        return dict(state.trivia.won)
    return {s.seat: s.total for s in state.piles if not s.out}


def time_up(game: "Referee", state: State) -> tuple[Outcome, ...]:
    """"Set a timer for 15 minutes (or the desired time of play). The player with the most cards when
    the timer goes off wins." A mounting battle already under way is finished first (its cards are on
    the battlefield, in nobody's hands); any other battle not yet resolved is abandoned, every card
    going back to its owner (companion's decisions)."""
    state.time_up = True
    if state.mount:
        return (Outcome("time_up", data={"waiting_for": "mounting battle"}),)
    return tuple(end_by_cards(game, state, "time_up"))


def end_by_cards(game: "Referee", state: State, why: str) -> list[Outcome]:
    """The most cards wins. After the timer, "in case of a tie, tied players shuffle their CHARACTER
    cards and draw one card randomly for battle": the companion then referees that last battle."""
    counts = card_counts(state)
    best = max(counts.values())
    tied = sorted(s for s, n in counts.items() if n == best)
    table.close_battle(state)
    state.mount, state.pot, state.flags = None, 0, []
    game.rules(state).new_round(state)
    for s in state.piles:
        s.withdrawn = False
    if state.trivia is not None:
        state.trivia.current = None
    cards = {str(k): v for k, v in counts.items()}
    if len(tied) == 1:
        state.over, state.winner, state.winners = True, tied[0], tied
        return [Outcome("game_over", data={"winner": tied[0], "cards": cards, "why": why})]
    state.tiebreak = tied
    return [Outcome("time_up", data={"tied": tied, "cards": cards})]


def stop(state: State) -> tuple[Outcome, ...]:
    """Rules for Young Players: "The winner is the one with the most cards when you stop playing."
    Equal counts share the win (the rulebook gives no tie-break here)."""
    counts = card_counts(state)
    table.close_battle(state)
    best = max(counts.values())
    winners = sorted(s for s, n in counts.items() if n == best)
    state.over, state.winner, state.winners = True, winners[0] if len(winners) == 1 else None, winners
    state.mount, state.pot = None, 0
    return (Outcome("game_over", data={"winner": state.winner, "winners": winners,
                                       "cards": {str(k): v for k, v in counts.items()}, "why": "stop"}),)
