"""The views are typed where the tablet reads them (docs/referee/contract.md, "The views, typed where the
tablet reads them"), for the games whose own scripts read nested parts (Book of Mormon, Warriors,
BATTLECARDS):

- what a game's own script (web/static/games/<game>.js) reads of each part is a key of that part's type,
  so mypy --strict (tests/test_typing.py), checking the keys the view writes, checks what the page reads;
- the views a game really gives, state after state of a game played, are of their declared types (what
  mypy cannot see: a card's printed values, a dataclass spread into a dict).
"""
from __future__ import annotations

import dataclasses
import re
import tempfile
import types
import typing
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from companion import rules
from companion.rules.base import PlayedCard, ResultJSON, TermJSON
from companion.rules.battlecards import forecast
from companion.rules.battlecards import view as pacific
from companion.rules.battlecards.state import Shot
from companion.rules.bom import announce
from companion.rules.bom import view as bom
from companion.rules.contract import TableJSON
from companion.rules.warriors import view as warriors

ROOT = Path(__file__).resolve().parent.parent
# What the session adds to every view (companion/gamelog/session.py's public_view and seat_view).
SESSION = {"game_id", "game", "title", "started", "actions", "uses_resolve", "seat", "refused"}


def keys(part: Any) -> set[str]:
    """The keys of a typed view part: a TypedDict's, or a dataclass's fields."""
    if is_typeddict(part):
        return set(part.__required_keys__ | part.__optional_keys__)
    return {f.name for f in dataclasses.fields(part)}


def view_keys(seat_part: Any) -> set[str]:
    """Every key a game's seat view has: the shared part, the session's and the game's own (a seat's own
    part extends the table's)."""
    return set(TableJSON.__annotations__) | SESSION | keys(seat_part)


def script(name: str) -> str:
    return (ROOT / "web/static" / name).read_text(encoding="utf-8")


def function(js: str, name: str) -> str:
    """One of a script's functions (those of its closure, indented two spaces), whole."""
    start = js.index(f"  function {name}(")
    return js[start:js.index("\n  }\n", start)]


def reads(js: str, name: str) -> set[str]:
    """The keys read of ``name`` (``name.key``, ``name?.key``), ``name`` never the tail of a longer name."""
    return set(re.findall(rf"(?<![\w.$]){re.escape(name)}\??\.([a-z_]+)", js))


BOM, WARRIORS, PACIFIC = script("games/bom-battle.js"), script("games/warriors.js"), script("games/battlecards-pacific.js")

# (where in a script, the name it reads a part by, the part's type)
READS = {
    "bom-battle": [
        (BOM, "view", view_keys(bom.BomSeat)),
        (BOM, "view.timer", keys(bom.TimerJSON)),
        (BOM, "view.tiebreak", keys(bom.TiebreakJSON)),
        (BOM, "view.mount", keys(bom.MountJSON)),
        (BOM, "view.trivia", keys(bom.TriviaJSON)),
        (function(BOM, "cluePanel"), "trivia", keys(bom.TriviaJSON)),
        (function(BOM, "cluePanel"), "current", keys(bom.ClueJSON)),
        (function(BOM, "lastCard"), "last", keys(bom.WonCard)),
        (BOM, "view.last_outcome", keys(ResultJSON)),
        (BOM, "seat", keys(bom.BomSeatRow)),
        (BOM, "seat.announce", keys(announce.AnnounceJSON)),
        (BOM, "card", keys(bom.BomCard)),
    ],
    "warriors": [
        (WARRIORS, "view", view_keys(warriors.WarriorsSeat)),
        (WARRIORS, "view.challenge", keys(warriors.ChallengeJSON)),
        (function(WARRIORS, "board"), "ch", keys(warriors.ChallengeJSON)),
        (function(WARRIORS, "sideBox"), "points", keys(warriors.SideJSON)),
        (function(WARRIORS, "sideBox"), "t", keys(TermJSON)),
        (function(WARRIORS, "orderBox"), "order", keys(warriors.OrderJSON)),
        (function(WARRIORS, "orderBox"), "r", keys(warriors.ChallengeResultJSON)),
        (function(WARRIORS, "markCards"), "card", keys(warriors.LaidCard)),
        (function(WARRIORS, "decorateSeats"), "seat", keys(warriors.WarriorsSeatRow)),
        (function(WARRIORS, "decorateSeats"), "seat.discard_top", keys(warriors.NamedCard)),
        (function(WARRIORS, "handCard"), "card", keys(warriors.HandCard)),
        (function(WARRIORS, "renderSeat"), "you", keys(warriors.WarriorsYou)),
        (function(WARRIORS, "renderSeat"), "c", keys(warriors.FaceDownCard) | keys(warriors.NamedCard)),
    ],
    "battlecards-pacific": [
        (PACIFIC, "view", view_keys(pacific.PacificSeat)),
        (function(PACIFIC, "race"), "s", keys(pacific.PacificSeatRow)),
        (function(PACIFIC, "race"), "c", keys(pacific.PacificCard)),
        (function(PACIFIC, "pileLine"), "c", keys(pacific.PileJSON)),
        (function(PACIFIC, "pileLine"), "c.top", keys(pacific.PacificCard)),
        (function(PACIFIC, "turnPanel"), "view.pending", keys(pacific.PacificCard)),
        (function(PACIFIC, "turnPanel"), "r", keys(ResultJSON)),
        (function(PACIFIC, "unitBox"), "u", keys(pacific.FightingUnit)),
        (function(PACIFIC, "unitBox"), "u.support", keys(pacific.Support)),
        (function(PACIFIC, "unitBox"), "battle", keys(pacific.FightJSON)),
        (function(PACIFIC, "battlePanel"), "b", keys(pacific.FightJSON)),
        (function(PACIFIC, "battlePanel"), "card", keys(pacific.PacificCard)),
        (function(PACIFIC, "battlePanel"), "u", keys(pacific.FightingUnit)),
        (function(PACIFIC, "battlePanel"), "c", keys(pacific.PacificCard)),
        (function(PACIFIC, "oddsPanel"), "o", keys(forecast.OddsJSON)),
        (function(PACIFIC, "oddsPanel"), "o.withdraw.aggressor", keys(forecast.WithdrawOdds)),
        (function(PACIFIC, "oddsPanel"), "o.withdraw.defender", keys(forecast.WithdrawOdds)),
        (function(PACIFIC, "oddsPanel"), "s", keys(forecast.ShotOdds)),
        (function(PACIFIC, "oddsPanel"), "b", keys(pacific.FightJSON)),
        (function(PACIFIC, "shotsPanel"), "b", keys(pacific.FightJSON)),
        (function(PACIFIC, "shotsPanel"), "s", keys(pacific.ShotJSON)),
        (function(PACIFIC, "cards"), "c", keys(pacific.PacificCard)),
    ],
}


