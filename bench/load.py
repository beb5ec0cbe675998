"""Page throughput against the bare stack: gunicorn (2 workers) on PostgreSQL with scale-100 data.

Run through `bench/run` (or `bench/run --quick`). Prints a table of requests/s and p50/p99 latency
per URL, each page's throughput as a ratio to /healthz from the same run, and last the line
`min ratio to /healthz: R (PAGE)` for the slowest read page. The machine's speed drifts during a run
(on a shared 2-core machine /healthz has read 1,300 and 1,900 requests a second minutes apart), so
each page is held against /healthz measured just before and just after it (a short run between
pages; the mean of the two), not against one /healthz run at the start. Traffic goes to 127.0.0.1 only;
every wrk run is bounded in time.

Before measuring, every URL is fetched once per worker and must answer 200 with what it shows
(wrk counts a redirect to the login page as a success): the admin changelist with an
administrator's session, the preview POST with an editor's session and its CSRF token. After the
runs, the line `database connections:` says how many connections PostgreSQL opened meanwhile
(persistent connections: one per worker, and one more each time gunicorn recycles a worker).

The read pages keep what they render per worker until the record changes (negotiations.record_cache),
so the main table measures a record that is read far more often than it is written. A second table
measures the same pages with RECORD_CACHE=false: what each request costs when it must render afresh
(the first request after a change, or an address nobody asked for yet).
"""

import argparse
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
PORT = int(os.environ.get("BENCH_PORT", "8765"))
BASE = f"http://127.0.0.1:{PORT}"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fpt_bench"
SCALE = 100
WORKERS = 2
CONNECTIONS = 8
# Django's own admin changelist on the same data: the peer page the timeline is held against
# (not one of this project's read pages, so not in the "min ratio" line).
PEER = "admin statements"
# Kept between runs: collectstatic is run again only when the static files or the packages change.
STATIC_ROOT = Path(tempfile.gettempdir(), "fpt-bench-static")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def manage(env: dict, *args: str) -> str:
    result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=900)
    if result.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def ensure_database(url: str) -> None:
    name = url.rsplit("/", 1)[-1]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


# One Django process for the whole set-up (each manage.py start costs a second or more).
SETUP_SCRIPT = """
import io, json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from negotiations.models import Negotiation

call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
call_command("load_cjg", stdout=io.StringIO())
User = get_user_model()
# The preview is posted by an editor (the Editor group, no admin rights); the admin changelist is
# read by an administrator.
editor, _ = User.objects.get_or_create(username="bench-editor")
editor.groups.add(Group.objects.get(name="Editor"))
admin, _ = User.objects.update_or_create(username="bench-admin", defaults={"is_staff": True, "is_superuser": True})


def session_of(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]  # the model backend (axes is first)
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


print("SETUP " + json.dumps({
    "editor": session_of(editor),
    "admin": session_of(admin),
    "scaled": Negotiation.objects.filter(slug__startswith="scale-").count(),
}))
"""


