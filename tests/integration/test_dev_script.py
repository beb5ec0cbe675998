"""``python3 dev.py serve`` stopped by its PID stops the server it started: the port is free again."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stopping_dev_serve_by_pid_frees_its_port(tmp_path, signum):
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'dev.sqlite3'}"}
    process = subprocess.Popen([sys.executable, "dev.py", "serve", f"127.0.0.1:{port}"], cwd=settings.BASE_DIR,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        while not _answers(port):
            assert process.poll() is None, "dev.py serve stopped by itself"
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.5)

        process.send_signal(signum)
        process.wait(timeout=20)
        deadline = time.monotonic() + 10
        while _answers(port):
            assert time.monotonic() < deadline, f"port {port} still answers after dev.py was stopped"
            time.sleep(0.2)
    finally:
        if process.poll() is None:
            process.kill()
