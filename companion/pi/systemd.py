"""Telling systemd how the service is doing (deploy/companion.service is ``Type=notify``).

``READY=1`` once the dashboard listens; then ``WATCHDOG=1`` every few seconds, but only while the
referee's own loop is alive: if it hangs (a deadlock, a stuck camera driver holding the lock),
the pings stop and systemd restarts the service after ``WatchdogSec``. The protocol is a datagram
to the socket named in ``$NOTIFY_SOCKET`` (sd_notify(3)); a dozen lines, so no library for it.
Outside systemd (no ``$NOTIFY_SOCKET``) every call does nothing.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
from typing import Callable

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send one sd_notify message; False when not run by systemd (or the socket is gone)."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
        return True
    except OSError as exc:
        log.warning("could not tell systemd %r: %s", message, exc)
        return False


def watchdog_interval() -> float | None:
    """Half the watchdog timeout systemd asked for (``$WATCHDOG_USEC``), or None without one."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or (pid.isdigit() and int(pid) != os.getpid()):
        return None
    return int(usec) / 1e6 / 2


def start_watchdog(alive: Callable[[], bool], stop: threading.Event) -> threading.Thread | None:
    """Ping the watchdog while ``alive()`` says the service works; None when systemd set none."""
    interval = watchdog_interval()
    if interval is None:
        return None

    def ping() -> None:
        while not stop.wait(interval):
            if alive():
                notify("WATCHDOG=1")
            else:
                log.error("the referee loop has not ticked for a while; letting systemd's watchdog restart us")

    thread = threading.Thread(target=ping, name="systemd-watchdog", daemon=True)
    thread.start()
    return thread


class Heartbeat:
    """When a loop last went round: ``beat()`` from the loop, ``alive()`` from the watchdog."""

    def __init__(self, allowed_seconds: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.allowed = allowed_seconds
        self.clock = clock
        self.last = clock()

    def beat(self) -> None:
        self.last = self.clock()

    def alive(self) -> bool:
        return self.clock() - self.last <= self.allowed
