"""The calibration page in headless Chromium: the camera's view needs the PIN (it sees the covered
tray); with it, the live preview, the four markers found, the codes in view; a recalibration
refused without the PIN."""
from __future__ import annotations

from types import SimpleNamespace

from companion.scan.pipeline import ScanPipeline
from companion.scan.sources import VirtualTableSource
from companion.scan.virtual_table import VirtualTable
from companion.scan.zones import ZoneMap

from .browser import chromium, picture, serving
from .scan_helpers import card


def test_the_calibration_page_shows_markers_and_codes_and_wants_the_pin(tmp_path):
    table = VirtualTable(960, 540, seed=4)
    zones = ZoneMap.for_game("bom-battle", 2)
    table.place(card("GD500"), zones.slot("seat:1", 0), 5)
    pipeline = ScanPipeline(VirtualTableSource(table, fps=10), "zxing", zones, "bom-battle")
    service = SimpleNamespace(pipeline=pipeline, pin="2468", stop=pipeline.stop, start_background=lambda: None)
    pipeline.start()
    with serving(service) as url, chromium() as browser:
        page = browser.tab({"width": 1280, "height": 800})
        page.goto(f"{url}/calibration")
        page.wait_for_function("document.querySelector('#cal-status').textContent.includes('needs the table PIN')",
                               timeout=120_000)
        assert "GD500" not in page.text_content("#cal-codes")
        page.fill("#pin", "2468")
        page.wait_for_function("document.querySelector('#cal-status').textContent.includes('4 of 4')", timeout=120_000)
        assert page.text_content("#cal-status").startswith("calibrated")
        page.wait_for_function("document.querySelector('#preview').naturalWidth > 0", timeout=120_000)
        assert page.evaluate("document.querySelector('#preview').naturalWidth") == 960
        page.wait_for_function("document.querySelector('#cal-codes').textContent.includes('GD500#1 in seat:1')",
                               timeout=120_000)
        page.click("#pin-held")  # the tablet lets go of the PIN
        page.wait_for_selector("#pin", state="visible")
        page.click("#recalibrate")  # no PIN
        page.wait_for_selector("#notice:not([hidden])")
        assert "PIN" in page.text_content("#notice")
        assert pipeline.calibration.ready
        picture(page, path=str(tmp_path / "calibration.jpg"))
