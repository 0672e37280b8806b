"""Every outcome kind a game declares has its sentence, every reason code its words, and
the rules raise and decide only what they declare and all of it (read from the source: a code given
as a literal, by keyword, in ``a if c else b`` or as a module-level constant; so a code added to a
rule without its words fails here, not as a raw code on the tablet, and a declaration no rule uses
any more fails as dead)."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from companion import rules
from companion.rules.contract import CONTRACT_REASONS, Game, Refused

# Every registered game, and the toy game the contract's own tests use (docs/referee/contract.md).
GAMES = [*rules.available(), "toy-war"]


# War, the toy game, is in the registry for every test here (conftest.py, toy_game).
pytestmark = pytest.mark.usefixtures("toy_game")


def game_class(game: str) -> type[Game]:
    cls = rules.ruleset_class(game)
    assert issubclass(cls, Game)
    return cls


# Where a kind or code is no literal the scan can read, the call is named here with why, keyed by
# (file, the argument's source): anything else the scan cannot read fails the test, so a code
# passed some new way is either made readable or named (and covered) here.
NOT_DECISIONS = {
    # Gather Together's play checks return (code, data); their codes are read from those functions
    # (CODE_FUNCTIONS) and their cases run in test_gt_play_problems_return_declared_reasons.
    ("gt/battle.py", "problem[0]"),
    # Book of Mormon raises a rule's Refused again, marked hidden from the public: the same code.
    ("bom/__init__.py", "refused.code"),
    # Views telling again an outcome the state keeps as data (ToldState): decided before, not here.
    ("gt/view.py", "told.kind"),
    ("gt/view.py", "t.kind"),
    ("bom/view.py", "ends[-1].kind"),
}

# Functions whose return value is a refusal's (code, data), raised by the rules as
# Refused(problem[0], **problem[1]): the codes of their `return "code", {...}` are used codes.
CODE_FUNCTIONS = {"gt-battle": ["plays.py:composition_problem", "plays.py:play_problem"]}

# Declared but decided or raised nowhere in the source: each named with why (none yet). A declaration
# no rule uses is dead, and hides a rule that lost its code.
UNUSED_ALLOWED: dict[str, set[str]] = {}

# The keyword each constructor takes its code by, when given by name: Outcome(kind=...), Refused(code=...).
CODE_KEYWORD = {"Outcome": "kind", "Refused": "code"}


def source_files(game: str) -> tuple[Path, list[Path]]:
    """The game's registered module (every module of its package, for a package), and its folder."""
    module = importlib.import_module(rules.GAMES[game].partition(":")[0])
    assert module.__file__ is not None
    path = Path(module.__file__)
    return path.parent, sorted(path.parent.glob("*.py")) if hasattr(module, "__path__") else [path]


def constants(trees: list[ast.Module]) -> dict[str, str]:
    """Module-level ``NAME = "string"`` constants of the package (a code may be passed by name)."""
    found = {}
    for tree in trees:
        for node in tree.body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                found.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return found


