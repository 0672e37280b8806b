"""Many tables: tables publish to a real Mosquitto, a hub subscribes and serves every table's game
and the standings. Nothing secret crosses the broker; a broker restart and a table's network
outage lose nothing and duplicate nothing."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from companion.hub.broker import Broker
from companion.hub.server import Hub, create_hub_app, wait_until
from companion.hub.standings import swiss_pairings
from tests.hub_support import Table, held
from tests.mqtt_support import CuttableLink, Everything, Mosquitto, free_port, wait_port
from tests.timing import PATIENCE_S

TAG_KEY = re.compile(r"\b[RB](10|[2-9]|S|B|F)#\d+")


def test_three_tables_their_results_and_the_standings_at_the_hub(tmp_path, broker, hub):
    games = [("t1", ("Ann", "Ben"), 2), ("t2", ("Cal", "Dee"), 1), ("t3", ("Eve", "Fay"), 2)]
    tables = []
    for name, players, loser in games:
        table = Table(tmp_path / name, broker.url, name, players)
        table.combat("R5#1", "B4#1")   # Red's Lieutenant takes Blue's Sergeant
        table.move(2)
        table.resign(loser)
        tables.append(table)
    client = create_hub_app(hub).test_client()

    def all_over():
        listed = {t["name"]: t for t in client.get("/api/tables").get_json()["tables"]}
        return len(listed) == 3 and all(listed[n]["state"] == "over" and listed[n]["results"]
                                        and listed[n]["results"][-1]["kind"] == "game_end" for n, _, _ in games)

    assert wait_until(all_over, 120), client.get("/api/tables").get_json()
    listed = {t["name"]: t for t in client.get("/api/tables").get_json()["tables"]}
    assert listed["t1"]["players"] == ["Ann", "Ben"] and listed["t1"]["game"] == "stratego"
    assert listed["t2"]["results"][-1]["say"] == "Game over: Dee won."
    for table in tables:  # every result the table logged is at the hub, once, in order
        assert held(hub, table.publisher.table) == table.results()

    rows = client.get("/api/standings").get_json()["standings"]["stratego"]
    assert [(r["player"], r["won"], r["played"]) for r in rows[:3]] == [("Ann", 1, 1), ("Dee", 1, 1), ("Eve", 1, 1)]
    round2 = client.get("/api/pairings").get_json()["pairings"]["stratego"]
    paired = [name for pair in round2["pairs"] for name in pair]
    assert sorted(paired) == ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"] and round2["bye"] is None
    assert not {frozenset(p) for p in round2["pairs"]} & {frozenset(g[1]) for g in games}  # no rematch
    for table in tables:
        table.close()


def test_swiss_pairing_avoids_rematches_and_gives_the_bye_to_the_lowest():
    order = ["Ann", "Dee", "Eve", "Ben", "Cal"]
    round2 = swiss_pairings(order, {frozenset(("Ann", "Dee"))})
    assert round2 == {"pairs": [["Ann", "Eve"], ["Dee", "Ben"]], "bye": "Cal"}


def test_nothing_a_seat_may_not_see_crosses_the_broker(tmp_path, broker, hub):
    watcher = Everything(broker.url)
    table = Table(tmp_path / "t1", broker.url, "t1", ("Ann", "Ben"), reveal="defeated_or_scout")
    table.combat("R5#1", "BB#1")  # the Lieutenant dies on a Bomb that stays hidden
    table.session.submit("card_seen", {"zone": "reader:2", "card": "B9#1", "uid": "04A1B2C3", "hidden": True}, "rfid")
    table.session.submit("card_seen", {"zone": "reader:1", "card": "R10#1", "uid": "04D4E5F6", "hidden": True}, "rfid")
    table.move(1)
    table.undo()  # its retraction crosses the broker too
    table.resign(2)
    assert wait_until(lambda: any(r["kind"] == "game_end" for r in hub.store.results("t1")), 120)
    # the watcher too has everything up to the game's end (the hub having it says nothing of them)
    assert wait_until(lambda: '"kind": "game_end"' in watcher.text(), 120), watcher.text()[-500:]
    text = watcher.text()
    watcher.close()
    table.close()
    assert "companion/tables/t1/result" in text and "companion/tables/t1/view" in text and '"kind": "retract"' in text
    assert TAG_KEY.search(text) is None, TAG_KEY.search(text)
    assert "04A1B2C3" not in text and "04D4E5F6" not in text
    for secret in ("Bomb", "Marshal", '"rank": "B"', '"rank": "10"'):
        assert secret not in text, secret


def test_a_broker_restart_loses_and_duplicates_nothing(tmp_path, broker, hub):
    table = Table(tmp_path / "t1", broker.url, "t1", ("Ann", "Ben"))
    table.combat("R5#1", "B4#1")
    assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
    broker.stop()  # the broker goes away; the table plays on
    table.move(2)
    table.combat("R6#1", "B2#1")
    table.move(2)
    broker.start()  # back on the same port, with nothing retained (no persistence)
    table.resign(2)
    ended = lambda: any(r["kind"] == "game_end" for r in hub.store.results("t1"))  # noqa: E731
    assert wait_until(lambda: held(hub, "t1") == table.results() and ended(), 120), (held(hub, "t1"), table.results())
    ends = [r for r in hub.store.results("t1") if r["kind"] == "game_end"]
    assert len(ends) == 1 and ends[0]["winner"] == ["Ann"]
    table.close()


def test_a_tables_network_outage_loses_and_duplicates_nothing(tmp_path, broker, hub):
    link = CuttableLink(broker.port)
    table = Table(tmp_path / "t1", link.url, "t1", ("Ann", "Ben"))
    table.combat("R5#1", "B4#1")
    assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
    link.cut()
    assert wait_until(lambda: not table.publisher.connected, 60)
    table.move(2)
    table.combat("R6#1", "B2#1")
    assert held(hub, "t1") != table.results()  # the hub cannot know yet
    link.mend()
    assert wait_until(lambda: held(hub, "t1") == table.results(), 120), (held(hub, "t1"), table.results())
    table.close()


def test_the_hub_keeps_its_history_across_a_restart(tmp_path, broker):
    hub = Hub(Broker.parse(broker.url), tmp_path / "hub")
    hub.start()
    table = Table(tmp_path / "t1", broker.url, "t1", ("Ann", "Ben"))
    table.combat("R5#1", "B4#1")
    assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
    hub.stop()
    again = Hub(Broker.parse(broker.url), tmp_path / "hub")
    assert held(again, "t1") == table.results()
    again.store.close()
    table.close()


def broker_with_accounts(tmp_path) -> Mosquitto:
    """A mosquitto set up as docs/hub.md says: accounts t1, t2, hub (and a watcher reading
    everything, for the tests), the ACL of docs/hub-acl.example."""
    passwords = tmp_path / "passwords"
    for user, password in (("t1", "p1"), ("t2", "p2"), ("hub", "ph"), ("watcher", "pw")):
        subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if not passwords.exists() else []), str(passwords),
                        user, password], check=True, capture_output=True)
    acl = tmp_path / "acl"
    acl.write_text((Path(__file__).resolve().parent.parent / "docs" / "hub-acl.example").read_text()
                   + "\nuser watcher\ntopic read #\n")
    return Mosquitto(tmp_path, f"password_file {passwords}\nacl_file {acl}").start()


def test_no_broker_account_can_take_another_tables_or_the_hubs_client_id(tmp_path):
    """A broker drops the older of two connections with one client id: any account could keep a
    table (or the hub) offline by connecting as `table-t1` (or `companion-hub`) again and again.
    With each account's client id bound to its name, both stay connected."""
    import threading

    mosquitto = broker_with_accounts(tmp_path)
    try:
        hub = Hub(Broker.parse(f"mqtt://hub:ph@127.0.0.1:{mosquitto.port}"), tmp_path / "hub")
        hub.start()
        assert hub.connected.wait(PATIENCE_S)
        table = Table(tmp_path / "t1", f"mqtt://t1:p1@127.0.0.1:{mosquitto.port}", "t1", ("Ann", "Ben"))
        table.combat("R5#1", "B4#1")
        assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
        dropped = []
        table.publisher.client.on_disconnect = lambda *args: dropped.append("table t1")
        hub.client.on_disconnect = lambda *args: dropped.append("the hub")
        rogues = []
        for account, password, taken in (("t2", "p2", "table-t1"), ("watcher", "pw", "companion-hub")):
            rogue = Broker.parse(f"mqtt://{account}:{password}@127.0.0.1:{mosquitto.port}").client(taken)
            accepted = threading.Event()
            rogue.on_connect = lambda c, u, f, reason, p=None, accepted=accepted: accepted.set()
            rogue.connect("127.0.0.1", mosquitto.port)
            rogue.loop_start()
            assert accepted.wait(PATIENCE_S), f"the broker never answered {account}"
            rogues.append(rogue)
        table.move(2)
        table.combat("R6#1", "B2#1")  # published after both rogues were let in
        assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
        assert dropped == [], f"pushed off the broker: {dropped}"
        for rogue in rogues:
            rogue.disconnect(), rogue.loop_stop()
        table.close(), hub.stop()
    finally:
        mosquitto.stop()


