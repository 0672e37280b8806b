"""Resolving a battle: what stops it, who wins, and what happens to everyone's cards afterwards.

"The player with the card(s) having the highest value wins and takes all the cards from the
battlefield. The winner places these cards faceup in a personal discard pile. Each player then
draws enough cards from the top of his ARMY to replenish the number in his BATTALION to five."
"If a player only has a BATTALION (5 cards or fewer) left, he must play the card(s) for his attack
and then lay the remaining cards facedown. If he loses the attack, the remaining cards are taken by
the winner as the "spoils of war," and that player is done." (bom-battle.txt)

Mounting Battles: a tie does not resolve; the tied seats each put three ARMY cards face down (the
companion counts them), then play a new CHARACTER card, until one of them wins everything.
"""
from __future__ import annotations

from typing import Any, Callable

from ..base import Applied, Outcome, Refusal, Term
from . import piles, table, turns
from .cards import Deck
from .judge import Verdict, judge
from .plays import Play, evaluate

State = dict[str, Any]
Who = Callable[[int], str]
FACE_DOWN = 3  # "the top three cards from their ARMY"
NOT_PLAYED = "Has not played yet."
FACE_DOWN_WAITING = "Its POWER card is face down; each seat in turn turns it face up once every seat has played."


def who_of(state: State) -> Who:
    return lambda n: f"Seat {n} ({state['seats'][n - 1]['name']})"


def participants(state: State) -> list[int]:
    """The seats fighting the current round, in turn order."""
    if state["tiebreak"]:
        seats = state["tiebreak"]["seats"]
    elif state["mount"]:
        seats = state["mount"]["seats"]
    else:
        seats = [s["seat"] for s in state["seats"] if not s["out"] and not s["withdrawn"]]
    return turns.order(state, seats)


def in_hand(state: State, seat: int) -> int:
    """How many cards this seat can put on the battlefield this round."""
    s = piles.seat(state, seat)
    if state["tiebreak"]:
        return 1  # one card drawn at random from the seat's own cards
    if state["mode"] == "young":
        return s["army"] + s["discard"]
    return s["battalion"]


def seat_problem(deck: Deck, state: State, seat: int, cards: list[str]) -> str | Play:
    """A seat's play this round, or what is wrong with it (a sentence without the seat's name)."""
    if str(seat) in (state["turns"] or {}).get("face_down", {}):
        return FACE_DOWN_WAITING
    if not cards:
        return NOT_PLAYED
    found = [(key, deck.lookup(key)) for key in cards]
    if state["tiebreak"] or state["mount"] or state["mode"] == "young":
        if len(found) != 1 or found[0][1].kind != "character":
            if state["tiebreak"]:
                return "In the last battle after the timer each tied player plays one CHARACTER card drawn at random."
            if state["mount"]:
                where = "the top of his ARMY" if state["mode"] == "young" else "his BATTALION"
                return f"While the battle mounts, each tied player plays one new CHARACTER card from {where}."
            return "Under the Rules for Young Players each player lays down the top card of his ARMY: one CHARACTER card."
    if len(cards) > in_hand(state, seat):
        return (f"Its BATTALION holds {in_hand(state, seat)} card(s), but {len(cards)} are on the battlefield; "
                f"a player plays from his BATTALION.")
    return evaluate(seat, found)


