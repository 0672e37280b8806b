"""Bad input never crashes the BATTLECARDS referee and never changes a game: seeded random inputs, mixed
with the tablet's own buttons so the game moves through its phases (RulesTable checks that a refusal
leaves the state as it was, and that no input makes the referee fail)."""
from __future__ import annotations

import copy
import random

import pytest

from companion.rules import Refusal
from tests.battlecards_support import RULES, Table

KEYS = [f"{c.id}#{n}" for c in RULES.catalog.cards.values() for n in range(1, c.copies + 1)]
ZONES = ["center", "seat:1", "seat:2", "reader:1", "reader:2", "tray", "seat:3", "reader:x"]
KINDS = ["aim", "decide", "hold", "emergency_deploy", "withdraw", "fight_on", "look", "done", "resolve"]


def garbage(rng: random.Random) -> tuple[str, dict]:
    if rng.random() < 0.6:
        data = {"zone": rng.choice(ZONES), "card": rng.choice(KEYS + ["JZERO", "X#1", 7])}
        if rng.random() < 0.5:
            data["face_down"] = rng.choice([True, False, "yes"])
        if rng.random() < 0.2:
            data["stack"] = rng.choice(["ground", "air", "sea", "moon", 3])
        return rng.choice(["card_seen", "card_gone"]), data
    data = {"seat": rng.choice([1, 2, 3, "1", None]), "target": rng.choice(KEYS), "unit": rng.choice(KEYS),
            "fight": rng.choice([True, False, "no"]), "stack": rng.choice(["ground", "air", "sea", "x"])}
    return rng.choice(KINDS), {k: v for k, v in data.items() if rng.random() < 0.7}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_input_never_crashes_or_changes_the_game_when_refused(seed):
    rng = random.Random(seed)
    t = Table()
    t.set_up()
    for _ in range(400):
        if rng.random() < 0.3 and RULES.actions(t.state):
            action = rng.choice(RULES.actions(t.state))
            t.ok(action["kind"], **action["data"])
        else:
            kind, data = garbage(rng)
            before = copy.deepcopy(t.state)
            result = t.send(kind, **data)    # RulesTable asserts: applied or refused, never a crash
            if isinstance(result, Refusal):
                assert t.state == before
        if t.state.over:
            break
