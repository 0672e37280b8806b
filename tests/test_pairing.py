"""RFID pairing: scan a card's QR, tap its RFID tag, and the UID names that card from then on; the
flow is an append-only event history; conflicts and malformed UIDs are refused with the reason."""
from __future__ import annotations

import sqlite3

import pytest

from card_tags import commands, pairing
from card_tags.pairing import PairingError, PairingStore
from card_tags.payload import CardRef
from tests.timing import ManualClock

MARSHAL = CardRef("stratego", "R10", 1)
SCOUT = CardRef("stratego", "R2", 3)



@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def store(tmp_path, clock):
    return PairingStore(tmp_path / "pairings.db", clock=clock)


def test_scan_then_tap_pairs_the_card(store):
    store.begin(MARSHAL)
    paired = store.tap("04:a1:b2:c3", reader="reader:1")
    assert paired.uid == "04A1B2C3" and paired.ref == MARSHAL
    assert paired.say() == "RFID tag 04A1B2C3 is now stratego R10#1"
    assert store.lookup("04A1B2C3") == MARSHAL
    assert store.lookup("04-A1-B2-C3", game="stratego") == MARSHAL
    assert store.lookup("04A1B2C3", game="warriors") is None
    assert store.lookup("DEADBEEF") is None
    assert store.pending() is None, "the tap used up the scan"


def test_the_flow_is_kept_as_events_and_bindings_are_derived(store, tmp_path, clock):
    store.begin(MARSHAL)
    store.tap("04A1B2C3")
    store.begin(SCOUT)
    store.tap("04112233445566")
    store.unpair("04A1B2C3")
    assert [e.kind for e in store.events()] == ["pair_begin", "pair_tap", "pair_begin", "pair_tap", "unpair"]
    assert store.events()[1].data == {"uid": "04A1B2C3"}
    again = PairingStore(tmp_path / "pairings.db", clock=clock)  # a restart replays the same history
    assert again.bindings().by_uid == {"04112233445566": SCOUT}
    assert pairing.fold(again.events()[:2]).by_uid == {"04A1B2C3": MARSHAL}, "the history can be replayed to any point"


def test_uids_of_4_7_and_10_bytes(store):
    for uid, ref in (("04A1B2C3", CardRef("stratego", "R10", 1)), ("04A1B2C3D4E5F6", CardRef("stratego", "R9", 1)),
                     ("04A1B2C3D4E5F6071829", CardRef("stratego", "R8", 2))):
        store.begin(ref)
        assert store.tap(uid).uid == uid
    assert len(store.bindings().by_uid) == 3


@pytest.mark.parametrize("uid, reason", [
    ("04A1B2", "is 3 bytes; RFID UIDs are 4, 5, 7 or 10 bytes"),
    ("04A1B2C3D4E5", "is 6 bytes"),
    ("04A1B2C", "is 3.5 bytes"),
    ("ZZA1B2C3", "is not hexadecimal"),
    ("", "the UID is empty"),
])
def test_a_malformed_uid_is_refused_and_nothing_is_written(store, uid, reason):
    store.begin(MARSHAL)
    before = store.events()
    with pytest.raises(PairingError, match=reason):
        store.tap(uid)
    assert store.events() == before
    assert store.pending() == MARSHAL, "the scanned card still waits for a good tap"


def test_one_uid_bound_to_two_cards_is_refused(store):
    store.begin(MARSHAL)
    store.tap("04A1B2C3")
    store.begin(SCOUT)
    with pytest.raises(PairingError) as caught:
        store.tap("04A1B2C3")
    assert str(caught.value) == ("RFID tag 04A1B2C3 is already paired with stratego R10#1; one tag cannot name two "
                                 "cards. Unpair it first if it really moved to stratego R2#3")
    assert store.lookup("04A1B2C3") == MARSHAL and store.bindings().uid_of(SCOUT) is None


def test_a_card_given_a_new_tag_frees_the_old_one(store):
    store.begin(MARSHAL)
    store.tap("04A1B2C3")
    store.begin(MARSHAL)
    paired = store.tap("04FFEEDD")
    assert paired.replaced == "04A1B2C3"
    assert store.lookup("04A1B2C3") is None and store.lookup("04FFEEDD") == MARSHAL


def test_a_tap_with_no_card_waiting_or_a_stale_scan_is_refused(store, clock):
    with pytest.raises(PairingError, match="no card is waiting: scan the card's QR tag first"):
        store.tap("04A1B2C3")
    store.begin(MARSHAL)
    clock.now += pairing.PENDING_SECONDS + 1
    with pytest.raises(PairingError, match="scanned more than 120 seconds ago; scan its QR tag again"):
        store.tap("04A1B2C3")
    store.begin(MARSHAL)
    store.cancel()
    with pytest.raises(PairingError, match="no card is waiting"):
        store.tap("04A1B2C3")
    assert store.bindings().by_uid == {}