def test_broker_accounts_and_acl_keep_each_table_to_its_own_name(tmp_path):
    mosquitto = broker_with_accounts(tmp_path)
    try:
        url = f"mqtt://127.0.0.1:{mosquitto.port}"
        watcher = Everything(url, "watcher", "pw")
        hub = Hub(Broker.parse(f"mqtt://hub:ph@127.0.0.1:{mosquitto.port}"), tmp_path / "hub")
        hub.start()
        assert hub.connected.wait(30)
        rogue = Broker.parse(f"mqtt://t2:p2@127.0.0.1:{mosquitto.port}").client("rogue")
        rogue.connect("127.0.0.1", mosquitto.port)
        rogue.loop_start()
        # table t2 tries to speak for t1, and the hub tries to write a table's view: both dropped.
        for client, topic in ((rogue, "companion/tables/t1/view"), (hub.client, "companion/tables/t2/view")):
            sent = client.publish(topic, json.dumps({"view": {"title": "forged"}}), qos=1)
            sent.wait_for_publish(PATIENCE_S)
            assert sent.is_published(), f"the broker never acknowledged {topic}"  # (and then dropped it)
        table = Table(tmp_path / "t1", f"mqtt://t1:p1@127.0.0.1:{mosquitto.port}", "t1", ("Ann", "Ben"))
        table.combat("R5#1", "B4#1")
        assert wait_until(lambda: held(hub, "t1") == table.results(), 60)
        # the watcher has what the broker passed on after the forgeries: they would be before it
        assert wait_until(lambda: "companion/tables/t1/result" in watcher.text(), 60)
        assert "forged" not in watcher.text()
        assert [t["name"] for t in hub.store.tables()] == ["t1"]
        rogue.loop_stop(), table.close(), hub.stop(), watcher.close()
    finally:
        mosquitto.stop()


