"""Backups the service makes by itself: at each game's end and once a day, a bounded number kept,
each a consistent copy that opens as a game log."""
from __future__ import annotations

import sqlite3
import threading

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


def test_play_goes_on_while_a_backup_is_being_copied(tmp_path, monkeypatch):
    """The service's backup held the game log's lock for the whole copy: every card and command
    waited for it. Now a command made while the copy is under way is taken at once, and the copy
    is still one consistent moment (without it)."""
    from tests.timing import PATIENCE_S

    import companion.gamelog.store

    monkeypatch.setattr(companion.gamelog.store, "BACKUP_PAGES", 2)  # a small log, copied in several steps
    service = Service(tmp_path)
    session = service.start_game("stratego", SEATS)
    for n in range(40):
        session.submit("card_gone", {"zone": "tray", "card": f"R5#{n}"}, "camera")
    before = len(session.events())
    taken = threading.Event()

    def during(copied: int, total: int) -> None:
        if copied < total and not taken.is_set():
            threading.Thread(target=lambda: (session.submit("resign", {"seat": 2}), taken.set())).start()
            assert taken.wait(PATIENCE_S), "a command waited for the backup to finish"

    copy = service.store.backup(tmp_path / "copy.db", progress=during)
    assert taken.is_set() and len(session.events()) == before + 1
    assert events_in(copy) == before, "the copy is of the moment it began"
    service.stop()


def test_a_backup_cut_short_leaves_no_part_file(tmp_path, caplog):
    caplog.set_level("INFO")
    service = Service(tmp_path)
    service.start_game("stratego", SEATS)
    in_the_way = tmp_path / "copy.db"
    (in_the_way / "something").mkdir(parents=True)  # the copy cannot take its name
    try:
        service.store.backup(in_the_way)
    except OSError:
        pass
    assert not list(tmp_path.glob("*.part")), "a failed copy removes its part file"
    service.close()
    (tmp_path / "backups").mkdir(exist_ok=True)
    killed = tmp_path / "backups" / "companion-20260101-000000-daily.db.part"  # a service killed mid-copy
    killed.write_bytes(b"SQLite format 3\0" + b"\0" * 4000)
    again = Service(tmp_path)
    assert not killed.exists() and "a backup cut short" in caplog.text
    again.stop()
