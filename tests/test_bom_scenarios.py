"""Variant scenarios replayed from hand-written game logs (tests/logs/bom/*.jsonl), the way
`companion replay` does: from_jsonl, fold, replay_report."""
import dataclasses
import json
from pathlib import Path

from companion.gamelog.fold import fold
from companion.gamelog.session import from_jsonl, replay_report

LOGS = Path(__file__).parent / "logs" / "bom"


def replay(name: str):
    derived = fold(from_jsonl((LOGS / name).read_text(encoding="utf-8"), name))
    view = derived.ruleset.public_view(derived.state)
    assert dataclasses.is_dataclass(derived.state)
    json.dumps(dataclasses.asdict(derived.state))  # the typed state holds plain data only
    assert json.loads(json.dumps(view)) == view
    return derived, replay_report(derived), view


def test_a_tie_that_mounts_twice():
    """Mounting Battles: "Ties can mount again; the winner takes everything on the battlefield, the
    face-down cards included.\""""
    _, report, view = replay("mount-twice.jsonl")
    kinds = [(o["seq"], o["kind"]) for o in report["outcomes"]]
    assert kinds == [(5, "mount"), (9, "mount"), (12, "battle"), (23, "battle")]
    first, second, won, _ = report["outcomes"]
    assert first["data"]["tied"] == [1, 2] and first["data"]["values"] == {"1": 500, "2": 500, "3": 100}
    assert second["data"]["values"] == {"1": 700, "2": 700} and second["data"]["face_down"] == {"1": 6, "2": 6}
    assert won["data"]["winner"] == 2 and won["data"]["cards_taken"] == 19 and won["data"]["rounds"] == 3
    assert won["say"] == "Seat 2 (Bo) wins with Zemnarihah, black oval 900."
    assert report["refused"] == [{"seq": 6, "kind": "card_seen", "reason":
                                  "The battle is mounting: only Seat 1 (Ann) and Seat 2 (Bo) play now; take Enos "
                                  "back until the next battle."}]
    assert view["battle"] == 3 and sum(s["score"] for s in view["standings"]) == 72


def test_a_secret_weapon_round_with_a_seat_out_of_turn():
    _, report, view = replay("secret-weapon-out-of-turn.jsonl")
    assert report["refused"] == [{"seq": 6, "kind": "resolve",
                                  "reason": "Seat 1 (Ann) has not revealed its face-down POWER card yet."}]
    first, second = [o for o in report["outcomes"] if o["kind"] == "battle"]
    assert first["data"]["flags"] == [{"seat": 3, "card": "GD900#1", "flag": "out_of_turn", "other": 1}]
    assert {"label": "out of turn", "value": None,
            "detail": "Seat 3 (Cy) played out of turn: it is Seat 1 (Ann)'s turn."} in first["terms"]
    assert first["say"] == "Seat 1 (Ann) wins with Alma², gold diamond 500 x10 by Faith = 5000."
    assert second["data"]["winner"] == 3 and second["data"]["flags"] == [], "Bo led battle 2, in turn"
    assert view["turn"] == 3 and view["secret_weapon"]["order"] == [3, 1, 2]


def test_a_shorter_game_that_ends_on_the_timer_with_a_tie():
    _, report, view = replay("shorter-game-tie.jsonl")
    time_up = next(o for o in report["outcomes"] if o["kind"] == "time_up")
    assert time_up["data"] == {"tied": [1, 2], "cards": {"1": 36, "2": 36}}
    assert [r["seq"] for r in report["refused"]] == [13]
    assert "CHARACTER cards only" in report["refused"][0]["reason"]
    last, over = report["outcomes"][-2:]
    assert last["say"] == "Seat 1 (Ann) wins the last battle with Lachoneus, gold oval 300: at 300 each, gold beats black."
    assert over["kind"] == "game_over" and report["over"] and report["winner"] == 1
    assert view["timer"] == {"minutes": 15, "seconds": 900, "time_up": True}


def test_a_spys_trivia_round_where_nobody_knows_the_character():
    derived, report, view = replay("trivia-nobody-knows.jsonl")
    said = [o["say"] for o in report["outcomes"]]
    assert said[:3] == ["Seat 1 (Ann) reads a new character. Clue 1 of 5: He was a lawyer of Ammonihah.",
                        "Clue 2 of 5: He offered six onties of silver to deny God.",
                        "Clue 3 of 5: He was caught in his lying."]
    assert said[3] == "Nobody knew: it was Zeezrom (zee-EZ-rum), Alma 11. The reader, Seat 1 (Ann), keeps the card."
    assert said[5] == "Seat 3 (Cy) knew it: Teancum (TEE-an-kum), Alma 51. Seat 3 (Cy) wins the card."
    assert said[-1] == "Seat 2 (Bo) named the book and chapter: Laman (LAY-mun), 1 Nephi 3. Seat 2 (Bo) wins the card."
    assert [(s["seat"], s["score"]) for s in report["standings"]] == [(1, 1), (2, 1), (3, 1)]
    assert view["trivia"]["reader"] == 1 and view["trivia"]["read"] == 3 and not report["over"]
    assert report["refused"] == []
