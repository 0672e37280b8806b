"""Logs from outside and logs on disk: `replay` and `import` name each bad line and what is wrong
with it in words; an imported log becomes the data folder's current game; a torn start never
bricks the table; companion.db alone holds the game; a backup is one consistent file."""
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.service import Service
from companion.gamelog.session import LogError, Session, from_jsonl, open_store
from companion.gamelog.store import Store, StoreError

ROOT = Path(__file__).resolve().parent.parent
BASIC = ROOT / "tests/logs/bom/basic-3-seats.jsonl"
START = '{"seq": 1, "kind": "start", "source": "dashboard", "data": {"game": "bom-battle", "seats": ' \
        '[{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], "options": {}}}'


@pytest.mark.parametrize("line, words", [
    ("null", "line 2: an event must be a JSON object, not null"),
    ("5", "line 2: an event must be a JSON object, not a number"),
    ('["resolve"]', "line 2: an event must be a JSON object, not a list"),
    ('{"seq": 1e400, "kind": "resolve"}', "line 2: the number 1e400 is too large (a game log holds finite numbers only)"),
    ('{"seq": 2.5, "kind": "resolve"}', "line 2: 'seq' must be a whole number"),
    ('{"seq": 100000000000000000000000000000, "kind": "resolve"}', "line 2: 'seq' is 1000000000"),
    ('{"seq": -1, "kind": "resolve"}', "line 2: 'seq' is -1 where 2 was expected"),
    ('{"seq": 2.0, "kind": "resolve"}', "line 2: 'seq' must be a whole number"),
    ('{"seq": 2, "kind": "resolve", "data": "abc"}', "line 2: 'data' must be an object, not text"),
    ('{"seq": 2, "data": {}}', "line 2: the event has no 'kind'"),
    ('{"seq": 2, "kind": "resolve", "ts": "noon"}', "line 2: 'ts' must be a time in seconds"),
    ('{"seq": 2, "kind": "resolve", "ts": NaN}', "line 2: NaN is not a number JSON allows"),
    ('{"seq": 2, "kind": "withdraw", "data": {"seat": 1e999}}', "line 2: the number 1e999 is too large"),
    ('{"seq": 2, "kind": "withdraw", "data": {"seat": -Infinity}}', "line 2: -Infinity is not a number JSON allows"),
    ('{"seq": 2, "kind": "resolve", "ts": 1' + "0" * 350 + "}", "line 2: 'ts' must be a time in seconds, not 1000"),
    ('{"seq": 2, "kind": "withdraw", "data": {"seat": ' + "9" * 5000 + "}}", "line 2: holds a whole number too long for a game log"),
    ('{"seq": 2, "kind": "withdraw", "data": {"name": "\\udc00"}}', "line 2: holds text that is not valid Unicode"),
    ('{"seq": 2, "kind": ' + "[" * 3000 + "]" * 3000 + "}", "line 2: nests too deeply"),
])
def test_each_bad_line_is_named_with_what_is_wrong(line, words):
    with pytest.raises(LogError) as err:
        from_jsonl(START + "\n" + line + "\n", "game.jsonl")
    assert str(err.value).startswith("game.jsonl " + words), str(err.value)
    assert "dictionary update" not in str(err.value)


def test_seq_counts_the_events_without_gaps_or_repeats():
    lines = [START, '{"seq": 2, "kind": "resolve"}', '{"seq": 2, "kind": "resolve"}']
    with pytest.raises(LogError, match="line 3: 'seq' is 2 where 3 was expected"):
        from_jsonl("\n".join(lines))
    assert [e.seq for e in from_jsonl(START + '\n{"kind": "resolve"}\n')] == [1, 2], "seq may be left out by hand"


@pytest.mark.parametrize("start, words", [
    ('{"kind": "start", "data": {"game": "bom-battle", "seats": "Ann, Ben"}}', "'seats' must be a list"),
    ('{"kind": "start", "data": {"game": 7, "seats": []}}', "'game' must be a game id (text)"),
    ('{"kind": "start", "data": {"game": "bom-battle", "seats": [{"seat": "one", "name": "Ann"}]}}', "'seats' must be"),
    ('{"kind": "start", "data": {"game": "bom-battle", "seats": [], "options": [1]}}', "'options' must be an object"),
    ('{"kind": "resolve"}', "must begin with a 'start' event"),
    ('{"kind": "start", "data": {"game": "stratego", "seats": [], "deck": "/etc/passwd"}}', "'deck' must be the deck itself"),
])
def test_a_bad_start_event_is_said_in_words(tmp_path, capsys, start, words):
    log = tmp_path / "game.jsonl"
    log.write_text(start + "\n")
    with pytest.raises(SystemExit) as exit:
        main(["replay", str(log)])
    assert exit.value.code == 2 and words in capsys.readouterr().err


