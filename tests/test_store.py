"""The game log on disk: durable appends, and files that are not ours refused by name."""
import sqlite3

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
