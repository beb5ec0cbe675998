"""What the write benchmarks share: a gunicorn stack on PostgreSQL, editors' sessions, form posts, and the ledger.

Used by bench/write_load.py (concurrent writers) and bench/kill_test.py (writers while the server is killed).
Everything listens and connects on 127.0.0.1 only. The database is checked with plain SQL (psycopg),
independently of the application that wrote it.
"""

import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
HOST = "127.0.0.1"
PT_CODES = ["NL", "PE", "NS", "NB", "QC", "ON", "MB", "SK", "AB", "BC", "YT", "NT", "NU"]
NEGOTIATION = "canada-job-grant"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def connect(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True)


def ensure_database(url: str) -> None:
    """Create the database named by ``url`` if it does not exist (on the same server)."""
    name = url.rsplit("/", 1)[-1]
    with connect(url.rsplit("/", 1)[0] + "/postgres") as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


class ManageFailed(RuntimeError):
    """A manage.py command exited non-zero; the message ends with its error output."""


# Editors with a logged-in session each, and the record keys the forms need.
SETUP_SCRIPT = """
import json, os
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.backends.db import SessionStore
from negotiations.models import Person, Source
editors = Group.objects.get(name="Editor")
sessions = []
for number in range(int(os.environ["BENCH_EDITORS"])):
    user, _ = get_user_model().objects.get_or_create(username=f"bench-writer-{number}")
    user.groups.add(editors)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]  # the model backend (axes is first)
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    sessions.append(session.session_key)
print("SETUP " + json.dumps({
    "sessions": sessions,
    "speakers": list(Person.objects.order_by("slug").values_list("slug", flat=True)[:5]),
    "sources": list(Source.objects.order_by("slug").values_list("slug", flat=True)[:5]),
}))
"""


