"""50 slow clients against the production front (nginx + gunicorn) while /healthz must keep answering.

Starts gunicorn (2 sync workers, DEBUG off) on a unix socket and nginx on a free loopback port, with
a configuration generated under a temporary directory from the lines of deploy/nginx.conf between its
"front" markers (run as a plain process, not as a system service). Then opens 25 clients that send
their headers a few bytes a second and 25 that send a 100 KB body 200 bytes a second, and meanwhile
probes GET /healthz through nginx every 100 ms on a fresh connection: each must answer 200 in under
100 ms. Last, for comparison, the same slow clients straight at gunicorn (no nginx), which is what
took the site down. Prints the figures; exits non-zero when the probes through nginx fail.

    .venv/bin/python bench/slow_clients.py [--seconds 15] [--clients 50]

Needs nginx (installed with apt-get when missing and run as root). Bounded: about 2 × --seconds plus
start-up. Uses SQLite in the temporary directory unless SLOW_CLIENTS_DATABASE_URL is set.
"""

import argparse
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT = re.compile(r"# --- front: begin\n(.*?)\n\s*# --- front: end", re.S)
LIMIT_MS = 100.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found:
        return found
    if os.geteuid() != 0:
        sys.exit("nginx is missing: apt-get install nginx-light (as root), then run this again")
    log("installing nginx-light with apt-get")
    subprocess.run(["apt-get", "install", "-y", "nginx-light"], check=True, stdout=subprocess.DEVNULL)
    return shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(tmp: Path, port: int, sock: Path) -> str:
    front = FRONT.search((ROOT / "deploy" / "nginx.conf").read_text())[1]
    temp = " ".join(f"{name}_temp_path {tmp / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root root;\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
pid {tmp / 'nginx.pid'};
error_log {tmp / 'nginx-error.log'} warn;
daemon off;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    {temp}
    upstream tracker {{
        server unix:{sock} fail_timeout=0;
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
{front}
    }}
}}
"""


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if probe(port, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"nothing answered 200 at 127.0.0.1:{port}/healthz within {seconds} s")


def probe(port: int, timeout: float = 5) -> tuple[int, float]:
    """GET /healthz on a fresh connection: (status, milliseconds); status 0 when it timed out."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/healthz", headers={"Host": "localhost"})
        status = connection.getresponse().status
    except TimeoutError:
        status = 0
    except OSError:
        status = -1
    finally:
        connection.close()
    return status, (time.perf_counter() - start) * 1000


class SlowClient(threading.Thread):
    """Sends a request a few bytes at a time until told to stop (or the server drops it)."""

    def __init__(self, port: int, kind: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.kind, self.stop = port, kind, stop
        self.connected = self.dropped = False
        self.sent = 0

    def run(self):
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        except OSError:
            return
        self.connected = True
        try:
            if self.kind == "headers":
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
                chunks, pause = (f"X-Slow-{n}: {'a' * 8}\r\n".encode() for n in range(10**6)), 1.0
            else:
                body_length = 100_000
                sock.sendall(b"POST /accounts/login/ HTTP/1.1\r\nHost: localhost\r\n"
                             b"Content-Type: application/x-www-form-urlencoded\r\n"
                             + f"Content-Length: {body_length}\r\n\r\n".encode())
                chunks, pause = (b"u" * 200 for _ in range(body_length // 200)), 1.0
            for chunk in chunks:
                if self.stop.wait(pause):
                    break
                sock.sendall(chunk)
                self.sent += len(chunk)
        except OSError:
            self.dropped = True
        finally:
            sock.close()


def run_phase(name: str, port: int, clients: int, seconds: float) -> dict:
    stop = threading.Event()
    slow = [SlowClient(port, "headers" if n % 2 == 0 else "body", stop) for n in range(clients)]
    for client in slow:
        client.start()
    time.sleep(1.0)  # every slow client connected and under way
    results = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        results.append(probe(port, timeout=5))
        time.sleep(0.1)
    connected = sum(client.connected for client in slow)
    alive = sum(client.is_alive() and not client.dropped for client in slow)
    stop.set()
    for client in slow:
        client.join(timeout=5)
    times = sorted(ms for _status, ms in results)
    ok = [ms for status, ms in results if status == 200 and ms < LIMIT_MS]
    figures = {
        "name": name, "probes": len(results), "ok": len(ok),
        "non_200": sum(status != 200 for status, _ms in results),
        "slow_answers": sum(status == 200 and ms >= LIMIT_MS for status, ms in results),
        "p50": statistics.median(times), "p99": times[max(0, round(len(times) * 0.99) - 1)], "max": times[-1],
        "connected": connected, "alive": alive, "clients": clients,
    }
    print(f"  {name:<28} probes {figures['probes']:>4}  200 under {LIMIT_MS:.0f} ms {figures['ok']:>4}  "
          f"non-200 {figures['non_200']:>3}  200 but slow {figures['slow_answers']:>3}  "
          f"p50 {figures['p50']:7.1f} ms  p99 {figures['p99']:7.1f} ms  max {figures['max']:7.1f} ms  "
          f"(slow clients connected {connected}/{clients}, still sending at the end {alive})", flush=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15, help="how long each phase probes (default 15)")
    parser.add_argument("--clients", type=int, default=50, help="slow clients (default 50, half headers, half body)")
    parser.add_argument("--no-control", action="store_true", help="skip the run straight at gunicorn")
    args = parser.parse_args()
    started = time.monotonic()
    nginx = nginx_binary()
    tmp = Path(tempfile.mkdtemp(prefix="fpt-slow-clients-"))
    tmp.chmod(0o755)  # nginx's worker reaches gunicorn's socket in it
    sock, nginx_port, direct_port = tmp / "gunicorn.sock", free_port(), free_port()
    env = {
        **os.environ, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "localhost,127.0.0.1", "SECURE_SSL_REDIRECT": "false", "TRUSTED_PROXY_COUNT": "1",
        "DATABASE_URL": os.environ.get("SLOW_CLIENTS_DATABASE_URL", f"sqlite:///{tmp / 'db.sqlite3'}"),
        "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "1", "GUNICORN_TIMEOUT": "30",
    }
    gunicorn = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "config/gunicorn.py", "-b", f"unix:{sock}",
         "-b", f"127.0.0.1:{direct_port}", "config.wsgi"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(tmp / "gunicorn.log", "w"), start_new_session=True,
    )
    (tmp / "nginx.conf").write_text(nginx_config(tmp, nginx_port, sock))
    front = subprocess.Popen([nginx, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], stdout=subprocess.DEVNULL,
                             stderr=open(tmp / "nginx.log", "w"), start_new_session=True)
    try:
        wait_for(direct_port)
        wait_for(nginx_port)
        version = subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr.strip()
        print(f"slow clients {time.strftime('%Y-%m-%d')}: {args.clients} slow clients (half slow headers, half a slow "
              f"100 KB body), {args.seconds:.0f} s per run, gunicorn 2 sync workers; {version}", flush=True)
        through = run_phase("through nginx", nginx_port, args.clients, args.seconds)
        if not args.no_control:
            time.sleep(1)
            run_phase("straight at gunicorn", direct_port, args.clients, args.seconds)
    finally:
        for process in (front, gunicorn):
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)
    failed = through["non_200"] > 0 or through["slow_answers"] > max(1, through["probes"] // 100)
    print(f"RESULT: {'FAIL' if failed else 'OK'} through nginx: {through['ok']}/{through['probes']} probes 200 in "
          f"under {LIMIT_MS:.0f} ms (allowed: no error, at most 1 % slower) (total {time.monotonic() - started:.0f} s)")
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
