"""A Stratego table publishing to the hub, for the hub's tests (the ``broker`` and ``hub`` fixtures
are in conftest.py)."""
from __future__ import annotations

from pathlib import Path

from companion.hub.broker import Broker
from companion.hub.publisher import HubPublisher
from companion.hub.server import Hub
from companion.service import Service
from tests.test_stratego_support import army


class Table:
    """A table's service with a Stratego game between two players, publishing to the hub."""

    def __init__(self, folder: Path, url: str, name: str, players: tuple[str, str], **options):
        self.service = Service(folder)
        self.session = self.service.start_game("stratego", [{"seat": 1, "name": players[0]},
                                                            {"seat": 2, "name": players[1]}], options)
        for seat, colour in ((1, "red"), (2, "blue")):
            for card in army(colour):
                assert self.session.submit("card_seen", {"zone": f"seat:{seat}", "card": card}, "camera").ok
        self.publisher = HubPublisher(self.service, Broker.parse(url), name)
        self.service.hub = self.publisher
        self.publisher.start()

    def combat(self, attacker: str, defender: str) -> None:
        for card in (attacker, defender):
            assert self.session.submit("card_seen", {"zone": "tray", "card": card}, "camera").ok
        for card in (attacker, defender):
            self.session.submit("card_gone", {"zone": "tray", "card": card}, "camera")

    def move(self, seat: int) -> None:
        assert self.session.submit("move", {"seat": seat}).ok

    def undo(self) -> None:
        assert self.session.submit("undo", {}).ok

    def resign(self, seat: int) -> None:
        assert self.session.submit("resign", {"seat": seat}).ok

    def results(self) -> list[tuple[int, int]]:
        """(game, seq) of every result in the table's own log, which the hub must end up holding."""
        return [(self.session.game_id, e["seq"]) for e in self.session.history()
                if e["status"] == "applied" and e["outcomes"]]

    def close(self) -> None:
        self.service.stop()


def held(hub: Hub, table: str) -> list[tuple[int, int]]:
    return [(r["game_id"], r["seq"]) for r in hub.store.results(table) if r["kind"] == "result"]
