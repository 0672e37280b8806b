"""Which reader is at which seat: --reader options, config files, and the `companion readers`
commands. A configuration that cannot work is refused with a message naming the reader and key."""
from __future__ import annotations

import argparse
import json
import threading

import pytest

from companion.rfid import commands
from companion.rfid.config import ConfigError, load_config, parse_reader_spec
from companion.rfid.discovery import find_devices
from companion.rfid.fake import FakeRdm6300


def test_reader_spec_for_a_single_reader_and_for_our_board():
    rdm = parse_reader_spec("seat=3,kind=rdm6300,port=/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0")
    assert (rdm.kind, rdm.seats, rdm.port) == ("rdm6300", (3,), "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0")
    board = parse_reader_spec("kind=board,port=/dev/ttyACM0")
    assert board.seats == (1, 2, 3, 4, 5, 6) and board.seat_of_reader(6) == 6 and board.seat_of_reader(7) is None
    board = parse_reader_spec("kind=board,port=/dev/ttyACM0,seats=4+5+1")
    assert board.seat_of_reader(3) == 1
    pn = parse_reader_spec("kind=PN532,seat=2,port=/dev/serial0,timeout=0.5,poll=0.2")
    assert (pn.kind, pn.removal_timeout, pn.poll_interval) == ("pn532", 0.5, 0.2)
    assert parse_reader_spec("kind=ID-20LA,seat=1,port=/dev/x").kind == "id12"


@pytest.mark.parametrize("spec, message", [
    ("seat=3,port=/dev/x", "kind must be one of"),
    ("seat=3,kind=rdm6300", "no port"),
    ("kind=rdm6300,port=/dev/x", "which seat"),
    ("kind=rdm6300,port=/dev/x,seat=three", "seat 'three' is not a number"),
    ("kind=rdm6300,port=/dev/x,seats=1-2", "give seat=N"),
    ("kind=board,port=/dev/x,seat=1", "seats=1-6"),
    ("kind=board,port=/dev/x,seats=1-7", "1..6 readers"),
    ("kind=board,port=/dev/x,seats=1+1", "name a seat twice"),
    ("kind=rdm6300,port=/dev/x,seat=1,colour=red", "unknown key 'colour'"),
    ("kind=rdm6300,port=/dev/x,seat=1,timeout=-1", "must be positive"),
    ("kind=rdm6300,port=/dev/x,seat", "is not key=value"),
])
def test_bad_reader_specs_are_refused_with_the_reason(spec, message):
    with pytest.raises(ConfigError, match=message):
        parse_reader_spec(spec)


def test_config_files_json_and_toml(tmp_path):
    toml = tmp_path / "readers.toml"
    toml.write_text('[[reader]]\nkind = "board"\nport = "/dev/serial/by-id/usb-Arduino-if00"\nseats = [1, 2, 3]\n\n'
                    '[[reader]]\nkind = "rdm6300"\nport = "/dev/serial/by-id/usb-1a86-if00-port0"\nseat = 4\n')
    configs = load_config(toml)
    assert [(c.kind, c.seats) for c in configs] == [("board", (1, 2, 3)), ("rdm6300", (4,))]
    js = tmp_path / "readers.json"
    js.write_text(json.dumps({"readers": [{"kind": "pn532", "port": "/dev/serial0", "seat": 2}]}))
    assert load_config(js)[0].kind == "pn532"


def test_two_readers_at_one_seat_or_on_one_port_are_refused(tmp_path):
    path = tmp_path / "readers.json"
    path.write_text(json.dumps({"readers": [{"kind": "board", "port": "/dev/a", "seats": "1-3"},
                                            {"kind": "rdm6300", "port": "/dev/b", "seat": 3}]}))
    with pytest.raises(ConfigError, match="seat 3 has two readers"):
        load_config(path)
    path.write_text(json.dumps([{"kind": "rdm6300", "port": "/dev/a", "seat": 1},
                                {"kind": "id12", "port": "/dev/a", "seat": 2}]))
    with pytest.raises(ConfigError, match="configured twice"):
        load_config(path)
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_config(path)


def test_readers_list_prefers_stable_by_id_names(tmp_path):
    by_id = tmp_path / "by-id"
    device = FakeRdm6300(by_id / "usb-1a86_USB_Serial-if00-port0")
    try:
        found = find_devices(by_id=by_id, pi_uart=tmp_path / "serial0")
        ours = [d for d in found if d.path == device.port]
        assert ours and "CH340" in ours[0].hint and ours[0].device.startswith("/dev/pts/")
    finally:
        device.close()


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    commands.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_readers_watch_prints_taps(tmp_path, capsys):
    device = FakeRdm6300(tmp_path / "by-id" / "usb-rdm")
    placer = threading.Timer(0.3, device.place, args=("62E3086CED",))
    placer.start()
    try:
        code = run_cli(["readers", "watch", "--reader", f"kind=rdm6300,seat=2,port={device.port}", "--seconds", "1.2",
                        "--json"])
    finally:
        placer.cancel()
        device.close()
    out = capsys.readouterr()
    assert code == 0
    taps = [json.loads(line) for line in out.out.splitlines()]
    assert [(t["event"], t["seat"], t["uid"]) for t in taps][:1] == [("tap", 2, "62E3086CED")]
    assert "connected" in out.err and "frames good" in out.err


def test_readers_watch_refuses_a_bad_configuration(capsys):
    assert run_cli(["readers", "watch", "--reader", "kind=rdm6300,port=/dev/x"]) == 2
    assert "which seat" in capsys.readouterr().err