def test_companion_hub_and_three_demo_tables_from_the_command_line(tmp_path, broker):
    """The issue's own check: a real mosquitto, `companion hub`, and three `companion demo` tables;
    the hub lists all three with their results."""
    root = Path(__file__).resolve().parent.parent
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    hub_port = free_port()
    procs = [subprocess.Popen([sys.executable, "-m", "companion", "hub", "--broker", broker.url, "--host", "127.0.0.1",
                               "--port", str(hub_port), "--data", str(tmp_path / "hub")], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for n in (1, 2, 3):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "companion", "demo", "--data", str(tmp_path / f"t{n}"), "--host", "127.0.0.1",
             "--port", "0", "--no-announce", "--hub", broker.url, "--table", f"demo-{n}", "--seats", "2",
             "--seed", str(n), "--pace", "0.2", "--fps", "10"], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL))
    try:
        wait_port(hub_port, 60)
        import urllib.request

        def listed():
            with urllib.request.urlopen(f"http://127.0.0.1:{hub_port}/api/tables", timeout=10) as reply:
                tables = json.load(reply)["tables"]
            return len(tables) == 3 and all(t["results_total"] >= 1 for t in tables) and tables

        assert wait_until(listed, 240, step=1.0)
        assert sorted(t["name"] for t in listed()) == ["demo-1", "demo-2", "demo-3"]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(30)


def test_the_hub_acknowledges_only_an_unbroken_chain_of_results(tmp_path):
    """A result lost on the way (a broker restart between two publications) must be published
    again even though a later one arrived: the hub's acknowledgement stops at the gap."""
    from companion.hub.store import HubStore

    store = HubStore(tmp_path / "hub.db")
    result = lambda seq, prev: {"game_id": 1, "seq": seq, "prev": prev, "kind": "result", "game": "stratego"}  # noqa: E731
    store.add_result("t1", result(4, 0))
    store.add_result("t1", result(9, 7))   # 7 went missing
    assert store.acked("t1")[0] == {1: 4}
    store.add_result("t1", result(7, 4))
    assert store.acked("t1")[0] == {1: 9}
    assert not store.add_result("t1", result(7, 4))  # sent again: held once
