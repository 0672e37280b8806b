"""The sentences Stratego's players read: combats told as a viewer may know them, every outcome,
the prompt and the rules in play. Nothing here decides a rule."""
from __future__ import annotations

from typing import Any, Callable, TypedDict

from card_tags.games.stratego import ARMY_SIZE

from companion.rules.base import Term, TermJSON

from .ranks import RANK_NAME, Quote
from .state import PLAY, SETUP, Combat, StrategoState, other


# The rulebook's sentences (stratego.txt) by the code the rules record (ranks.Quote).
RULEBOOK: dict[str, str] = {
    Quote.HIGHER: "Higher ranked pieces always defeat lower ranked pieces.",
    Quote.TIE_BOTH: "In the event of a tie, both pieces are removed",
    Quote.TIE_ATTACKER: "In the event of a tie, the attacker wins.",
    # Both editions agree on a Spy attacking a Spy (there is no option for it):
    Quote.SPY_VS_SPY: "with the only exception being a Spy Vs. Spy match up, in which case the attacking Spy wins.",
    Quote.SPY_VS_SPY_OTHER: ("in the event of a tie both pieces are defeated unless a spy attacks another "
                             "spy–in which case, the attacking spy would win."),
    Quote.SPY_ANYTHING: "The exceptions are Spys, which defeat anythign on attack (except bombs)",
    Quote.SPY_CLASSIC: ("classic rules (the text is silent): the Spy defeats the Marshal only when the Spy "
                        "attacks; against anything else it is the weakest piece"),
    Quote.SPY_ATTACKED: "S = Spies are able to take any pieces on the board, but are destroyed if attacked.",
    Quote.BOMB: "B = Bombs are able to destroy any piece that attacks it except the miner",
    Quote.MINER: "3 = Miners are able to remove enemy bombs from play.",
    Quote.FLAG: "One side wins when they reveal the enemy flag by moving a piece onto its occupying square.",
    Quote.REVEAL_BOTH: ("each player must reveal the rank of their piece with the winner taking the square being "
                        "contested."),
    Quote.REVEAL_DEFENDER: "the defender only reveals their piece if it's defeated, or If it is attacked by a Scout.",
    Quote.IMMOBILE: "There are also seven non-moving pieces",
    Quote.TURN: "You may either attack or move once on your turn",
    Quote.RED_FIRST: "red may move his piece first with blue performing their turn at the end of reds.",
    Quote.SCOUT_MOVE_ATTACK: "unless the piece you are using a scout which may move and attack on the same turn.",
    Quote.RESCUE: ("If you move one of your own pieces into the back row of your opponents territory then "
                   "you may rescue one of your defeated pieces and place it on your side of the game board."),
    Quote.FORFEIT: "If you cannot move a piece during your turn then you must forfeit to your opponent.",
    Quote.RESIGN: "a player may resign at any time",
}


def title(colour: str) -> str:
    return colour.capitalize()


def rank_label(rank: str) -> str:
    """ "Captain (6)", "Bomb (B)"."""
    return f"{RANK_NAME[rank]} ({rank})"


def _side(colour: str, rank: str, known: bool) -> str:
    return f"{title(colour)}'s {rank_label(rank)}" if known else f"a {title(colour)} piece"


class CombatSideJSON(TypedDict):
    """One side of a combat as a viewer may know it: its rank and rank name only when known."""

    colour: str
    seat: int
    rank: str | None
    name: str | None


class CombatJSON(TypedDict):
    """A combat as the tablet reads it (the views' ``combats`` list, stratego.js)."""

    n: int
    turn: int
    winner: str
    say: str
    terms: list[TermJSON]
    attacker: CombatSideJSON
    defender: CombatSideJSON


def tell(record: Combat, state: StrategoState, knows: Callable[[str], bool]) -> CombatJSON:
    """A combat as a viewer may know it. ``knows(side)`` says whether that viewer sees the rank of
    "attacker" / "defender"."""
    a_known, d_known = knows("attacker"), knows("defender")
    attacker = _side(record.attacker.colour, record.attacker.rank, a_known)
    defender = _side(record.defender.colour, record.defender.rank, d_known)
    winner = record.winner
    if record.flag and d_known:
        say = f"{attacker} captured {defender}!"
    elif winner == "attacker":
        say = f"{attacker} attacked {defender} and won; the defender is removed."
    elif winner == "defender":
        stays = "" if d_known else " (its rank stays hidden)"
        say = f"{attacker} attacked {defender} and lost; the attacker is removed, the defender stays{stays}."
    else:
        say = f"{attacker} attacked {defender}: equal ranks, both are removed."
    rule = RULEBOOK[record.rule] if a_known and d_known else "not shown: the defender's rank stays hidden"
    terms = [Term("attacker", rank_label(record.attacker.rank) if a_known else "hidden", title(record.attacker.colour)),
             Term("defender", rank_label(record.defender.rank) if d_known else "hidden", title(record.defender.colour)),
             Term("result", winner), Term("rule", rule)]
    def side(name: str) -> CombatSideJSON:
        told = record.side(name)
        return {"colour": told.colour, "seat": state.seat_of(told.colour),
                "rank": told.rank if knows(name) else None, "name": RANK_NAME[told.rank] if knows(name) else None}
    return {"n": record.n, "turn": record.turn, "winner": winner, "say": say,
            "terms": [t.as_dict() for t in terms], "attacker": side("attacker"), "defender": side("defender")}