@pytest.mark.parametrize("game", sorted(READS))
def test_a_games_script_reads_of_each_part_only_the_keys_of_its_type(game):
    """A key the page reads that the view's type does not have would be a blank on the tablet, and one
    mypy never checks: each read is a key of the part's type (every name here is really read)."""
    for js, name, typed in READS[game]:
        read = reads(js, name)
        assert read, f"{game}.js reads nothing of {name!r}: the table above is out of date"
        assert sorted(read - typed) == [], f"{game}.js reads of {name!r} keys its type does not have"


def test_a_seat_box_draws_a_card_from_the_keys_of_a_played_card():
    """app.js ``cardBox`` draws each card of a seat's ``play``: every key it reads is a ``PlayedCard``'s."""
    read = reads(function(script("app.js").replace("\nfunction ", "\n  function "), "cardBox"), "card")
    assert {"key", "name", "kind", "color", "pronunciation"} <= read
    assert sorted(read - keys(PlayedCard)) == []


def test_a_phone_reads_of_its_seat_only_keys_of_a_games_you():
    """table.js ``ownFacts`` reads the seat's own ``you`` for every game (Stratego's colour, Gather Together's
    identity, hand and turn): each key it reads is a key of some game's typed ``you``."""
    yours: set[str] = set()
    for game in rules.available():
        part = own_part(rules.ruleset_class(game), True)
        if dataclasses.is_dataclass(part) and "you" in keys(part):
            yours |= {k for t in get_args(get_type_hints(part)["you"]) or [get_type_hints(part)["you"]]
                      if is_typeddict(t) for k in keys(t)}
    read = reads(script("table.js"), "you") | reads(script("table.js"), "view.you")
    assert {"colour", "identity", "hand", "your_turn", "name"} <= read
    assert sorted(read - yours) == []


def test_a_shot_on_the_tablet_carries_every_term_of_the_ruling():
    """``ShotJSON`` lists ``Shot``'s fields by name (the view no longer spreads the dataclass): a field added
    to ``Shot`` must be added to what the tablet is sent."""
    assert {f.name for f in dataclasses.fields(Shot)} <= keys(pacific.ShotJSON)


# -- the views a game gives are of their types ------------------------------------------------------------
# A game's row gives the contract's ``SeatBox.play`` as its own cards (a TypedDict cannot narrow a key it
# inherits): these are the types its script reads them as.
NARROWED = {(bom.BomSeatRow, "play"): list[bom.BomCard], (warriors.WarriorsSeatRow, "play"): list[warriors.LaidCard]}


