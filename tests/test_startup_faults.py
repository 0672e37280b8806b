"""Starting up when something is wrong: a camera that is not there yet is reported and looked for
again (the service runs); a busy port is said, exit code 2; a reader that closes the pipe early
(`companion ... | head`) ends the command quietly."""
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np

from companion.web.app import create_app
from companion.service import Service
from companion.wiring import attach_camera
from tests.timing import wait_for

ROOT = Path(__file__).resolve().parent.parent


def test_a_camera_missing_at_startup_is_reported_retried_and_used_once_there(tmp_path):
    import cv2

    frames = tmp_path / "frames"  # a folder of images that does not exist yet
    service = Service(tmp_path / "data")
    pipeline = attach_camera(service, str(frames), backoff=(0.05, 0.2))
    try:
        client = create_app(service).test_client()
        wait_for(lambda: pipeline.reopens >= 2, "the camera to be looked for again, with the backoff")
        camera = client.get("/api/devices").get_json()["camera"]
        assert camera["state"] in ("failed", "reopening", "opening") and "frames" in camera["last_error"]
        assert client.get("/api/state").status_code == 200, "the service runs on"
        frames.mkdir()
        cv2.imwrite(str(frames / "0001.png"), np.full((120, 160), 255, np.uint8))
        wait_for(lambda: pipeline.frames >= 1, "the camera, once there, to be used")
    finally:
        service.close()


def companion(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_a_busy_port_is_said_with_exit_code_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for source in ("none", "/dev/video9"):
            result = companion("serve", "--data", tmp_path / "data", "--host", "127.0.0.1", "--port", port,
                               "--source", source)
            assert result.returncode == 2, (source, result.returncode, result.stderr[-500:])
            assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr
            assert "Traceback" not in result.stderr


def test_a_closed_pipe_ends_a_command_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "companion", "replay", "tests/logs/bom/basic-3-seats.jsonl"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"{"  # `| head -1`: one line, then the reader is gone
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()[-800:]