def check(deck: Deck, state: State) -> tuple[list[Play], list[str]]:
    """Every seat's play, and every reason the battle cannot be resolved yet."""
    who = who_of(state)
    if state["over"]:
        return [], ["The game is over."]
    if state["mode"] == "trivia" and not state["tiebreak"]:
        return [], ["Spy's Trivia has no battles to resolve: award the card being read, or tap 'nobody knew'."]
    problems = []
    for conflict in table.conflicts(state):
        places = " and ".join(who(s) for s in conflict["seats"])
        problems.append(f"{deck.view(conflict['card'])['name']} ({conflict['card']}) is seen at {places} at once: "
                        f"the same physical card cannot be in two places; take the duplicate away.")
    seats = participants(state)
    if not seats:
        problems.append("Nobody has played: every seat has withdrawn from this battle.")
    current = table.plays(state)
    plays = []
    for seat in seats:
        result = seat_problem(deck, state, seat, current.get(seat, []))
        if isinstance(result, str) and result == NOT_PLAYED:
            hint = "" if state["mount"] or state["tiebreak"] or state["mode"] == "young" else \
                ": play a CHARACTER card, or withdraw if you have none"
            problems.append(f"{who(seat)} has not played yet{hint}.")
        elif isinstance(result, str) and result == FACE_DOWN_WAITING:
            problems.append(f"{who(seat)} has not revealed its face-down POWER card yet.")
        elif isinstance(result, str):
            problems.append(f"{who(seat)}: {result}")
        else:
            plays.append(result)
    return plays, problems


def resolve(deck: Deck, state: State) -> Applied | Refusal:
    plays, problems = check(deck, state)
    if problems:
        return Refusal(" ".join(problems))
    if state["tiebreak"]:
        return _tiebreak(state, plays)
    verdict = judge(plays, who_of(state), mounting=state["options"]["mounting_battles"])
    if verdict.winner is None:
        return mount(deck, state, plays, verdict)
    play = next(p for p in plays if p.seat == verdict.winner)
    return finish(state, verdict.winner, _say(state, verdict, play), verdict.terms, verdict.values, verdict.rule)


def _say(state: State, verdict: Verdict, play: Play) -> str:
    if verdict.rule in ("famine", "stripling") or (verdict.rule == "order" and verdict.deciding_card):
        card = verdict.deciding_card
        won_with = f"{card.name}, {card.color} {card.shape} {card.value}"
    else:
        won_with = play.detail
    said = f"{who_of(state)(verdict.winner)} wins with {won_with}"
    return f"{said}: {verdict.because}." if verdict.because else f"{said}."


def _round_cards(state: State) -> dict[int, list[str]]:
    current = table.plays(state)
    return {seat: current.get(seat, []) for seat in participants(state)}


def _commit_round(state: State) -> int:
    """This round's cards leave their owners' hands for the battlefield; returns how many."""
    count = 0
    for seat, cards in _round_cards(state).items():
        s = piles.seat(state, seat)
        if state["mode"] == "young":
            s["army"] -= len(cards)  # the top card of the ARMY; a reshuffle waits until the battle is over
        else:
            s["battalion"] -= len(cards)
        count += len(cards)
    return count


def finish(state: State, winner: int, say: str, terms: tuple[Term, ...], values: dict[int, int],
           rule: str, extra: dict[str, Any] | None = None) -> Applied:
    """The winner takes the battlefield; spoils of war; BATTALIONs refilled; the end of the game."""
    who = who_of(state)
    battlefield = [key for cards in _round_cards(state).values() for key in cards] + list(state["held"])
    pot = state["pot"] + _commit_round(state)
    champion = piles.seat(state, winner)
    champion["discard"] += pot
    spoils, out = {}, []
    for s in state["seats"]:
        if s["out"] or s["seat"] == winner:
            continue
        if state["mode"] == "battle" and piles.only_battalion(s):
            spoils[str(s["seat"])] = s["battalion"]
            champion["discard"] += s["battalion"]
            s["battalion"] = 0
    for s in state["seats"]:
        if s["out"]:
            continue
        if state["mode"] == "battle":
            if state["options"]["power_play"]:
                piles.new_battalion(s)
            else:
                piles.replenish(s)
        piles.reshuffle_if_empty(s)
        if piles.total(s) == 0:
            s["out"] = True
            out.append(s["seat"])
    out += [int(seat) for seat in (state["mount"] or {}).get("surrendered", {})]
    taken = pot + sum(spoils.values())
    mounted = state["mount"] or {"face_down": {}, "round": 1}
    data = {"battle": state["battle"], "winner": winner, "values": {str(k): v for k, v in values.items()},
            "rule": rule, "cards_taken": taken, "cards": battlefield, "face_down": mounted["face_down"],
            "rounds": mounted["round"], "spoils": spoils, "eliminated": out, "flags": list(state["flags"]),
            **(extra or {})}
    if spoils:
        say += " " + " ".join(f"{who(int(s))} is done: the winner takes the {n} card(s) left as the spoils of war."
                              for s, n in spoils.items())
    terms = terms + tuple(Term("out of turn", None, flag["why"]) for flag in state["flags"])
    terms = terms + (Term("cards taken", taken, f"{who(winner)} puts them in its discard pile"),)
    outcomes = [Outcome("battle", say, terms, data)]
    _close_battle(state)
    state["last"] = outcomes[0].as_dict()
    outcomes += end_if_one_left(state)
    if state["time_up"] and not state["over"]:  # the timer went off during this mounting battle
        outcomes += end_by_cards(state, "Time is up")
    return Applied(state, tuple(outcomes))


