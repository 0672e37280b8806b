"""Every reader's wire format, parsed strictly: good frames out, bad ones counted and dropped,
the stream resynchronised on the next good frame, and no exception on any input.
The same properties run with 100 000 inputs per parser in `python -m companion.bench.rfid_fuzz`."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rfid import board, em4100, pn532
from companion.bench import rfid_fuzz as fuzz
from companion.rfid.crc import crc_ccitt, crc_ccitt_update

FEW = settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))


# -- CRC ----------------------------------------------------------------------------------------
def test_crc_is_avr_libc_ccitt_with_its_check_value():
    # CRC-16/MCRF4XX (init FFFF, poly 8408 reflected): check value of "123456789" is 6F91
    assert crc_ccitt(b"123456789") == 0x6F91


def test_crc_table_matches_the_avr_libc_formula():
    for start in (0xFFFF, 0x0000, 0x6363, 0xBEEF):
        for byte in range(256):
            assert crc_ccitt(bytes([byte]), start) == crc_ccitt_update(start, byte)


def test_crc_a_of_hlta_is_the_standards_example():
    # ISO/IEC 14443-3: "50 00" + CRC_A "57 CD" (the same arithmetic from 0x6363)
    crc = crc_ccitt(b"\x50\x00", 0x6363)
    assert (crc & 0xFF, crc >> 8) == (0x57, 0xCD)


# -- our board --------------------------------------------------------------------------------
def tag(reader: int, uid: str, seq: int = 0, kind: int = board.MSG_TAG_PRESENT) -> bytes:
    data = bytes.fromhex(uid)
    return board.encode_frame(seq, bytes([kind, reader, len(data)]) + data)


def test_board_frame_layout():
    frame = board.encode_frame(3, bytes([board.CMD_IDENTIFY]))
    assert frame[0] == 6 and frame[1] == 0x13 and frame[2] == 0x81 and frame[-1] == 0x7E
    assert int.from_bytes(frame[3:5], "big") == crc_ccitt(frame[:3])


def test_board_frame_split_across_reads():
    scanner = board.BoardScanner()
    frame = tag(3, "04A1B2C3D4E5F6")
    assert scanner.feed(frame[:4]) == []
    assert scanner.feed(frame[4:9]) == []
    assert scanner.feed(frame[9:]) == [frame]
    assert scanner.stats.good == 1 and scanner.stats.bad == 0


def test_board_garbage_then_a_good_frame_directly_after_it():
    scanner = board.BoardScanner()
    # garbage that looks like starts of frames (lengths 0x20 and 0x0A with a valid sequence byte)
    garbage = bytes([0x20, 0x11, 0xFF, 0x0A, 0x12, 0x7E, 0x33])
    frame = tag(1, "DEADBEEF")
    assert scanner.feed(garbage + frame) == [frame]
    assert scanner.stats.bad == 1 and scanner.stats.bytes_dropped == len(garbage)


def test_board_wrong_checksum_counted_and_next_frame_kept():
    scanner = board.BoardScanner()
    good, bad = tag(1, "DEADBEEF", 1), bytearray(tag(2, "CAFEF00D", 2))
    bad[5] ^= 0x40
    assert scanner.feed(good + bytes(bad) + good) == [good, good]
    assert scanner.stats.corrupt == 1 and scanner.stats.reasons == {"checksum": 1}


def test_board_truncated_frame_counted_and_next_frame_kept():
    scanner = board.BoardScanner()
    good = tag(4, "04112233445566")
    assert scanner.feed(good[:-3] + good) == [good]
    assert scanner.stats.bad == 1 and scanner.stats.good == 1


def test_board_flood_of_bytes_then_good_frame():
    import random

    rng = random.Random(7)
    scanner = board.BoardScanner()
    flood = bytes(rng.randrange(256) for _ in range(100_000))
    frames = scanner.feed(flood)
    good = tag(6, "04112233445566778899")
    # The flood may leave a plausible frame start pending, which the good frame's bytes resolve.
    frames += scanner.feed(good) + scanner.feed(good)
    assert frames[-1] == good
    assert scanner.stats.bad >= 1
    assert scanner.stats.bytes_dropped + scanner.stats.fill_bytes + sum(map(len, frames)) + len(scanner.buf) \
        == len(flood) + 2 * len(good)


@pytest.mark.parametrize("payload, problem", [
    (bytes([board.MSG_TAG_PRESENT, 3, 5]) + bytes(5), "UID length"),       # 5-byte UID
    (bytes([board.MSG_TAG_PRESENT, 3, 7]) + bytes(6), "UID length"),       # says 7, carries 6
    (bytes([board.MSG_TAG_PRESENT, 0, 4]) + bytes(4), "reader 0"),
    (bytes([board.MSG_TAG_REMOVED, 9, 4]) + bytes(4), "reader 9"),
    (bytes([board.MSG_HEARTBEAT, 0, 0]), "heartbeat"),
    (bytes([board.MSG_HELLO, 1, 1, 0, 7, 0]), "7 readers"),
    (bytes([0x42]), "unknown message"),
])
def test_board_messages_checked_strictly(payload, problem):
    driver = board.BoardDriver(board_config())
    driver.on_open(lambda data: None, 0.0)
    events = driver.on_bytes(board.encode_frame(0, payload), 1.0)
    assert events == []
    assert driver.scanner.stats.good == 0 and driver.scanner.stats.corrupt == 1
    assert problem.split()[-1] in driver.last_error


def board_config(seats=(1, 2, 3, 4, 5, 6)):
    from companion.rfid.config import ReaderConfig

    return ReaderConfig("board", "/dev/null", tuple(seats))


def test_board_repeated_present_is_one_tap_and_heartbeat_settles_a_lost_removal():
    driver = board.BoardDriver(board_config())
    driver.on_open(lambda data: None, 0.0)
    hello = board.encode_frame(0, bytes([board.MSG_HELLO, 1, 1, 0, 6, 0]))
    events = driver.on_bytes(hello + tag(3, "04A1B2C3D4E5F6", 1) + tag(3, "04A1B2C3D4E5F6", 2), 1.0)
    assert [(e.kind, e.seat) for e in events] == [("tap", 3)]
    # the removal frame was lost; the next heartbeat says reader 3 is empty
    beat = board.encode_frame(4, bytes([board.MSG_HEARTBEAT, 0, 0, 0, 5, 0b000000, 0]))
    events = driver.on_bytes(beat, 2.0)
    assert [(e.kind, e.seat, e.uid) for e in events] == [("removed", 3, "04A1B2C3D4E5F6")]
    assert driver.reconciled == 1 and driver.seq_gaps == 1  # sequence 3 never came


def test_board_other_protocol_version_is_refused_with_a_reason():
    driver = board.BoardDriver(board_config())
    driver.on_open(lambda data: None, 0.0)
    driver.on_bytes(board.encode_frame(0, bytes([board.MSG_HELLO, 2, 2, 0, 6, 0])), 1.0)
    assert not driver.ready and "protocol 2" in driver.last_error


def test_board_reader_fault_reported_per_seat():
    driver = board.BoardDriver(board_config((5, 6, 1, 2, 3, 4)))
    driver.on_open(lambda data: None, 0.0)
    driver.on_bytes(board.encode_frame(0, bytes([board.MSG_READER_FAULT, 2, 1, 0xFF])), 1.0)
    assert driver.faults == {2: "reader 2 (seat 6) does not answer (VersionReg read 0xff): module missing, "
                                "unpowered or miswired"}
    driver.on_bytes(board.encode_frame(1, bytes([board.MSG_READER_OK, 2, 0x92])), 2.0)
    assert driver.faults == {}


# -- RDM6300 and ID-12LA ------------------------------------------------------------------------
def test_rdm6300_frame_example():
    # The RDM6300 data sheet's example: data 62 E3 08 6C ED, checksum 62^E3^08^6C^ED = 08
    frame = em4100.encode_frame("62E3086CED")
    assert frame == b"\x0262E3086CED08\x03"
    scanner = em4100.Rdm6300Scanner()
    assert scanner.feed(frame) == [frame] and em4100.uid_of(frame) == "62E3086CED"


def test_id12_frame_has_cr_lf_before_etx():
    frame = em4100.encode_frame("62E3086CED", b"\r\n")
    assert frame == b"\x0262E3086CED08\r\n\x03"
    assert em4100.Id12Scanner().feed(frame) == [frame]
    # an RDM6300 frame is not an ID-12 frame, nor the other way round
    assert em4100.Id12Scanner().feed(em4100.encode_frame("62E3086CED")) == []
    assert em4100.Rdm6300Scanner().feed(frame) == []


@pytest.mark.parametrize("bad, reason", [
    (b"\x0262E3086CED09\x03", "checksum"),     # wrong checksum
    (b"\x0262e3086ced08\x03", None),           # lower-case digits: not what the reader sends
    (b"\x0262E3086CED08\x04", None),           # wrong end byte
    (b"\x0262E3086CED\x03", None),             # truncated
])
def test_rdm6300_bad_frames_counted_stream_resynchronised(bad, reason):
    scanner = em4100.Rdm6300Scanner()
    good = em4100.encode_frame("1234567890")
    assert scanner.feed(bad + good) == [good]
    assert scanner.stats.bad == 1
    assert scanner.stats.reasons == ({reason: 1} if reason else {})


# -- PN532 ----------------------------------------------------------------------------------------
def test_pn532_frame_checksums():
    # GetFirmwareVersion as the user manual prints it: 00 00 FF 02 FE D4 02 2A 00
    assert pn532.encode_frame(bytes([0x02])) == bytes.fromhex("0000FF02FED4022A00")


def test_pn532_ack_and_response_split_across_reads():
    scanner = pn532.Pn532Scanner()
    answer = pn532.encode_frame(bytes([0x03, 0x32, 0x01, 0x06, 0x07]), tfi=pn532.CHIP_TFI)
    stream = pn532.ACK + answer
    frames = []
    for i in range(0, len(stream), 3):
        frames += scanner.feed(stream[i:i + 3])
    assert pn532.is_ack(frames[0]) and pn532.frame_body(frames[1]) == bytes([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07])
    assert scanner.stats.bad == 0


def test_pn532_wrong_dcs_and_wrong_lcs_counted():
    scanner = pn532.Pn532Scanner()
    good = pn532.encode_frame(bytes([0x4B, 0x00]), tfi=pn532.CHIP_TFI)
    bad_dcs = bytearray(good)
    bad_dcs[-2] ^= 1
    bad_lcs = bytearray(good)
    bad_lcs[4] ^= 1
    frames = scanner.feed(bytes(bad_dcs) + good + bytes(bad_lcs) + good)
    assert len(frames) == 2
    assert scanner.stats.corrupt == 1 and scanner.stats.noise == 1


def test_pn532_damaged_ack_passing_the_checksums_is_caught_by_its_tfi():
    # ACK with its LEN byte hit (00 -> 01): 00 FF 01 FF, then postamble 00 "TFI", preamble 00 "DCS"
    scanner = pn532.Pn532Scanner()
    frames = scanner.feed(bytes.fromhex("0000FF01FF00") + pn532.ACK)
    assert frames == [pn532.ACK[1:5]] and scanner.stats.corrupt == 1


def test_pn532_target_answers_parsed_strictly():
    assert pn532.parse_target(bytes([0x00])) is None
    seven = bytes([0x01, 0x01, 0x00, 0x44, 0x00, 0x07]) + bytes.fromhex("04A1B2C3D4E5F6")
    assert pn532.parse_target(seven) == "04A1B2C3D4E5F6"
    with_ats = bytes([0x01, 0x01, 0x03, 0x44, 0x20, 0x04]) + bytes.fromhex("08A1B2C3") + bytes([0x03, 0x78, 0x80])
    assert pn532.parse_target(with_ats) == "08A1B2C3"
    for bad in (b"", bytes([0x02]), bytes([0x01, 0x01, 0x00, 0x44, 0x00, 0x05]) + bytes(5), seven[:-1],
                seven + b"\x09"):
        with pytest.raises(pn532.ResponseError):
            pn532.parse_target(bad)


# -- hypothesis: the fuzz properties, a few hundred inputs per parser --------------------------
@pytest.mark.parametrize("name", sorted(fuzz.FORMATS))
def test_fuzz_streams_of_frames_damage_and_garbage(name):
    fmt = fuzz.FORMATS[name]

    @FEW
    @given(fuzz.cases(fmt))
    def check(case):
        fuzz.check_case(fmt, case)

    check()


@pytest.mark.parametrize("name", sorted(fuzz.FORMATS))
def test_fuzz_any_bytes_never_raise(name):
    fmt = fuzz.FORMATS[name]

    @FEW
    @given(st.binary(max_size=400), st.lists(st.integers(0, 400), max_size=5))
    def check(stream, cuts):
        fuzz.check_garbage(fmt, stream, sorted(c for c in set(cuts) if c <= len(stream)))

    check()


@FEW
@given(fuzz.random_payloads)
def test_fuzz_board_driver_drops_nonsense_messages(payloads):
    # each payload can give at most a tap and the removal that ends it (the case checks their shape)
    assert fuzz.board_driver_case(payloads) <= 2 * len(payloads) + 6


@FEW
@given(fuzz.random_pn532)
def test_fuzz_pn532_driver_drops_nonsense_answers(bodies):
    # one answer lists at most one card: a tap, and its removal when the next answer lacks it
    assert fuzz.pn532_driver_case(bodies) <= 2 * len(bodies)
