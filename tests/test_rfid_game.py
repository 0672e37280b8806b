"""From a card on a seat's reader to that seat's play in a game of Book of Mormon "Battle".

The whole path: the reader board (the pure-Python fake, and the real firmware under simavr),
its serial protocol over a pty, the reader service, the pairing lookup, the bridge, the session
and the ruleset. What a player checks: the card Cal laid on her reader is Cal's play on the
tablet; a tag nobody paired is shown for pairing and never played."""
from __future__ import annotations

import pytest

from card_tags.pairing import PairingStore
from card_tags.payload import CardRef
from companion.rfid.bridge import RfidBridge
from companion.rfid.config import parse_reader_spec
from companion.rfid.fake import FakeBoard
from companion.rfid.service import ReaderService, attach_readers
from companion.rfid.sim import SimBoard
from companion.gamelog.session import Session, open_store
from tests.rfid_support import FAST_RETRY, reader_stats
from tests.timing import wait_for

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cal"}]
CAL_CARD = CardRef("bom-battle", "GD500", 1)
CAL_TAG = "04A1B2C3D4E5F6"  # an NTAG213 sticker under the card's sleeve
STRAY_TAG = "DEADBEEF"


@pytest.fixture
def pairing(tmp_path):
    store = PairingStore(tmp_path / "pairing.db")
    store.begin(CAL_CARD)
    store.tap(CAL_TAG)
    yield store
    store.close()


@pytest.fixture
def session(tmp_path):
    return Session.start(open_store(tmp_path / "data"), "bom-battle", seats=SEATS)


def seat_play(session: Session, seat: int) -> list[str]:
    view = session.public_view()
    return [card["key"] for card in next(s for s in view["seats"] if s["seat"] == seat)["play"]]


def table_events(session: Session) -> list[tuple[str, dict, str]]:
    return [(e.kind, e.data, e.source) for e in session.events() if e.kind != "start"]


@pytest.mark.parametrize("board_kind", ["fake", "simavr"])
def test_card_on_seat_3_reader_becomes_seat_3s_play(board_kind, tmp_path, pairing, session):
    link = tmp_path / "serial" / "by-id" / "usb-TableCompanion_reader-board-if00"
    device = FakeBoard(link) if board_kind == "fake" else SimBoard(link)
    bridge = RfidBridge(lookup=pairing.lookup, submit=session.submit)
    readers = ReaderService([parse_reader_spec(f"kind=board,port={device.port},seats=1-3")], bridge.on_tap,
                            bridge.on_removed, retry=FAST_RETRY).start()
    try:
        wait_for(lambda: reader_stats(readers)["state"] == "connected", what="the board")
        assert seat_play(session, 3) == []
        device.place(3, CAL_TAG)
        wait_for(lambda: seat_play(session, 3), what="Cal's play on the tablet")
        assert seat_play(session, 3) == ["GD500#1"]
        assert seat_play(session, 1) == [] and seat_play(session, 2) == []
        assert table_events(session) == [
            ("card_seen", {"zone": "reader:3", "card": "GD500#1", "uid": CAL_TAG}, "rfid")]
        # taking the card off the reader is reported too
        device.remove(3)
        wait_for(lambda: len(table_events(session)) == 2, what="card_gone")
        assert table_events(session)[1] == ("card_gone", {"zone": "reader:3", "card": "GD500#1", "uid": CAL_TAG},
                                           "rfid")
    finally:
        readers.stop()
        device.close()


def test_unpaired_tag_is_shown_with_its_seat_and_never_played(tmp_path, pairing, session):
    device = FakeBoard(tmp_path / "by-id" / "board")
    bridge = RfidBridge(lookup=pairing.lookup, submit=session.submit)
    readers = ReaderService([parse_reader_spec(f"kind=board,port={device.port},seats=1-3")], bridge.on_tap,
                            bridge.on_removed, retry=FAST_RETRY, bridge=bridge).start()
    try:
        device.place(2, STRAY_TAG)
        wait_for(lambda: bridge.unknown(), what="the stray tag to be recorded")
        device.remove(2)
        wait_for(lambda: readers.present()[2] is None, what="its removal")
        assert table_events(session) == []  # neither card_seen nor card_gone
        [unknown] = bridge.unknown()
        assert (unknown["uid"], unknown["seat"], unknown["count"]) == (STRAY_TAG, 2, 1)
        assert [u["uid"] for u in reader_stats(readers)["unknown_uids"]] == [STRAY_TAG]
        # once paired (here straight in the store, as the dashboard's pairing page does), the
        # offer to pair it goes away and the same tag plays
        pairing.begin(CardRef("bom-battle", "BO900", 1))
        pairing.tap(STRAY_TAG)
        assert bridge.unknown() == []
        device.place(2, STRAY_TAG)
        wait_for(lambda: seat_play(session, 2), what="the now-paired card's play")
        assert seat_play(session, 2) == ["BO900#1"] and bridge.unknown() == []
        assert reader_stats(readers)["unknown_uids"] == []
    finally:
        readers.stop()
        device.close()


class TableService:
    """The bits of companion/service.py's Service that attach_readers uses."""

    def __init__(self, session):
        self.session = session
        self.readers = None
        self.unpaired_uids: list = []

    def table_input(self, kind, data, source):
        return self.session.submit(kind, data, source)


def test_attach_readers_plays_pairs_and_lists_unpaired(tmp_path, pairing, session):
    device = FakeBoard(tmp_path / "by-id" / "board")
    service = TableService(session)
    readers = attach_readers(service, [parse_reader_spec(f"kind=board,port={device.port},seats=1-3")], pairing,
                             retry=FAST_RETRY)
    try:
        assert service.readers is readers
        device.place(1, STRAY_TAG)
        wait_for(lambda: service.unpaired_uids, what="the unpaired tag on the dashboard")
        assert service.unpaired_uids[0]["uid"] == STRAY_TAG and readers.stats()["unpaired"][0]["seat"] == 1
        device.remove(1)
        wait_for(lambda: readers.present()[1] is None, what="removal")
        # the owner scans a card's QR for pairing, then taps the stray tag: it pairs, not plays
        pairing.begin(CardRef("bom-battle", "BD1000", 1))
        device.place(1, STRAY_TAG)
        wait_for(lambda: pairing.lookup(STRAY_TAG) is not None, what="the pairing")
        assert table_events(session) == [] and readers.stats()["unpaired"] == []
        device.remove(1)
        wait_for(lambda: readers.present()[1] is None, what="removal")
        device.place(1, STRAY_TAG)
        wait_for(lambda: seat_play(session, 1), what="the play")
        assert seat_play(session, 1) == ["BD1000#1"]
    finally:
        readers.stop()
        device.close()


def test_a_tag_paired_in_another_game_is_not_played_here(tmp_path, pairing, session):
    pairing.begin(CardRef("stratego", "R6", 1))
    pairing.tap("04112233445566778899")
    device = FakeBoard(tmp_path / "by-id" / "board")
    service = TableService(session)
    readers = attach_readers(service, [parse_reader_spec(f"kind=board,port={device.port},seats=1-3")], pairing,
                             retry=FAST_RETRY)
    try:
        device.place(3, "04112233445566778899")
        wait_for(lambda: service.unpaired_uids, what="the tag listed as not playable here")
        assert table_events(session) == []
    finally:
        readers.stop()
        device.close()