def test_replay_never_prints_a_traceback(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(START + "\nnull\n")
    binary = tmp_path / "photo.jsonl"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    for path, words in ((log, "line 2: an event must be a JSON object, not null"), (binary, "not a text file")):
        result = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_an_imported_log_is_the_current_game_and_replays_the_same(tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["import", str(BASIC), "--data", str(data)]) == 0
    assert "as game 1, now its current game" in capsys.readouterr().out
    service = Service(data)
    assert service.session.export_jsonl() == "".join(
        json.dumps(e.as_dict(), sort_keys=True) + "\n" for e in from_jsonl(BASIC.read_text()))
    assert service.session.ruleset.is_over(service.session.state), "the 70-battle game, replayed to its end"
    service.close()



def test_a_service_let_go_has_written_the_game_as_it_stands_first(tmp_path):
    # a 630-event game folds into snapshots written by threads of their own; closing the store's
    # connection under one of them crashed the test process (a segfault in SQLite), so
    # Service.close waits for them, and the last one holds the game at its end
    data = tmp_path / "data"
    assert main(["import", str(BASIC), "--data", str(data)]) == 0
    service = Service(data)
    game = service.session.game_id
    service.close()
    store = Store(data / "companion.db")
    assert store.snapshot_seqs(game)[0] == len(store.events(game)) == 630
    store.close()

def test_an_import_is_checked_as_replay_checks_and_writes_nothing_when_refused(tmp_path, capsys):
    data = tmp_path / "data"
    log = tmp_path / "game.jsonl"
    log.write_text(START + '\n{"seq": 3, "kind": "resolve"}\n')
    with pytest.raises(SystemExit):
        main(["import", str(log), "--data", str(data)])
    assert "line 2: 'seq' is 3 where 2 was expected" in capsys.readouterr().err
    assert not (data / "companion.db").exists() or Store(data / "companion.db").latest_game() is None


def test_a_torn_start_from_an_older_version_is_skipped_with_a_warning(tmp_path, caplog):
    data = tmp_path / "data"
    service = Service(data)
    first = service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    service.store.new_game("stratego")  # a game row whose start event never came (a crash in between)
    service.close()
    again = Service(data)
    assert again.session.game_id == first.game_id
    assert "game 2 has no events" in caplog.text
    again.close()


def test_a_start_that_cannot_be_written_leaves_no_game_row(tmp_path):
    store = open_store(tmp_path)
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")
    seats = [{"seat": n, "name": "x" * 2000 + str(n)} for n in (1, 2)]
    with pytest.raises(sqlite3.OperationalError, match="full"):
        Session.start(store, "bom-battle", seats)
    assert store.games() == [], "the game row and its start are one transaction"


def test_the_database_file_alone_holds_a_started_game(tmp_path):
    """Copied without its -wal file (as people copy one file), the game is still there."""
    service = Service(tmp_path / "data")
    service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(tmp_path / "data/companion.db", copy / "companion.db")  # while the service still runs
    store = Store(copy / "companion.db")
    assert [e.kind for e in store.events(store.latest_game())] == ["start"]
    service.close()


def test_the_database_file_alone_holds_all_but_the_latest_few_hundred_events(tmp_path):
    from companion.gamelog.store import CHECKPOINT_EVERY, Event

    store = Store(tmp_path / "data" / "companion.db")
    game = store.begin_game("bom-battle", [Event(1, 0.0, "start", "dashboard", {"game": "bom-battle"})])
    for n in range(CHECKPOINT_EVERY + 10):
        store.append(game, "resolve", {"n": n}, "auto")
    shutil.copy(store.path, tmp_path / "companion.db")  # without its -wal, while still open
    copied = Store(tmp_path / "companion.db")
    assert len(copied.events(game)) >= CHECKPOINT_EVERY
    store.close()


def test_a_backup_is_one_consistent_file(tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["import", str(BASIC), "--data", str(data)]) == 0
    out = tmp_path / "backup.db"
    assert main(["backup", str(out), "--data", str(data)]) == 0
    assert "(1 games)" in capsys.readouterr().out and not Path(f"{out}-wal").exists()
    restored = Store(out)
    assert len(restored.events(1)) == len(from_jsonl(BASIC.read_text()))


def test_a_database_copied_without_its_wal_says_so(tmp_path):
    """An older version left everything in the WAL; the main file alone holds no tables."""
    live = tmp_path / "live.db"
    db = sqlite3.connect(live)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.commit()
    shutil.copy(live, tmp_path / "companion.db")  # the file, not its -wal
    db.close()
    with pytest.raises(StoreError, match="copied without its companion.db-wal"):
        Store(tmp_path / "companion.db")


@pytest.mark.parametrize("change, words", [
    ("DELETE FROM meta WHERE key = 'version'", "without a readable version"),
    ("UPDATE meta SET value = 'one' WHERE key = 'version'", "without a readable version"),
    ("UPDATE meta SET value = '0' WHERE key = 'version'", "log version 0 is older"),
    ("UPDATE meta SET value = '9' WHERE key = 'version'", "written by a newer companion"),
    ("DROP TABLE events", "its events table is missing"),
])
def test_a_log_with_an_odd_schema_is_refused_in_words(tmp_path, change, words):
    path = tmp_path / "data" / "companion.db"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(change)
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=words):
        Store(path)
    result = subprocess.run([sys.executable, "-m", "companion", "export", "--data", str(path.parent)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120) if "events" in change else None
    if result is not None:
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_a_derived_cache_table_is_tolerated(tmp_path):
    # A snapshots table of another shape is only a cache: the database still opens and its log reads.
    path = tmp_path / "companion.db"
    store = Store(path)
    store.db.execute("CREATE TABLE IF NOT EXISTS snapshots (game_id INTEGER, seq INTEGER, state TEXT)")
    store.close()
    reopened = Store(path)
    assert reopened.games() == []
    reopened.close()


def test_a_damaged_event_stops_startup_with_words_not_a_traceback(tmp_path):
    data = tmp_path / "data"
    assert main(["import", str(BASIC), "--data", str(data)]) == 0
    db = sqlite3.connect(data / "companion.db")
    db.execute("UPDATE events SET data = 'not json' WHERE seq = 5")
    db.commit()
    db.close()
    with pytest.raises(SystemExit, match="event 5 of game 1 is damaged"):
        Service(data)


def test_a_read_only_data_folder_is_said_as_such(tmp_path, monkeypatch):
    """(Tested through os.access: the test suite may run as root, whom no folder stops.)"""
    import os

    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != data)
    with pytest.raises(StoreError) as err:
        open_store(data)
    assert str(data) in str(err.value) and "read-only" in str(err.value) and "move it aside" not in str(err.value)


