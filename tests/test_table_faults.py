"""Faults at the table, end to end (virtual camera -> pipeline -> session -> dashboard API): a
foreign QR code, a duplicated tag in two seats' zones, and a camera that fails mid-game."""
import pytest

from card_tags.payload import CardRef, encode
from companion.web.app import create_app
from companion.service import Service
from companion.wiring import attach_camera
from companion.scan.virtual_table import VirtualTable
from tests.browser import TAP_ONLY
from tests.test_scan_watchdog import FaultySource
from tests.timing import wait_for

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cal"}]


@pytest.fixture
def table(tmp_path):
    service = Service(tmp_path / "data", **TAP_ONLY)
    service.start_game("bom-battle", SEATS)
    virtual = VirtualTable(seed=11)
    source = FaultySource(virtual)
    pipeline = attach_camera(service, source, "zxing", stall_timeout=0.5, backoff=(0.05, 0.3))
    yield service, virtual, source, pipeline, create_app(service).test_client()
    service.stop()


def seat_play(service, seat):
    return [c["key"] for c in service.session.public_view()["seats"][seat - 1]["play"]]


def test_a_foreign_code_is_ignored_and_counted_on_the_devices_panel(table):
    service, virtual, _, pipeline, client = table
    virtual.place_code("https://example.com/menu", pipeline.zones.slot("seat:1", 0), 10)
    wait_for(lambda: client.get("/api/devices").get_json()["camera"]["foreign_codes"] >= 1, "the code counted")
    panel = client.get("/api/devices").get_json()["camera"]
    assert any("example.com" in str(seen) for seen in panel["recent_ignored"])
    assert [e["kind"] for e in service.session.history()] == ["start"], "nothing reached the game"


def test_the_same_card_in_two_seats_zones_is_a_conflict_and_is_not_resolved(table):
    service, virtual, _, pipeline, client = table
    ref = CardRef("bom-battle", "GD500", 1)
    virtual.place(ref, pipeline.zones.slot("seat:1", 0), 0)
    virtual.place_code(encode(ref), pipeline.zones.slot("seat:2", 0), 180, key="photocopy")
    virtual.place(CardRef("bom-battle", "BD300", 1), pipeline.zones.slot("seat:3", 0), 0)
    wait_for(lambda: service.session.public_view()["conflicts"], "the conflict")
    conflict = service.session.public_view()["conflicts"][0]
    assert conflict["card"] == "GD500#1" and sorted(conflict["seats"]) == [1, 2]
    assert "take the duplicate away" in conflict["say"]
    reply = client.post("/api/command", json={"kind": "resolve"}, headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 409 and reply.get_json()["error"]
    assert service.session.public_view()["battle"] == 1 and not service.session.public_view().get("last_outcome")
    virtual.remove("photocopy")
    wait_for(lambda: not service.session.public_view()["conflicts"], "the conflict to clear")


def test_a_camera_failing_mid_game_is_reported_reopened_and_the_game_is_intact(table):
    service, virtual, source, pipeline, client = table
    virtual.place(CardRef("bom-battle", "GD500", 1), pipeline.zones.slot("seat:1", 0), 0)
    wait_for(lambda: seat_play(service, 1) == ["GD500#1"], "Ann's play")
    before = service.session.state
    source.open_failures = 3
    source.mode = "raise"
    wait_for(lambda: client.get("/api/devices").get_json()["camera"]["state"] in ("failed", "reopening"),
             "the failure on the devices panel")
    panel = client.get("/api/devices").get_json()["camera"]
    assert "unplugged" in panel["last_error"]
    assert service.session.state == before, "the game is untouched while the camera is away"
    source.mode = "ok"
    wait_for(lambda: client.get("/api/devices").get_json()["camera"]["state"] == "running", "the camera back")
    frames = pipeline.stats()["frames"]
    wait_for(lambda: pipeline.stats()["frames"] >= frames + 10, "ten frames of the table since the camera came back")
    assert seat_play(service, 1) == ["GD500#1"]
    assert sum(1 for e in service.session.history() if e["kind"] == "card_seen") == 1, "no card counted twice"
