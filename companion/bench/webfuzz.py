"""Malformed requests thrown at every state-changing route of the dashboard, with hypothesis:
``python -m companion.bench.webfuzz [-n 3000]`` (or ``companion bench requests``).

Against a real game (a three-seat Book of Mormon battle) in a scratch data folder, through
Flask's test client (the whole app, without a socket), hypothesis builds requests to every POST
route (and a few GET routes asked with POST): bodies of random bytes, random JSON of every shape,
command- and setup-shaped objects whose fields have the wrong types, deep nesting, oversized
bodies, odd content types; with the right PIN, a wrong one, a non-ASCII one or none (in the header
or a form field); from the table's own page or another site. Every reply must be:

- below 500 (a refusal is a 4xx with a sentence);
- when refused (anything but 200), free of any change: the game is the same game, with the same
  log (a command the referee refuses, 409, is logged by design but changes no state).

Then GETs of the public routes: each page with each odd number (``inf``, ``1e308``, ``nan``...)
in each query value, and a third as many again with odd paths (a seat token of any text) and
texts: below 500, and nothing changes.

It prints how many requests were sent, how many got each status, and how many were 5xx.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.web import security
from companion.web.app import create_app
from companion.service import Service

KINDS = ["resolve", "undo", "withdraw", "cancel", "start", "card_seen", "card_gone", "", "x" * 50, "\ud800"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(["\ud800", "A\udfffB"]),  # lone surrogates: JSON can carry them, UTF-8 cannot
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
commands = st.fixed_dictionaries({"kind": st.sampled_from(KINDS) | json_values},
                                 optional={"data": json_values | st.dictionaries(st.sampled_from(
                                     ["seat", "seq", "zone", "card", "target"]), json_values, max_size=3)})
setups = st.fixed_dictionaries({"game": st.sampled_from(["bom-battle", "stratego", "nope"]) | json_values},
                               optional={"players": json_values | st.lists(json_values, max_size=8),
                                         "options": json_values})


def _encode(value) -> bytes:
    return json.dumps(value).encode()


bodies = st.one_of(
    st.binary(max_size=120),
    json_values.map(_encode),
    commands.map(_encode), commands.map(_encode), commands.map(_encode),  # most requests reach the checks
    setups.map(_encode), setups.map(_encode),
    st.integers(1, 4000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(1, 300).map(lambda n: b'{"kind": "undo", "data": ' + b'{"a": ' * n + b"1" + b"}" * n + b"}"),
    st.sampled_from([b"x" * (security.MAX_BODY + 1), b'{"kind": "resolve", "data": {"n": NaN}}', b"\xff\xfe\x00"]),
)


@dataclass
class Tally:
    statuses: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)

    @property
    def sent(self) -> int:
        return sum(self.statuses.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def fingerprint(service: Service) -> tuple:
    session = service.session
    return (session.game_id, len(session.events()), json.dumps(session.public_view(), sort_keys=True))


ODD_NUMBERS = ("nan", "inf", "-inf", "1e308", "-1", "0", "0x0", "١٢", "")
QUERY_NAMES = ("game", "layout", "camera_height", "resolution", "fov", "paper", "page", "deck", "text")
SHEET_NAMES = ("camera_height", "resolution", "fov", "paper", "page")
PAGES = ("/tags", "/catalog", "/tags/bom-battle/card-63x88.svg", "/tags/stratego/stratego.svg", "/api/qr.svg",
         "/api/history", "/api/state", "/api/devices")
readable = st.one_of(
    st.sampled_from(PAGES),
    st.text(max_size=30).map(lambda t: f"/api/seat/{quote(t, safe='')}"),
    st.tuples(st.text(max_size=8), st.text(max_size=8)).map(
        lambda g: f"/tags/{quote(g[0], safe='')}/{quote(g[1], safe='')}.svg"))
queries = st.dictionaries(st.sampled_from(QUERY_NAMES), st.text(max_size=12), max_size=4)


def looks(client, service: Service, examples: int, tally: Tally) -> None:
    """The public GET routes: every page with each odd number in each query value, one at a time
    (so no other value is refused first), then ``examples`` odd paths and texts. No 5xx, and
    nothing changes."""
    def look(path, query):
        reply = client.get(path, query_string=query)
        tally.statuses[reply.status_code] += 1
        if reply.status_code >= 500:
            tally.failures.append(f"GET {path} {query} -> {reply.status_code}")

    before = fingerprint(service)

    for path in PAGES:
        names = SHEET_NAMES if path.endswith(".svg") else QUERY_NAMES  # a sheet takes long to draw: what it reads
        for name in names:
            for value in ODD_NUMBERS:
                look(path, {name: value})

    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(path=readable, query=queries)
    def random_look(path, query):
        look(path, query)

    random_look()
    assert fingerprint(service) == before, "a GET changed the game"


def run(examples: int, data_dir: Path, tally: Tally | None = None) -> Tally:
    """Send ``examples`` hypothesis-made requests to the state-changing routes, then the GETs of
    ``looks``; return the statuses seen and any failure."""
    tally = tally or Tally()
    service = Service(data_dir)
    service.start_game("bom-battle", [{"seat": n, "name": name} for n, name in enumerate(("Ann", "Ben", "Cal"), 1)])
    app = create_app(service)
    client = app.test_client()
    paths = sorted({r.rule for r in app.url_map.iter_rules() if "POST" in r.methods and "<" not in r.rule})
    paths += [p for p in paths if p in ("/api/command", "/api/games")] * 2  # the two that take bodies, more often
    paths.append("/api/export.jsonl")  # a GET route asked with POST: a 405, never a 500

    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(path=st.sampled_from(paths), body=bodies,
           pin=st.sampled_from(["right"] * 6 + ["wrong", "none", "arabic", "form"])
           | st.text(st.characters(blacklist_characters="\r\n"), max_size=6),
           content_type=st.sampled_from(["application/json", "application/x-www-form-urlencoded",
                                         "text/plain", "multipart/form-data", None]),
           origin=st.sampled_from([None] * 4 + ["same"] * 3 + ["http://evil.example", "null", "::"]))
    def one(path, body, pin, content_type, origin):
        app.config["PIN_GUARD"] = security.PinGuard()  # the limiter is tested apart: here, every try counts
        headers = {}
        if pin in ("right", "wrong", "arabic"):
            headers["X-Table-PIN"] = {"right": service.pin, "wrong": "9" * 9,
                                      "arabic": "١٢٣٤".encode().decode("latin-1")}[pin]
        elif pin == "form":
            body, content_type = b"pin=" + service.pin.encode() + b"&" + body, "application/x-www-form-urlencoded"
        elif pin != "none":
            headers["X-Table-PIN"] = pin.encode("utf-8", "replace").decode("latin-1")
        if origin is not None:
            headers["Origin"] = "http://localhost" if origin == "same" else origin
        if content_type:
            headers["Content-Type"] = content_type
        before = fingerprint(service)
        reply = client.post(path, data=body, headers=headers)
        tally.statuses[reply.status_code] += 1
        if reply.status_code >= 500:
            tally.failures.append(f"{path} {body[:80]!r} -> {reply.status_code} {reply.get_data()[:200]!r}")
        elif reply.status_code == 409:
            assert fingerprint(service)[::2] == before[::2], f"{path} {body[:80]!r}: a refused command changed the game"
        elif reply.status_code != 200:
            assert fingerprint(service) == before, f"{path} {body[:80]!r}: refused ({reply.status_code}) yet changed"

    try:
        one()
        looks(client, service, max(examples // 3, 1), tally)
    finally:
        service.close()
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench.webfuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--requests", type=int, default=3000, help="requests to send (default 3000)")
    args = parser.parse_args(argv)
    return report(args.requests)


def report(requests: int) -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        tally = run(requests, Path(tmp) / "data")
    seconds = time.perf_counter() - started
    shown = ", ".join(f"{status}: {n}" for status, n in sorted(tally.statuses.items()))
    print(f"{tally.sent} malformed requests ({requests} to the state-changing routes, the rest to the "
          f"public ones) in {seconds:.1f} s "
          f"({tally.sent / seconds:.0f}/s); statuses {shown}; 5xx: {tally.server_errors}")
    for failure in tally.failures[:10]:
        print("  5xx:", failure)
    return 1 if tally.server_errors else 0


if __name__ == "__main__":
    sys.exit(main())
