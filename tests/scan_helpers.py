"""Shared helpers of the scan tests: a virtual table with a pipeline driven frame by frame."""
from __future__ import annotations

from card_tags.payload import CardRef
from companion.scan.pipeline import ScanPipeline
from companion.scan.virtual_camera import Look
from companion.scan.virtual_table import VirtualTable
from companion.scan.zones import ZoneMap

FRAME_S = 1 / 30


def card(card_id: str, copy: int = 1, game: str = "bom-battle") -> CardRef:
    return CardRef(game, card_id, copy)


class Table:
    """A virtual table, its zones and a pipeline whose clock the test advances frame by frame."""

    def __init__(self, seats: int = 3, game: str = "bom-battle", seed: int = 5, width: int = 1280, height: int = 720,
                 look: Look | None = None, **pipeline_options):
        self.table = VirtualTable(width, height, seed=seed, look=look)
        self.zones = ZoneMap.for_game(game, seats)
        self.events: list[tuple[str, dict]] = []
        self.now = 100.0
        self.pipeline = ScanPipeline(None, "zxing", self.zones, game, lambda kind, data: self.events.append((kind, data)),
                                     **pipeline_options)

    def put(self, ref: CardRef, zone: str, index: int = 0, angle: float = 0.0, **kwargs) -> None:
        self.table.place(ref, self.zones.slot(zone, index), angle, **kwargs)

    def frames(self, count: int = 1) -> list[tuple[str, dict]]:
        """Render and process count frames, 1/30 s apart; return the events they caused."""
        caused = []
        for _ in range(count):
            self.now += FRAME_S
            caused += self.pipeline.process(self.table.render(), self.now)
        return caused

    def seconds(self, seconds: float) -> list[tuple[str, dict]]:
        return self.frames(round(seconds / FRAME_S))


def flat(events) -> list[tuple[str, str, str]]:
    """Events as sorted (kind, zone, card) triples, for comparisons that ignore order."""
    return sorted((kind, data["zone"], data["card"]) for kind, data in events)
