"""The game log on disk: durable appends, and files that are not ours refused by name."""
import sqlite3
import threading

import pytest

from companion.gamelog.store import Store, StoreError


def test_events_survive_reopening(tmp_path):
    store = Store(tmp_path / "companion.db")
    game = store.new_game("bom-battle")
    store.append(game, "start", {"game": "bom-battle"}, "dashboard")
    store.append(game, "resolve", {}, "auto")
    store.close()
    again = Store(tmp_path / "companion.db")
    assert [(e.seq, e.kind, e.source) for e in again.events(game)] == [(1, "start", "dashboard"), (2, "resolve", "auto")]


def test_log_is_in_wal_mode_with_full_sync(tmp_path):
    store = Store(tmp_path / "companion.db")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_file_that_is_not_a_database_is_refused_by_name(tmp_path):
    path = tmp_path / "companion.db"
    path.write_bytes(b"these are my shopping notes, not a database" * 100)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(path) in str(err.value) and "not a usable" in str(err.value)
    assert path.read_bytes().startswith(b"these are my shopping notes")  # left untouched


def test_another_programs_database_is_refused_by_name(tmp_path):
    path = tmp_path / "companion.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.commit()
    other.close()
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(path) in str(err.value) and "another program" in str(err.value) and "recipes" in str(err.value)


def test_a_damaged_database_is_refused_never_replaced(tmp_path):
    path = tmp_path / "companion.db"
    store = Store(path)
    game = store.new_game("bom-battle")
    for n in range(200):
        store.append(game, "card_seen", {"zone": "seat:1", "card": f"GD{n}#1"}, "camera")
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    raw = bytearray(path.read_bytes())
    for offset in range(4096, len(raw), 997):  # scribble over the pages after the header
        raw[offset:offset + 40] = b"\xff" * 40
    path.write_bytes(bytes(raw))
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(path) in str(err.value)


def test_a_page_reading_the_log_while_the_table_writes_and_checkpoints_sees_no_damage(tmp_path):
    """The history page, an export and the referee read the one connection while the camera's events
    are appended and the log is checkpointed (every 256 events, at a game's end). A read caught by a
    checkpoint was told "the database is damaged (database table is locked)", and the checkpoint
    raised out of the append of an event already committed; at shutdown, closing under a read did
    the same. Every read, append and the close now take their turn on the connection."""
    store = Store(tmp_path / "companion.db")
    game = store.new_game("bom-battle")
    for n in range(1, 200):
        store.append(game, "card_seen", {"zone": "seat:1", "card": f"X#{n}"}, "camera")
    failures: list[str] = []
    appended = threading.Event()

    def page() -> None:
        reads = 0
        while not appended.is_set() or reads < 20:
            try:
                assert len(store.events(game)) >= 199
            except (StoreError, sqlite3.Error) as exc:
                failures.append(f"read: {exc}")
                return
            reads += 1

    readers = [threading.Thread(target=page) for _ in range(3)]
    for reader in readers:
        reader.start()
    try:
        for n in range(200, 264):
            store.append(game, "card_seen", {"zone": "seat:1", "card": f"X#{n}"}, "camera")
            store.checkpoint()  # as every 256 events and at a game's end
    except (StoreError, sqlite3.Error) as exc:
        failures.append(f"append: {exc}")
    finally:
        appended.set()
        for reader in readers:
            reader.join()
    store.close()
    assert failures == []
    assert len(Store(tmp_path / "companion.db").events(game)) == 263
