"""`companion readers ...`: find the readers, watch their taps, try the companion without any.

    companion readers list                       serial devices that could be readers
    companion readers watch --reader SPEC ...    print taps and removals as they happen
    companion readers watch --config readers.toml
    companion readers fake board                 a fake reader on a pty, driven from the keyboard
    companion readers sim                        our board's real firmware under simavr, likewise

``add_reader_arguments`` / ``reader_configs`` are shared with ``companion serve``.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from companion.rfid.config import ConfigError, ReaderConfig, check_configs, load_config, parse_reader_spec


def add_reader_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reader", action="append", default=[], metavar="SPEC",
                        help="a reader: kind=rdm6300|id12|pn532|board,port=/dev/serial/by-id/...,seat=N "
                             "(board: seats=1-6); repeat for several")
    parser.add_argument("--readers-config", metavar="FILE", help="readers from a JSON or TOML file")


def reader_configs(args: argparse.Namespace) -> list[ReaderConfig]:
    """Readers from --readers-config and --reader; ConfigError says what is wrong."""
    configs = load_config(args.readers_config) if getattr(args, "readers_config", None) else []
    configs += [parse_reader_spec(spec) for spec in getattr(args, "reader", [])]
    return check_configs(configs)


def register(subparsers) -> None:
    readers = subparsers.add_parser("readers", help="RFID readers: list devices, watch taps, fake or simulated readers")
    sub = readers.add_subparsers(dest="readers_command", required=True, metavar="ACTION")

    listing = sub.add_parser("list", help="serial devices that could be readers (use their by-id names)")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(func=cmd_list)

    watch = sub.add_parser("watch", help="print every tap and removal of the configured readers")
    add_reader_arguments(watch)
    watch.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    watch.add_argument("--json", action="store_true", help="one JSON object per line")
    watch.set_defaults(func=cmd_watch)

    fake = sub.add_parser("fake", help="a pure-Python fake reader on a pty, driven by commands on stdin")
    fake.add_argument("kind", choices=["board", "rdm6300", "id12", "pn532"])
    fake.add_argument("--link", help="the path to put the device at (default: a temporary by-id-like path)")
    fake.set_defaults(func=cmd_fake)

    sim = sub.add_parser("sim", help="our board's firmware under simavr on a pty, driven by commands on stdin")
    sim.add_argument("--link", help="the path to put the device at")
    sim.set_defaults(func=cmd_sim)


def cmd_list(args: argparse.Namespace) -> int:
    from companion.rfid.discovery import find_devices

    devices = find_devices()
    if args.json:
        print(json.dumps([d.as_dict() for d in devices], indent=2))
        return 0
    if not devices:
        print("no serial devices found (is the reader plugged in? `dmesg | tail` shows what the kernel saw)")
        return 0
    for d in devices:
        arrow = f" -> {d.device}" if d.device != d.path else ""
        print(f"{d.path}{arrow}\n    {d.description or '(no description)'}\n    {d.hint}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from companion.rfid.service import ReaderService

    try:
        configs = reader_configs(args)
    except ConfigError as exc:
        print(f"companion readers watch: {exc}", file=sys.stderr)
        return 2
    if not configs:
        print("companion readers watch: no readers given (--reader SPEC or --readers-config FILE)", file=sys.stderr)
        return 2

    def show(kind: str, seat: int, uid: str) -> None:
        if args.json:
            print(json.dumps({"time": time.time(), "event": kind, "seat": seat, "uid": uid}), flush=True)
        else:
            print(f"{time.strftime('%H:%M:%S')}  seat {seat}  {kind:<7}  {uid}", flush=True)

    service = ReaderService(configs, on_tap=lambda s, u: show("tap", s, u),
                            on_removed=lambda s, u: show("removed", s, u)).start()
    states: dict[str, str] = {}
    deadline = time.monotonic() + args.seconds if args.seconds else None
    try:
        while deadline is None or time.monotonic() < deadline:
            for reader in service.stats()["readers"]:
                if states.get(reader["name"]) != reader["state"]:
                    states[reader["name"]] = reader["state"]
                    why = f" ({reader['last_error']})" if reader["last_error"] and reader["state"] != "connected" else ""
                    print(f"{time.strftime('%H:%M:%S')}  {reader['name']}: {reader['state']}{why}", file=sys.stderr,
                          flush=True)
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        service.stop()
    for reader in service.stats()["readers"]:
        print(f"{reader['name']}: frames good {reader['frames']['good']}, bad {reader['frames']['bad']}; "
              f"last error: {reader['last_error'] or 'none'}", file=sys.stderr)
    return 0


HELP = """commands: place [READER] UID | remove [READER] | mute READER | unmute READER | unplug | plug | quit
(READER is 1..6 for a board; single readers take no READER)"""


def _drive(device, single: bool) -> int:
    print(f"device at {device.port}\n{HELP}", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        verb, rest = words[0], words[1:]
        try:
            if verb == "quit":
                break
            if verb in ("unplug", "plug"):
                getattr(device, verb)()
            elif verb == "place":
                device.place(*rest) if single else device.place(int(rest[0]), rest[1])
            elif verb == "remove":
                device.remove() if single else device.remove(int(rest[0]), *rest[1:])
            elif verb in ("mute", "unmute") and not single:
                getattr(device, verb)(int(rest[0]))
            else:
                print(HELP)
                continue
            print("ok", flush=True)
        except (IndexError, ValueError, RuntimeError) as exc:
            print(f"error: {exc}", flush=True)
    device.close()
    return 0


def _link(args: argparse.Namespace, name: str) -> Path:
    return Path(args.link) if args.link else Path(tempfile.mkdtemp(prefix="rfid-")) / "by-id" / name


def cmd_fake(args: argparse.Namespace) -> int:
    from companion.rfid import fake

    cls = {"board": fake.FakeBoard, "rdm6300": fake.FakeRdm6300, "id12": fake.FakeId12, "pn532": fake.FakePn532}
    device = cls[args.kind](_link(args, f"usb-fake-{args.kind}-if00"))
    print(f"configure it with: --reader kind={args.kind},port={device.port}" + (",seat=1" if args.kind != "board" else ""))
    return _drive(device, single=args.kind != "board")


def cmd_sim(args: argparse.Namespace) -> int:
    from companion.rfid.sim import SimBoard, SimUnavailable

    try:
        device = SimBoard(_link(args, "usb-TableCompanion_reader-board-sim-if00"))
    except SimUnavailable as exc:
        print(f"companion readers sim: {exc}", file=sys.stderr)
        return 1
    print(f"configure it with: --reader kind=board,port={device.port}")
    return _drive(device, single=False)
