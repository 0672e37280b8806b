"""`companion demo` through the real camera path: the virtual table renders the cards the simulated
players lay, the pipeline reads them and the session referees. The demo steps aside the moment a
person starts a game, and a restarted demo leaves that game alone. Every wait is on a condition."""
from __future__ import annotations

import functools
import http.client
import json
import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from companion.demo.driver import start_demo
from companion.service import Service
from tests import timing

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 600.0  # generous: the machine is shared; every wait ends as soon as its condition holds
wait_for = functools.partial(timing.wait_for, timeout=DEADLINE)  # a demo plays whole games: more patience


def camera_entries(session) -> list:
    return [e for e in session.derived.entries if e.event.source == "camera"]


def frames(service) -> int:
    return service.pipeline.stats()["frames"]


def test_a_game_started_at_the_table_gets_none_of_the_demo_cards_and_a_restart_leaves_it_alone(tmp_path):
    data = tmp_path / "data"
    service = Service(data, settle_seconds=0.3)
    service.start_background()
    demo = start_demo(service, game="stratego", seed=2, pace=0.02, fps=30)
    try:
        wait_for(lambda: service.session and len(camera_entries(service.session)) >= 5, "the demo's army scanning")
        demo_game = service.session.game_id
        assert demo.table.placed(), "the demo players have cards on the table"

        person = service.start_game("gt-battle", [{"seat": n, "name": f"P{n}"} for n in range(1, 5)])
        assert not demo.table.placed(), "the simulated players lifted their cards as the game began"
        demo.join(30)
        assert not demo.is_alive(), "and stopped"
        shown = frames(service)
        wait_for(lambda: frames(service) >= shown + 30, "30 frames of the empty table read by the camera")
        assert service.session is person and person.game_id != demo_game
        credited = [(e.event.kind, e.event.data) for e in camera_entries(person)]
        assert credited == [], "no demo card is credited to the person's game"
    finally:
        service.stop()

    restarted = Service(data, settle_seconds=0.3)
    restarted.start_background()
    again = start_demo(restarted, game="stratego", seed=2, pace=0.02, fps=30)
    try:
        again.join(60)
        assert not again.is_alive(), "the restarted demo sits the person's game out"
        assert restarted.session.game_id == person.game_id and restarted.session.derived.start["game"] == "gt-battle"
        shown = frames(restarted)
        wait_for(lambda: frames(restarted) >= shown + 30, "30 frames read after the restart")
        assert len(restarted.session.derived.entries) == 1, "the person's game is as they left it"
    finally:
        restarted.stop()


@contextmanager
def demo_running(tmp_path: Path, game: str):
    """`companion demo --game GAME` on a free port, fast; yields the port, and stops it after."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--game", game, "--data", str(tmp_path / "data"),
         "--host", "127.0.0.1", "--port", "0", "--no-announce", "--pace", "0.02", "--fps", "20",
         "--settle", "0.4", "--quick-settle", "0.2", "--seed", "4"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://[^:]+:(\d+)/", line)
    try:
        assert match, f"the demo did not start: {line!r}"
        yield int(match.group(1))
    finally:
        proc.kill()
        proc.wait()


def view_of(port: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/state")
    return json.loads(conn.getresponse().read()).get("view") or {}


def test_companion_demo_stratego_plays_combats_through_the_scan_tray(tmp_path):
    with demo_running(tmp_path, "stratego") as port:
        view = wait_for(lambda: (lambda v: v if len(v.get("combats") or []) >= 3 else None)(view_of(port)),
                        "three combats refereed", every=1.0)
        assert view["game"] == "stratego"
        assert all(side["army_checked"] for side in view["standings"]), "both armies were scanned at setup"
        assert all(c["winner"] in ("attacker", "defender", "both") for c in view["combats"])


def test_companion_demo_gather_together_deals_builds_and_fights(tmp_path):
    with demo_running(tmp_path, "gt-battle") as port:
        view = wait_for(lambda: (lambda v: v if (v.get("fight") or {}).get("top") else None)(view_of(port)),
                        "a battle play refereed", every=1.0)
        assert view["game"] == "gt-battle" and view["phase"] == "battle"
        assert all(row["shown_identity"] for row in view["standings"]), "every identity shown through the tray"
        assert view["fight"]["top"]["count"] >= 1


def history_of(port: int) -> list[dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/history")
    response = conn.getresponse()
    return json.loads(response.read()).get("entries", []) if response.status == 200 else []


def told(entries: list[dict], kind: str) -> list[dict]:
    """The log entries whose referee's outcomes include one of this kind."""
    return [e for e in entries if any(o["kind"] == kind for o in e["outcomes"])]


def refusals(entries: list[dict]) -> list[tuple]:
    return [(e["source"], e["kind"], e["data"], e["reason"]) for e in entries if e["status"] == "refused"]


def test_companion_demo_warriors_plays_challenges_from_cards_the_camera_reads(tmp_path):
    with demo_running(tmp_path, "warriors") as port:
        entries = wait_for(lambda: (lambda h: h if len(told(h, "decided")) >= 3 else None)(history_of(port)),
                           "three Challenges decided", every=1.0)
        assert refusals(entries) == [], "the simulated players make no move the referee refuses"
        assert {e["source"] for e in told(entries, "primary")} == {"camera"}, "primaries are read by the camera"
        in_areas = [e for e in entries if e["kind"] == "card_seen" and e["data"]["zone"].startswith("seat:")]
        assert in_areas and {e["source"] for e in in_areas} == {"camera"}, "every card laid face up, by the camera"
        assert {e["source"] for e in told(entries, "drew")} == {"rfid"}, "cards drawn are scanned on the readers"


def test_companion_demo_battlecards_fights_battles_from_conflict_cards_the_camera_reads(tmp_path):
    with demo_running(tmp_path, "battlecards-pacific") as port:
        entries = wait_for(lambda: (lambda h: h if len(told(h, "battle_won")) >= 3 else None)(history_of(port)),
                           "three battles fought to the end", every=1.0)
        assert refusals(entries) == [], "the simulated players make no move the referee refuses"
        deployed = told(entries, "deployed")
        assert len(deployed) >= 6, "both sides deployed their stacks"
        assert {(e["source"], e["data"]["zone"][:5], e["data"].get("face_down")) for e in deployed} == \
            {("rfid", "seat:", True)}, "a unit laid face down is the seat's reader's to report (its back faces the camera)"
        shots = told(entries, "shot")
        assert shots and {e["source"] for e in shots} == {"camera"}, \
            "every shot is a CONFLICT card turned onto the pile and read by the camera"
        assert {e["source"] for e in told(entries, "drew_arsenal")} == {"rfid"}, "ARSENAL cards drawn on the readers"
