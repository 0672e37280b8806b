"""A real Mosquitto broker on a free loopback port for the hub's tests, and a TCP link that can be
cut (a table's Wi-Fi dropping) between a table and the broker."""
from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from companion.bench.hub import Link
from tests.timing import PATIENCE_S, wait_for

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def wait_port(port: int, timeout: float = PATIENCE_S) -> None:
    wait_for(lambda: listening(port), f"something to listen on port {port}", timeout, every=0.05)


class Mosquitto:
    """``start()``, ``stop()``, ``restart()``; ``url`` for clients. ``extra`` lines go into its config
    (a password file, an ACL)."""

    def __init__(self, folder: Path, extra: str = "", port: int | None = None):
        if not Path(MOSQUITTO).exists():
            pytest.skip("mosquitto is not installed (scripts/setup.sh installs it)")
        self.folder = folder
        self.port = port or free_port()
        self.config = folder / "mosquitto.conf"
        # Run as whoever runs the tests: as root, mosquitto would drop to its own user, who may not
        # read the test's temporary folder (its password file, its ACL).
        # With accounts, as docs/hub.md sets the broker up: anonymous clients refused, and each
        # account's client id is its name, so no account can take another's id and push it off.
        accounts = "allow_anonymous false\nuse_username_as_clientid true" if "password_file" in extra \
            else "allow_anonymous true"
        self.config.write_text(f"listener {self.port} 127.0.0.1\nuser {getpass.getuser()}\n{accounts}\n"
                               f"persistence false\nlog_dest stderr\n{extra}\n")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> "Mosquitto":
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.folder / "mosquitto.log", "ab"))
        wait_port(self.port)
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


class CuttableLink(Link):
    """A TCP relay from a local port to the broker (companion.bench.hub's): ``cut()`` drops every
    connection and refuses new ones until ``mend()``, as a table's Wi-Fi going away and back."""

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"


class Everything:
    """A client subscribed to every topic, keeping every payload it sees. Made once the broker has
    acknowledged the subscription: nothing published afterwards escapes it."""

    def __init__(self, url: str, username: str | None = None, password: str | None = None):
        from companion.hub.broker import Broker

        self.payloads: list[tuple[str, bytes]] = []
        self.client = Broker.parse(url).client("everything-watcher")
        if username:
            self.client.username_pw_set(username, password)
        self.ready = threading.Event()
        self.client.on_connect = lambda c, u, f, r, p=None: c.subscribe("#", qos=1)
        self.client.on_subscribe = lambda c, u, mid, codes, p=None: self.ready.set()
        self.client.on_message = lambda c, u, m: self.payloads.append((m.topic, m.payload))
        host, port = url.split("//")[1].split(":")
        self.client.connect(host, int(port))
        self.client.loop_start()
        assert self.ready.wait(PATIENCE_S), f"no subscription acknowledged by {url} in {PATIENCE_S:.0f} s"

    def text(self) -> str:
        return "\n".join(f"{t} {p.decode(errors='replace')}" for t, p in list(self.payloads))

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
