"""Which reader sits at which seat: from a config file or ``--reader`` options.

A reader spec on the command line is comma-separated key=value pairs:

    --reader seat=3,kind=rdm6300,port=/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0
    --reader kind=board,port=/dev/serial/by-id/usb-Arduino__www.arduino.cc__0043_8573-if00,seats=1-6
    --reader kind=pn532,seat=5,port=/dev/ttyAMA0,timeout=0.5

Keys: ``kind`` (board, rdm6300, id12 — also for the ID-20LA —, pn532), ``port``, ``seat`` (a
single reader) or ``seats`` (our board: the seat of reader 1, 2, ... as ``1-6`` or ``3+4+1``;
by default reader N is seat N), and optional ``name``, ``timeout`` (seconds without a sighting
before a card counts as removed), ``poll`` (PN532 poll interval, seconds), ``baud``.

A config file (JSON, or TOML when its name ends in .toml) holds a list of the same:

    {"readers": [{"kind": "rdm6300", "seat": 3, "port": "/dev/serial/by-id/..."}]}

    [[reader]]
    kind = "board"
    port = "/dev/serial/by-id/usb-Arduino..."
    seats = [1, 2, 3, 4, 5, 6]
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("board", "rdm6300", "id12", "pn532")
ALIASES = {"id12la": "id12", "id20": "id12", "id20la": "id12", "id-12la": "id12", "id-20la": "id12"}
MAX_BOARD_READERS = 6


class ConfigError(ValueError):
    """A reader configuration that cannot work; the message names the reader and the key."""


@dataclass(frozen=True)
class ReaderConfig:
    kind: str
    port: str
    seats: tuple[int, ...]      # seats[i] is the seat of reader i + 1 (one entry but for a board)
    name: str = ""
    removal_timeout: float | None = None
    poll_interval: float | None = None
    baudrate: int | None = None
    options: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def label(self) -> str:
        return self.name or f"{self.kind}@{Path(self.port).name}"

    def seat_of_reader(self, number: int) -> int | None:
        """Seat of the board's reader ``number`` (1-based), None when it is not mapped."""
        return self.seats[number - 1] if 1 <= number <= len(self.seats) else None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "port": self.port, "seats": list(self.seats), "name": self.label}
        for key in ("removal_timeout", "poll_interval", "baudrate"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d


def _seat_number(value: Any, where: str) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: seat {value!r} is not a number") from None
    if not 1 <= seat <= 99:
        raise ConfigError(f"{where}: seat {seat} must be 1..99")
    return seat


def _seats(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, (list, tuple)):
        seats = [_seat_number(v, where) for v in value]
    else:
        text = str(value)
        if "-" in text and "+" not in text:
            first, _, last = text.partition("-")
            a, b = _seat_number(first, where), _seat_number(last, where)
            if b < a:
                raise ConfigError(f"{where}: seats {text!r} run backwards")
            seats = list(range(a, b + 1))
        else:
            seats = [_seat_number(v, where) for v in text.split("+")]
    if not 1 <= len(seats) <= MAX_BOARD_READERS:
        raise ConfigError(f"{where}: a board has 1..{MAX_BOARD_READERS} readers, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise ConfigError(f"{where}: seats {seats} name a seat twice")
    return tuple(seats)


def _number(raw: dict[str, Any], key: str, where: str, kind: type = float) -> Any:
    if key not in raw or raw[key] in (None, ""):
        return None
    try:
        value = kind(raw[key])
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: {key}={raw[key]!r} is not a number") from None
    if value <= 0:
        raise ConfigError(f"{where}: {key} must be positive, not {value}")
    return value


KNOWN_KEYS = {"kind", "port", "seat", "seats", "name", "timeout", "removal_timeout", "poll", "poll_interval", "baud",
              "baudrate"}


def reader_config(raw: dict[str, Any], where: str = "reader") -> ReaderConfig:
    """A ReaderConfig from a dict of the keys above; ConfigError names what is wrong."""
    unknown = sorted(set(raw) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; keys are kind, port, seat, seats, name, timeout, "
                          f"poll, baud")
    kind = str(raw.get("kind", "")).lower()
    kind = ALIASES.get(kind, kind)
    if kind not in KINDS:
        raise ConfigError(f"{where}: kind must be one of {', '.join(KINDS)}, not {raw.get('kind')!r}")
    port = str(raw.get("port", "")).strip()
    if not port:
        raise ConfigError(f"{where}: no port (use the device's /dev/serial/by-id/... name)")
    if kind == "board":
        if "seat" in raw:
            raise ConfigError(f"{where}: our board has several readers; give seats=1-6 (reader N -> seat), not seat=")
        seats = _seats(raw.get("seats", f"1-{MAX_BOARD_READERS}"), where)
    else:
        if "seats" in raw:
            raise ConfigError(f"{where}: a {kind} is one reader; give seat=N")
        if "seat" not in raw:
            raise ConfigError(f"{where}: which seat is this {kind} at? (seat=N)")
        seats = (_seat_number(raw["seat"], where),)
    return ReaderConfig(kind=kind, port=port, seats=seats, name=str(raw.get("name", "")),
                        removal_timeout=_number(raw, "timeout", where) or _number(raw, "removal_timeout", where),
                        poll_interval=_number(raw, "poll", where) or _number(raw, "poll_interval", where),
                        baudrate=_number(raw, "baud", where, int) or _number(raw, "baudrate", where, int))


def parse_reader_spec(spec: str) -> ReaderConfig:
    """``seat=3,kind=rdm6300,port=/dev/...`` -> ReaderConfig."""
    raw: dict[str, Any] = {}
    for part in spec.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--reader {spec!r}: {part!r} is not key=value")
        raw[key.strip().lower()] = value.strip()
    return reader_config(raw, f"--reader {spec!r}")


def load_config(path: str | Path) -> list[ReaderConfig]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not valid {'TOML' if path.suffix == '.toml' else 'JSON'} ({exc})") from None
    entries = data.get("readers", data.get("reader")) if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: expected a list of readers under 'readers' (JSON) or [[reader]] (TOML)")
    configs = []
    for index, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: reader {index} is not a table of key = value")
        configs.append(reader_config(entry, f"{path}: reader {index}"))
    return check_configs(configs)


def check_configs(configs: list[ReaderConfig]) -> list[ReaderConfig]:
    """Refuse two readers at one seat or two readers on one port."""
    seat_owner: dict[int, str] = {}
    ports: set[str] = set()
    for config in configs:
        if config.port in ports:
            raise ConfigError(f"{config.label}: port {config.port} is configured twice")
        ports.add(config.port)
        for seat in config.seats:
            if seat in seat_owner:
                raise ConfigError(f"seat {seat} has two readers: {seat_owner[seat]} and {config.label}")
            seat_owner[seat] = config.label
    return configs
