"""Warriors on the tablet, in headless Chromium: the demo players play the first battle rounds
(the deal, primary and secondary cards, draws, calls to battle, Challenges and their reveals)
straight into the table, and at every new prompt the page shows it and it names the seat the
state waits for, doing what that seat has still to do: never a seat that has done it, never
"turn over your next facedown card" once every card of the Challenge is face up."""
from __future__ import annotations

import companion.rules
from tests.browser import prompts_through_a_demo_game


def name(view, seat) -> str:
    return next(s["name"] for s in view["seats"] if s["seat"] == seat)


def seat_row(view, seat) -> dict:
    return next(s for s in view["seats"] if s["seat"] == seat)


def check(view: dict, prompt: str) -> str:
    """The prompt against the state's public view; returns the step it was checked at."""
    step = view["step"]
    if view["over"]:
        assert "over" in prompt, prompt
        return "over"
    if view["drawing"] is not None:
        assert prompt.startswith(f"{name(view, view['drawing'])}: draw"), prompt
        return "draw"
    if step in ("deal", "redraw", "refill"):
        assert prompt.startswith(f"The deal: {name(view, view['tray_for'])}") or prompt.startswith(name(view, view["tray_for"])), prompt
    elif step == "primary":
        assert prompt.startswith(f"{name(view, view['turn'])}: lay a Warrior"), prompt
        assert not seat_row(view, view["turn"])["play"], "the seat named has no primary card yet"
    elif step == "secondary":
        assert prompt.startswith(f"{name(view, view['turn'])}: scan a secondary card"), prompt
    elif step == "challenge":   # nobody challenged yet: the challenger turns first, then the opponent's card names them
        challenger, left = view["order"]["challenger"], view["order"]["to_battle"]
        assert len(left) > 1, "with one player left the Challenge starts by itself"
        if prompt.startswith(f"{name(view, challenger)}:"):
            assert prompt.startswith(f"{name(view, challenger)}: turn over your first facedown card"), prompt
            assert seat_row(view, challenger)["face_down"] > 0, "the challenger still has a card to turn"
        else:
            assert prompt.startswith(" or ".join([", ".join(name(view, s) for s in left[:-1]), name(view, left[-1])])), prompt
            assert f"the player {name(view, challenger)} challenges turns over their first facedown card" in prompt, prompt
    elif step == "reveal":
        fight = view["challenge"]
        hidden = {s: seat_row(view, s)["face_down"] for s in (fight["challenger"], fight["defender"])}
        if any(hidden.values()) and fight["deception"] is None:
            assert prompt.startswith(f"{name(view, fight['next'])}: turn over your next facedown card"), prompt
            assert hidden[fight["next"]] > 0, "the seat named still has a card face down"
        else:
            assert "turn over" not in prompt, ("every card is face up", prompt)
    return step


def test_the_prompt_names_the_seat_the_table_waits_for_at_every_step(tmp_path, browser):
    players = companion.rules.demo_players("warriors")(3, 2)
    checked = prompts_through_a_demo_game(browser, tmp_path / "data", "warriors", players, max_rounds=60,
                                          check=lambda view, page: check(view, view["prompt"]))
    assert {"deal", "draw", "primary", "secondary", "challenge", "reveal"} <= checked, checked