def codes_in(node: ast.expr, named: dict[str, str]) -> set[str] | None:
    """The strings an argument can be: a literal, either branch of ``a if c else b``, a module-level
    constant by name; None when the scan cannot tell."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = codes_in(node.body, named), codes_in(node.orelse, named)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Name) and node.id in named:
        return {named[node.id]}
    return None


def code_argument(node: ast.Call, call: str) -> ast.expr | None:
    """The code argument of ``call(...)`` (``Outcome`` or ``Refused``): first positional or by keyword."""
    name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
    if name != call:
        return None
    if node.args:
        return node.args[0]
    return next((k.value for k in node.keywords if k.arg == CODE_KEYWORD[call]), None)


def scan(game: str, call: str) -> tuple[set[str], list[tuple[str, str]]]:
    """Every code given to ``call(...)`` in the game's source, and the calls whose code the scan
    cannot read, each as (file, the argument's source)."""
    folder, files = source_files(game)
    trees = {file: ast.parse(file.read_text()) for file in files}
    named = constants(list(trees.values()))
    found: set[str] = set()
    unread = []
    for file, tree in trees.items():
        for node in ast.walk(tree):
            arg = code_argument(node, call) if isinstance(node, ast.Call) else None
            if arg is None:
                continue
            codes = codes_in(arg, named)
            if codes is None:
                unread.append((f"{folder.name}/{file.name}", ast.unparse(arg)))
            else:
                found |= codes
    return found, unread


def returned_codes(game: str) -> set[str]:
    """The codes CODE_FUNCTIONS' functions return as ``return "code", {...}``."""
    folder, _ = source_files(game)
    found = set()
    for where in CODE_FUNCTIONS.get(game, []):
        file, _, function = where.partition(":")
        tree = ast.parse((folder / file).read_text())
        body = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
        for node in ast.walk(body):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                codes = codes_in(node.value.elts[0], {})
                assert codes is not None, f"{where}: a code the scan cannot read: {ast.unparse(node.value)}"
                found |= codes
    return found


def literals(game: str, call: str) -> set[str]:
    """Every code the game's source gives ``call(...)`` (``Outcome`` or ``Refused``), plus for
    ``Refused`` the codes its CODE_FUNCTIONS return; fails on a code it cannot read that is not
    named in NOT_DECISIONS."""
    found, unread = scan(game, call)
    assert [u for u in unread if u not in NOT_DECISIONS] == [], "a code the scan cannot read: name it in NOT_DECISIONS"
    return found | returned_codes(game) if call == "Refused" else found


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_outcome_kind_has_its_sentence(game):
    cls = game_class(game)
    assert cls.outcome_kinds, f"{game} declares no outcome kinds"
    missing = [k for k in cls.outcome_kinds if k not in cls.view_type.sayers]
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_every_reason_code_has_its_words(game):
    cls = game_class(game)
    assert cls.reasons, f"{game} declares no reasons"
    missing = [r for r in cls.reasons | CONTRACT_REASONS if not cls.view_type.words_for(r)]
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_decide_only_what_the_game_declares(game):
    cls = game_class(game)
    assert literals(game, "Outcome") <= cls.outcome_kinds


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_refuse_only_for_declared_reasons(game):
    cls = game_class(game)
    assert literals(game, "Refused") <= cls.reasons | CONTRACT_REASONS


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_outcome_kind_is_decided_somewhere(game):
    """No dead declaration: a kind no rule decides any more is a rule that lost its outcome."""
    cls = game_class(game)
    assert cls.outcome_kinds - literals(game, "Outcome") <= UNUSED_ALLOWED.get(game, set())


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_reason_is_raised_somewhere(game):
    cls = game_class(game)
    assert cls.reasons - literals(game, "Refused") <= UNUSED_ALLOWED.get(game, set())


@pytest.mark.parametrize("game", GAMES)
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


def test_gt_play_problems_return_declared_reasons():
    """Gather Together's play checks return the code its rules raise (Refused(problem[0], ...)): run
    every case they refuse, and find each code declared, worded and read by the scan above. The
    rulebook: "Only cards of the same rank may be played together", action cards "played on their
    own", and a play must "match or beat" the one on top (count first, then rank)."""
    from companion.rules.base import Seat
    from companion.rules.gt import plays
    from companion.rules.gt.cards import Deck
    from companion.rules.gt.state import Fight, Pending

    cls = game_class("gt-battle")
    catalog = rules.load_catalog("gt-battle")
    deck = Deck(catalog)
    state = cls(catalog).setup([Seat(n, name) for n, name in enumerate(["Ann", "Ben", "Cy", "Di"], 1)], {})
    state.top = Fight(seat=2, count=2, rank=7, cards=["F7#1", "F7#2"])
    state.hands = {1: 10, 2: 10, 3: 10, 4: 10}
    refused = {
        "action_on_its_own": plays.composition_problem(deck, ["F3#1", "SKIP#1"]),
        "second_new_battle": plays.composition_problem(deck, ["NEWBTL#1", "NEWBTL#2"]),
        "mixed_ranks": plays.composition_problem(deck, ["F3#1", "F4#1"]),
        "does_not_beat": plays.play_problem(deck, state, Pending(seat=1, cards=["F9#1"])),
    }
    assert {code: problem and problem[0] for code, problem in refused.items()} == {c: c for c in refused}
    taken = [plays.composition_problem(deck, ["F3#1", "F3#2"]), plays.composition_problem(deck, ["NEWBTL#1", "F3#1"]),
             plays.play_problem(deck, state, Pending(seat=1, cards=["F7#3", "F7#4"]))]
    assert taken == [None, None, None]
    assert set(refused) == returned_codes("gt-battle")
    assert set(refused) <= cls.reasons and all(cls.view_type.words_for(code) for code in refused)


def test_a_refusal_for_an_undeclared_reason_is_a_named_bug_and_changes_nothing():
    """A rule refusing with a code its game does not declare (a misspelt one) is a bug the referee
    names, code and all, on the table, the same on every replay; never a bare KeyError."""
    from companion.gamelog.fold import step
    from companion.gamelog.store import Event
    from tests.toy_game import War

    class MisspeltWar(War):
        def on_resolve(self, state, data):
            if self.to_lay(state):
                raise Refused("waiting_for_card")     # the declared code is waiting_for_cards
            return super().on_resolve(state, data)

    game = MisspeltWar(MisspeltWar.load_catalog())
    state = game.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {})
    with pytest.raises(ValueError, match="War refused with a reason 'waiting_for_card' it does not declare"):
        game.apply(state, rules.Action("resolve", {}))
    entry, after = step(game, state, Event(1, 0.0, "resolve", "dashboard", {}))
    assert (entry.status, after) == ("refused", state)
    assert "'waiting_for_card' it does not declare" in entry.reason


def test_refusal_words_needing_a_fact_the_rule_did_not_give_name_both():
    from tests.toy_game import War

    game = War(War.load_catalog())
    state = game.setup([rules.Seat(1, "Ann"), rules.Seat(2, "Ben")], {})
    with pytest.raises(ValueError, match="the words of the refusal 'not_a_seat_area' need 'zone'"):
        game.refusal(Refused("not_a_seat_area"), state)     # its words name the zone
