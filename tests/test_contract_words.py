"""Every outcome kind a converged game declares has its sentence, every reason code its words, and
the rules raise and decide only what they declare (read from the source, so a code added to a rule
without its words fails here, not as a raw code on the tablet)."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from companion import rules
from companion.rules.contract import CONTRACT_REASONS, Game

# The games converged on declared outcome kinds and on reason codes (docs/referee/contract.md).
CONVERGED = ["stratego", "toy-war", "gt-battle", "bom-battle", "warriors", "battlecards-pacific"]
REASON_CODES = CONVERGED


# War, the toy game, is in the registry for every test here (conftest.py, toy_game).
pytestmark = pytest.mark.usefixtures("toy_game")


def game_class(game: str) -> type[Game]:
    cls = rules.ruleset_class(game)
    assert issubclass(cls, Game)
    return cls


def literals(game: str, call: str) -> set[str]:
    """The first arguments of every ``call(...)`` that are string literals, in the game's registered
    module (every module of its package, for a package)."""
    module = importlib.import_module(rules.GAMES[game].partition(":")[0])
    assert module.__file__ is not None
    path = Path(module.__file__)
    files = sorted(path.parent.glob("*.py")) if hasattr(module, "__path__") else [path]
    found = set()
    for file in files:
        for node in ast.walk(ast.parse(file.read_text())):
            named = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == call
            if (named and isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("game", CONVERGED)
def test_every_declared_outcome_kind_has_its_sentence(game):
    cls = game_class(game)
    assert cls.outcome_kinds, f"{game} declares no outcome kinds"
    missing = [k for k in cls.outcome_kinds if k not in cls.view_type.sayers]
    assert missing == []


@pytest.mark.parametrize("game", REASON_CODES)
def test_every_reason_code_has_its_words(game):
    cls = game_class(game)
    assert cls.reasons, f"{game} declares no reasons"
    missing = [r for r in cls.reasons | CONTRACT_REASONS if not cls.view_type.words_for(r)]
    assert missing == []


@pytest.mark.parametrize("game", CONVERGED)
def test_the_rules_decide_only_what_the_game_declares(game):
    cls = game_class(game)
    assert literals(game, "Outcome") <= cls.outcome_kinds


@pytest.mark.parametrize("game", REASON_CODES)
def test_the_rules_refuse_only_for_declared_reasons(game):
    cls = game_class(game)
    assert literals(game, "Refused") <= cls.reasons | CONTRACT_REASONS


@pytest.mark.parametrize("game", REASON_CODES)
def test_no_rule_refuses_with_a_sentence(game):
    """Words live in the view: a refusal is a code (no spaces) and its data."""
    found = literals(game, "Refused")
    assert found, f"no Refused(...) read in {game}'s source"
    assert [r for r in found if " " in r] == []


def strings(value) -> list[str]:
    """Every string in a state (its dataclasses, lists and dicts)."""
    import dataclasses

    if dataclasses.is_dataclass(value):
        return [s for f in dataclasses.fields(value) for s in strings(getattr(value, f.name))]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def test_no_sentence_is_kept_in_stratego_state():
    """A combat and the end keep the code of the rule that decided them; the view quotes it."""
    from tests.test_stratego_support import Table

    table = Table(ties="attacker_wins")
    table.attack("R6#1", "B6#1")            # a tie: "In the event of a tie, the attacker wins."
    table.send("resign", seat=2)
    state = table.state
    names = {s.name for s in state.seats}
    assert [s for s in strings(state) if " " in s and s not in names] == []
    assert (state.combats[0].rule, state.end.rule) == ("tie_attacker", "resign")
    combat = next(o for o in table.outcomes if o.kind == "combat")
    assert ("rule", "In the event of a tie, the attacker wins.") in [(t.label, t.value) for t in combat.terms]
