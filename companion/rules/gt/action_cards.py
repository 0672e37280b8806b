"""EXPOSE, ELIMINATE and SAVE: the action cards that make a player choose, and the SAVE window.

Playing EXPOSE or ELIMINATE (or discarding it in the building phase) sets ``state["awaiting"]``
to the choice the table owes: ``{"what": "expose" | "eliminate", "by", "then"}``. A chosen
ELIMINATE target opens the SAVE window (``"what": "save"``): anyone may play SAVE out of turn,
and any other move closes the window and the target is out for the round. A SAVE card seen on the
pile without a seat asks who played it (``"what": "save_by"``). ``then`` says how play goes on
once the choice is made: ``"finish_turn"`` (a building turn), ``"advance"`` (the battle) or
``"nothing"`` (EXPOSE as the first card flipped).

SKIP and REVERSE change the turn order (turns.py); NEW BATTLE resets the battle (battle.py).
"""
from __future__ import annotations

from ..base import State
from . import counts, seats, turns
from .cards import Deck
from .report import Refuse, Report
from .rulebook import RULE, TEAM_CARD


def ask_expose(deck: Deck, state: State, by: int, then: str, report: Report) -> None:
    targets = [s for s in range(1, len(state["seats"]) + 1) if s != by and not state["exposed"][s - 1]]
    if not targets:
        report.say("no_effect", "Every other player's identity is already face up: EXPOSE has no effect.")
        _continue(deck, state, then, report)
        return
    state["awaiting"] = {"what": "expose", "by": by, "then": then}
    report.say("choose", f"{seats.name(state, by)} chooses a player to expose.", seat=by)


def on_expose(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``expose {"target": N}``: the identity card of N is turned face up for everyone."""
    asked = state["awaiting"]
    if not asked or asked["what"] != "expose":
        raise Refuse("No EXPOSE card is waiting for a choice.")
    target = seats.data_seat(state, data, "target")
    _check_chooser(state, asked, data)
    if target == asked["by"]:
        raise Refuse("\"The player of this card will choose one player to expose\": another player, not themselves.")
    if state["exposed"][target - 1]:
        raise Refuse(f"{seats.name(state, target)}'s identity is already face up; choose another player.")
    state["exposed"][target - 1] = True
    team = state["identity"][target - 1]["team"]
    report.say("expose", f"{seats.name(state, asked['by'])} exposes {seats.name(state, target)}: a "
                         f"{TEAM_CARD[team]}. \"The Identity card is left face up in front of its owner.\"",
               seat=target, team=team)
    report.reveals = True
    state["awaiting"] = None
    _continue(deck, state, asked["then"], report)


def ask_eliminate(deck: Deck, state: State, by: int, then: str, report: Report) -> None:
    targets = [s for s in range(1, len(state["seats"]) + 1) if s != by and not state["eliminated"][s - 1]]
    if not targets:
        report.say("no_effect", "No other player is left in the round: ELIMINATE has no effect.")
        _continue(deck, state, then, report)
        return
    state["awaiting"] = {"what": "eliminate", "by": by, "then": then}
    report.say("choose", f"{seats.name(state, by)} chooses a player to eliminate.", seat=by)


def on_eliminate(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``eliminate {"target": N}``: N is out for the round unless someone plays SAVE at once."""
    asked = state["awaiting"]
    if not asked or asked["what"] != "eliminate":
        raise Refuse("No ELIMINATE card is waiting for a choice.")
    target = seats.data_seat(state, data, "target")
    _check_chooser(state, asked, data)
    if target == asked["by"]:
        raise Refuse("\"The player of this card will choose a player to be eliminated\": another player.")
    if state["eliminated"][target - 1]:
        raise Refuse(f"{seats.name(state, target)} is already out for the round; choose another player.")
    state["awaiting"] = {"what": "save", "by": asked["by"], "target": target, "then": asked["then"]}
    report.say("eliminate", f"{seats.name(state, asked['by'])} chooses {seats.name(state, target)} for elimination: "
                            f"they are out for the round \"unless immediately saved\". {RULE['save']}",
               seat=target)


def save_window_open(state: State) -> bool:
    return bool(state["awaiting"]) and state["awaiting"]["what"] == "save"


def save_card_seen(deck: Deck, state: State, key: str, data: dict, report: Report) -> None:
    """A SAVE card lands on the pile while the window is open: whose it is, if the data says."""
    asked = state["awaiting"]
    state["pile"].append(key)
    if "seat" in data:
        _saved_by(deck, state, seats.data_seat(state, data, "seat"), True, report)
        return
    state["awaiting"] = {**asked, "what": "save_by"}
    report.say("choose", f"A SAVE card is played for {seats.name(state, asked['target'])}: who played it?")


def on_save(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``save {"by": N}``: N played SAVE (before the camera saw it, or answering "who played it?")."""
    asked = state["awaiting"]
    if not asked or asked["what"] not in ("save", "save_by"):
        raise Refuse(f"No player is being eliminated right now. {RULE['save']}")
    _saved_by(deck, state, seats.data_seat(state, data, "by"), asked["what"] == "save_by", report,
              {"kind": "save", "data": dict(data)})


def _saved_by(deck: Deck, state: State, saver: int, card_on_pile: bool, report: Report,
              held: dict | None = None) -> None:
    asked = state["awaiting"]
    if state["eliminated"][saver - 1]:
        raise Refuse(f"{seats.name(state, saver)} is out for the round and cannot play cards.")
    if state["hands"][saver - 1] < 1:
        counts.hold_for_count(state, saver, 1, held or {"kind": "save", "data": {"by": saver}}, report)
        if card_on_pile:
            state["awaiting"] = {**asked, "what": "save_by"}
        return
    state["hands"][saver - 1] -= 1
    if not card_on_pile:
        state["expect_save_card"] += 1  # the camera will see it land on the pile
    report.say("save", f"{seats.name(state, saver)} plays SAVE: {seats.name(state, asked['target'])} stays in the "
                       f"game.", seat=saver, saved=asked["target"])
    state["awaiting"] = None
    _continue(deck, state, asked["then"], report)


def on_no_save(deck: Deck, state: State, data: dict, report: Report) -> None:
    """``no_save``: nobody saves the chosen player."""
    if not save_window_open(state):
        raise Refuse("No player is waiting to be saved.")
    close_save_window(deck, state, report)


def close_save_window(deck: Deck, state: State, report: Report) -> None:
    """"Unless immediately saved": the chosen player places their hand down and is out for the round."""
    asked = state["awaiting"]
    target = asked["target"]
    state["eliminated"][target - 1] = True
    state["hands"][target - 1] = 0  # "will place his/her hand down"
    state["awaiting"] = None
    report.say("eliminated", f"No SAVE: {seats.name(state, target)} places their hand down and is out for the "
                             f"round.", seat=target)
    _continue(deck, state, asked["then"], report)


def _continue(deck: Deck, state: State, then: str, report: Report) -> None:
    """What happens once a choice is made: the building turn ends, or the battle moves on."""
    if then == "finish_turn":
        turns.maybe_finish_turn(deck, state, report)
    elif then == "advance":
        turns.advance(state, report)


def _check_chooser(state: State, asked: dict, data: dict) -> None:
    if "by" in data and seats.data_seat(state, data, "by") != asked["by"]:
        raise Refuse(f"{seats.name(state, asked['by'])} played the card, so they choose.")