def _close_battle(state: State) -> None:
    table.close_battle(state)
    state["battle_keys"] = []
    state["pot"] = 0
    state["mount"] = None
    state["flags"] = []
    for s in state["seats"]:
        s["withdrawn"] = False
    if turns.enabled(state):
        turns.next_leader(state)
    state["battle"] += 1


def end_if_one_left(state: State) -> list[Outcome]:
    """"The winner is the player who acquires all the other cards in battle.\""""
    left = [s for s in state["seats"] if not s["out"]]
    if len(left) != 1:
        return []
    winner = left[0]["seat"]
    state.update(over=True, winner=winner, winners=[winner], phase="over")
    say = f"{who_of(state)(winner)} holds all {state['deck_size']} cards and wins the game."
    return [Outcome("game_over", say, (), {"winner": winner, "cards": piles.total(left[0])})]


# -- Mounting Battles --------------------------------------------------------------------------------
def _enough_for_tie(state: State, s: dict[str, Any]) -> bool:
    """Three ARMY cards face down, then a new CHARACTER card (from the BATTALION; in the Rules for
    Young Players, the next ARMY card)."""
    if state["mode"] == "young":
        return s["army"] + s["discard"] >= FACE_DOWN + 1
    return s["army"] + s["discard"] >= FACE_DOWN and s["battalion"] >= 1


def mount(deck: Deck, state: State, plays: list[Play], verdict: Verdict) -> Applied:
    """"In case of a tie, tied players place the top three cards from their ARMY—without looking at
    them—facedown on the battlefield, then choose a new CHARACTER card from their BATTALION and
    place it down for battle. ... If he doesn't have enough cards to play a tie, he surrenders all
    his remaining cards to the other player.\""""
    who = who_of(state)
    state["pot"] += _commit_round(state)
    table.hold_round(state)
    tied = list(verdict.tied)
    able = [s for s in tied if _enough_for_tie(state, piles.seat(state, s))]
    if not able:
        # Nobody can play the tie: the basic rule decides it (companion's decision).
        best = max((p for p in plays if p.seat in tied), key=lambda p: p.best.rank)
        say = (f"{verdict.because}, and no tied player has the cards to mount the battle: the highest single "
               f"CHARACTER card, {best.best.text}, wins it for {who(best.seat)}.")
        return finish(state, best.seat, say, verdict.terms, verdict.values, "tie")
    surrendered = {str(seat): surrender_all(state, seat) for seat in tied if seat not in able}
    note = " ".join(f"{who(int(s))} has not enough cards for the tie and surrenders all {n} remaining cards."
                    for s, n in surrendered.items())
    before = state["mount"] or {"round": 1, "face_down": {}, "surrendered": {}}
    face_down = dict(before["face_down"])
    state["mount"] = {"seats": able, "round": before["round"] + (len(able) > 1), "face_down": face_down,
                      "surrendered": {**before["surrendered"], **surrendered}}
    if len(able) == 1:
        say = f"{verdict.because}. {note} {who(able[0])} wins the battle."
        return finish(state, able[0], say, verdict.terms, verdict.values, "surrender",
                      {"surrendered": state["mount"]["surrendered"]})
    for seat in able:
        state["pot"] += piles.take_from_army(piles.seat(state, seat), FACE_DOWN)
        face_down[str(seat)] = face_down.get(str(seat), 0) + FACE_DOWN
    if turns.enabled(state):
        turns.new_round(state)
    names = " and ".join(who(s) for s in able)
    say = (f"{verdict.because}: the battle mounts. {names} each put the top three cards of their ARMY face down "
           f"and play a new CHARACTER card.{' ' + note if note else ''}")
    data = {"battle": state["battle"], "tied": able, "round": state["mount"]["round"],
            "values": {str(k): v for k, v in verdict.values.items()}, "face_down": dict(state["mount"]["face_down"]),
            "pot": state["pot"], "surrendered": surrendered}
    outcome = Outcome("mount", say, verdict.terms, data)
    state["last"] = outcome.as_dict()
    return Applied(state, (outcome,))


