"""Camera health where people look: the Table page's banner when the camera delivers no frames
(gone when it recovers) or when tags are too small for it, the camera line on the Devices page
(source, resolution, frames per second delivered, age of the last frame, focus, pixels per module
of the smallest tag), and `companion doctor` asking the running companion instead of opening the
camera it holds.

The banner's promptness is by construction, not timed here: the camera is "delivering no frames"
from 1.5 s without one (doctor.NO_FRAMES_ALERT_S), and the Table page hears the devices every
second, so the banner is up within 3 s of the last frame."""
from __future__ import annotations

from companion.pi import doctor
from companion.pi.doctor import FAIL, OK, WARN
from companion.scan.pipeline import ScanPipeline
from companion.scan.virtual_table import VirtualTable
from companion.scan.zones import ZoneMap
from companion.service import Service
from companion.web.devices import camera_alerts
from companion.wiring import attach_camera

from .browser import chromium, picture, serving
from .scan_helpers import card
from .test_scan_watchdog import FaultySource
from .timing import wait_for


def frames_through(pipeline: ScanPipeline, table: VirtualTable, count: int) -> None:
    for n in range(count):
        pipeline.process(table.render(), now=100.0 + n / 15)


def test_the_smallest_tag_in_view_is_measured_after_calibration_and_under_2_5_px_per_module_warned():
    # 1024x576: the demo's cards come out at about 2.2 pixels per module, read but not reliably
    table = VirtualTable(1024, 576, seed=5)
    zones = ZoneMap.for_game("bom-battle", 2)
    pipeline = ScanPipeline(None, "zxing", zones, "bom-battle")
    table.place(card("GD500"), zones.slot("seat:1", 0), 0)
    frames_through(pipeline, table, 4)
    stats = pipeline.stats()
    assert stats["calibration"]["status"] == "calibrated"
    assert stats["resolution"] == [1024, 576]
    assert 1.5 < stats["smallest_tag_px_per_module"] < 2.5
    said = camera_alerts(stats)
    assert len(said) == 1 and "lower the camera" in said[0] and "print larger tags" in said[0]
    assert "--camera-size 1920x1080" in said[0]
    assert doctor.camera_check({**stats, "frames_ever": True, "state": "running"}).status == WARN


def test_at_1920x1080_the_same_tags_are_large_enough_and_nothing_is_said():
    table = VirtualTable(1920, 1080, seed=5)
    zones = ZoneMap.for_game("bom-battle", 2)
    pipeline = ScanPipeline(None, "zxing", zones, "bom-battle")
    table.place(card("GD500"), zones.slot("seat:1", 0), 0)
    frames_through(pipeline, table, 4)
    stats = pipeline.stats()
    assert stats["smallest_tag_px_per_module"] >= 2.5 and stats["focus"] >= doctor.FOCUS_SHARP
    assert camera_alerts(stats) == []


def test_no_tag_is_measured_before_the_mat_is_calibrated():
    table = VirtualTable(1024, 576, seed=5, markers=False)
    zones = ZoneMap.for_game("bom-battle", 2)
    pipeline = ScanPipeline(None, "zxing", zones, "bom-battle")
    table.place(card("GD500"), zones.slot("seat:1", 0), 0)
    frames_through(pipeline, table, 3)
    assert pipeline.stats()["smallest_tag_px_per_module"] is None


def camera_service(tmp_path, table: VirtualTable) -> tuple[Service, FaultySource]:
    service = Service(tmp_path / "data")
    source = FaultySource(table, fps=15)
    attach_camera(service, source, stall_timeout=0.6, backoff=(0.1, 0.3))
    return service, source


def test_the_table_page_shows_a_banner_while_the_camera_delivers_no_frames_and_drops_it_on_recovery(tmp_path):
    service, source = camera_service(tmp_path, VirtualTable(640, 360, seed=3))
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1024, "height": 768})
        page.goto(url + "/")
        wait_for(lambda: service.pipeline.stats()["frames"] > 5, "the camera running")
        assert page.is_hidden("#camera-alerts")
        source.mode = "stall"
        page.wait_for_selector("#camera-alerts:not([hidden])")
        said = page.inner_text("#camera-alerts")
        assert "faulty camera has delivered no frame for" in said and "Cards played now are not seen" in said
        picture(page, path=str(tmp_path / "table-camera-banner.jpg"))
        source.mode = "ok"
        page.wait_for_selector("#camera-alerts", state="hidden")


