"""What guards the dashboard: the PIN's guess limiter, the size, shape and origin of requests.

Every state-changing request passes, in this order, before anything it carries is read:

1. ``check_origin``: it comes from this dashboard (its Origin, Referer or Sec-Fetch-Site say so)
   and names this table by a local name (an IP address, ``localhost``, a ``.local`` name...), so a
   web page elsewhere cannot post a form to the table, nor reach it by DNS rebinding.
2. its body is at most ``MAX_BODY`` bytes (checked on Content-Length, before reading it);
3. the table PIN (``PinGuard`` slows guesses per client: after ``FREE_TRIES`` wrong PINs each
   further try waits, doubling up to ``MAX_WAIT_S``);
4. only then is the JSON body parsed and its types checked (``json_object``), and a refusal is a
   400 with a sentence, never stored in the game log.
"""
from __future__ import annotations

import ipaddress
import json
import math
import threading
import time
from typing import Any, Callable
from urllib.parse import urlsplit

from companion.gamelog.finite import NotFinite, finite_decoder
from companion.gamelog.logcheck import depth

MAX_BODY = 64 * 1024          # every command fits in a few hundred bytes; a whole setup in a few KB
MAX_DEPTH = 8                 # commands nest two or three levels
FREE_TRIES = 5                # wrong PINs before a client must wait
MAX_WAIT_S = 60.0             # the longest wait between two guesses
FORGET_S = 3600.0             # a client quiet this long starts afresh
MAX_CLIENTS = 4096            # clients remembered at once (the oldest quiet ones are dropped first)
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
LOCAL_SUFFIXES = (".local", ".localhost", ".lan", ".home.arpa", ".internal")


class Refused(Exception):
    """A request refused before it touched the game: an HTTP status and a sentence for the player."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


# -- the PIN ---------------------------------------------------------------------------------------
class PinGuard:
    """Per-client wrong-PIN counter. After FREE_TRIES wrong PINs a client waits 1 s, then 2, 4...
    up to MAX_WAIT_S before each further try; a right PIN, or FORGET_S of quiet, clears it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._lock = threading.Lock()
        self._clients: dict[str, tuple[int, float]] = {}  # client -> (wrong tries, time of the last)

    @staticmethod
    def wait_after(wrong: int) -> float:
        """Seconds a client must wait after its ``wrong``-th wrong PIN."""
        if wrong < FREE_TRIES:
            return 0.0
        # the exponent is capped: 2.0 ** 1024 overflows (a client's 1,029th wrong PIN was a 500)
        return min(2.0 ** min(wrong - FREE_TRIES, 30), MAX_WAIT_S)

    def retry_after(self, client: str) -> float:
        """Seconds until this client may try a PIN again (0: now)."""
        with self._lock:
            wrong, last = self._clients.get(client, (0, 0.0))
            if not wrong:
                return 0.0
            now = self.clock()
            if now - last >= FORGET_S:
                del self._clients[client]
                return 0.0
            return max(0.0, last + self.wait_after(wrong) - now)

    def wrong(self, client: str) -> None:
        with self._lock:
            wrong, _ = self._clients.pop(client, (0, 0.0))
            if len(self._clients) >= MAX_CLIENTS:  # drop the longest-quiet client
                oldest = min(self._clients, key=lambda c: self._clients[c][1])
                del self._clients[oldest]
            self._clients[client] = (wrong + 1, self.clock())

    def right(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)


def seconds_to_try_every_pin(digits: int) -> float:
    """How long one client needs to try every PIN of this many digits, waiting as told."""
    total = 0.0
    for wrong in range(1, 10 ** digits):
        total += PinGuard.wait_after(wrong)
        if wrong > FREE_TRIES + 10:  # the wait has long reached its cap: the rest is arithmetic
            return total + (10 ** digits - 1 - wrong) * MAX_WAIT_S
    return total


def check_pin(guard: PinGuard, client: str, given: str, pin: str) -> None:
    """Raise Refused unless ``given`` is the PIN and this client may try now."""
    wait = guard.retry_after(client)
    if wait > 0:
        seconds = math.ceil(wait)
        raise Refused(429, f"too many wrong PINs from this device; try again in {seconds} s",
                      {"Retry-After": str(seconds)})
    if not given:
        raise Refused(403, "this needs the table PIN (printed by `companion serve` at start)")
    if not _same_text(given, pin):
        guard.wrong(client)
        raise Refused(403, "wrong table PIN; nothing was changed")
    guard.right(client)


