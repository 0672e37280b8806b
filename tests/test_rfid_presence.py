"""Taps and removals in time, with the clock in the test's hands: a held card is one tap, and a
card is removed after each reader's documented timeout, not before (docs/serial-protocol.md)."""
from __future__ import annotations

from companion.rfid import board, em4100, pn532
from companion.rfid.config import ReaderConfig
from companion.rfid.presence import Presence, ReaderEvent

UID = "62E3086CED"


def rdm(seat=3, kind="rdm6300"):
    driver = (em4100.Rdm6300Driver if kind == "rdm6300" else em4100.Id12Driver)(ReaderConfig(kind, "/dev/x", (seat,)))
    driver.on_open(lambda data: None, 0.0)
    return driver


def test_rdm6300_repeated_frames_are_one_tap_and_removal_after_0_3_s():
    driver = rdm()
    frame = em4100.encode_frame(UID)
    events = []
    for tick in range(20):  # the reader repeats the frame every 0.1 s for 2 s
        now = tick * 0.1
        events += driver.on_bytes(frame, now) + driver.on_idle(now)
    assert events == [ReaderEvent("tap", 3, UID)]
    last = 1.9
    assert driver.on_idle(last + 0.29) == []          # just under 0.3 s after the last frame: still there
    assert driver.on_idle(last + 0.31) == [ReaderEvent("removed", 3, UID)]  # RDM6300_DEFAULT_TAG_TIMEOUT_MS


def test_id12_never_reports_removal_and_rearms_after_1_s():
    driver = rdm(kind="id12")
    frame = em4100.encode_frame(UID, b"\r\n")
    assert driver.on_bytes(frame, 0.0) == [ReaderEvent("tap", 3, UID)]
    assert driver.on_idle(60.0) == []
    assert driver.on_bytes(frame, 60.5) == [ReaderEvent("tap", 3, UID)]   # a new presentation
    assert driver.on_bytes(frame, 61.0) == []  # within 1 s of the last read: the same presentation


def test_presence_waits_while_unplugged_and_gives_the_card_time_after():
    p = Presence(seat=1, timeout=0.3)
    assert p.seen("AA", 0.0) == [ReaderEvent("tap", 1, "AA")]
    p.pause()
    assert p.expire(10.0) == []          # the reader cannot see: nothing is assumed
    p.resume(10.0)
    assert p.expire(10.9) == []          # a reader just powered up gets 1 s to read the card again
    assert p.seen("AA", 10.95) == []     # still there: no second tap
    assert p.expire(11.2) == []
    assert p.expire(11.3) == [ReaderEvent("removed", 1, "AA")]  # then the usual 0.3 s


def test_presence_card_gone_while_unplugged_is_removed_after_the_grace():
    p = Presence(seat=1, timeout=0.3)
    p.seen("AA", 0.0)
    p.pause()
    p.resume(5.0)
    assert p.expire(5.99) == [] and p.expire(6.01) == [ReaderEvent("removed", 1, "AA")]


def test_presence_other_card_replaces_at_once():
    p = Presence(seat=2, timeout=0.3)
    p.seen("AA", 0.0)
    assert p.seen("BB", 0.1) == [ReaderEvent("removed", 2, "AA"), ReaderEvent("tap", 2, "BB")]


class Pn532Link:
    """Answers the driver's commands instantly, like the chip (ACK, then the answer)."""

    def __init__(self):
        self.sent: list[bytes] = []

    def __call__(self, data: bytes) -> None:
        self.sent.append(data)


def answer(command: int, data: bytes = b"") -> bytes:
    return pn532.ACK + pn532.encode_frame(bytes([command + 1]) + data, tfi=pn532.CHIP_TFI)