def test_the_devices_page_has_a_camera_line_with_size_rate_age_and_focus(tmp_path):
    service, _ = camera_service(tmp_path, VirtualTable(640, 360, seed=3))
    with serving(service) as url, chromium() as browser:
        wait_for(lambda: service.pipeline.stats()["focus"] is not None, "the markers in view")
        page = browser.tab({"width": 1024, "height": 900})
        page.goto(url + "/devices")
        page.wait_for_selector("#health [data-check='camera']")
        line = page.inner_text("#health [data-check='camera']")
        for words in ("faulty camera", "640x360", "fps delivered", "last frame", "focus"):
            assert words in line


def test_doctor_asks_the_running_companion_for_its_camera_instead_of_opening_it(tmp_path):
    service, source = camera_service(tmp_path, VirtualTable(1280, 720, seed=3))
    with serving(service) as url:
        wait_for(lambda: service.pipeline.stats()["focus"] is not None, "the markers in view")
        checks = doctor.run(tmp_path, None, url=url)
        assert checks[0].name == "camera" and checks[0].status == OK, checks[0]
        assert "1280x720" in checks[0].says and "fps delivered" in checks[0].says
        opens = source.opens
        source.mode = "raise"
        # Failing for the alert's time: from then on every answer says so. (Before, the service reopening
        # the camera between two failures, a frame's age under the alert's, is rightly not yet a failure.)
        wait_for(lambda: (service.pipeline.stats()["last_frame_age_s"] or 0) >= doctor.NO_FRAMES_ALERT_S,
                 "the camera failing for the alert's time")
        check = doctor.run(tmp_path, None, url=url)[0]
        assert check.status == FAIL and "camera stopped delivering frames" in check.says
        assert source.opens >= opens   # the service reopens it; the doctor opened nothing itself


def test_doctor_with_no_companion_answering_opens_the_camera_itself(tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr(doctor, "check_camera", lambda spec: opened.append(spec) or doctor.Check("camera", OK, spec))
    checks = doctor.run(tmp_path, None, url="http://127.0.0.1:9")   # nothing listens on port 9
    assert opened == ["auto"] and checks[0].says == "auto"


def test_a_picamera2_that_does_not_import_is_on_the_table_pages_banner_with_its_error(tmp_path, monkeypatch):
    from companion.scan import sources

    from .test_scan_sources import broken_picamera2

    broken_picamera2(tmp_path, monkeypatch)
    monkeypatch.setattr(sources, "video_devices", lambda: ["/dev/video0"])
    service = Service(tmp_path / "data")
    attach_camera(service, "auto", backoff=(0.2, 0.5))
    try:
        wait_for(lambda: service.devices()["camera_alerts"], "the camera's banner")
        banner = service.devices()["camera_alerts"][0]
        assert "picamera2 is installed but does not import" in banner and "NumPy 1.x" in banner
        assert "/dev/video0" not in service.pipeline.stats()["source"]
    finally:
        service.stop()


def test_an_error_about_a_hidden_card_stays_off_the_public_panel_and_whole_for_the_pin_holder(tmp_path):
    """The camera reads Red's Marshal in the covered tray and the game fails on it, with the card in
    its error: the Devices panel (public: /api/devices, the stream, the hub) says an error happened and
    names no card; the whole error is kept for the journal and the PIN-holder's calibration page."""
    import json

    from .scan_helpers import Table

    service = Service(tmp_path / "data")
    service.start_game("stratego", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], {})

    def referee_fails(kind, data):
        raise KeyError(data["card"])

    table = Table(seats=2, game="stratego", seed=3)
    table.pipeline.on_event = referee_fails
    table.put(card("R10", game="stratego"), "tray")
    service.pipeline = table.pipeline
    for _ in range(300):
        table.frames(1)
        if table.pipeline.event_errors:
            break
    whole = table.pipeline.stats()["last_error"]
    assert "R10#1" in whole, whole                          # the journal's and the PIN-holder's
    public = json.dumps(service.devices())
    assert "R10#1" not in public and "R10" not in public
    assert service.devices()["camera"]["last_error"].startswith("an error about a card it read")
    service.close()


def test_a_source_failing_is_said_on_the_public_panel_as_it_is(tmp_path):
    service, source = camera_service(tmp_path, VirtualTable(640, 360, seed=3))
    try:
        wait_for(lambda: service.pipeline.stats()["state"] == "running", "the camera running")
        source.mode = "raise"
        wait_for(lambda: service.pipeline.stats()["last_error"], "the camera failing")
        assert service.devices()["camera"]["last_error"] == service.pipeline.stats()["last_error"]
    finally:
        service.stop()
