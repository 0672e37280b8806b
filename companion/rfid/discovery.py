"""Finding the serial devices a reader may be on.

udev gives every USB serial device a stable name under /dev/serial/by-id/ built from its USB
vendor, product and serial number (for example
``usb-1a86_USB_Serial-if00-port0`` or ``usb-Arduino__www.arduino.cc__0043_85736323-if00``). Those
names survive replugging and reboots, unlike /dev/ttyUSB0, so readers are configured by them.
A reader wired to the Pi's own UART appears as /dev/serial0 (a symlink to ttyAMA0 or ttyS0).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BY_ID = Path("/dev/serial/by-id")
PI_UART = Path("/dev/serial0")

# USB vendor ids (and name fragments) of what people connect readers with
ARDUINO = ("2341", "2a03", "arduino")
USB_SERIAL_CHIPS = {"1a86": "CH340", "0403": "FTDI", "10c4": "CP210x", "067b": "PL2303"}


@dataclass(frozen=True)
class SerialDevice:
    path: str           # what to put in the configuration (the by-id name when there is one)
    device: str         # what it points at now (/dev/ttyUSB0 ...)
    description: str
    hint: str           # which kind of reader it could be

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "device": self.device, "description": self.description, "hint": self.hint}


def _hint(name: str, vid: str | None) -> str:
    text = f"{name} {vid or ''}".lower()
    if any(key in text for key in ARDUINO):
        return "an Arduino: our reader board (kind=board) once flashed with firmware/"
    for key, chip in USB_SERIAL_CHIPS.items():
        if key in text or chip.lower() in text:
            hint = f"a {chip} USB-serial adapter: an RDM6300 / ID-12LA (kind=rdm6300|id12) or a PN532 (kind=pn532)"
            if chip == "CH340":
                hint += ", or an Arduino Nano clone (kind=board)"
            return hint
    return "unknown serial device"


def find_devices(by_id: Path = BY_ID, pi_uart: Path = PI_UART) -> list[SerialDevice]:
    """Every serial device worth offering: by-id names first, then the Pi's UART, then USB
    serial ports that have no by-id name (configure those only if nothing better exists)."""
    described = _pyserial_descriptions()
    found: list[SerialDevice] = []
    seen: set[str] = set()
    if by_id.is_dir():
        for link in sorted(by_id.iterdir()):
            target = os.path.realpath(link)
            seen.add(target)
            desc, vid = described.get(target, ("", None))
            found.append(SerialDevice(str(link), target, desc, _hint(link.name + " " + desc, vid)))
    if pi_uart.exists():
        target = os.path.realpath(pi_uart)
        seen.add(target)
        found.append(SerialDevice(str(pi_uart), target, "the Pi's UART (GPIO 14/15)",
                                  "a reader wired to the GPIO header: RDM6300 / ID-12LA through a divider, or a PN532 in HSU mode"))
    for device, (desc, vid) in sorted(described.items()):
        if device not in seen and ("USB" in device or "ACM" in device):
            found.append(SerialDevice(device, device, desc, _hint(desc, vid) + " (no by-id name: its number may change)"))
    return found


def _pyserial_descriptions() -> dict[str, tuple[str, str | None]]:
    try:
        from serial.tools import list_ports
    except ImportError:  # pragma: no cover - pyserial is a dependency
        return {}
    out = {}
    for port in list_ports.comports():
        vid = f"{port.vid:04x}" if port.vid is not None else None
        out[os.path.realpath(port.device)] = (port.description or "", vid)
    return out