def told_publicly(record: Combat, state: StrategoState) -> CombatJSON:
    return tell(record, state, lambda side: record.side(side).shown)


def combat_terms(record: Combat, state: StrategoState) -> tuple[Term, ...]:
    """A combat outcome's terms: as the table was told it, and the reveal rule in play."""
    terms = tuple(Term(**t) for t in told_publicly(record, state)["terms"])
    reveal = RULEBOOK[Quote.REVEAL_BOTH if state.options["reveal"] == "both" else Quote.REVEAL_DEFENDER]
    return terms + (Term("reveal rule", state.options["reveal"], reveal),)


def end_say(state: StrategoState) -> str:
    end = state.end
    assert end is not None
    loser, winner = title(end.loser), title(other(end.loser))
    if end.reason == "flag":
        return f"{winner} captured the {loser} Flag and wins."
    if end.reason == "no_movable_piece":
        return (f"{loser} has no piece left that can move (only Bombs and the Flag) and forfeits: "
                f"{winner} wins.")
    return f"{loser} resigns: {winner} wins."


def rules_in_play(options: dict[str, Any]) -> str:
    """The chosen tie rule and variants, in words."""
    parts = ["a tie: the attacker wins" if options["ties"] == "attacker_wins" else "a tie removes both pieces",
             "a Spy attacking a Spy wins",
             # rank numbers, not names: a watcher's page must never name a rank nobody has shown
             "an attacking Spy defeats every rank but B" if options["spy_attack"] == "anything_but_bombs"
             else "an attacking Spy defeats the 10 and nothing else",
             "the defender shows its rank only if defeated or attacked by a Scout"
             if options["reveal"] == "defeated_or_scout" else "both ranks are shown in every combat"]
    if options["scout_move_attack"]:
        parts.append("a Scout may move and attack in one turn")
    if options["rescue"]:
        parts.append("a piece reaching the enemy's back row may rescue a defeated piece")
    return "Rules: " + "; ".join(parts) + "."


def prompt(state: StrategoState, scout_seat: int | None, rescue_seat: int | None) -> str:
    """Who does what next and where the pieces go, the colours, and the rules in play."""
    colours = ", ".join(f"{state.name(seat)} plays {title(c)}" for seat, c in sorted(state.colours.items())) + "."
    if state.phase == SETUP:
        waiting = [f"{state.name(seat)} ({title(c)}): scan your {ARMY_SIZE} pieces in your area or on your reader, "
                   f"{len(state.army(c))} of {ARMY_SIZE} so far" for seat, c in sorted(state.colours.items())
                   if len(state.army(c)) < ARMY_SIZE]
        step = "; ".join(waiting) + ". Play starts when both armies are checked; Red moves first."
    elif state.phase == PLAY:
        step = _play_step(state, scout_seat, rescue_seat)
    else:
        step = end_say(state) + " The game is over."
    return f"{step} {colours} {rules_in_play(state.options)}"


def _play_step(state: StrategoState, scout_seat: int | None, rescue_seat: int | None) -> str:
    if state.pending is not None:
        colour = state.pending.colour
        return (f"{title(colour)}'s attacker is scanned: scan the {title(other(colour))} defender in the scan "
                f"tray or on {title(other(colour))}'s reader, or call the attack off.")
    colour = state.turn
    seat = state.seat_of(colour)
    step = (f"{state.name(seat)} ({title(colour)}) to play, turn {state.turn_number}: move a piece and tap "
            f"\"{state.name(seat)} moved\", or attack: scan your piece in the scan tray or on your reader, "
            f"then the {title(other(colour))} piece it attacks.")
    if scout_seat is not None:
        step += f" {state.name(scout_seat)} may still attack with the Scout just moved."
    if rescue_seat is not None:
        step += f" {state.name(rescue_seat)} may rescue a defeated piece if their piece reached the back row."
    return step
