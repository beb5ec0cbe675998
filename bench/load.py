"""Page throughput against the bare stack: gunicorn (2 workers) on PostgreSQL with scale-100 data.

Run through `bench/run` (or `bench/run --quick`). Prints a table of requests/s and p50/p99 latency
per URL, each page's throughput as a ratio to /healthz from the same run, and last the line
`min ratio to /healthz: R (PAGE)` for the slowest read page. Traffic goes to 127.0.0.1 only;
every wrk run is bounded in time.
"""

import argparse
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
PORT = int(os.environ.get("BENCH_PORT", "8765"))
BASE = f"http://127.0.0.1:{PORT}"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fpt_bench"
SCALE = 100


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def manage(env: dict, *args: str, capture: bool = False) -> str:
    result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True,
                            capture_output=capture, text=True)
    return result.stdout if capture else ""


def ensure_database(url: str) -> None:
    name = url.rsplit("/", 1)[-1]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


SETUP_SCRIPT = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.backends.db import SessionStore
from negotiations.models import Negotiation
User = get_user_model()
user, _ = User.objects.get_or_create(username="bench-editor")
user.groups.add(Group.objects.get(name="Editor"))
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print("SESSION", session.session_key)
print("SCALED", Negotiation.objects.filter(slug__startswith="scale-").count())
"""


def set_up(env: dict) -> str:
    """Migrate, load the data set, generate scale-100 data once; return a logged-in session key."""
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "load_cjg", "-v0")
    out = manage(env, "shell", "-c", SETUP_SCRIPT, capture=True)
    scaled = int(re.search(r"SCALED (\d+)", out).group(1))
    if scaled < SCALE:
        log(f"generating scale data ({SCALE - scaled} copies)...")
        manage(env, "generate_scale_data", "--scale", str(SCALE - scaled))
    manage(env, "collectstatic", "--no-input", "-v0")
    return re.search(r"SESSION (\S+)", out).group(1)


def start_server(env: dict) -> subprocess.Popen:
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "--workers", "2",
         "--bind", f"127.0.0.1:{PORT}", "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{BASE}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("gunicorn did not answer /healthz within 30 s: " + server.stderr.read().decode()[-2000:])


def preview_body() -> str:
    """The offer form as an editor would post it while typing (the Budget 2013 terms)."""
    from urllib.parse import urlencode

    return urlencode(PREVIEW_FIELDS)


PREVIEW_FIELDS: dict[str, str] = {}


def wrk(url: str, seconds: int, headers: dict[str, str], lua: str | None = None) -> dict:
    command = ["wrk", "-t2", "-c8", f"-d{seconds}s", "--timeout", "5s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    if lua:
        command += ["-s", lua]
    out = subprocess.run(command + [url], capture_output=True, text=True, timeout=seconds + 30).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {
        "rps": rps,
        "p50": _ms(re.search(r"50%\s+([\d.]+\w+)", out).group(1)),
        "p99": _ms(re.search(r"99%\s+([\d.]+\w+)", out).group(1)),
        "errors": int(non_2xx.group(1)) if non_2xx else 0,
    }


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 s per URL: the whole run in under a minute")
    parser.add_argument("--seconds", type=int, default=None, help="seconds per URL (default 10, quick 3)")
    args = parser.parse_args()
    seconds = args.seconds or (3 if args.quick else 10)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk)")

    started = time.monotonic()
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    ensure_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50),
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "false",
           "STATIC_ROOT": tempfile.mkdtemp(prefix="fpt-static-"), "WEB_CONCURRENCY": "2", "LOG_LEVEL": "ERROR"}
    session = set_up(env)
    log(f"set-up done in {time.monotonic() - started:.1f} s")
    csrf = secrets.token_hex(16)
    read_headers = {}
    write_headers = {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf,
                     "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
                     "Referer": f"{BASE}/offers/new"}

    lua = Path(tempfile.mkstemp(suffix=".lua")[1])
    lua.write_text(f'wrk.method = "POST"\nwrk.body = "{preview_body()}"\n')
    targets = [
        ("/healthz", "/healthz", read_headers, None),
        ("home", "/", read_headers, None),
        ("timeline ON", "/jurisdictions/ON/", read_headers, None),
        ("stance matrix", "/negotiations/canada-job-grant/stances", read_headers, None),
        ("fiscal page", "/offers/budget-2013/fiscal/", read_headers, None),
        ("preview POST", "/grants/preview", write_headers, str(lua)),
        ("API fiscal-effect", "/api/offers/budget-2013/fiscal-effect", read_headers, None),
        ("admin statements", "/admin/negotiations/statement/", {"Cookie": f"sessionid={session}"}, None),
    ]
    admin_env = dict(env)
    manage(admin_env, "shell", "-c",
           "from django.contrib.auth import get_user_model as g; "
           "g().objects.filter(username='bench-editor').update(is_staff=True, is_superuser=True)")
    server = start_server(env)
    results = {}
    try:
        for name, path, headers, script in targets:
            results[name] = wrk(BASE + path, seconds, headers, script)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        lua.unlink(missing_ok=True)

    base = results["/healthz"]["rps"]
    print(f"{'page':<20} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8} {'ratio':>6}")
    for name, r in results.items():
        print(f"{name:<20} {r['rps']:>9.1f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['errors']:>8} {r['rps'] / base:>6.2f}")
    print(f"(gunicorn 2 workers, PostgreSQL, scale {SCALE}, wrk 8 connections, {seconds} s per URL, "
          f"total {time.monotonic() - started:.0f} s)")
    reads = {k: v for k, v in results.items() if k not in ("/healthz", "preview POST")}
    slowest = min(reads, key=lambda k: reads[k]["rps"])
    print(f"min ratio to /healthz: {reads[slowest]['rps'] / base:.2f} ({slowest})")


if __name__ == "__main__":
    main()
