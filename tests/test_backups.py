"""Backups the service makes by itself: at each game's end and once a day, a bounded number kept,
each a consistent copy that opens as a game log."""
from __future__ import annotations

import sqlite3

from companion.gamelog.backups import Backups
from companion.service import Service
from companion.hub.server import wait_until

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]


def events_in(path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        db.close()


def test_a_game_that_ends_is_backed_up_once(tmp_path):
    service = Service(tmp_path)
    session = service.start_game("stratego", SEATS)
    before = len(service.backups.existing())
    session.submit("resign", {"seat": 2})
    assert wait_until(lambda: len(service.backups.existing()) == before + 1, 60)
    copy = service.backups.existing()[-1]
    assert "-end" in copy.name and events_in(copy) == len(session.events())
    session.submit("card_gone", {"zone": "tray", "card": "R5#1"}, "camera")  # more input after the end
    assert len(service.backups.existing()) == before + 1  # no second backup of the same game
    service.stop()


def test_daily_backups_keep_the_newest_few(tmp_path):
    now = [1_800_000_000.0]
    service = Service(tmp_path)
    backups = Backups(service, keep=3, every=3600, clock=lambda: now[0])
    for _hour in range(6):
        now[0] += 3600
        backups.tick()
    kept = backups.existing()
    assert len(kept) == 3 and all("daily" in p.name for p in kept)
    now[0] += 60
    backups.tick()  # not a day yet: nothing new
    assert backups.existing() == kept
    service.stop()


def test_a_backup_that_cannot_be_written_does_not_stop_the_table(tmp_path, caplog):
    service = Service(tmp_path)
    (tmp_path / "backups").write_text("not a folder")  # the backups folder cannot be made
    assert Backups(service).make("daily") is None
    assert "could not back up" in caplog.text
    service.stop()
