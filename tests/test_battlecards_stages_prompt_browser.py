"""BATTLECARDS on the tablet, in headless Chromium, stage by stage as its demo players reach them
(tests/test_battlecards_prompt_browser.py follows one scripted battle): the demo players play the setup and the first
turns (draws, tasks, battles offered, fought and left) straight into the table, and at every new
prompt the page shows it and it names the seat the state waits for, doing what it has still to
do: the seats still setting up (never one that is done), the drawing player, the aggressor who
decides whether to fight, the side that fires and its unit, the side that may withdraw. While a
battle is only offered, the result box never calls it an attack in progress."""
from __future__ import annotations

import re

import companion.rules
from tests.browser import prompts_through_a_demo_game

SETUP_DRAW, SETUP_DEPLOY = 6, 3


def name(view, seat) -> str:
    return next(s["name"] for s in view["seats"] if s["seat"] == seat)


def deciding_seat(fight: dict, side: str) -> int:
    return (fight["aggressors"] if side == "aggressor" else fight["defenders"])[0]


def check(view: dict, prompt: str) -> str:
    """The prompt against the state's public view; returns the stage it was checked at."""
    stage = view["stage"]
    if stage == "setup":
        deployed = {s["seat"]: sum(s["counts"][k] for k in ("ground", "air", "sea")) for s in view["seats"]}
        drawn = {s["seat"]: s["counts"]["hand"] + deployed[s["seat"]] for s in view["seats"]}
        waiting = [n for n in deployed if drawn[n] < SETUP_DRAW or deployed[n] < SETUP_DEPLOY]
        named = re.search(r"Waiting for (.*)\.$", prompt).group(1)
        for s in view["seats"]:
            assert (f"{s['name']} (" in named) == (s["seat"] in waiting), (s["name"], waiting, prompt)
    elif stage == "draw":
        assert prompt.startswith(f"{name(view, view['turn'])} (") and "draw a CONFLICT card" in prompt, prompt
    elif stage == "decision":
        aggressor = next(s for s in view["seats"] if s["side"] == view["pending"]["aggressor"])
        assert prompt.startswith(f"{view['pending']['name']}: {aggressor['name']} ("), prompt
        assert "fight this battle" in prompt, prompt
    elif stage == "combat":
        fight = view["fight"]
        assert f": {name(view, deciding_seat(fight, fight['firing']))} fires." in prompt, prompt
        if fight["shooter"]:
            shooter = next(u for u in fight["units"] if u["key"] == fight["shooter"])
            assert shooter["name"] in prompt and shooter["status"] == "fighting", (shooter, prompt)
    elif stage == "withdrawal":
        fight = view["fight"]
        assert prompt.startswith(f"Withdrawal phase: {name(view, deciding_seat(fight, fight['deciding']))}"), prompt
    elif stage in ("arsenal", "look"):
        assert prompt.startswith(f"{name(view, view['task']['seat'])}:"), prompt
    return stage


def check_on_page(view: dict, page) -> str:
    """check(), and while a battle is only offered the page's result box names the BATTLECARD drawn and does
    not call it an attack (it said "Combat 1" for every battle: BATTLECARDS numbers no combats)."""
    stage = check(view, view["prompt"])
    if stage == "decision" and page.is_visible("#result-label"):
        label = page.inner_text("#result-label").lower()
        assert "in progress" not in label and "attack" not in label, label
        assert label.startswith(view["pending"]["name"].lower() + ":") and "combat 1" not in label, label
    return stage


def test_the_prompt_names_the_seat_the_table_waits_for_at_every_stage(tmp_path, browser):
    players = companion.rules.demo_players("battlecards-pacific")(2, 3)
    checked = prompts_through_a_demo_game(browser, tmp_path / "data", "battlecards-pacific", players, max_rounds=120,
                                          check=check_on_page)
    assert {"setup", "draw", "decision", "combat", "withdrawal", "arsenal"} <= checked, checked
