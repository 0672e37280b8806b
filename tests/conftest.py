"""What every test may ask for by name: the toy game in the registry, a real Mosquitto and a hub,
and the tiers of the suite (`-m "not slow"` runs the rules and unit tests on their own)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

# Modules whose tests run the companion whole (a browser, the demo, subprocesses, a broker, the
# firmware under simavr, hundreds of seeded random games): the "slow" tier.
SLOW_MODULES = {
    "test_browser_basics", "test_browser_demo", "test_bom_browser", "test_battlecards_browser",
    "test_gt_battle_browser", "test_warriors_browser", "test_pages_browser", "test_scan_browser",
    "test_tablet_app", "test_crash_recovery", "test_demo_driver", "test_demo_players", "test_hub",
    "test_hub_chain", "test_hub_undo", "test_rfid_firmware", "test_rfid_readers", "test_install",
    "test_gt_battle_fuzz", "test_battlecards_fuzz", "test_security_fuzz", "test_startup_faults",
    "test_table_faults", "test_scan_robustness", "test_scan_second_looks", "test_scan_occlusion",
    "test_scan_real_photos", "test_scan_photos", "test_scan_photo_labels", "test_log_import",
    "test_cli", "test_doctor", "test_warriors_demo", "test_battlecards_odds", "test_camera_health",
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: runs the companion whole (browser, demo, broker, firmware, "
                                       "fuzzing); deselect with -m 'not slow' for the rules and unit tests")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = item.module.__name__.rpartition(".")[2] if item.module is not None else ""
        if name in SLOW_MODULES or name.endswith("_browser"):  # every test in Chromium is in the slow tier
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def toy_game() -> Iterator[str]:
    """The toy game, War (tests/toy_game.py), in the registry for this test only: its one registry
    line (checked as any game's is), taken out again afterwards so no other test depends on it."""
    from tests.toy_game import registered

    with registered() as game:
        yield game


@pytest.fixture(scope="module")
def browser():
    """The session's Chromium, lent to a module's tests (tests/browser.py)."""
    from tests.browser import chromium

    with chromium() as lent:
        yield lent


@pytest.fixture
def broker(tmp_path):
    """A real Mosquitto on a loopback port of its own."""
    from tests.mqtt_support import Mosquitto

    mosquitto = Mosquitto(tmp_path).start()
    yield mosquitto
    mosquitto.stop()


@pytest.fixture
def hub(tmp_path, broker):
    """The tournament hub, connected to ``broker``."""
    from companion.hub.broker import Broker
    from companion.hub.server import Hub

    hub = Hub(Broker.parse(broker.url), tmp_path / "hub")
    hub.start()
    assert hub.connected.wait(30)
    yield hub
    hub.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests import browser

    browser.close_shared()
