"""`companion serve`, `companion demo`, `companion replay`, `companion export`, `companion import`,
`companion backup`, `companion pin`."""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from companion.scan.stillness import STILL_FRAMES

DEFAULT_DATA = "data"


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the companion at a table: camera, readers, dashboard")
    _serve_options(serve)
    serve.add_argument("--source", default="auto",
                       help="camera: auto (Pi camera, else the first USB camera), picamera, a device number "
                            "or /dev/videoN, a video file or image folder, virtual, or none")
    from companion.rfid.commands import add_reader_arguments

    add_reader_arguments(serve)   # --reader SPEC (repeatable), --readers-config FILE
    serve.set_defaults(func=cmd_serve)

    demo = sub.add_parser("demo", help="serve with a virtual table camera on which simulated players play real tagged cards")
    _serve_options(demo)
    demo.add_argument("--game", default="bom-battle",
                      help="the game the simulated players play: bom-battle, stratego, gt-battle, or any game "
                           "whose package brings demo players (default: bom-battle)")
    demo.add_argument("--seats", type=int, default=None,
                      help="simulated players (default: 3, or what the game needs: 2 for Stratego, 4 for Gather Together)")
    demo.add_argument("--seed", type=int, default=1, help="seed of the simulated players' shuffles and choices")
    demo.add_argument("--pace", type=float, default=1.0,
                      help="how slowly the simulated players play: each result stays 6 x PACE seconds before "
                           "they move on, and each move takes them up to 0.4 x PACE seconds (default 1)")
    demo.add_argument("--fps", type=float, default=15.0, help="virtual camera frames per second")
    demo.set_defaults(func=cmd_demo)

    replay = sub.add_parser("replay", help="re-derive a game from its JSONL log; print every result and the standings")
    replay.add_argument("log", help="a game log (JSONL, as exported by the dashboard or `companion export`)")
    replay.set_defaults(func=cmd_replay)

    export = sub.add_parser("export", help="write a game's log as JSONL")
    export.add_argument("--data", default=DEFAULT_DATA, help="data folder (default: ./data)")
    export.add_argument("--game", type=int, help="game number (default: the latest)")
    export.set_defaults(func=cmd_export)

    imported = sub.add_parser("import", help="restore an exported JSONL game log as the current game of a data folder")
    imported.add_argument("log", help="a game log (JSONL), checked exactly as `companion replay` checks it")
    imported.add_argument("--data", default=DEFAULT_DATA, help="data folder (default: ./data)")
    imported.set_defaults(func=cmd_import)

    backup = sub.add_parser("backup", help="write a consistent copy of the data folder's game log database")
    backup.add_argument("out", help="the copy to write (one SQLite file, e.g. companion-backup.db)")
    backup.add_argument("--data", default=DEFAULT_DATA, help="data folder (default: ./data)")
    backup.set_defaults(func=cmd_backup)

    pin = sub.add_parser("pin", help="print the table PIN, or make a new (longer) one")
    pin.add_argument("--data", default=DEFAULT_DATA, help="data folder (default: ./data)")
    pin.add_argument("--new", action="store_true", help="make a new PIN (seat links stay valid)")
    pin.add_argument("--digits", type=int, default=4, help="digits of a new PIN (4 to 12; default 4)")
    pin.set_defaults(func=cmd_pin)


def _serve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default=DEFAULT_DATA, help="data folder holding the game log database (default: ./data)")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default: every interface, so tablets on the LAN can open it)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--decoder", default="zxing", choices=["zxing", "pyzbar", "opencv"], help="QR decoder")
    parser.add_argument("--settle", type=float, default=1.5,
                        help="seconds the table must be still, every seat having played, before a battle resolves itself "
                             "(with a camera watching: should it never see the table still)")
    parser.add_argument("--quick-settle", type=float, default=0.5,
                        help="the same, when every play is complete by the rules (nothing could still be added to it), "
                             "and after a reader's card")
    parser.add_argument("--still-frames", type=int, default=STILL_FRAMES,
                        help=f"with a camera watching: frames in a row showing nothing moved and every card where it lay "
                             f"before a battle resolves itself (default {STILL_FRAMES})")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a host name (beyond IP addresses, localhost and .local names) tablets may use "
                             "to reach the dashboard; repeatable")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--hub", default=None, help="publish this table to a tournament hub's broker: mqtt://[USER:PASSWORD@]HOST:PORT")
    parser.add_argument("--table", default=None, help="this table's name at the hub (default: --name, or the host name)")
    parser.add_argument("--hub-ca-file", default=None, help="CA certificate of the broker's TLS certificate (mqtts://)")
    parser.add_argument("--server", default="waitress", choices=["waitress", "werkzeug"],
                        help="web server (default: waitress; see `companion bench server`)")
    parser.add_argument("--name", default=None,
                        help="the table's name on the LAN: http://NAME.local:PORT/ (default: this machine's host name)")
    parser.add_argument("--no-announce", action="store_true", help="do not announce the table on the LAN (mDNS)")
    parser.add_argument("--camera-size", default=None, metavar="WxH",
                        help="the camera's resolution, like 1920x1080 (default: camera_size in DATA/camera.json, else "
                             "the largest the camera gives at 15 fps or more, up to 1920x1080; the demo's table: 1280x720)")


