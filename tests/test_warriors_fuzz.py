"""Bad input never crashes the Warriors referee and never changes a game when refused: random
inputs of every declared kind, with random and malformed data, in every phase of a seeded game."""
from __future__ import annotations

import random

from companion.rules.warriors.state import Step
from tests.test_warriors_support import CATALOG, prepare_battle

KEYS = [f"{c.id}#{n}" for c in CATALOG.cards.values() for n in range(1, c.copies + 1)]
ZONES = ["seat:1", "seat:2", "seat:3", "reader:1", "reader:2", "tray", "center", "seat:9", "reader:x", ""]


def junk(rng: random.Random):
    return rng.choice([None, 0, -1, 7, "2", "x", [], [1, 2], {"a": 1}, True, "SWORD", "SWORD#9", rng.choice(KEYS)])


def random_input(rng: random.Random, kinds: list[str]) -> tuple[str, dict]:
    kind = rng.choice(kinds)
    data = {"seat": rng.choice([1, 2, 3, "1", junk(rng)]), "target": rng.choice([1, 2, 3, rng.choice(KEYS), junk(rng)]),
            "targets": rng.choice([[2, 3], [1], [2, 2], "2,3", junk(rng)]), "card": rng.choice(KEYS + [junk(rng)]),
            "zone": rng.choice(ZONES), "face_down": rng.choice([None, True, False, "yes"])}
    return kind, {k: v for k, v in data.items() if rng.random() < 0.8}


def test_random_inputs_are_refused_or_applied_never_a_crash():
    rng = random.Random(14)
    table = prepare_battle({1: ["Helaman", "Escape#1", "Conversion"], 2: ["Laman", "Lib", "Ambush"],
                            3: ["Nephi", "Prophecy", "Plates"]})
    kinds = [i.kind for i in table.rules.inputs if i.kind != "stop"] + ["undo_me", "start"]   # stop would end it
    steps = set()
    for _ in range(600):
        kind, data = random_input(rng, kinds)
        before = table.state
        result = table.send(kind, **data)   # the harness fails on a crash ("could not take")
        if hasattr(result, "reason"):
            assert table.state is before
        steps.add(table.state.step)
        # keep the game moving: now and then, what the table offers
        actions = [a for a in table.rules.actions(table.state) if a["kind"] != "stop"]
        if actions and rng.random() < 0.3:
            action = rng.choice(actions)
            table.send(action["kind"], **action["data"])
    assert {Step.CHALLENGE, Step.REVEAL, Step.PRIMARY} <= steps, steps