def conforms(value: Any, hint: Any, where: str) -> list[str]:
    """What in ``value`` is not of the type ``hint`` (a view part's JSON: TypedDicts, dataclasses as dicts,
    lists, dicts, unions, plain values)."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if origin in (typing.Union, types.UnionType):
        found = [conforms(value, h, where) for h in get_args(hint) if value is None or h is not type(None)]
        return [] if any(not f for f in found) else min(found, key=len)   # what is wrong with the nearest
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(hint) or dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not {hint.__name__}"]
        hints = {k: NARROWED.get((hint, k), h) for k, h in get_type_hints(hint).items()}
        required = hint.__required_keys__ if is_typeddict(hint) else set(hints)
        wrong = [f"{where}: {hint.__name__} has no {k!r}" for k in sorted(set(value) - set(hints))]
        wrong += [f"{where}: {hint.__name__} without {k!r}" for k in sorted(required - set(value))]
        return wrong + [w for k in value.keys() & hints.keys() for w in conforms(value[k], hints[k], f"{where}.{k}")]
    if origin in (list, tuple):
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [w for i, v in enumerate(value) for w in conforms(v, get_args(hint)[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        key, item = get_args(hint)
        return [w for k, v in value.items() for w in conforms(k, key, f"{where} key") + conforms(v, item, f"{where}[{k!r}]")]
    accepted = (int, float) if hint is float else hint
    return [] if isinstance(value, accepted) else [f"{where}: {value!r} is not {hint.__name__}"]


def own_part(ruleset: Any, seat: bool) -> Any:
    return get_type_hints(ruleset.view_type.seat if seat else ruleset.view_type.public)["return"]


def check_views(session: Any, seats: list[int], wrong: list[str], where: str) -> None:
    """The shared part of the public view, and the game's own part of it and of each seat's view (a seat's
    own ``prompt`` takes the place of the shared one)."""
    ruleset = session.ruleset
    view = ruleset.public_view(session.state)
    wrong += conforms({k: view[k] for k in TableJSON.__annotations__}, TableJSON, f"{where} public")
    for n, part in ((None, own_part(ruleset, False)), *((n, own_part(ruleset, True)) for n in seats)):
        shown = view if n is None else ruleset.seat_view(session.state, n)
        own = {k: v for k, v in shown.items() if k in keys(part) or k not in TableJSON.__annotations__}
        wrong += conforms(own, part, f"{where} {'public' if n is None else f'seat {n}'}")


# Seeded demo games (seats, rounds of moves), long enough to reach what each view shows: BATTLECARDS'
# first battle, its shots, odds and withdrawal phase (rounds 20 to 23), Warriors' whole game (39 rounds) with
# its Challenges, Book of Mormon's battles.
DEMOS = {"bom-battle": (3, 20), "warriors": (3, 200), "battlecards-pacific": (2, 30)}


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_every_view_of_a_demo_game_is_of_its_declared_types(game):
    from companion.gamelog.session import Session, open_store
    from companion.rules.demo import play_direct

    seat_count, rounds = DEMOS[game]
    players = rules.demo_players(game)(seat_count, 3)
    seats, options = players.start()
    session = Session.start(open_store(tempfile.mkdtemp(prefix="view-types-")), game, seats, options)
    wrong: list[str] = []
    seen: set[str] = set()   # the parts shown at least once

    def after(s: Any) -> None:
        check_views(s, [n["seat"] for n in seats], wrong, game)
        seen.update(k for k, v in s.public_view().items() if v)
    try:
        play_direct(players, session, max_rounds=rounds, after=after)
    except RuntimeError:
        pass  # not over in that many rounds: the views so far are the sample
    assert wrong[:10] == []
    expected = {"battlecards-pacific": {"fight", "odds", "pending"}, "warriors": {"challenge", "results"},
                "bom-battle": {"recent"}}[game]
    assert expected <= seen, f"the demo never showed {expected - seen}"


@pytest.mark.parametrize("log", sorted(p.name for p in (ROOT / "tests/logs/bom").glob("*.jsonl") if p.name != "basic-3-seats.jsonl"))
def test_every_view_of_a_book_of_mormon_log_is_of_its_declared_types(log):
    """The logs of the variants (Mounting Battles, Secret Weapon, the Shorter Game's tie, Spy's Trivia; the
    basic game is the demo's): the views after every input are of their types."""
    from companion.gamelog.fold import start_ruleset, step
    from companion.gamelog.session import from_jsonl

    events = from_jsonl((ROOT / "tests/logs/bom" / log).read_text(encoding="utf-8"), log)
    ruleset, state = start_ruleset(events[0])
    seats = [s["seat"] for s in events[0].data["seats"]]
    wrong: list[str] = []
    for event in events[1:]:
        if event.kind == "undo":
            continue
        _, state = step(ruleset, state, event)
        check_views(types.SimpleNamespace(ruleset=ruleset, state=state), seats, wrong, f"{log} seq {event.seq}")
    assert wrong[:10] == []