CAMERA_CONFIG = "camera.json"


def camera_size(args) -> tuple[int, int] | None:
    """--camera-size, else the table's config (``DATA/camera.json``: {"camera_size": "1920x1080"}),
    else None (the camera's best: sources.best_size). SystemExit(2) saying what is wrong."""
    from companion.scan.sources import parse_size

    text, where = args.camera_size, "--camera-size"
    config = Path(args.data) / CAMERA_CONFIG
    if text is None and config.exists():
        try:
            text, where = json.loads(config.read_text()).get("camera_size"), str(config)
        except (json.JSONDecodeError, AttributeError, UnicodeDecodeError, OSError) as exc:
            print(f"companion: {config}: not a camera config (expected {{\"camera_size\": \"1920x1080\"}}): {exc}",
                  file=sys.stderr)
            raise SystemExit(2) from None
    if text is None:
        return None
    try:
        return parse_size(str(text))
    except ValueError as exc:
        print(f"companion: {where}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _open_service(args):
    from companion.hub.broker import Broker, BrokerError
    from companion.service import Service
    from companion.gamelog.store import StoreError

    if getattr(args, "hub", None):  # a bad broker address is said before anything starts
        try:
            args.hub_broker = Broker.parse(args.hub, args.hub_ca_file)
        except BrokerError as exc:
            print(f"companion: --hub {exc}", file=sys.stderr)
            raise SystemExit(2) from None

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.verbose:  # one line per tablet request drowns what matters
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        return Service(args.data, settle_seconds=args.settle,
                       quick_settle_seconds=min(args.quick_settle, args.settle), still_frames=max(args.still_frames, 1))
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _bind(service, args):
    """The dashboard's server, bound now: a busy port is reported before a camera or reader starts."""
    from companion.web.app import create_app
    from companion.web.server import make_server

    try:
        return make_server(create_app(service, tuple(args.allow_host)), args.host, args.port, args.server)
    except OSError as exc:
        service.stop()
        print(f"companion: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}. Is another companion "
              f"running? Stop it, or choose another --port.", file=sys.stderr)
        raise SystemExit(2) from None


def _banner(service, server, args):
    """Where to open the dashboard: by name (mDNS), by LAN address, and as a QR code to scan."""
    from companion.pi import announce

    local = args.host in ("0.0.0.0", "::")
    address = announce.lan_address() if local else args.host
    found = None
    if local and not args.no_announce:
        found = announce.announce(announce.table_name(args.name), server.port, address)
    lan_url = f"http://{address}:{server.port}/"
    print(f"Dashboard: http://localhost:{server.port}/   Table PIN: {service.pin}" if local
          else f"Dashboard: {lan_url}   Table PIN: {service.pin}", flush=True)
    if found is not None and found.zeroconf is not None:
        print(f"On the LAN: {found.url}  or  {lan_url}", flush=True)
    elif local:
        print(f"On the LAN: {lan_url}", flush=True)
    if local:
        print(announce.terminal_qr(lan_url), flush=True)
    return found


def _attach_hub(service, args) -> None:
    """Publish the table to a tournament hub's broker (companion/hub/publisher.py)."""
    if not args.hub:
        return
    from companion.pi.announce import table_name
    from companion.hub.publisher import HubPublisher

    service.hub = HubPublisher(service, args.hub_broker, table_name(args.table or args.name))
    service.hub.start()
    print(f"Publishing to the hub at {service.hub.broker} as table {service.hub.table!r}", flush=True)


def stop_on_signals() -> None:
    """`systemctl stop` sends SIGTERM: stop the same way as Ctrl-C (a KeyboardInterrupt out of the
    server's loop, then the finally that closes everything). Only the first one: a second signal
    while stopping (Ctrl-C pressed twice, a SIGTERM after the Ctrl-C) would otherwise raise in the
    middle of the stop and skip closing the game log and the server, with a traceback."""
    import signal

    stopping = False

    def stop(signum, frame) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise KeyboardInterrupt
        print("Stopping already; a moment.", file=sys.stderr, flush=True)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)


def keep_the_start() -> None:
    """The objects the start made (modules, the rules, the pipeline, the web app: 30,000-60,000) live
    as long as the process: moved out of the cyclic garbage collector's reach (``gc.freeze``), so
    that a full collection walks only what was made since. One walked them all for 24 ms here (100-150
    ms on a Pi 4: three or four frames at 30 fps, every thread held meanwhile), 0.04 ms after. What is
    garbage already is collected first, not kept for good."""
    import gc

    gc.collect()
    gc.freeze()