def surrender_all(state: State, seat: int) -> int:
    """A seat gives every card it still has to the battle; it is out of the game."""
    s = piles.seat(state, seat)
    given = piles.total(s)
    state["pot"] += given
    s.update(army=0, battalion=0, discard=0, out=True)
    table.clear_seat(state, seat)
    return given


def surrender(state: State, seat: int) -> Applied:
    """A tied seat that cannot play the tie (no CHARACTER card left, and not two POWER cards to
    swap) gives up; if one tied seat is left, it wins the battle."""
    who = who_of(state)
    given = surrender_all(state, seat)
    state["mount"]["seats"] = [s for s in state["mount"]["seats"] if s != seat]
    state["mount"]["surrendered"][str(seat)] = given
    left = state["mount"]["seats"]
    say = f"{who(seat)} cannot play the tie and surrenders all {given} remaining cards."
    if len(left) == 1:
        return finish(state, left[0], f"{say} {who(left[0])} wins the battle.", (), {}, "surrender",
                      {"surrendered": state["mount"]["surrendered"]})
    outcome = Outcome("surrender", say, (), {"seat": seat, "cards": given, "tied": left})
    return Applied(state, (outcome,))


# -- the Shorter Game's last battle --------------------------------------------------------------------
def _tiebreak(state: State, plays: list[Play]) -> Applied:
    """"In case of a tie, tied players shuffle their CHARACTER cards and draw one card randomly for
    battle." Their card counts do not change; the battle names the game's winner. Under Mounting
    Battles equal values tie again, and the still-tied players draw again."""
    who = who_of(state)
    verdict = judge(plays, who, mounting=state["options"]["mounting_battles"])
    table.close_battle(state)
    state.update(flags=[], battle_keys=[])
    if turns.enabled(state):
        turns.new_round(state)
    if verdict.winner is None:
        state["tiebreak"]["seats"] = list(verdict.tied)
        say = f"{verdict.because}: each draws another CHARACTER card at random."
        outcome = Outcome("tiebreak", say, verdict.terms, {"tied": list(verdict.tied)})
        state["last"] = outcome.as_dict()
        return Applied(state, (outcome,))
    winner = verdict.winner
    play = next(p for p in plays if p.seat == winner)
    say = _say(state, verdict, play).replace(" wins with ", " wins the last battle with ", 1)
    state.update(over=True, winner=winner, winners=[winner], phase="over", tiebreak=None)
    battle = Outcome("battle", say, verdict.terms, {"battle": "after the timer", "winner": winner, "rule": verdict.rule,
                                                    "values": {str(k): v for k, v in verdict.values.items()}})
    state["last"] = battle.as_dict()
    over = Outcome("game_over", f"{who(winner)} wins the game.", (), {"winner": winner})
    return Applied(state, (battle, over))