def test_pn532_polls_and_removes_after_0_35_s_without_the_card():
    link = Pn532Link()
    driver = pn532.Pn532Driver(ReaderConfig("pn532", "/dev/x", (5,)))
    driver.on_open(link, 0.0)
    assert link.sent[0].startswith(pn532.WAKEUP)
    driver.on_bytes(answer(pn532.SAM_CONFIGURATION), 0.01)
    driver.on_bytes(answer(pn532.GET_FIRMWARE_VERSION, bytes([0x32, 1, 6, 7])), 0.02)
    driver.on_bytes(answer(pn532.RF_CONFIGURATION), 0.03)
    assert driver.ready and driver.firmware == "PN532 v1.6"
    target = bytes([1, 1, 0, 0x44, 0, 7]) + bytes.fromhex("04A1B2C3D4E5F6")
    events = []
    now = 0.03
    for poll in range(10):  # a card for 1 s, then none
        now = 0.1 * (poll + 1)
        events += driver.on_idle(now)
        assert link.sent[-1] == pn532.encode_frame(bytes([pn532.IN_LIST_PASSIVE_TARGET, 1, 0]))
        events += driver.on_bytes(answer(pn532.IN_LIST_PASSIVE_TARGET, target if poll < 5 else b"\x00"), now)
    # seen last at 0.5 s: removed at the first look at or after 0.85 s
    assert events == [ReaderEvent("tap", 5, "04A1B2C3D4E5F6"), ReaderEvent("removed", 5, "04A1B2C3D4E5F6")]
    assert driver.polls == 10


def test_pn532_no_ack_means_wake_it_again_and_nack_means_repeat():
    link = Pn532Link()
    driver = pn532.Pn532Driver(ReaderConfig("pn532", "/dev/x", (5,)))
    driver.on_open(link, 0.0)
    driver.on_idle(0.2)
    assert len(link.sent) == 1  # 0.2 s: still waiting for the ACK
    driver.on_idle(0.26)
    assert len(link.sent) == 2 and link.sent[1].startswith(pn532.WAKEUP) and driver.timeouts == 1
    driver.on_bytes(pn532.NACK, 0.3)
    assert link.sent[2] == link.sent[1][len(pn532.WAKEUP):] and driver.nacks == 1


def test_board_silent_for_3_s_is_reported_and_asked_again():
    sent = []
    driver = board.BoardDriver(ReaderConfig("board", "/dev/x", (1, 2)))
    driver.on_open(sent.append, 0.0)
    driver.on_bytes(board.encode_frame(0, bytes([board.MSG_HELLO, 1, 1, 0, 2, 0])), 0.1)
    assert driver.ready and len(sent) == 1
    driver.on_idle(3.0)
    assert len(sent) == 1 and driver.last_error is None
    driver.on_idle(3.2)
    assert len(sent) == 2 and "no heartbeat" in driver.last_error
    assert sent[1][2] == board.CMD_IDENTIFY


def test_a_driver_that_crashes_is_reported_and_its_port_reopened(tmp_path):
    """Whatever goes wrong inside a driver, the reader's thread survives and says so."""
    from companion.rfid.config import parse_reader_spec
    from companion.rfid.fake import FakeRdm6300
    from tests.rfid_support import Recorder, reader_stats, start_service
    from tests.timing import wait_for

    device = FakeRdm6300(tmp_path / "by-id" / "rdm")
    rec = Recorder()
    service = start_service([parse_reader_spec(f"kind=rdm6300,seat=1,port={device.port}")], rec)
    runner = service.runners[0]
    real = runner.driver.on_bytes
    calls = {"n": 0}

    def broken_once(data, now):
        calls["n"] += 1
        if calls["n"] == 1:
            raise ZeroDivisionError("a bug")
        return real(data, now)

    runner.driver.on_bytes = broken_once
    try:
        device.place(UID)
        wait_for(lambda: rec.taps(1), what="the tap after the crash")
        stats = reader_stats(service)
        assert "internal error" in stats["last_error"] and stats["reopens"] == 1
    finally:
        service.stop()
        device.close()
