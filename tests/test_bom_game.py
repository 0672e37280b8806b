"""Whole games: a logged game replayed through the session's fold, and simulated players (who hold
the true cards) whose every battle the companion must count exactly."""
import copy
from pathlib import Path

import pytest

from companion.rules.bom.demo import SimulatedTable, play
from companion.rules import Action, Applied, Seat
from companion.gamelog.fold import fold
from companion.gamelog.session import from_jsonl, replay_report
from tests.test_bom_support import RULES

LOGS = Path(__file__).parent / "logs" / "bom"


# The 70-battle log basic-3-seats.jsonl was written by the simulated players through the referee of
# its day: it checks that the referee still referees that game the same way (a regression test, not
# a rule check; the rules are checked by the tests that quote the rulebook). Since "Too many POWER
# cards" needs the POWER cards shown, its three unshown taps are refused (tests/test_bom_replays.py).
TOO_MANY_UNSHOWN = [181, 465, 549]


def test_regression_the_logged_basic_game_still_ends_with_one_winner_holding_all_72_cards():
    events = from_jsonl((LOGS / "basic-3-seats.jsonl").read_text(encoding="utf-8"))
    report = replay_report(fold(events))
    assert [(r["seq"], r["kind"]) for r in report["refused"]] == [(seq, "too_many_powers") for seq in TOO_MANY_UNSHOWN]
    battles = [o for o in report["outcomes"] if o["kind"] == "battle"]
    assert len(battles) == sum(1 for e in events if e.kind == "resolve") == 70
    assert report["over"] and report["winner"] == 2
    assert report["standings"][0]["seat"] == 2 and report["standings"][0]["score"] == 72
    assert [s["score"] for s in report["standings"][1:]] == [0, 0]
    assert report["outcomes"][-1]["say"] == "Seat 2 (Ben) holds all 72 cards and wins the game."
    for battle in battles:
        assert battle["say"].startswith(f"Seat {battle['data']['winner']} (")


def test_regression_the_cards_add_up_to_the_deck_after_every_event_of_the_logged_game():
    events = from_jsonl((LOGS / "basic-3-seats.jsonl").read_text(encoding="utf-8"))
    start = events[0].data
    state = RULES.setup([Seat(s["seat"], s["name"]) for s in start["seats"]], RULES.resolve_options(start["options"]))
    refused = []
    for event in events[1:]:
        result = RULES.apply(copy.deepcopy(state), Action(event.kind, event.data, event.source, event.seq))
        if not isinstance(result, Applied):
            refused.append(event.seq)
            continue
        state = result.state
        assert sum(s.total for s in state.piles) == 72
    assert refused == TOO_MANY_UNSHOWN


def simulate(seats: int, seed: int, options: dict | None = None, max_battles: int = 120):
    """Fold a simulated game through the ruleset, comparing the companion's counts with the
    players' true piles after every battle. Returns (battles, final state)."""
    options = options or {}
    box = {"state": RULES.setup([Seat(i + 1, f"P{i + 1}") for i in range(seats)], RULES.resolve_options(options))}

    def submit(kind, data, source):
        result = RULES.apply(copy.deepcopy(box["state"]), Action(kind, data, source))
        assert isinstance(result, Applied), f"{kind} {data} refused: {getattr(result, 'reason', '')}"
        box["state"] = result.state
        return [o.as_dict() for o in result.outcomes]

    def compare(table, outcome):
        truth = table.counts()
        for s in box["state"].piles:
            assert (s.army, s.battalion, s.discard) == tuple(truth[s.seat].values()), outcome["battle"]
            assert s.out == (s.seat in table.out)

    table = SimulatedTable(seats, seed, options)
    battles = play(table, submit, max_battles=max_battles, flicker=0.05, after_battle=compare)
    return battles, box["state"]


@pytest.mark.parametrize("seats, seed", [(3, 10), (3, 49)])
def test_a_simulated_game_is_refereed_to_its_end_without_a_refusal(seats, seed):
    battles, state = simulate(seats, seed, max_battles=400)
    assert state.over, f"not over after {battles} battles"
    assert state.seat(state.winner).total == 72
    assert [s.seat for s in state.piles if not s.out] == [state.winner]


@pytest.mark.parametrize("seats, seed, options", [
    (2, 1, {}), (4, 2, {}), (6, 3, {}), (3, 4, {"power_play": True}), (5, 5, {"first_seat": 4}),
    (3, 6, {"young_players": True}),
])
def test_the_companions_counts_equal_the_true_piles_after_every_battle(seats, seed, options):
    battles, state = simulate(seats, seed, options, max_battles=80)
    assert battles >= 1
    size = 56 if options.get("young_players") else 72
    assert sum(s.total for s in state.piles) == size


def test_a_game_at_the_table_resolves_itself_once_everyone_has_played_and_undo_takes_back_a_command(tmp_path):
    from companion.gamelog.session import Session
    from companion.gamelog.store import Store

    now = [1000.0]
    store = Store(tmp_path / "companion.db")
    seats = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]
    session = Session.start(store, "bom-battle", seats, clock=lambda: now[0])
    session.submit("card_seen", {"zone": "seat:1", "card": "GD500#1"}, "camera")
    session.submit("card_seen", {"zone": "seat:2", "card": "BD800#1"}, "camera")
    assert session.maybe_auto_resolve(2.0) is None, "Cy has not played"
    assert session.submit("withdraw", {"seat": 3}).ok
    assert session.submit("undo").ok and not session.state.seat(3).withdrawn
    session.submit("card_seen", {"zone": "seat:3", "card": "GO100#1"}, "camera")
    assert session.maybe_auto_resolve(2.0) is None, "the table has not been still long enough"
    now[0] += 3
    resolved = session.maybe_auto_resolve(2.0)
    assert resolved.ok and resolved.entry.outcomes[0]["data"]["winner"] == 2
    assert session.public_view()["last_outcome"]["say"] == "Seat 2 (Bo) wins with Korihor, black diamond 800."
    assert Session.resume(Store(tmp_path / "companion.db")).state == session.state
