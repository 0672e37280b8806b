"""The `companion` command as a user meets it: replaying a log, and refusing a data folder whose
database is not ours with a message naming the file (never a silent new game)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def companion(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_replay_prints_every_battle_and_the_final_standings():
    result = companion("replay", ROOT / "tests/logs/bom/basic-3-seats.jsonl")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    battles = [o for o in report["outcomes"] if o["kind"] == "battle"]
    assert len(battles) == 70 and report["over"]
    holder = next(s for s in report["standings"] if s["seat"] == report["winner"])
    assert holder["score"] == 72 and all(s["eliminated"] for s in report["standings"] if s is not holder)


def test_replay_of_a_log_that_is_not_one_names_the_line(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text('{"kind": "start", "data": {"game": "bom-battle", "seats": []}}\nnonsense\n')
    result = companion("replay", log)
    assert result.returncode == 2 and "line 2" in result.stderr


def test_serve_refuses_a_corrupt_database_naming_the_file(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "companion.db").write_bytes(b"not a database at all " * 500)
    result = companion("serve", "--data", data, "--source", "none", "--port", "0")
    assert result.returncode == 2
    assert str(data / "companion.db") in result.stderr and "not a usable" in result.stderr
    assert (data / "companion.db").read_bytes().startswith(b"not a database at all")


def test_export_writes_the_log_that_replay_reads(tmp_path):
    from companion.service import Service

    service = Service(tmp_path / "data")
    service.start_game("bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}])
    service.session.submit("card_seen", {"zone": "seat:1", "card": "GD500#1"}, "camera")
    service.session.submit("card_seen", {"zone": "seat:1", "card": "FAITH#1"}, "camera")
    service.session.submit("card_seen", {"zone": "seat:2", "card": "BD3000#1"}, "camera")
    service.session.submit("resolve", {})
    exported = companion("export", "--data", tmp_path / "data")
    assert exported.returncode == 0
    (tmp_path / "game.jsonl").write_text(exported.stdout)
    report = json.loads(companion("replay", tmp_path / "game.jsonl").stdout)
    battle = next(o for o in report["outcomes"] if o["kind"] == "battle")
    assert battle["data"]["winner"] == 1 and "5000" in battle["say"]


def test_a_camera_size_that_is_not_one_is_refused_before_anything_starts(tmp_path):
    result = companion("serve", "--data", tmp_path, "--source", "none", "--port", "0", "--camera-size", "big")
    assert result.returncode == 2 and "--camera-size" in result.stderr and "like 1920x1080" in result.stderr
    (tmp_path / "camera.json").write_text('{"camera_size": "1920 by 1080"}')
    result = companion("demo", "--data", tmp_path, "--port", "0")
    assert result.returncode == 2 and "camera.json" in result.stderr and "WIDTHxHEIGHT" in result.stderr


def test_the_camera_size_comes_from_the_option_else_the_tables_config_else_the_cameras_best(tmp_path):
    from argparse import Namespace

    from companion.commands import camera_size

    assert camera_size(Namespace(camera_size=None, data=str(tmp_path))) is None   # the camera's best
    (tmp_path / "camera.json").write_text('{"camera_size": "1280x720"}')
    assert camera_size(Namespace(camera_size=None, data=str(tmp_path))) == (1280, 720)
    assert camera_size(Namespace(camera_size="1920x1080", data=str(tmp_path))) == (1920, 1080)


def test_the_camera_is_opened_at_the_size_asked_for(tmp_path):
    from companion.service import Service
    from companion.wiring import attach_camera

    service = Service(tmp_path / "data")
    pipeline = attach_camera(service, "virtual", size=(960, 540))
    try:
        assert (pipeline.source.table.width, pipeline.source.table.height) == (960, 540)
    finally:
        service.stop()


def test_each_command_is_found_in_the_module_the_command_table_names():
    """`companion CMD` imports only the module that registers CMD, so the table in cli.py must say
    truly which module registers which command: a command missing from it would be unknown."""
    import argparse
    import importlib

    from companion.cli import COMMAND_MODULES

    for name, commands in COMMAND_MODULES.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(name).register(sub)
        assert tuple(sub.choices) == commands, name


def test_a_command_starts_without_importing_the_other_commands_modules():
    """`companion replay` paid 0.75 s of CPU here importing every command's module (the
    benchmarks, the scanner's tools) for 0.24 s of its own work; now it imports its own."""
    probe = ("import sys; from companion.cli import build_parser; build_parser('replay');"
             "print(sorted(m for m in sys.modules if m.startswith(('companion.bench', 'companion.hub', 'card_tags.commands'))))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_help_and_an_unknown_command_still_list_every_command():
    listed = companion("--help")
    unknown = companion("dance")
    assert listed.returncode == 0 and unknown.returncode == 2
    for command in ("serve", "demo", "tags", "scan", "readers", "hub", "doctor", "bench"):
        assert command in listed.stdout and command in unknown.stderr


def test_the_service_keeps_what_its_start_made_out_of_the_collector_s_walks():
    """A full garbage collection walked every object the start made (modules, the rules, the pipeline:
    24 ms here, 100-150 ms on a Pi 4, every thread held meanwhile). Once started (`_run_web`, before
    it tells systemd it is ready), the service has frozen them: a full collection walks only what was
    made since. Run in a process of its own, so that the suite's objects are not frozen."""
    code = """
import gc, threading, types
from companion import commands
from companion.scan.pipeline import ScanPipeline
from companion.scan.zones import ZoneMap
ScanPipeline(None, "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle").warm_up()
class Server:
    def serve_forever(self):
        raise KeyboardInterrupt   # (as Ctrl-C or systemctl stop would: the start is over by then)
    def shutdown(self):
        pass
service = types.SimpleNamespace(start_background=lambda: None, stop=lambda: None, stopping=threading.Event(),
                                heartbeat=types.SimpleNamespace(alive=lambda: True))
commands.stop_on_signals = lambda: None
commands._banner = lambda *a: None
before = len(gc.get_objects())
commands._run_web(service, types.SimpleNamespace(hub=None), Server())
print(before, len(gc.get_objects()), gc.get_freeze_count())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    before, walked, frozen = map(int, out.stdout.split())
    assert before > 20_000 and frozen > 0.9 * before
    assert walked < 0.02 * before
