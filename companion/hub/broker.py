"""A broker address (``mqtt://user:password@host:port``, ``mqtts://`` for TLS) and a paho client for it."""
from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

TOPIC_ROOT = "companion"


class BrokerError(ValueError):
    """A broker address that cannot be used; the message says what is wrong."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None

    @classmethod
    def parse(cls, url: str, ca_file: str | None = None) -> "Broker":
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts"):
            raise BrokerError(f"{url!r}: a broker is mqtt://HOST:PORT (or mqtts:// for TLS)")
        if not parts.hostname:
            raise BrokerError(f"{url!r}: no host")
        try:
            port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
        except ValueError:
            raise BrokerError(f"{url!r}: the port is not a number") from None
        return cls(parts.hostname, port, unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, parts.scheme == "mqtts", ca_file)

    def client(self, client_id: str, clean: bool = True):
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
        if self.username:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=self.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        client.on_socket_open = _no_delay
        return client

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def _no_delay(client, userdata, sock) -> None:
    """Send each MQTT packet at once. With Nagle's algorithm (paho leaves it on) a small packet
    written while the previous one is unacknowledged waits for the peer's delayed ACK, up to 40 ms
    on Linux: measured, it was the hub's p95 (docs/benchmarks.md)."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass  # not a TCP socket (a websocket's wrapper): nothing to set


def table_topic(table: str, leaf: str) -> str:
    return f"{TOPIC_ROOT}/tables/{table}/{leaf}"


def ack_topic(table: str) -> str:
    return f"{TOPIC_ROOT}/hub/ack/{table}"
