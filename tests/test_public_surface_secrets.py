"""The whole public surface, crawled as a player at the table could: every page and JSON route
the dashboard serves without the PIN or a seat token, and the event stream, for every game the
registry lists (``companion.rules.available()``: a game added later is crawled without touching
this file). Nothing hidden may appear: no card key or RFID UID the game's referee keeps out of the
public history, and for the games with hidden information their secrets by name (a Stratego rank
that was never revealed, a Gather Together identity that was never exposed).

The camera and readers report what they see on the devices panel (public: the page, /api/state,
the stream); the test gives the service a camera and readers that see every card it was shown.

Pages that do not change with play (the deck's tag sheets and catalog, the setup page) hold no
secret of the play, even though they list every card of the deck: they are checked to be the same
before and after the game, and not searched.
"""
from __future__ import annotations

import itertools
import re
from types import SimpleNamespace

import pytest
from flask import url_for

from card_tags import sheets
from companion import rules
from companion.web.app import create_app
from companion.gamelog.logcheck import LogError
from companion.service import Service
from companion.gamelog.fold import TABLE_KINDS
from tests.test_gt_battle_secrets import a_round_so_far
from tests.test_gt_battle_support import NAMES
from tests.test_stratego_support import army

NOT_CRAWLED = {"static", "core.api_stream"}  # files; the stream is read on its own below


class Devices:
    """A camera and readers that report what such devices would: every card shown to them, where,
    and each tag's UID (the camera reads the covered tray; a reader knows what lies on it)."""

    def __init__(self):
        self.seen: list[dict] = []

    def stop(self):
        pass

    def camera_stats(self) -> dict:
        cards = [{"card": d["card"], "zone": d["zone"], "x_mm": 0.0, "y_mm": 0.0} for d in self.seen]
        damaged = [{"text": d["card"], "kind": "damaged", "why": "its check character fails"} for d in self.seen[-3:]]
        return {"state": "running", "cards": cards, "cards_tracked": len(cards), "recent_ignored": damaged}

    def reader_stats(self) -> dict:
        taps = [d for d in self.seen if "uid" in d]
        seat = lambda d: int(d["zone"].partition(":")[2] or 0)  # noqa: E731
        return {"readers": [{"name": "board", "state": "running", "present": {seat(d): d["uid"] for d in taps}}],
                "seats": {seat(d): d["uid"] for d in taps}, "recent": [{"seat": seat(d), "uid": d["uid"]} for d in taps],
                "on_readers": {seat(d): d["card"] for d in taps},
                "refusals": [{"seat": seat(d), "card": d["card"], "reason": "not your turn"} for d in taps]}

    def attach(self, service: Service) -> None:
        service.pipeline = SimpleNamespace(stats=self.camera_stats, stop=self.stop)
        service.readers = SimpleNamespace(stats=self.reader_stats, stop=self.stop)


class Table:
    """A game driven through the running service: the camera's and readers' inputs as they arrive
    (``Service.table_input``), commands as the tablet sends them (POST /api/command with the PIN).
    Records every table input whose card or UID the referee keeps out of the public history."""

    def __init__(self, service: Service, client):
        self.service, self.client = service, client
        self.secrets: set[str] = set()
        self.sent = 0
        self.devices = Devices()
        self.devices.attach(service)

    def submit(self, kind: str, data: dict | None = None, source: str = "dashboard"):
        data = data or {}
        self.sent += 1
        if kind in TABLE_KINDS or source != "dashboard":
            public = self.service.session.ruleset.redact(kind, dict(data))
            self.secrets |= {str(data[k]) for k in ("card", "uid") if k in data and k not in public}
            if "card" in data:
                self.devices.seen.append(data)
            submitted = self.service.table_input(kind, data, source)
            return SimpleNamespace(ok=submitted.ok)
        reply = self.client.post("/api/command", json={"kind": kind, "data": data},
                                 headers={"X-Table-PIN": self.service.pin})
        assert reply.status_code < 500, reply.get_data(as_text=True)
        return SimpleNamespace(ok=reply.status_code == 200)


# -- the games with secrets: combats and identities played as at a real table ----------------------
def play_stratego(table: Table) -> tuple[list[str], list[str]]:
    """Under "the defender only reveals their piece if it's defeated, or if it is attacked by a
    Scout": a Bomb and a Marshal that stop attackers stay hidden."""
    for seat, colour in ((1, "red"), (2, "blue")):
        for card in army(colour):
            assert table.submit("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera").ok
    assert table.submit("card_seen", {"zone": "tray", "card": "R5#1"}, "camera").ok
    assert table.submit("card_seen", {"zone": "tray", "card": "BB#1"}, "camera").ok      # Bomb: not revealed
    assert table.submit("card_seen", {"zone": "reader:2", "card": "B9#1", "uid": "04A1B2C3", "hidden": True}, "rfid").ok
    assert table.submit("card_seen", {"zone": "reader:1", "card": "R10#1", "uid": "04D4E5F6", "hidden": True}, "rfid").ok
    assert table.submit("card_seen", {"zone": "tray", "card": "R3#1"}, "camera").ok      # a Miner, called off
    assert table.submit("cancel", {"seat": 1}).ok
    assert not table.submit("card_seen", {"zone": "tray", "card": "RB#2"}, "camera").ok  # a Bomb cannot attack
    forbidden = [r"\b[RB](10|[2-9]|S|B|F)#\d+", "Bomb", "Marshal", "Miner", '"rank": "B"', '"rank": "10"',
                 '"rank": "3"']
    shown = ["Red's Lieutenant (5) attacked a Blue piece and lost", "Blue's General (9)"]
    return forbidden, shown


