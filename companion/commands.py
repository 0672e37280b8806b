"""`companion serve`, `companion demo`, `companion replay`, `companion export`."""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

DEFAULT_DATA = "data"


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the companion at a table: camera, readers, dashboard")
    _serve_options(serve)
    serve.add_argument("--source", default="auto",
                       help="camera: auto (Pi camera, else the first USB camera), picamera, a device number "
                            "or /dev/videoN, a video file or image folder, virtual, or none")
    from .rfid.commands import add_reader_arguments

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
                      help="seconds between a battle's cards being placed (smaller is faster)")
    demo.add_argument("--fps", type=float, default=15.0, help="virtual camera frames per second")
    demo.set_defaults(func=cmd_demo)

    replay = sub.add_parser("replay", help="re-derive a game from its JSONL log; print every result and the standings")
    replay.add_argument("log", help="a game log (JSONL, as exported by the dashboard or `companion export`)")
    replay.set_defaults(func=cmd_replay)

    export = sub.add_parser("export", help="write a game's log as JSONL")
    export.add_argument("--data", default=DEFAULT_DATA, help="data folder (default: ./data)")
    export.add_argument("--game", type=int, help="game number (default: the latest)")
    export.set_defaults(func=cmd_export)

    from .bench import register_bench
    from .scan.commands import bench_subparsers

    register_bench(bench_subparsers(sub))


def _serve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default=DEFAULT_DATA, help="data folder holding the game log database (default: ./data)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface, so tablets on the LAN can open it)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--decoder", default="zxing", choices=["zxing", "pyzbar", "opencv"], help="QR decoder")
    parser.add_argument("--settle", type=float, default=1.5,
                        help="seconds the table must be still, every seat having played, before a battle resolves itself")
    parser.add_argument("--quick-settle", type=float, default=0.5,
                        help="the same, when every play is complete by the rules (nothing could still be added to it)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--server", default="waitress", choices=["waitress", "werkzeug"],
                        help="web server (default: waitress; see `companion bench server`)")
    parser.add_argument("--name", default=None,
                        help="the table's name on the LAN: http://NAME.local:PORT/ (default: this machine's host name)")
    parser.add_argument("--no-announce", action="store_true", help="do not announce the table on the LAN (mDNS)")


def _open_service(args):
    from .service import Service
    from .store import StoreError

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.verbose:  # one line per tablet request drowns what matters
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        return Service(args.data, settle_seconds=args.settle,
                       quick_settle_seconds=min(args.quick_settle, args.settle))
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _bind(service, args):
    """The dashboard's server, bound now: a busy port is reported before a camera or reader starts."""
    from .app import create_app
    from .webserver import make_server

    try:
        return make_server(create_app(service), args.host, args.port, args.server)
    except OSError as exc:
        service.stop()
        print(f"companion: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}. Is another companion "
              f"running? Stop it, or choose another --port.", file=sys.stderr)
        raise SystemExit(2) from None


def _banner(service, server, args):
    """Where to open the dashboard: by name (mDNS), by LAN address, and as a QR code to scan."""
    from . import announce

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


def _run_web(service, args, server=None) -> int:
    from . import systemd

    import signal

    server = server or _bind(service, args)
    # `systemctl stop` sends SIGTERM: stop the same way as Ctrl-C, through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    announced = _banner(service, server, args)
    service.start_background()
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
    from .rfid.commands import reader_configs
    from .rfid.config import ConfigError
    from .wiring import attach_camera

    try:
        readers = reader_configs(args)
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    service = _open_service(args)
    server = _bind(service, args)
    if args.source != "none":
        attach_camera(service, args.source, args.decoder)
    if readers:
        from card_tags.pairing import PairingStore, default_path

        from .rfid.service import attach_readers

        attach_readers(service, readers, PairingStore(default_path(args.data)))
    return _run_web(service, args, server)


def cmd_demo(args) -> int:
    from .demo.driver import start_demo

    from .demo.driver import demo_class, demo_games
    from .rules import SetupError, ruleset_class

    try:
        cls = ruleset_class(args.game)
        if demo_class(args.game) is None:
            raise SetupError(f"{args.game} brings no demo players; games with demo players: {', '.join(demo_games())}")
        if args.seats is not None and not cls.min_seats <= args.seats <= cls.max_seats:
            raise SetupError(f"{cls.title} is for {cls.min_seats} to {cls.max_seats} players, not {args.seats}")
    except SetupError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 2
    service = _open_service(args)
    server = _bind(service, args)
    start_demo(service, seats=args.seats, seed=args.seed, pace=args.pace, fps=args.fps, decoder=args.decoder,
               game=args.game)
    return _run_web(service, args, server)


def cmd_replay(args) -> int:
    from .session import LogError, fold, from_jsonl, replay_report

    path = Path(args.log)
    try:
        derived = fold(from_jsonl(path.read_text(encoding="utf-8"), str(path)))
    except FileNotFoundError:
        print(f"companion: {path}: no such file", file=sys.stderr)
        return 2
    except LogError as exc:
        print(f"companion: {path}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(replay_report(derived), indent=2, ensure_ascii=False))
    return 0


def cmd_export(args) -> int:
    from .session import open_store, to_jsonl
    from .store import StoreError

    try:
        store = open_store(args.data)
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    game_id = args.game or store.latest_game()
    if game_id is None:
        print(f"companion: {store.path}: no games yet", file=sys.stderr)
        return 2
    sys.stdout.write(to_jsonl(store.events(game_id)))
    return 0