def test_a_card_that_no_tag_could_name_is_refused(store):
    with pytest.raises(PairingError, match="copy number 0 must be 1-99"):
        store.begin(CardRef("stratego", "R10", 0))
    with pytest.raises(PairingError, match="no game code"):
        store.begin(CardRef("chess", "K", 1))


def test_unpairing_an_unknown_uid_says_so(store):
    with pytest.raises(PairingError, match="RFID tag 04A1B2C3 is not paired with any card"):
        store.unpair("04a1b2c3")


def test_csv_export_and_import_round_trip(store, tmp_path, clock):
    store.begin(MARSHAL)
    store.tap("04A1B2C3")
    store.begin(SCOUT)
    store.tap("04112233445566")
    text = store.export_csv()
    assert text == "uid,game,card,copy\n04A1B2C3,stratego,R10,1\n04112233445566,stratego,R2,3\n"
    other = PairingStore(tmp_path / "other.db", clock=clock)
    done = other.import_csv(text, "pairs.csv")
    assert {p.uid for p in done} == {"04A1B2C3", "04112233445566"}
    assert other.bindings().by_uid == store.bindings().by_uid
    assert other.import_csv(text) == [], "importing the same file twice adds nothing"


def test_a_bad_csv_reports_every_row_and_imports_nothing(store):
    store.begin(MARSHAL)
    store.tap("04A1B2C3")
    text = ("uid,game,card,copy\n"
            "041122334455,stratego,R9,1\n"     # 6 bytes
            "04A1B2C3,stratego,R8,1\n"         # bound to the Marshal already
            "04556677,chess,K,1\n"             # unknown game
            "04998877,stratego,R7,x\n"         # copy is not a number
            "04AABBCC,stratego,R6,1\n"
            "04AABBCC,stratego,R5,1\n")        # the same tag twice in the file
    before = store.events()
    with pytest.raises(PairingError) as caught:
        store.import_csv(text, "pairs.csv")
    message = str(caught.value)
    assert "pairs.csv row 2: UID '041122334455' is 6 bytes" in message
    assert "pairs.csv row 4: unknown game 'chess'" in message
    assert "pairs.csv row 5: copy must be a number, not 'x'" in message
    assert "pairs.csv row 7: RFID tag 04AABBCC is already on row 6; one tag cannot name two cards" in message
    assert store.events() == before
    with pytest.raises(PairingError, match="pairs.csv row 2: RFID tag 04A1B2C3 is already paired with stratego R10#1"):
        store.import_csv("uid,game,card,copy\n04A1B2C3,stratego,R8,1\n", "pairs.csv")


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "pairings.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(PairingError, match="not a pairing database"):
        PairingStore(path)


def test_the_store_is_append_only_sqlite(store):
    store.begin(MARSHAL)
    store.tap("04A1B2C3")
    store.unpair("04A1B2C3")
    rows = sqlite3.connect(store.path).execute("SELECT kind FROM pair_events ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == ["pair_begin", "pair_tap", "unpair"], "unpair is a new event, not a deletion"


# -- the commands --------------------------------------------------------------------------------
def test_pair_commands_export_and_import(tmp_path, capsys):
    data = str(tmp_path / "data")
    assert commands.main(["pair", "card", "stratego", "R10#1", "04:A1:B2:C3", "--data", data]) == 0
    assert "RFID tag 04A1B2C3 is now stratego R10#1" in capsys.readouterr().out
    exported = tmp_path / "pairs.csv"
    assert commands.main(["pair", "export", str(exported), "--data", data]) == 0
    assert exported.read_text() == "uid,game,card,copy\n04A1B2C3,stratego,R10,1\n"
    fresh = str(tmp_path / "fresh")
    assert commands.main(["pair", "import", str(exported), "--data", fresh]) == 0
    capsys.readouterr()
    assert commands.main(["pair", "list", "--data", fresh]) == 0
    assert "04A1B2C3             stratego R10#1" in capsys.readouterr().out


def test_pair_import_checks_cards_against_the_deck(tmp_path, capsys):
    sheet = tmp_path / "pairs.csv"
    sheet.write_text("uid,game,card,copy\n04A1B2C3,stratego,R10,2\n04A1B2C4,warriors,NEPHI,1\n")
    assert commands.main(["pair", "import", str(sheet), "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "nothing was imported: 1 problem" in err
    assert "row 2: Marshal (R10) has 1 copy in this deck, not a copy 2" in err
    assert PairingStore(tmp_path / "pairings.db").bindings().by_uid == {}


def test_pair_card_refuses_a_conflict_and_leaves_nothing_waiting(tmp_path, capsys):
    data = str(tmp_path)
    assert commands.main(["pair", "card", "stratego", "R10#1", "04A1B2C3", "--data", data]) == 0
    assert commands.main(["pair", "card", "stratego", "R9#1", "04A1B2C3", "--data", data]) == 1
    assert "already paired with stratego R10#1" in capsys.readouterr().err
    assert PairingStore(tmp_path / "pairings.db").pending() is None
