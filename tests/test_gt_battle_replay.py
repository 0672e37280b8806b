"""A whole round replayed from a JSONL game log (docs/game-log.md) through from_jsonl and fold,
exactly as `companion replay` and a restart after a power cut do."""
from __future__ import annotations

from companion.gamelog.fold import fold
from companion.gamelog.session import from_jsonl, replay_report

# Four players, Ann deals. Ann and Dee are Superheroes, Ben and Cy Villains.
ROUND = """
{"seq": 1, "kind": "start", "source": "dashboard", "data": {"game": "gt-battle", "options": {"target": 5}, "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cy"}, {"seat": 4, "name": "Dee"}]}}
// identities, shown privately to each seat's reader
{"seq": 2, "kind": "card_seen", "source": "rfid", "data": {"zone": "reader:1", "card": "HERO#1", "hidden": true}}
{"seq": 3, "kind": "card_seen", "source": "rfid", "data": {"zone": "reader:2", "card": "VILLAIN#1", "hidden": true}}
{"seq": 4, "kind": "card_seen", "source": "rfid", "data": {"zone": "reader:3", "card": "VILLAIN#2", "hidden": true}}
{"seq": 5, "kind": "card_seen", "source": "rfid", "data": {"zone": "reader:4", "card": "HERO#2", "hidden": true}}
// step 6, then the building phase
{"seq": 6, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F6#1"}}
{"seq": 7, "kind": "draw", "source": "dashboard", "data": {"seat": 2, "from": "deck"}}
{"seq": 8, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F11#1"}}
{"seq": 9, "kind": "draw", "source": "dashboard", "data": {"seat": 3, "from": "discard"}}
{"seq": 10, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "SKIP#1"}}
{"seq": 11, "kind": "draw", "source": "dashboard", "data": {"seat": 1, "from": "discard"}}
{"seq": 12, "kind": "draw", "source": "dashboard", "data": {"seat": 1, "from": "deck"}}
{"seq": 13, "kind": "pass", "source": "dashboard", "data": {"seat": 1}}
{"seq": 14, "kind": "draw", "source": "dashboard", "data": {"seat": 2, "from": "deck"}}
{"seq": 15, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "BATTLE#1"}}
// the battle
{"seq": 16, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F4#1"}}
{"seq": 17, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F4#2"}}
{"seq": 18, "kind": "resolve", "source": "auto", "data": {}}
{"seq": 19, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F9#1"}}
{"seq": 20, "kind": "resolve", "source": "dashboard", "data": {}}
{"seq": 21, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F9#2"}}
{"seq": 22, "kind": "resolve", "source": "auto", "data": {}}
{"seq": 23, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "ELIM#1"}}
{"seq": 24, "kind": "eliminate", "source": "dashboard", "data": {"target": 2}}
{"seq": 25, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "SAVE#1"}}
{"seq": 26, "kind": "save", "source": "dashboard", "data": {"by": 1}}
{"seq": 27, "kind": "pass", "source": "dashboard", "data": {"seat": 1}}
{"seq": 28, "kind": "pass", "source": "dashboard", "data": {"seat": 2}}
{"seq": 29, "kind": "confirm_count", "source": "dashboard", "data": {"seat": 3, "cards": 1}}
{"seq": 30, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F1#1"}}
{"seq": 31, "kind": "resolve", "source": "auto", "data": {}}
{"seq": 32, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "F2#1"}}
{"seq": 33, "kind": "resolve", "source": "auto", "data": {}}
{"seq": 34, "kind": "pass", "source": "dashboard", "data": {"seat": 1}}
{"seq": 35, "kind": "pass", "source": "dashboard", "data": {"seat": 2}}
{"seq": 36, "kind": "card_seen", "source": "camera", "data": {"zone": "center", "card": "VILLAIN#2"}}
{"seq": 37, "kind": "new_round", "source": "dashboard", "data": {}}
"""


def test_a_whole_round_replays_from_its_log():
    derived = fold(from_jsonl(ROUND, "round.jsonl"))
    state = derived.state
    statuses = {e.event.seq: e.status for e in derived.entries}
    report = replay_report(derived)

    # Two inputs were refused, each with the rulebook's reason, and changed nothing.
    assert report["refused"] == [
        {"seq": 11, "kind": "draw", "reason": "The top discard is SKIP, an action card: \"Action cards cannot be "
                                               "picked up from the discard pile.\" Draw from the deck instead."},
        {"seq": 20, "kind": "resolve", "reason": "A single 9 does not beat a pair of 4s played by Ben (seat 2). "
                                                 "\"Play moves to the next player who has to match or beat the rank of "
                                                 "fight cards previously played. A pair beats any single, a "
                                                 "three-of-a-kind beats any pair, and so on.\" \"A player cannot beat "
                                                 "the previously played fight card(s)? The player can play an Action "
                                                 "card, or pass on playing.\""},
    ]
    assert all(status == "applied" for seq, status in statuses.items() if seq not in (11, 20))

    says = [o["say"] for o in report["outcomes"]]
    assert "SKIP: Dee (seat 4)'s turn is skipped." in says
    assert "Ben (seat 2) draws the BATTLE card: the battle begins, and they start it by playing fight card(s)." in says
    assert "Cy (seat 3) plays a pair of 9s, beating a pair of 4s." in says
    assert "Ann (seat 1) plays SAVE: Ben (seat 2) stays in the game." in says
    assert any(s.startswith("No one beat a pair of 9s played by Cy (seat 3).") for s in says)
    assert "Cy (seat 3) plays their VILLAIN card: the Villains achieve world domination! A point to every VILLAIN." in says

    assert [(s["name"], s["points"]) for s in report["standings"]] == [("Ann", 0), ("Ben", 1), ("Cy", 1), ("Dee", 0)]
    assert report["winner"] is None and report["over"] is False
    assert state.round == 2 and state.dealer == 2 and state.phase == "deal"
    assert derived.ruleset.public_view(state)["rounds"][0]["teams"] == ["SUPERHERO", "VILLAIN", "VILLAIN", "SUPERHERO"]


def test_replaying_the_same_log_twice_gives_the_same_state():
    first = fold(from_jsonl(ROUND))
    second = fold(from_jsonl(ROUND))
    assert first.state == second.state


def test_the_hand_counts_follow_the_log():
    """12 cards each at 4 players (SAVE and ELIMINATE removed from the deck). Ann drew one and
    played SAVE; Ben drew twice, discarded one, placed the BATTLE card and played a pair; Cy took
    the 11, discarded SKIP, played a pair, then confirmed one card and played it; Dee played
    ELIMINATE and a single 2."""
    state = fold(from_jsonl(ROUND.split('{"seq": 37')[0])).state
    assert state.hands == {1: 12, 2: 10, 3: 0, 4: 10}