def _same_text(given: str, expected: str) -> bool:
    import hmac

    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


# -- where a request comes from --------------------------------------------------------------------
def is_local_host(host: str, allowed: tuple[str, ...] = ()) -> bool:
    """A Host a table is reached by: an IP address, localhost, a one-word or .local-style name,
    or one the owner allowed (``--allow-host``). A public name means DNS rebinding."""
    name = _hostname(host)
    if not name:
        return False
    if name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name == "localhost" or "." not in name or name.endswith(LOCAL_SUFFIXES)


def _hostname(host: str) -> str:
    try:
        return (urlsplit(f"//{host}").hostname or "").lower()
    except ValueError:
        return ""


def _netloc(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        return parts.netloc.lower() if parts.scheme in ("http", "https") and parts.netloc else None
    except ValueError:
        return None


def check_origin(method: str, headers, host: str, allowed: tuple[str, ...] = ()) -> None:
    """Raise Refused when a state-changing request comes from another site or a foreign name."""
    if method in SAFE_METHODS:
        return
    if not is_local_host(host, allowed):
        raise Refused(403, f"this table answers changes only at its own address, not {host[:80]!r}; "
                           f"open the dashboard by the address `companion serve` printed")
    origin = headers.get("Origin")
    if origin is not None and origin != "null":
        if _netloc(origin) != host.lower():
            raise Refused(403, "this change came from another web page; changes are taken only from the "
                               "table's own dashboard")
        return
    if origin == "null" or headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        raise Refused(403, "this change came from another web page; changes are taken only from the "
                           "table's own dashboard")
    referer = headers.get("Referer")
    if referer and _netloc(referer) != host.lower():
        raise Refused(403, "this change came from another web page; changes are taken only from the "
                           "table's own dashboard")


# -- the body --------------------------------------------------------------------------------------
def check_length(content_length: int | None) -> None:
    if content_length is not None and content_length > MAX_BODY:
        raise Refused(413, f"this request is {content_length} bytes; a change is at most {MAX_BODY} bytes")


_DECODER = finite_decoder()


def json_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object, or Refused(400) saying what is wrong with it."""
    if not raw.strip():
        return {}
    try:
        value = _DECODER.decode(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refused(400, "the request body is not UTF-8 text") from None
    except NotFinite as exc:
        raise Refused(400, f"the request holds {exc.text[:40]}, which is not a finite number; "
                           f"every number must be one") from None
    except (ValueError, RecursionError):
        raise Refused(400, "the request body is not valid JSON") from None
    if not isinstance(value, dict):
        raise Refused(400, f"the request body must be a JSON object, not {_kind(value)}")
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # "\ud800": a lone surrogate, which no database or page can hold
        raise Refused(400, "the request holds text that is not valid Unicode") from None
    if depth(value, MAX_DEPTH + 1) > MAX_DEPTH:
        raise Refused(400, f"the request nests deeper than {MAX_DEPTH} levels; no command does")
    return value


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def field(body: dict[str, Any], name: str, kind: type, default: Any, what: str) -> Any:
    """``body[name]`` checked to be of ``kind`` (``default`` when absent or null)."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise Refused(400, f"'{name}' must be {what}, not {_kind(value)}")
    return value


def text_field(body: dict[str, Any], name: str, limit: int = 64) -> str:
    value = field(body, name, str, "", "a text")
    if len(value) > limit:
        raise Refused(400, f"'{name}' is longer than {limit} characters")
    return value


def names_field(body: dict[str, Any], name: str = "players", most: int = 12, limit: int = 40) -> list[str]:
    """A list of player names: strings, each at most ``limit`` characters; blank ones dropped."""
    values = field(body, name, list, [], "a list of names")
    if len(values) > most:
        raise Refused(400, f"'{name}' lists {len(values)} names; a table seats at most {most}")
    names = []
    for value in values:
        if not isinstance(value, str):
            raise Refused(400, f"each of '{name}' must be a name (text), not {_kind(value)}")
        if len(value.strip()) > limit:
            raise Refused(400, f"a player's name is at most {limit} characters")
        if value.strip():
            names.append(value.strip())
    return names