# -- one checker: replay, import and the service say the same of the same fault ------------------------
def imported_with(tmp_path, seq: int, data_text: str) -> Path:
    """The 70-battle game imported into a data folder, then event ``seq``'s data replaced by
    ``data_text`` in the database (as an older version, a hand edit or a bad disk left it)."""
    data = tmp_path / "data"
    assert main(["import", str(BASIC), "--data", str(data)]) == 0
    db = sqlite3.connect(data / "companion.db")
    db.execute("UPDATE events SET data = ? WHERE game_id = 1 AND seq = ?", (data_text, seq))
    db.commit()
    db.close()
    return data


@pytest.mark.parametrize("data_text, words", [
    ('{"seat": Infinity}', "Infinity is not a number JSON allows (a game log holds finite numbers only)"),
    ('{"seat": 1e999}', "the number 1e999 is too large (a game log holds finite numbers only)"),
    ('{"seat": NaN}', "NaN is not a number JSON allows"),
    ('[1, 2]', "'data' must be an object, not a list"),
    ('{"a": ' + "[" * 40 + "]" * 40 + "}", "nests deeper than 32 levels; no event does"),
    ('{"name": "\\udc00"}', "holds text that is not valid Unicode"),
])
def test_the_service_replay_and_import_refuse_the_same_event_in_the_same_words(tmp_path, capsys, data_text, words):
    """A refused command once logged as `Infinity` left a game no page could show and no export
    could bring back: the service now refuses such a log at the start as replay and import do."""
    data = imported_with(tmp_path, 5, data_text)
    with pytest.raises(SystemExit) as stopped:
        Service(data)
    assert f"event 5 of game 1 is damaged ({words}" in str(stopped.value), str(stopped.value)
    lines = BASIC.read_text().splitlines()
    line = json.loads(lines[4])
    lines[4] = json.dumps({k: v for k, v in line.items() if k != "data"})[:-1] + f', "data": {data_text}}}'
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(lines) + "\n")
    for command in (["replay", str(log)], ["import", str(log), "--data", str(tmp_path / "other")]):
        with pytest.raises(SystemExit):
            main(command)
        assert f"line 5: {words}" in capsys.readouterr().err, command
    assert not (tmp_path / "other/companion.db").exists() or Store(tmp_path / "other/companion.db").games() == []


