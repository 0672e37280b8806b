"""Power cuts and crashes: `kill -9` of `companion demo` at random moments, 20 times, during one
game. After each kill, every event the service had acknowledged (published to the dashboard) is in
the log unchanged, the log replays to the view the dashboard last showed, and the restarted
service shows exactly the state the log replays to (companion/bench/crash.py does the killing and
the checking; `companion bench crash` prints the same figures)."""
from companion.bench.crash import run


def test_kill_9_twenty_times_loses_nothing_acknowledged(tmp_path):
    report = run(20, tmp_path / "data")
    assert report.kills == 20
    assert report.missing == [], "acknowledged events lost"
    assert report.restarts_differing == [], "restarted services showing a state the log does not replay to"
    assert report.views_differing == [], "logs not replaying to the view last shown before a kill"
    assert report.acknowledged > 40, "the demo game should have moved on between kills"