def static_fingerprint() -> str:
    """What collectstatic's output depends on: the project's static files and the pinned packages."""
    digest = hashlib.sha256((ROOT / "requirements.txt").read_bytes())
    for path in sorted((ROOT / "static").rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.relative_to(ROOT)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def collect_static(env: dict) -> None:
    """collectstatic as production runs it, skipped when nothing it reads has changed since the last run.

    The manifest storage refuses a JS file whose sourceMappingURL names a missing file (the vendored
    Chart.js names chart.umd.min.js.map, which is not vendored): a deployment bug, reported, and given
    an empty placeholder here so that the benchmark still runs.
    """
    stamp = STATIC_ROOT / ".bench-fingerprint"
    fingerprint = static_fingerprint()
    if stamp.exists() and stamp.read_text() == fingerprint:
        return
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
    for _attempt in range(5):
        result = subprocess.run([PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=300)
        if result.returncode == 0:
            stamp.write_text(fingerprint)
            return
        missing = re.search(r"references a file which could not be found:\s+(\S+\.map)\b", result.stderr)
        if missing is None:
            raise SystemExit(f"collectstatic failed:\n{result.stderr[-3000:]}")
        log(f"WARNING: collectstatic fails with DEBUG off: {missing.group(1)} is missing (a sourceMappingURL "
            "in a vendored file); using an empty placeholder")
        placeholder = STATIC_ROOT / missing.group(1)
        placeholder.parent.mkdir(parents=True, exist_ok=True)
        placeholder.write_text("{}")
    raise SystemExit("collectstatic kept failing")


def set_up(env: dict) -> dict:
    """Migrate, load the data set, generate scale-100 data once, collect static files.

    Returns the session keys of an editor and an administrator.
    """
    out = manage(env, "shell", "-c", SETUP_SCRIPT)
    found = json.loads(re.search(r"^SETUP (.*)$", out, re.M).group(1))
    if found["scaled"] < SCALE:
        log(f"generating scale data ({SCALE - found['scaled']} copies, about 10 s)...")
        manage(env, "generate_scale_data", "--scale", str(SCALE - found["scaled"]))
    collect_static(env)
    analyze(env["DATABASE_URL"], checkpoint=found["scaled"] < SCALE)
    return found


def analyze(url: str, *, checkpoint: bool = False) -> None:
    """Fresh planner statistics: the plans measured are those of a database whose autovacuum has run
    (this machine's PostgreSQL runs with autovacuum off, so bulk-generated rows would stay unknown).
    After generating data, a checkpoint writes it out now rather than during the first measurements."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")
        if checkpoint:
            conn.execute("CHECKPOINT")


def start_server(env: dict, log_file: Path) -> subprocess.Popen:
    with log_file.open("ab") as errors:
        server = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "--workers", str(WORKERS),
             "--bind", f"127.0.0.1:{PORT}", "--access-logfile", "/dev/null"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            with urllib.request.urlopen(f"{BASE}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise SystemExit("gunicorn did not answer /healthz within 30 s: " + log_file.read_text()[-2000:])


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=25)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=5)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect (to the login page, say) is answered as it is, not followed


_opener = urllib.request.build_opener(_NoRedirect)


def fetch(path: str, headers: dict[str, str], body: str | None) -> tuple[int, str]:
    request = urllib.request.Request(BASE + path, data=body.encode() if body is not None else None,
                                     headers=headers, method="POST" if body is not None else "GET")
    try:
        with _opener.open(request, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def paired(targets: list["Target"], seconds: int, healthz: "Target", probe_seconds: int,
           after_each: Callable[[], None] = lambda: None) -> tuple[dict, dict, list[float]]:
    """Each target's wrk figures; the /healthz throughput each is compared with (the mean of the
    /healthz runs just before and just after it: short ones, or /healthz's own run where it is in
    ``targets``); and every /healthz run's throughput."""
    results, base, probes = {}, {}, []
    for target in targets:
        if target is not healthz and not probes:
            probes.append(wrk(healthz, probe_seconds)["rps"])
        results[target.name] = wrk(target, seconds)
        after_each()
        if target is healthz:  # its own run is the probe before the next page
            base[target.name] = results[target.name]["rps"]
            probes.append(base[target.name])
            continue
        probes.append(wrk(healthz, probe_seconds)["rps"])
        base[target.name] = (probes[-2] + probes[-1]) / 2
    return results, base, probes


def preflight(targets: list["Target"]) -> None:
    """Every URL answers 200 with what it should show (wrk counts a redirect as a success); warms the workers.

    Each URL is asked for by several clients at once, so that every worker (not only the one that
    happens to accept first) has answered it, its connection open and its page rendered, before the
    measurements start: otherwise a worker's first request lands in a measured run's p99."""
    from concurrent.futures import ThreadPoolExecutor

    problems = []
    with ThreadPoolExecutor(max_workers=2 * WORKERS) as pool:
        for target in targets:
            answers = list(pool.map(lambda _: fetch(target.path, target.headers, target.body), range(2 * WORKERS)))
            for status, text in answers:
                if status != 200:
                    problems.append(f"{target.name}: {target.path} answered {status}")
                    break
                if target.expect and target.expect not in text:
                    problems.append(f"{target.name}: {target.path} answered 200 without {target.expect!r}")
                    break
    if problems:
        raise SystemExit("Not every URL answers as it should:\n  " + "\n  ".join(problems))


def sessions_opened(url: str) -> int:
    """How many sessions PostgreSQL has ever opened on the bench database (pg_stat_database.sessions)."""
    import psycopg

    name = url.rsplit("/", 1)[-1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        return conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", (name,)).fetchone()[0]


def preview_body() -> str:
    """The offer form as an editor would post it while typing (the Budget 2013 terms)."""
    from urllib.parse import urlencode

    body = urlencode(PREVIEW_FIELDS)
    assert '"' not in body and "\\" not in body  # it goes into a Lua string as it is
    return body


PT_CODES = ("NL", "PE", "NS", "NB", "QC", "ON", "MB", "SK", "AB", "BC", "YT", "NT", "NU")
# What the offer form's page posts to grants:preview (negotiations.offer_forms.OfferForm, static/js/offer-form.js):
# the fields of the terms that are filled in, and not the record's own fields (title, date, sources...),
# which the form's hx-params leaves out; the CSRF token travels in the X-CSRFToken header.
PREVIEW_FIELDS: dict[str, str] = {
    # The negotiation and the date too: the preview says who would sign on that date (issue 17).
    "negotiation": "canada-job-grant",
    "tabled_on": "2014-01-28",
    "max_grant": "15000",
    "federal_amount": "5000",
    "provincial_amount": "5000",
    "employer_amount": "5000",
    "federal_LMA": "5000",
    "provincial_PT_OWN": "5000",
    "scale_program": "LMA",
    "scale_amount": "300000000",
    "shortfall_liability": "none",
    **{f"treatment_{code}": "participates" for code in PT_CODES},
}


def backends(url: str) -> set[int]:
    """The server processes of the connections open to the bench database now (not this one's)."""
    import psycopg

    name = url.rsplit("/", 1)[-1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
                            (name,)).fetchall()
    return {pid for (pid,) in rows}


@dataclass(frozen=True)
class Target:
    name: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None  # POSTed when set
    expect: str = ""  # text the answer must contain
    read: bool = True  # a read page, held to the read target


def wrk(target: Target, seconds: int) -> dict:
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "5s", "--latency"]
    for name, value in target.headers.items():
        command += ["-H", f"{name}: {value}"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as lua:
        if target.body is not None:
            lua.write(f'wrk.method = "POST"\nwrk.body = "{target.body}"\n')
            lua.flush()
            command += ["-s", lua.name]
        out = subprocess.run(command + [BASE + target.path], capture_output=True, text=True,
                             timeout=seconds + 30).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rps": rps,
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "p50": _ms(re.search(r"50%\s+([\d.]+\w+)", out).group(1)),
        "p99": _ms(re.search(r"99%\s+([\d.]+\w+)", out).group(1)),
        "errors": (int(non_2xx.group(1)) if non_2xx else 0)
        + (sum(int(n) for n in socket_errors.groups()) if socket_errors else 0),
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
           "STATIC_ROOT": str(STATIC_ROOT), "WEB_CONCURRENCY": str(WORKERS), "LOG_LEVEL": "ERROR"}
    sessions = set_up(env)
    log(f"set-up done in {time.monotonic() - started:.1f} s")
    csrf = secrets.token_hex(16)
    # The preview as htmx posts it from the offer form: the CSRF token in its header, as the page sets it.
    editor_headers = {"Cookie": f"sessionid={sessions['editor']}; csrftoken={csrf}", "X-CSRFToken": csrf,
                      "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
                      "Referer": f"{BASE}/offers/new"}
    targets = [
        Target("/healthz", "/healthz", expect='"ok"', read=False),
        Target("home", "/"),
        Target("timeline ON", "/jurisdictions/ON/"),
        Target("stance matrix", "/negotiations/canada-job-grant/stances"),
        Target("fiscal page", "/offers/budget-2013/fiscal/"),
        Target("preview POST", "/grants/preview", editor_headers, preview_body(), 'data-line="trainees"', read=False),
        Target("API fiscal-effect", "/api/offers/budget-2013/fiscal-effect"),
        Target(PEER, "/admin/negotiations/statement/", {"Cookie": f"sessionid={sessions['admin']}"},
               expect='id="result_list"'),
    ]
    server_log = Path(tempfile.mkstemp(prefix="fpt-bench-gunicorn-", suffix=".log")[1])
    server = start_server(env, server_log)
    seen_backends: set[int] = set()
    probe_seconds = max(1, seconds // 3)
    try:
        preflight(targets)
        opened_before = sessions_opened(url)
        results, base, probes = paired(targets, seconds, targets[0], probe_seconds,
                                       after_each=lambda: seen_backends.update(backends(url)))
        time.sleep(1.5)  # PostgreSQL counts a session when its backend next reports its statistics
        opened = sessions_opened(url) - opened_before
    finally:
        stop_server(server)
    # The same read pages with the record cache off: what a page costs when the record has just changed
    # (or its address was never asked for), so every request renders afresh.
    cold = {}
    cold_seconds = max(1, seconds // 3)  # supplementary figures: a shorter run each
    server = start_server({**env, "RECORD_CACHE": "false"}, server_log)
    try:
        cold_targets = [t for t in targets if (t.read and t.name != PEER) or t.name == "/healthz"]
        preflight(cold_targets)
        cold, cold_base, cold_probes = paired(cold_targets, cold_seconds, cold_targets[0], 1)
    finally:
        stop_server(server)
    server_errors = [line for line in server_log.read_text().splitlines() if "Traceback" in line or "ERROR" in line]
    server_log.unlink(missing_ok=True)

    print(f"{'page':<20} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8} {'ratio':>6}")
    for name, r in results.items():
        print(f"{name:<20} {r['rps']:>9.1f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['errors']:>8} "
              f"{r['rps'] / base[name]:>6.2f}")
    print("record cache off (each request renders afresh, as after a change):")
    for name, r in cold.items():
        if name != "/healthz":
            print(f"  {name:<18} {r['rps']:>9.1f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['errors']:>8} "
                  f"{r['rps'] / cold_base[name]:>6.2f}")
    print(f"(each ratio: against the mean of the /healthz runs just before and after that page; /healthz read "
          f"{min(probes):.0f}-{max(probes):.0f} req/s in those runs, {min(cold_probes):.0f}-{max(cold_probes):.0f} "
          f"with the cache off)")
    requests = sum(r["requests"] for r in results.values())
    print(f"(gunicorn {WORKERS} workers, PostgreSQL, scale {SCALE}, wrk {CONNECTIONS} connections, {seconds} s per URL "
          f"({cold_seconds} s with the cache off), total {time.monotonic() - started:.0f} s)")
    print(f"database connections: {opened} opened for {requests} requests; "
          f"{len(seen_backends)} distinct server processes seen after the runs")
    if server_errors:
        print(f"server log: {len(server_errors)} error lines, first: {server_errors[0][:200]}")
    worst_p99 = max((name for name in results if name != PEER), key=lambda k: results[k]["p99"])
    print(f"targets: timeline {results['timeline ON']['rps']:.0f} req/s vs admin changelist {results[PEER]['rps']:.0f}; "
          f"preview ratio {results['preview POST']['rps'] / base['preview POST']:.2f} (target 0.50); "
          f"worst p99 {results[worst_p99]['p99']:.1f} ms ({worst_p99}; target < 100)")
    reads = {t.name: results[t.name] for t in targets if t.read and t.name != PEER}
    slowest = min(reads, key=lambda k: reads[k]["rps"] / base[k])
    print(f"min ratio to /healthz: {reads[slowest]['rps'] / base[slowest]:.2f} ({slowest})")


if __name__ == "__main__":
    main()