@dataclass
class Stack:
    """A PostgreSQL database with the data set and editors, served by gunicorn started (and killed) on demand."""

    database_url: str
    editors: int
    workers: int
    port: int = field(default_factory=free_port)
    sessions: list[str] = field(default_factory=list)
    speakers: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    server: subprocess.Popen | None = None

    def __post_init__(self):
        self.static_root = tempfile.mkdtemp(prefix="fpt-write-static-")
        self.server_log = Path(tempfile.mkstemp(prefix="fpt-gunicorn-", suffix=".log")[1])
        self.env = {
            **os.environ, "DATABASE_URL": self.database_url, "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": HOST, "SECURE_SSL_REDIRECT": "false",
            "STATIC_ROOT": self.static_root, "LOG_LEVEL": "ERROR", "BENCH_EDITORS": str(self.editors),
        }

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def manage(self, *args: str) -> str:
        result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env,
                                capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise ManageFailed(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
        return result.stdout

    def collectstatic(self) -> None:
        """collectstatic as production runs it (manifest storage)."""
        self.manage("collectstatic", "--no-input", "-v0")

    def set_up(self) -> None:
        """Migrate, load the Canada Job Grant data set (idempotent), collect static files, log the editors in."""
        ensure_database(self.database_url)
        self.manage("migrate", "--no-input", "-v0")
        self.manage("load_cjg", "-v0")
        self.collectstatic()
        found = json.loads(re.search(r"^SETUP (.*)$", self.manage("shell", "-c", SETUP_SCRIPT), re.M).group(1))
        self.sessions, self.speakers, self.sources = found["sessions"], found["speakers"], found["sources"]

    def start(self, timeout: float = 30) -> None:
        """Start gunicorn (its own process group, so that it can be killed whole) and wait for /healthz."""
        with self.server_log.open("ab") as errors:
            self.server = subprocess.Popen(
                [PYTHON, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "--workers", str(self.workers),
                 "--bind", f"{HOST}:{self.port}", "--access-logfile", "/dev/null"],
                cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.kill()
        raise SystemExit(f"gunicorn did not answer /healthz within {timeout:.0f} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL the whole gunicorn process group: master and workers die mid-request, as in a crash."""
        if self.server is None:
            return
        try:
            os.killpg(self.server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.server.wait(timeout=10)
        self.server = None

    def stop(self) -> None:
        """Shut gunicorn down gracefully (SIGTERM), or kill it if it does not stop in time."""
        if self.server is None:
            return
        try:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()
        self.server = None

    def clean_up(self) -> None:
        self.stop()
        shutil.rmtree(self.static_root, ignore_errors=True)
        self.server_log.unlink(missing_ok=True)

    def log_tail(self, characters: int = 3000) -> str:
        return self.server_log.read_text(errors="replace")[-characters:] if self.server_log.exists() else ""

    def server_errors(self) -> list[str]:
        """Tracebacks and errors gunicorn and Django logged (LOG_LEVEL=ERROR)."""
        text = self.server_log.read_text(errors="replace") if self.server_log.exists() else ""
        return [line for line in text.splitlines() if "Traceback" in line or "Internal Server Error" in line]


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no answer (connection refused, reset, timed out)
    location: str
    body: str
    seconds: float
    error: str = ""


class Editor:
    """One logged-in editor posting forms over its own HTTP connection."""

    def __init__(self, stack: Stack, session: str, timeout: float = 30):
        self.stack = stack
        self.csrf = secrets.token_hex(16)
        self.headers = {
            "Cookie": f"sessionid={session}; csrftoken={self.csrf}", "X-CSRFToken": self.csrf,
            "Content-Type": "application/x-www-form-urlencoded",
        }
        self.timeout = timeout
        self.connection = None

    def post(self, path: str, fields: dict) -> Answer:
        started = time.monotonic()
        body = urlencode(fields, doseq=True)
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.stack.port, timeout=self.timeout)
            self.connection.request("POST", path, body=body, headers=self.headers)
            response = self.connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
            if response.getheader("Connection", "").lower() == "close":
                self._drop()
            return Answer(response.status, response.getheader("Location", ""), text, time.monotonic() - started)
        except (OSError, http.client.HTTPException) as error:
            self._drop()
            return Answer(None, "", "", time.monotonic() - started, f"{type(error).__name__}: {error}")

    def _drop(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


# -- the forms, as a browser posts them


def offer_fields(*, title: str, slug: str = "", tabled_on: str = "2014-02-01") -> dict:
    """A complete offer: 15,000 per trainee, four funding rows, two treatments, a three-year phase-in."""
    fields = {
        "title": title, "slug": slug, "negotiation": NEGOTIATION, "tabled_by": ["CA", "ON", "QC"],
        "tabled_on": tabled_on, "date_precision": "day", "status": "tabled", "responds_to": "budget-2013",
        "meeting": "", "summary": "Written by a benchmark client.",
        "max_grant": "15000", "federal_amount": "10000", "provincial_amount": "2500", "employer_amount": "2500",
        "federal_LMA": "5000", "federal_LMDA": "5000", "provincial_PT_OWN": "1500", "provincial_CJF": "1000",
        "scale_program": "LMA", "scale_amount": "300000000", "employer_min_share": "0.15",
        "small_employer_gap_payer": "", "shortfall_liability": "province", "assumptions": "Benchmark terms.",
        "treatment_QC": "opts_out_compensated", "treatment_NU": "federal_direct",
        "phase_in_year_0": "2014-15", "phase_in_fraction_0": "0.25",
        "phase_in_year_1": "2015-16", "phase_in_fraction_1": "0.6",
        "phase_in_year_2": "2016-17", "phase_in_fraction_2": "1",
    }
    for code in PT_CODES:
        fields.setdefault(f"treatment_{code}", "participates")
    return fields


# What offer_fields() writes besides the offer row.
OFFER_ROWS = {"funding_sources": 4, "treatments": 2, "phase_in": 3, "tabled_by": 3}


def statement_fields(stack: Stack, *, quote: str, number: int) -> dict:
    return {
        "negotiation": NEGOTIATION, "speaker": stack.speakers[number % len(stack.speakers)],
        "jurisdiction": PT_CODES[number % len(PT_CODES)], "date": "2014-02-01", "date_precision": "day",
        "language": "en", "original_language": "", "quote": quote, "context": "benchmark",
        "source": stack.sources[number % len(stack.sources)], "meeting": "",
    }


def position_fields(*, jurisdiction: str, as_of: str, summary: str) -> dict:
    return {
        "negotiation": NEGOTIATION, "jurisdiction": jurisdiction, "as_of": as_of, "date_precision": "day",
        "stance": "conditional", "summary": summary, "conditions": "", "triggered_by_offer": "",
        "triggered_by_meeting": "",
    }


def offer_saved(answer: Answer) -> bool:
    """The offer form's success: a redirect to the new offer's page (a login redirect is not one)."""
    return answer.status == 302 and answer.location.startswith("/offers/")


def record_saved(answer: Answer) -> bool:
    """The statement and position forms' success: a redirect to the jurisdiction's (or speaker's) page."""
    return answer.status == 302 and answer.location.startswith(("/jurisdictions/", "/people/"))


# -- the ledger: every write a client attempted, and what the server answered


@dataclass
class Write:
    kind: str  # offer or statement
    key: str  # the unique title or quote
    answer: Answer

    @property
    def outcome(self) -> str:
        status = self.answer.status
        if status is None:
            return "no answer"
        if status >= 500:
            return "5xx"
        saved = offer_saved(self.answer) if self.kind == "offer" else record_saved(self.answer)
        return "acknowledged" if saved else "refused"


class Ledger:
    def __init__(self):
        self._lock = threading.Lock()
        self.writes: list[Write] = []

    def add(self, write: Write) -> None:
        with self._lock:
            self.writes.append(write)

    def count(self, outcome: str | None = None, kind: str | None = None) -> int:
        return sum(1 for w in self.writes
                   if (outcome is None or w.outcome == outcome) and (kind is None or w.kind == kind))

    def keys(self, outcome: str, kind: str) -> list[str]:
        return [w.key for w in self.writes if w.outcome == outcome and w.kind == kind]


def starting_with(prefix: str) -> str:
    """A LIKE pattern matching the strings that start with ``prefix``."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def stored_counts(conn, *, prefix: str) -> dict[str, dict[str, int]]:
    """How many times each offer title and each statement quote starting with ``prefix`` is stored."""
    like = starting_with(prefix)
    offers = dict(conn.execute(
        "SELECT title, count(*) FROM negotiations_offer WHERE title LIKE %s GROUP BY title", (like,)).fetchall())
    statements = dict(conn.execute(
        "SELECT quote, count(*) FROM negotiations_statement WHERE quote LIKE %s GROUP BY quote", (like,)).fetchall())
    return {"offer": offers, "statement": statements}


def reconcile(ledger: Ledger, stored: dict[str, dict[str, int]]) -> dict[str, int]:
    """Compare what the server acknowledged with what the database holds."""
    figures = {"present exactly once": 0, "missing": 0, "duplicated": 0, "stored though unacknowledged": 0,
               "stored more than once (any write)": 0}
    for kind in ("offer", "statement"):
        for key in ledger.keys("acknowledged", kind):
            times = stored[kind].get(key, 0)
            figures["present exactly once" if times == 1 else "missing" if times == 0 else "duplicated"] += 1
        for write in ledger.writes:
            if write.kind == kind and write.outcome != "acknowledged" and stored[kind].get(write.key, 0):
                figures["stored though unacknowledged"] += 1
        figures["stored more than once (any write)"] += sum(1 for times in stored[kind].values() if times > 1)
    return figures


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