# -- the end of a game that stops before one player holds every card -------------------------------
def card_counts(state: State) -> dict[int, int]:
    """Cards each seat holds (in Spy's Trivia, the cards it has won)."""
    if state["mode"] == "trivia":
        return {int(s): n for s, n in state["trivia"]["won"].items()}
    return {s["seat"]: piles.total(s) for s in state["seats"] if not s["out"]}


def time_up(state: State) -> Applied:
    """"Set a timer for 15 minutes (or the desired time of play). The player with the most cards when
    the timer goes off wins." A mounting battle already under way is finished first (its cards are on
    the battlefield, in nobody's hands); any other battle not yet resolved is abandoned, every card
    going back to its owner (companion's decisions)."""
    state["time_up"] = True
    if state["mount"]:
        say = "Time is up! Finish this mounting battle; then the player with the most cards wins."
        outcome = Outcome("time_up", say, (), {"waiting_for": "mounting battle"})
        state["last"] = outcome.as_dict()
        return Applied(state, (outcome,))
    return Applied(state, tuple(end_by_cards(state, "Time is up")))


def end_by_cards(state: State, why: str) -> list[Outcome]:
    """The most cards wins. After the timer, "in case of a tie, tied players shuffle their CHARACTER
    cards and draw one card randomly for battle": the companion then referees that last battle."""
    who = who_of(state)
    counts = card_counts(state)
    best = max(counts.values())
    tied = sorted(s for s, n in counts.items() if n == best)
    terms = tuple(Term(who(s), n, "cards") for s, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    table.close_battle(state)
    state.update(mount=None, pot=0, flags=[], battle_keys=[])
    if turns.enabled(state):
        turns.new_round(state)
    for s in state["seats"]:
        s["withdrawn"] = False
    if state["trivia"]:
        state["trivia"]["current"] = None
    if len(tied) == 1:
        state.update(over=True, winner=tied[0], winners=tied, phase="over")
        say = f"{why}: {who(tied[0])} wins with {best} cards."
        outcome = Outcome("game_over", say, terms, {"winner": tied[0], "cards": {str(k): v for k, v in counts.items()}})
        state["last"] = outcome.as_dict()  # the tablet's result box shows the end, not the last battle
        return [outcome]
    state["tiebreak"] = {"seats": tied}
    names = " and ".join(who(s) for s in tied)
    say = (f"{why}: {names} tie with {best} cards each. Each shuffles his CHARACTER cards and draws one at "
           f"random for a last battle.")
    outcome = Outcome("time_up", say, terms, {"tied": tied, "cards": {str(k): v for k, v in counts.items()}})
    state["last"] = outcome.as_dict()
    return [outcome]


def stop(state: State) -> Applied:
    """Rules for Young Players: "The winner is the one with the most cards when you stop playing."
    Equal counts share the win (the rulebook gives no tie-break here)."""
    who = who_of(state)
    counts = card_counts(state)
    table.close_battle(state)
    best = max(counts.values())
    winners = sorted(s for s, n in counts.items() if n == best)
    terms = tuple(Term(who(s), n, "cards") for s, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    state.update(over=True, winner=winners[0] if len(winners) == 1 else None, winners=winners, phase="over",
                 mount=None, pot=0)
    if len(winners) == 1:
        say = f"Play stops: {who(winners[0])} wins with {best} cards."
    else:
        say = f"Play stops: {' and '.join(who(s) for s in winners)} share the win with {best} cards each."
    return Applied(state, (Outcome("game_over", say, terms, {"winner": state["winner"], "winners": winners,
                                                            "cards": {str(k): v for k, v in counts.items()}}),))
