"""The `companion` command. Each area of the companion registers its own subcommands:
a module listed in COMMAND_MODULES has ``register(subparsers)`` which adds parsers whose
``func(args) -> int`` does the work."""
from __future__ import annotations

import argparse
import importlib
import sys

# Each module with the commands it registers (tests/test_cli.py checks the two agree). A command
# line that names its command imports that module only: importing them all (the benchmarks', the
# scanner's tools, the hub's) took `companion replay` 0.75 s of CPU here against 0.24 now.
COMMAND_MODULES = {
    "companion.commands": ("serve", "demo", "replay", "export", "import", "backup", "pin"),
    "card_tags.commands": ("tags", "deck", "pair"),   # tags print/size, deck copy/check/import-csv/export-csv, pair ...
    "companion.scan.commands": ("scan", "mat"),
    "companion.rfid.commands": ("readers",),          # readers list | watch | fake | sim
    "companion.hub.server": ("hub",),
    "companion.pi.doctor": ("doctor",),
    "companion.bench.commands": ("bench",),           # bench scan | latency | memory | resume | server | hub | requests | crash ...
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or, given a command's name, one that knows that command alone."""
    parser = argparse.ArgumentParser(prog="companion", description="A table companion that referees battle card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, commands in COMMAND_MODULES.items():
        if command is None or command in commands:
            importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = argv[0] if argv and any(argv[0] in commands for commands in COMMAND_MODULES.values()) else None
    args = build_parser(named).parse_args(argv)
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
