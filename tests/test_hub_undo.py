"""An undo at a table reaches the hub: through a real Mosquitto, a result the players took back
leaves the hub's tables and standings, as if the undone input had never happened, also when the
undo is made while the broker is down or the table's link is cut."""
from __future__ import annotations

from companion.hub.server import create_hub_app, wait_until
from tests.hub_support import Table, held
from tests.mqtt_support import CuttableLink


class Screen:
    """What the hub's big screen reads: /api/tables and /api/standings."""

    def __init__(self, hub):
        self.client = create_hub_app(hub).test_client()

    def table(self, name: str) -> dict:
        return next((t for t in self.client.get("/api/tables").get_json()["tables"] if t["name"] == name), {})

    def says(self, name: str) -> list[str]:
        return [r["say"] for r in self.table(name).get("results", [])]

    def standings(self) -> dict:
        return self.client.get("/api/standings").get_json()["standings"]

    def won(self) -> list[tuple[str, int, int]]:
        return [(r["player"], r["won"], r["played"]) for r in self.standings().get("stratego", [])]


def test_an_undone_move_leaves_the_hub_as_if_it_had_never_been_made(tmp_path, broker, hub):
    screen = Screen(hub)
    undone = Table(tmp_path / "t1", broker.url, "t1", ("Ann", "Ben"))
    never = Table(tmp_path / "t2", broker.url, "t2", ("Ann", "Ben"))  # the same game without the move
    for table in (undone, never):
        table.combat("R5#1", "B4#1")
    undone.move(2)
    assert wait_until(lambda: "Blue moved. Red to play." in screen.says("t1"), 60), screen.says("t1")
    undone.undo()
    assert wait_until(lambda: "Blue moved. Red to play." not in screen.says("t1"), 60), screen.says("t1")
    assert wait_until(lambda: screen.says("t1") == screen.says("t2") and screen.table("t2"), 60)
    assert screen.table("t1")["results_total"] == screen.table("t2")["results_total"]
    assert wait_until(lambda: screen.table("t1")["prompt"] == screen.table("t2")["prompt"], 60)
    assert held(hub, "t1") == undone.results()
    for table in (undone, never):
        table.close()


def ben_resigned(tmp_path, broker, hub):
    """A game at table t1 in which Ben (Blue) resigned after a combat, the hub counting Ann's win."""
    screen = Screen(hub)
    table = Table(tmp_path / "t1", broker.url, "t1", ("Ann", "Ben"))
    table.combat("R5#1", "B4#1")
    table.resign(2)
    assert wait_until(lambda: screen.won() == [("Ann", 1, 1), ("Ben", 0, 1)], 60), screen.standings()
    return screen, table


def test_an_undone_resignation_leaves_the_standings(tmp_path, broker, hub):
    screen, table = ben_resigned(tmp_path, broker, hub)
    table.undo()  # Blue resigned by mistake; the game goes on
    assert wait_until(lambda: screen.standings() == {} and screen.table("t1")["state"] != "over", 60), \
        (screen.standings(), screen.table("t1"))
    assert not any(r["kind"] == "game_end" for r in hub.store.results("t1"))
    assert screen.client.get("/api/pairings").get_json()["pairings"] == {}
    table.close()


def test_a_result_undone_and_another_entered_instead(tmp_path, broker, hub):
    """Blue's resignation is undone and Red resigns instead: the hub counts Ben's win, once, and
    not Ann's."""
    screen, table = ben_resigned(tmp_path, broker, hub)
    table.undo()
    table.resign(1)
    assert wait_until(lambda: screen.won() == [("Ben", 1, 1), ("Ann", 0, 1)], 60), screen.standings()
    ends = [r for r in hub.store.results("t1") if r["kind"] == "game_end"]
    assert [e["winner"] for e in ends] == [["Ben"]]
    assert screen.says("t1")[-1] == "Game over: Ben won."
    table.close()


def test_a_retraction_made_while_the_broker_is_down_reaches_the_hub(tmp_path, broker, hub):
    screen, table = ben_resigned(tmp_path, broker, hub)
    broker.stop()   # the broker goes away; the table takes the resignation back and plays on
    table.undo()
    table.move(2)
    broker.start()  # back with nothing retained: the hub's acknowledgements are gone too
    assert wait_until(lambda: screen.standings() == {} and held(hub, "t1") == table.results(), 120), \
        (screen.standings(), held(hub, "t1"), table.results())
    assert "Blue moved. Red to play." in screen.says("t1")
    table.resign(1)
    assert wait_until(lambda: screen.won() == [("Ben", 1, 1), ("Ann", 0, 1)], 120), screen.standings()
    assert held(hub, "t1") == table.results()
    table.close()


def test_a_retraction_made_while_the_tables_link_is_cut_reaches_the_hub(tmp_path, broker, hub):
    screen = Screen(hub)
    link = CuttableLink(broker.port)
    table = Table(tmp_path / "t1", link.url, "t1", ("Ann", "Ben"))
    table.combat("R5#1", "B4#1")
    table.move(2)
    assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
    link.cut()
    assert wait_until(lambda: not table.publisher.connected, 60)
    table.undo()
    assert held(hub, "t1") != table.results()  # the hub cannot know yet
    link.mend()
    assert wait_until(lambda: held(hub, "t1") == table.results(), 120), (held(hub, "t1"), table.results())
    assert "Blue moved. Red to play." not in screen.says("t1")
    table.close()
