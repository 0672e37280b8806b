"""The `companion` command. Each area of the companion registers its own subcommands:
a module listed in COMMAND_MODULES has ``register(subparsers)`` which adds parsers whose
``func(args) -> int`` does the work."""
from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = [
    "companion.commands",        # serve, demo, replay, export
    "card_tags.commands",        # tags print/size, deck copy/check/import-csv/export-csv, pair ...
    "companion.scan.commands",   # scan, mat print
    "companion.rfid.commands",   # readers list | watch | fake | sim
    "companion.hub.server",      # hub
    "companion.pi.doctor",       # doctor
    "companion.bench.commands",  # bench scan | latency | memory | resume | server | hub | requests | crash ...
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="A table companion that referees battle card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`companion scan ... | head`): stop quietly, as other tools do.
        # Python would complain again flushing stdout at exit, so point it at /dev/null first.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a tool stopped this way


if __name__ == "__main__":
    sys.exit(main())