def test_a_command_holding_1e999_is_refused_and_the_game_stays_exportable(tmp_path):
    from companion.web.app import create_app

    service = Service(tmp_path / "data")
    service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    client = create_app(service).test_client()
    before = len(service.session.events())
    answer = client.post("/api/command", data='{"kind": "withdraw", "data": {"seat": 1e999}}',
                         headers={"X-Table-Pin": service.pin, "Content-Type": "application/json"})
    assert answer.status_code in (400, 409) and "finite" in answer.get_data(as_text=True)
    refused = service.session.submit("withdraw", {"seat": float("inf")})
    assert not refused.ok and "'data.seat' is not a finite number" in refused.entry.reason
    assert len(service.session.events()) == before, "nothing the log could not give back was written"
    history = client.get(f"/api/history/{service.session.game_id}").get_data(as_text=True)
    json.loads(history, parse_constant=lambda name: pytest.fail(f"{name} in the History page's data"))
    assert [e.as_dict() for e in from_jsonl(service.session.export_jsonl())] == \
        [e.as_dict() for e in service.session.events()], "the export reads back"
    service.stop()


def test_damage_that_quick_check_misses_is_said_in_words_and_nothing_is_written(tmp_path):
    """Two kinds of damage PRAGMA quick_check does not see stopped startup with a traceback: text
    that is not UTF-8 in a row, and an index whose records no longer parse."""
    text = imported_with(tmp_path / "text", 5, '{}')
    db = sqlite3.connect(text / "companion.db")
    db.execute("UPDATE events SET kind = CAST(x'c3284e' AS TEXT) WHERE game_id = 1 AND seq = 7")
    db.commit()
    db.close()

    index = tmp_path / "index" / "data"
    store = Store(index / "companion.db")
    game = store.begin_game("bom-battle", from_jsonl(START + "\n")[:1])
    for _ in range(5):
        store.append(game, "resolve", {}, "dashboard")
    store.close()
    db = sqlite3.connect(index / "companion.db")
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_events_1'").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    raw = bytearray((index / "companion.db").read_bytes())
    page = (root - 1) * size
    first_key = int.from_bytes(raw[page + 8:page + 10], "big")  # (game 1, seq 1), the first every read meets
    raw[page + first_key + 1] = 0x7F  # its record's header size, now past the cell's end
    (index / "companion.db").write_bytes(bytes(raw))
    check = sqlite3.connect(index / "companion.db")
    assert check.execute("PRAGMA quick_check").fetchone()[0] == "ok", "damage quick_check does not see"
    check.close()

    for folder, words in ((text, "text that is not UTF-8"), (index, "database disk image is malformed")):
        before = (folder / "companion.db").read_bytes()
        with pytest.raises(SystemExit) as stopped:
            Service(folder)
        assert f"the database is damaged ({words}); nothing was changed" in str(stopped.value), str(stopped.value)
        assert (folder / "companion.db").read_bytes() == before
        result = subprocess.run([sys.executable, "-m", "companion", "export", "--data", str(folder)], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_a_games_table_of_another_shape_is_refused_in_words(tmp_path):
    """A game id that is not a number made the latest game vanish (a new game over the old one)."""
    data = imported_with(tmp_path, 5, '{}')
    db = sqlite3.connect(data / "companion.db")
    db.executescript("CREATE TABLE g2 (id TEXT, game TEXT, created REAL); INSERT INTO g2 SELECT 'a', game, created "
                     "FROM games; DROP TABLE games; ALTER TABLE g2 RENAME TO games;")
    db.close()
    with pytest.raises(StoreError, match="its games table has the columns id TEXT, game TEXT, created REAL, not id INTEGER"):
        Service(data)


def test_an_earlier_game_damaged_on_disk_is_said_on_the_history_page_and_hides_no_other(tmp_path):
    from companion.web.app import create_app

    data = imported_with(tmp_path, 5, '{"seat": Infinity}')  # as an older version logged a refused 1e999
    db = sqlite3.connect(data / "companion.db")
    db.execute("INSERT INTO games (game, created) VALUES ('bom-battle', 0)")
    db.execute("INSERT INTO events VALUES (2, 1, 0, 'start', 'dashboard', ?)", (json.dumps(json.loads(START)["data"]),))
    db.commit()
    db.close()
    service = Service(data)  # game 2 is the one in play; game 1 is history
    client = create_app(service).test_client()
    listed = client.get("/api/history/games")
    assert listed.status_code == 200 and [g["id"] for g in listed.get_json()["games"]] == [2, 1]
    one = client.get("/api/history/1")
    assert one.status_code == 409 and "event 5 of game 1 is damaged (Infinity is not a number" in one.get_json()["error"]
    assert str(data) not in one.get_json()["error"]
    export = client.get("/api/history/1/export.jsonl", headers={"X-Table-Pin": service.pin})
    assert export.status_code == 409
    service.stop()
