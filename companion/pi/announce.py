"""The table found by name: the service announces itself on the LAN with mDNS/DNS-SD.

A tablet (or a phone) on the same Wi-Fi opens ``http://<table-name>.local:<port>/`` instead of an IP
address, and DNS-SD browsers list the table as an ``_http._tcp`` service. python-zeroconf does the
announcing, so it works the same on a Pi with or without Avahi running (zeroconf and Avahi share
port 5353 politely: both set SO_REUSEPORT). The banner also prints the LAN address and a QR code
of it in the terminal (segno), for a tablet whose browser does not resolve ``.local`` names
(Android before 12).
"""
from __future__ import annotations

import logging
import re
import socket
import threading
from dataclasses import dataclass

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."


def table_name(name: str | None = None) -> str:
    """A DNS label for the table: the given name, else this machine's host name; letters, digits
    and hyphens only ("Club Table 3" -> "club-table-3")."""
    raw = (name or socket.gethostname() or "table").lower()
    label = re.sub(r"[^a-z0-9-]+", "-", raw).strip("-")[:63]
    return label or "table"


def lan_address() -> str:
    """The address other machines on the LAN reach this one at (the interface of the default
    route; no packet is sent), or 127.0.0.1 when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only, never reached
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


@dataclass
class Announcement:
    name: str
    port: int
    address: str
    zeroconf: object | None = None
    info: object | None = None
    registered: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.name}.local:{self.port}/"

    def close(self) -> None:
        if self.registered is not None:
            self.registered.join(10)
        if self.zeroconf is not None:
            try:
                self.zeroconf.unregister_service(self.info)
            finally:
                self.zeroconf.close()
            self.zeroconf = None


def announce(name: str, port: int, address: str | None = None, interfaces=None) -> Announcement:
    """Register ``<name>._http._tcp.local.`` and the host name ``<name>.local`` for ``address``.
    A network where multicast fails is logged and the service runs on, found by its address."""
    address = address or lan_address()
    found = Announcement(name, port, address)
    try:
        from zeroconf import InterfaceChoice, ServiceInfo, Zeroconf

        info = ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port,
                           addresses=[socket.inet_aton(address)], server=f"{name}.local.",
                           properties={"path": "/", "app": "table-companion"})
        zc = Zeroconf(interfaces=interfaces or InterfaceChoice.All)
        found.zeroconf, found.info = zc, info
    except Exception as exc:  # no multicast (a container, a locked-down Wi-Fi): not fatal
        log.warning("could not announce %s on the LAN (mDNS): %s", found.url, exc)
        return found
    # Registering probes the name for about two seconds: the dashboard need not wait for that.
    found.registered = threading.Thread(target=_register, args=(zc, info, found.url), name="mdns", daemon=True)
    found.registered.start()
    return found


def _register(zc, info, url: str) -> None:
    try:
        zc.register_service(info, allow_name_change=True)
    except Exception as exc:
        log.warning("could not announce %s on the LAN (mDNS): %s", url, exc)


def terminal_qr(url: str) -> str:
    """A QR code of ``url`` drawn with block characters, for the start banner."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
