"""Thousands of malformed requests (hypothesis) at every state-changing route of the dashboard,
against a real game: none gets a 5xx, and none that is refused changes the game
(companion/bench/webfuzz.py says what is thrown; `python -m companion.bench.webfuzz` runs more)."""
from companion.bench.webfuzz import run


def test_malformed_requests_get_no_5xx_and_change_nothing_when_refused(tmp_path):
    tally = run(1200, tmp_path / "data")
    assert tally.sent >= 2000
    assert tally.server_errors == 0, tally.failures[:5]
    refused = sum(n for status, n in tally.statuses.items() if 400 <= status < 500)
    assert refused > 1000 and {400, 403, 413} <= set(tally.statuses), tally.statuses