def play_gather_together(table: Table) -> tuple[list[str], list[str]]:
    """Six seats: identities shown on the readers and in the covered tray, one EXPOSEd (seat 5,
    a SUPERHERO), a battle; seats 2, 4 and 6 are VILLAINs nobody has exposed."""
    a_round_so_far(table, "HVHVHV")
    return [r"\b(HERO|VILLAIN)#\d+", "VILLAIN", "villain", "04AA000"], ["SUPERHERO", "Eve"]


def play_any(table: Table) -> tuple[list[str], list[str]]:
    """Any other game: each card of its deck seen in each zone it reads, from the camera and from
    the readers (with a UID); what its referee redacts from the history is then a secret."""
    ruleset = table.service.session.ruleset
    seats = len(table.service.session.derived.start["seats"])
    zones = [f"{kind}:{n}" if kind in ("seat", "reader") else kind for kind in ruleset.zones
             for n in range(1, seats + 1)]
    for number, (card, zone) in enumerate(zip(list(ruleset.catalog.cards)[:60], itertools.cycle(zones))):
        data = {"zone": zone, "card": f"{card}#1"}
        if zone.startswith("reader:"):
            data["uid"] = f"04{number:06X}"
        table.submit("card_seen", data, "rfid" if "uid" in data else "camera")
    return [], []


SCRIPTS = {"stratego": ({"reveal": "defeated_or_scout"}, 2, play_stratego),
           "gt-battle": ({}, 6, play_gather_together)}


# -- the crawl -------------------------------------------------------------------------------------
def public_urls(app, game: str) -> list[str]:
    """Every GET route of the dashboard, its arguments filled as a visitor without a token would."""
    values = {"token": "1-1-" + "0" * 20, "game": game, "layout": sheets.default_layout(game),
              "game_id": 1}  # each crawl plays the first game of a fresh data folder
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" not in rule.methods or rule.endpoint in NOT_CRAWLED:
                continue
            urls.append(url_for(rule.endpoint, **{a: values[a] for a in rule.arguments}))
    return urls + [f"/catalog?game={game}", f"/tags?game={game}", "/api/qr.svg?text=hello"]


def crawl(client, urls: list[str]) -> dict[str, str]:
    pages = {}
    for url in urls:
        reply = client.get(url)
        assert reply.status_code < 500, f"{url}: {reply.status_code}"
        pages[url] = reply.get_data().decode("latin-1")
    return pages


def read_stream(response, views: int) -> str:
    """The event stream's messages until ``views`` changes have been published on it."""
    chunks, seen = [], 0
    for chunk in response.response:
        text = chunk.decode()
        chunks.append(text)
        seen += text.startswith("event: view") and '"entry"' in text
        if seen >= views:
            break
    response.close()
    return "".join(chunks)


def the_games() -> list[str]:
    return rules.available()


@pytest.mark.parametrize("game", the_games())
def test_the_public_surface_shows_nothing_hidden(tmp_path, game):
    options, seats, play = SCRIPTS.get(game, ({}, None, play_any))
    cls = rules.ruleset_class(game)
    service = Service(tmp_path / "data")
    # The most seats the reference deck allows (BATTLECARDS' four seats need the Western set's cards).
    for count in ([seats] if seats else range(cls.max_seats, cls.min_seats - 1, -1)):
        try:
            service.start_game(game, [{"seat": n, "name": NAMES[n - 1]} for n in range(1, count + 1)], options)
            break
        except LogError:
            continue
    app = create_app(service)
    client = app.test_client()
    table = Table(service, client)  # with a camera and readers that see every card shown to them
    urls = public_urls(app, game)
    before = crawl(client, urls)
    stream = client.get("/api/stream")
    first = next(stream.response).decode()  # the stream is now subscribed to the game
    forbidden, shown = play(table)
    streamed = first + read_stream(stream, table.sent)

    after = crawl(client, urls)
    changing = {url: page for url, page in after.items() if page != before[url]}
    assert "/api/state" in changing and "/api/history" in changing, "the crawl must see the game move"
    assert "event: devices" in streamed and '"cards_tracked": 0' not in after["/api/devices"]
    for url in ("/api/camera/preview.jpg", "/api/camera/calibration"):  # the camera sees the covered tray
        assert client.get(url).status_code == 403, url
    text = "\n".join([streamed, *changing.values()])
    # A key or UID as a whole word (OMNER#1 is not inside TEOMNER#1); the games' own patterns as written.
    patterns = [rf"(?<![\w#]){re.escape(secret)}(?![\w#])" for secret in sorted(table.secrets)] + \
        [secret if secret.startswith(r"\b") else re.escape(secret) for secret in forbidden]
    for pattern in patterns:
        found = re.search(pattern, text)
        assert found is None, f"{game}: {found.group(0)!r} is public: ...{text[max(found.start() - 150, 0):found.end() + 80]}"
    for words in shown:  # what was revealed is found, so a leak would be found too
        assert words in text, words
    assert table.secrets or game not in SCRIPTS, "the games with secrets must have had some to keep"
    raw = client.get("/api/export.jsonl")
    assert raw.status_code == 403 and not any(s in raw.get_data(as_text=True) for s in table.secrets)
    service.close()


def test_every_game_in_the_registry_is_crawled():
    """A new game's referee joins the crawl by being in the registry (a generic play, or its own)."""
    assert set(the_games()) >= {"bom-battle", "stratego", "gt-battle"}
