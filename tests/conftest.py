"""What every test may ask for by name: the toy game in the registry, a real Mosquitto and a hub,
and the tiers of the suite (`-m "not slow"` runs the rules and unit tests on their own)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

# The quick tier (`-m "not slow"`) is the rules and unit tests: nothing in it starts a browser, a
# server on a port, a broker, a subprocess or the firmware, or plays hundreds of random games. It
# must stay under a minute on the 2 cores (docs/benchmarks.md). Everything else is "slow", by:
# - the module's name: every `*_browser` and `*_fuzz` module (new ones are slow without a word here);
# - the fixtures a test asks for (a browser, a broker, a hub);
# - the modules below, whose tests run the companion whole (the demo, subprocesses, the firmware
#   under simavr, a server on a port, mDNS, hundreds of seeded games, the camera stack's setup);
# - tests named `test_fuzz_*` (fuzzing, as the `*_fuzz` modules);
# - SLOW_TESTS: single long tests in otherwise quick modules (or `@pytest.mark.slow` in the module).
SLOW_SUFFIXES = ("_browser", "_fuzz")
SLOW_FIXTURES = {"browser", "broker", "hub"}
SLOW_MODULES = {
    "test_browser_basics", "test_browser_demo", "test_tablet_app", "test_crash_recovery", "test_demo_driver",
    "test_demo_players", "test_hub", "test_hub_chain", "test_hub_undo", "test_rfid_firmware", "test_rfid_readers",
    "test_install", "test_startup_faults", "test_table_faults", "test_scan_robustness", "test_scan_second_looks",
    "test_scan_occlusion", "test_scan_real_photos", "test_scan_photos", "test_scan_photo_labels", "test_log_import",
    "test_cli", "test_doctor", "test_warriors_demo", "test_battlecards_odds", "test_camera_health",
    "test_announce", "test_setup_camera_stack", "test_typing", "test_scan_determinism", "test_event_streams",
    "test_security_requests", "test_public_surface_secrets",
    # proofs by enumeration: every order of the cards counted (hypothesis), every log folded twice
    "test_battlecards_odds_exact", "test_fold_copy",
}
SLOW_TESTS = {
    # hypothesis: hundreds of plain-dict states through the codec and back
    "test_statecodec.py::test_a_plain_dict_state_comes_back_equal_with_its_tuples_and_int_keys",
    # hypothesis, 100 hubs each on a database of its own
    "test_hub_messages.py::test_no_sequence_of_messages_makes_a_hub_page_fail",
    # `companion replay` in a subprocess; a whole seeded game by the simulated players
    "test_battlecards_game.py::test_companion_replay_reads_a_battlecards_log",
    "test_battlecards_game.py::test_a_whole_seeded_game_is_played_by_the_simulated_players",
    # the firmware under simavr
    "test_rfid_game.py::test_card_on_seat_3_reader_becomes_seat_3s_play[simavr]",
    # a whole logged game (70 battles) undone at every point, and restarted from its snapshots
    "test_snapshots.py::test_undos_anywhere_in_a_real_game_give_what_folding_from_the_start_gives[basic-3-seats]",
    "test_snapshots.py::test_a_restart_after_snapshots_resumes_the_same_game[basic-3-seats]",
    # sheets printed to PDF and SVG (`companion tags print`), rendered again and every tag decoded
    "test_sheets.py::test_tags_print_writes_pdf_and_svg_and_warns",
    "test_sheets.py::test_tags_print_puts_every_patch_in_the_corner_asked",
    "test_sheets.py::test_tags_print_writes_into_a_folder_named_for_the_game",
    "test_sheets.py::test_pdf_pages_are_exactly_the_paper_size",
    "test_sheets.py::test_every_tag_on_a_printed_page_reads_back_as_its_card[card-63x88]",
    "test_sheets.py::test_every_tag_on_a_printed_page_reads_back_as_its_card[round-40]",
    "test_sheets.py::test_every_tag_on_a_printed_page_reads_back_as_its_card[square-25]",
    "test_sheets.py::test_every_tag_on_a_printed_page_reads_back_as_its_card[stratego]",
    "test_sheets.py::test_the_last_page_reads_back_too",
    "test_sheets.py::test_the_default_sticker_leaves_name_and_value_readable_and_reads_at_the_recommended_camera",
    # the SVG sheet rasterised by Chromium (the quick tier starts no browser)
    "test_sheets.py::test_the_svg_reads_back_too",
}


def is_slow(item: pytest.Item) -> bool:
    module = item.path.stem
    return (module.endswith(SLOW_SUFFIXES) or module in SLOW_MODULES or item.name.startswith("test_fuzz_")
            or f"{item.path.name}::{item.name}" in SLOW_TESTS  # one case of a parametrized test
            or f"{item.path.name}::{getattr(item, 'originalname', item.name)}" in SLOW_TESTS  # all its cases
            or bool(SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: runs the companion whole (browser, demo, broker, firmware, "
                                       "fuzzing); deselect with -m 'not slow' for the rules and unit tests")


def pytest_itemcollected(item: pytest.Item) -> None:
    if is_slow(item):
        item.add_marker(pytest.mark.slow)


# The longest tests, longest first (the whole suite's run with -p tests.cpu_durations --durations at load
# 3-24: the browser demo 15 min at that load, setup.sh's venv 6, kill -9 five, the request fuzzer 3, whole
# seeded games and the exact odds 1.5-2, mypy, the accessibility pass...). They start first, one on each
# worker as it frees up (scripts/test.sh: `--maxschedchunk 1`), so none of them is left running alone at
# the end while the other workers have nothing to do.
LONGEST = (
    "test_browser_demo.py::test_a_full_demo_game_observed_in_the_browser",
    "test_setup_camera_stack.py::test_the_venv_imports_the_systems_numpy_not_one_of_its_own",
    "test_crash_recovery.py::test_kill_9_twenty_times_loses_nothing_acknowledged",
    "test_security_fuzz.py::test_malformed_requests_get_no_5xx_and_change_nothing_when_refused",
    "test_battlecards_game.py::test_a_whole_seeded_game_is_played_by_the_simulated_players",
    "test_battlecards_odds_exact.py::test_a_battle_through_the_reshuffle_equals_every_order_of_every_deck_counted",
    "test_battlecards_game.py::test_companion_replay_reads_a_battlecards_log",
    "test_typing.py::test_the_contract_and_the_converged_games_pass_mypy_strict",
    "test_accessibility_browser.py::test_no_page_has_a_serious_or_critical_accessibility_problem",
    "test_snapshots.py::test_undos_anywhere_in_a_real_game_give_what_folding_from_the_start_gives",
    "test_snapshots.py::test_a_restart_after_snapshots_resumes_the_same_game",
    "test_demo_players.py::test_book_of_mormon_players_restarted_mid_game_rebuild_their_hands_from_the_results",
    "test_hub_messages.py::test_no_sequence_of_messages_makes_a_hub_page_fail",
)


def first(item: pytest.Item) -> int:
    """The place of a test among LONGEST (all its cases), len(LONGEST) for every other test."""
    name = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
    return LONGEST.index(name) if name in LONGEST else len(LONGEST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The longest tests first, then modules with slow tests, each module's tests together (its module
    # fixtures are made once on a worker), so the long tests start early and the short ones fill in
    # around them at the end on every worker.
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: (first(item), item.path not in slow))
    # A test renamed must not turn quick unseen: each SLOW_TESTS function must exist in its module.
    modules = {item.path.name: item.module for item in items if isinstance(item, pytest.Function)}
    gone = [name for name in SLOW_TESTS if (file := name.partition("::")[0]) in modules
            and not hasattr(modules[file], name.partition("::")[2].partition("[")[0])]
    gone += [name for name in LONGEST if (file := name.partition("::")[0]) in modules
             and not hasattr(modules[file], name.partition("::")[2])]
    if gone:
        raise pytest.UsageError(f"tests/conftest.py's SLOW_TESTS or LONGEST name tests that do not exist: {sorted(gone)}")


@pytest.fixture
def toy_game() -> Iterator[str]:
    """The toy game, War (tests/toy_game.py), in the registry for this test only: its one registry
    line (checked as any game's is), taken out again afterwards so no other test depends on it."""
    from tests.toy_game import registered

    with registered() as game:
        yield game


@pytest.fixture
def browser():
    """The session's Chromium, lent to a test (tests/browser.py): what the test opened is closed or
    given back when it ends, so that no page of an earlier test stays open beside the next."""
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