def _run_web(service, args, server=None) -> int:
    from companion.pi import systemd

    server = server or _bind(service, args)
    stop_on_signals()
    announced = _banner(service, server, args)
    service.start_background()
    _attach_hub(service, args)
    keep_the_start()
    systemd.notify("READY=1")
    systemd.start_watchdog(service.heartbeat.alive, service.stopping)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        systemd.notify("STOPPING=1")
        if announced is not None:
            announced.close()
        service.stop()
        server.shutdown()
    return 0


def cmd_serve(args) -> int:
    from companion.rfid.commands import reader_configs
    from companion.rfid.config import ConfigError
    from companion.wiring import attach_camera

    try:
        readers = reader_configs(args)
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    size = camera_size(args)
    service = _open_service(args)
    server = _bind(service, args)
    if args.source != "none":
        attach_camera(service, args.source, args.decoder, size=size)
    if readers:
        from card_tags.pairing import PairingStore, default_path

        from companion.rfid.service import attach_readers

        attach_readers(service, readers, PairingStore(default_path(args.data)))
    return _run_web(service, args, server)


def cmd_demo(args) -> int:
    from companion.demo.driver import demo_class, demo_games, start_demo
    from companion.rules import SetupError, ruleset_class

    try:
        cls = ruleset_class(args.game)
        if demo_class(args.game) is None:
            raise SetupError(f"{args.game} brings no demo players; games with demo players: {', '.join(demo_games())}")
        if args.seats is not None and not cls.min_seats <= args.seats <= cls.max_seats:
            raise SetupError(f"{cls.title} is for {cls.min_seats} to {cls.max_seats} players, not {args.seats}")
    except SetupError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 2
    size = camera_size(args) or (1280, 720)
    service = _open_service(args)
    server = _bind(service, args)
    start_demo(service, seats=args.seats, seed=args.seed, pace=args.pace, fps=args.fps, decoder=args.decoder,
               game=args.game, size=size)
    return _run_web(service, args, server)


def read_log(path: Path):
    """A JSONL log folded exactly as `replay` and `import` check it; SystemExit(2) with the reason."""
    from companion.gamelog.fold import fold
    from companion.gamelog.session import LogError, from_jsonl

    try:
        events = from_jsonl(path.read_text(encoding="utf-8"), str(path))
        return events, fold(events)
    except FileNotFoundError:
        reason = "no such file"
    except UnicodeDecodeError:
        reason = "not a text file (a game log is JSON Lines, UTF-8)"
    except OSError as exc:
        reason = f"cannot be read ({exc.strerror or exc})"
    except LogError as exc:
        reason = str(exc).removeprefix(f"{path} ")
    print(f"companion: {path}: {reason}", file=sys.stderr)
    raise SystemExit(2)


def cmd_replay(args) -> int:
    from companion.gamelog.session import replay_report

    _, derived = read_log(Path(args.log))
    print(json.dumps(replay_report(derived), indent=2, ensure_ascii=False))
    return 0


def cmd_import(args) -> int:
    from companion.gamelog.session import open_store
    from companion.gamelog.store import StoreError

    path = Path(args.log)
    events, derived = read_log(path)
    try:
        store = open_store(args.data)
        game_id = store.begin_game(derived.start["game"], events)
        store.close()
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    print(f"{path}: {len(events)} events imported into {store.path} as game {game_id}, now its current game "
          f"(a companion already running there shows it after a restart)")
    return 0


def cmd_backup(args) -> int:
    from companion.gamelog.session import open_store
    from companion.gamelog.store import StoreError

    try:
        store = open_store(args.data)
        written = store.backup(args.out)
        store.close()
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion: {args.out}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
        return 2
    print(f"{written}: a consistent copy of {store.path} ({len(store_games(written))} games)")
    return 0


def store_games(path: Path) -> list:
    from companion.gamelog.store import Store

    copy = Store(path)
    try:
        return copy.games()
    finally:
        copy.close()


def cmd_pin(args) -> int:
    from companion.service import load_table_secrets, new_pin, write_table_secrets

    data = Path(args.data)
    if not 4 <= args.digits <= 12:
        print("companion pin: --digits must be 4 to 12", file=sys.stderr)
        return 2
    table = load_table_secrets(data)
    if args.new:
        table = write_table_secrets(data, new_pin(args.digits), table["token_secret"])
        print("A new table PIN (a companion already running uses it after a restart):")
    print(table["pin"])
    return 0


def cmd_export(args) -> int:
    from companion.gamelog.session import open_store, to_jsonl
    from companion.gamelog.store import StoreError

    try:
        store = open_store(args.data)
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    try:
        game_id = args.game or store.latest_game()
        if game_id is None:
            print(f"companion: {store.path}: no games yet", file=sys.stderr)
            return 2
        events = store.events(game_id)
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(to_jsonl(events))
    return 0
