"""The dashboard against a determined player on the same Wi-Fi: PIN guesses slowed, changes taken
only from the table's own pages, bad requests refused with a sentence (never a 500) and never
written to the game log. Uses the small counting game of test_session."""
import json
import os
import stat

import pytest

import companion.rules
from companion.web import security
from companion.web.app import create_app
from companion.service import Service, load_table_secrets
from tests.tally_game import Tally
from tests.timing import ManualClock



@pytest.fixture
def service(tmp_path, monkeypatch):
    monkeypatch.setattr(companion.rules, "make", lambda game, deck=None: Tally())
    service = Service(tmp_path / "data")
    service.start_game("tally", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    yield service
    service.close()


@pytest.fixture
def app(service):
    app = create_app(service)
    app.config["PIN_GUARD"] = security.PinGuard(clock=ManualClock())
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def logged(service) -> list[str]:
    return [e.kind for e in service.session.events()]


def wrong_pin(service) -> str:
    return "0000" if service.pin != "0000" else "1111"


def score(client, pin, **headers):
    return client.post("/api/command", json={"kind": "score", "data": {"seat": 1}}, headers={"X-Table-PIN": pin, **headers})


# -- the PIN ---------------------------------------------------------------------------------------
def test_after_five_wrong_pins_a_client_must_wait_and_is_told_how_long(app, client, service):
    clock = app.config["PIN_GUARD"].clock
    for _ in range(security.FREE_TRIES):
        assert score(client, wrong_pin(service)).status_code == 403
    waiting = score(client, service.pin)  # even the right PIN waits: otherwise guessing goes on
    assert waiting.status_code == 429 and waiting.headers["Retry-After"] == "1"
    assert "try again in 1 s" in waiting.get_json()["error"]
    clock.now += 1
    assert score(client, wrong_pin(service)).status_code == 403
    assert score(client, service.pin).headers["Retry-After"] == "2", "the wait doubles"
    clock.now += 2
    assert score(client, service.pin).status_code == 200, "the right PIN, once allowed, works"
    assert score(client, wrong_pin(service)).status_code == 403, "and clears the count"
    assert logged(service) == ["start", "score"]


def test_the_wait_is_counted_per_client(app, service):
    client = app.test_client()
    for _ in range(security.FREE_TRIES):
        score(client, wrong_pin(service))
    assert score(client, service.pin).status_code == 429
    other = app.test_client()
    assert other.post("/api/command", json={"kind": "score", "data": {"seat": 1}}, headers={"X-Table-PIN": service.pin},
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200


def test_trying_every_four_digit_pin_from_one_client_takes_more_than_a_day():
    assert security.seconds_to_try_every_pin(4) > 24 * 3600
    guard = security.PinGuard(clock=ManualClock())
    for _ in range(40):
        guard.wrong("x")
        guard.clock.now += guard.retry_after("x")
    assert guard.retry_after("x") == 0 and security.PinGuard.wait_after(40) == security.MAX_WAIT_S


def test_a_pin_that_is_not_ascii_is_a_wrong_pin(client, service):
    reply = client.post("/api/command", json={"kind": "score", "data": {"seat": 1}},
                        headers=[("X-Table-PIN", "١٢٣٤".encode().decode("latin-1"))])
    assert reply.status_code == 403 and "wrong table PIN" in reply.get_json()["error"]


def test_table_settings_are_readable_by_their_owner_only(tmp_path):
    load_table_secrets(tmp_path)
    assert stat.S_IMODE(os.stat(tmp_path / "table.json").st_mode) == 0o600
    os.chmod(tmp_path / "table.json", 0o644)  # as an older version left it
    load_table_secrets(tmp_path)
    assert stat.S_IMODE(os.stat(tmp_path / "table.json").st_mode) == 0o600


def test_a_longer_pin_can_be_made_and_seat_links_stay(tmp_path, service):
    from companion.cli import main

    data = service.data_dir
    token = service.seat_token(service.session.game_id, 1)
    assert main(["pin", "--data", str(data), "--new", "--digits", "8"]) == 0
    again = Service(data)
    assert len(again.pin) == 8 and again.pin.isdigit()
    assert again.seat_for_token(token) == 1
    again.close()


# -- where a change comes from ---------------------------------------------------------------------
def test_a_form_posted_from_another_site_is_refused_even_with_the_pin(client, service):
    reply = client.post("/api/command", data={"pin": service.pin, "kind": "score"},
                        headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403 and "another web page" in reply.get_json()["error"]
    reply = client.post("/api/command", json={"kind": "score", "data": {"seat": 1}},
                        headers={"X-Table-PIN": service.pin, "Sec-Fetch-Site": "cross-site"})
    assert reply.status_code == 403
    assert logged(service) == ["start"]


def test_a_change_under_a_public_host_name_is_refused(client, service):
    """DNS rebinding: a page of rebind.example, re-pointed at the table, sends Host: rebind.example."""
    reply = score(client, service.pin, Host="rebind.example", Origin="http://rebind.example")
    assert reply.status_code == 403 and "own address" in reply.get_json()["error"]
    assert logged(service) == ["start"]


@pytest.mark.parametrize("host", ["192.168.1.20:8080", "localhost:8080", "raspberrypi.local", "table3", "[fe80::1]:8080"])
def test_the_dashboard_from_its_own_page_is_taken(client, service, host):
    assert score(client, service.pin, Host=host, Origin=f"http://{host}").status_code == 200


def test_an_owner_may_allow_a_host_name(service):
    client = create_app(service, ("table.club.org",)).test_client()
    assert score(client, service.pin, Host="table.club.org").status_code == 200


# -- bad bodies ------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, words", [
    (b"[1, 2]", "must be a JSON object, not a list"),
    (b"null", "must be a JSON object, not null"),
    (b'"score"', "must be a JSON object, not a string"),
    (b"{", "not valid JSON"),
    (b'{"kind": "score", "data": {"seat": NaN}}', "NaN, which is not a finite number"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "not valid JSON"),
    (json.dumps({"kind": "score", "data": {"a": [[[[[[[[[[1]]]]]]]]]]}}).encode(), "nests deeper"),
    (b'{"kind": 5}', "'kind' must be a text"),
    (b'{"kind": "score", "data": [1]}', "'data' must be an object"),
])
def test_a_malformed_command_gets_a_sentence_and_is_not_logged(client, service, body, words):
    reply = client.post("/api/command", data=body, content_type="application/json", headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 400 and words in reply.get_json()["error"]
    assert logged(service) == ["start"]


@pytest.mark.parametrize("body, words", [
    ({"game": "tally", "players": "Ann, Ben"}, "'players' must be a list of names"),
    ({"game": "tally", "players": [1, 2]}, "must be a name (text)"),
    ({"game": "tally", "players": ["Ann", "Ben"], "options": ["fast"]}, "'options' must be an object"),
    ({"game": ["tally"], "players": ["Ann", "Ben"]}, "'game' must be a text"),
])
def test_a_malformed_new_game_gets_a_sentence(client, service, body, words):
    reply = client.post("/api/games", json=body, headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 400 and words in reply.get_json()["error"]
    assert service.store.latest_game() == service.session.game_id == 1


def test_a_huge_body_is_refused_on_its_length_before_the_pin(client, service):
    huge = b'{"kind": "score", "data": {"note": "' + b"x" * (20 * 1024 * 1024) + b'"}}'
    for pin in ("", service.pin):
        reply = client.post("/api/command", data=huge, content_type="application/json", headers={"X-Table-PIN": pin})
        assert reply.status_code == 413 and "at most 65536 bytes" in reply.get_json()["error"]
    assert logged(service) == ["start"]


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("route, body", [
    ("/api/command", '{"kind": "score", "data": {"seat": 1, "points": %s}}'),
    ("/api/games", '{"game": "tally", "players": ["Ann", "Ben"], "options": {"target": %s}}'),
    ("/api/unlock", '{"pin": %s}'),
    ("/api/seat-release", '{"seat": %s}'),
    ("/api/room/revoke", '{"tablet": %s}'),
])
def test_a_number_that_is_not_finite_is_refused_on_every_json_route_before_it_is_logged(client, service, route, body,
                                                                                       number):
    """1e999 was logged as Infinity: the History page showed nothing from then on, and the export
    could no longer be replayed or imported."""
    reply = client.post(route, data=body % number, content_type="application/json",
                        headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 400 and "not a finite number" in reply.get_json()["error"]
    assert logged(service) == ["start"] and service.store.latest_game() == 1
    assert client.get("/api/history").status_code == 200


def test_every_json_route_is_checked_for_numbers():
    """The routes above are every route that takes a JSON body (one added later must join them)."""
    app = create_app(Service.__new__(Service))
    posts = {r.rule for r in app.url_map.iter_rules() if "POST" in r.methods}
    bodiless = {"/api/camera/recalibrate", "/api/lock"}  # they read no body
    assert posts - bodiless == {"/api/command", "/api/games", "/api/unlock", "/api/seat-release", "/api/room/revoke"}


@pytest.mark.parametrize("path", ["/api/history/9223372036854775808", "/api/history/99999999999999999999999",
                                  "/api/history/9223372036854775808/export.jsonl"])
def test_a_game_number_too_large_for_the_database_is_not_found(client, service, path):
    """SQLite's integers end at 2**63 - 1; a larger one from the address bar was a 500."""
    reply = client.get(path, headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 404 and "this table has no game" in reply.get_json()["error"]


def test_the_pin_guard_holds_after_thousands_of_wrong_pins():
    """One client's 1,029th wrong PIN overflowed the doubling wait (2.0 ** 1024) into a 500."""
    clock = ManualClock()
    guard = security.PinGuard(clock=clock)
    for _ in range(3000):
        clock.now += guard.retry_after("x")  # waits as told, then guesses wrong again
        with pytest.raises(security.Refused) as wrong:
            security.check_pin(guard, "x", "0000", "4821")
        assert wrong.value.status == 403
    with pytest.raises(security.Refused) as waiting:
        security.check_pin(guard, "x", "4821", "4821")
    assert waiting.value.status == 429 and waiting.value.headers["Retry-After"] == str(int(security.MAX_WAIT_S))


def test_a_body_over_the_limit_is_refused_by_the_server_before_it_is_sent(tmp_path):
    """No body over 64 KB is buffered anywhere: the server answers on the Content-Length alone
    (waitress took up to 1 GiB, spooled to a temporary file, before the app saw the request)."""
    import socket
    import threading

    from companion.web.server import make_server

    service = Service(tmp_path / "data")
    server = make_server(create_app(service), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for length in (security.MAX_BODY + 1, 200 * 1024 * 1024):
            with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
                sock.sendall(f"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             f"Content-Length: {length}\r\n\r\n".encode() + b'{"kind": "')  # and nothing more
                reply = b""
                while data := sock.recv(65536):
                    reply += data
            head, _, body = reply.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 413")
            assert f"a change is at most {security.MAX_BODY} bytes" in json.loads(body)["error"]
    finally:
        service.stop()
        server.shutdown()


def test_a_seat_link_with_foreign_digits_opens_nothing(client, service):
    token = service.seat_token(service.session.game_id, 1)
    for forged in (token.replace("1", "١", 1), "1-1-" + "é" * 20, "9" * 40 + "-1-" + "0" * 20):
        reply = client.get(f"/api/seat/{forged}")
        assert reply.status_code == 403 and "not a seat link" in reply.get_json()["error"]


def test_the_raw_log_needs_the_pin(client, service):
    service.session.submit("card_seen", {"zone": "seat:1", "card": "SECRET#1", "hidden": True}, "camera")
    refused = client.get("/api/export.jsonl")
    assert refused.status_code == 403 and "SECRET" not in refused.get_data(as_text=True)
    given = client.get("/api/export.jsonl", headers={"X-Table-PIN": service.pin})
    assert given.status_code == 200 and "SECRET#1" in given.get_data(as_text=True)


def test_a_full_disk_is_said_in_words_and_changes_nothing(client, service):
    pages = service.store.db.execute("PRAGMA page_count").fetchone()[0]
    service.store.db.execute(f"PRAGMA max_page_count = {pages}")
    big = {"kind": "score", "data": {"seat": 1, "note": "x" * 30000}}
    reply = client.post("/api/command", json=big, headers={"X-Table-PIN": service.pin})
    assert reply.status_code == 507 and reply.get_json()["error"] == "the data folder is full; nothing was changed"
    assert logged(service) == ["start"] and service.session.state["points"]["1"] == 0
