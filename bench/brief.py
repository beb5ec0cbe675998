"""Time the briefing at scale 100: the page, the PDF and the Word document, each rendered afresh.

Run from the project root:  .venv/bin/python bench/brief.py [--runs 7]
Uses BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/fpt_bench), migrating it, loading the
Canada Job Grant data set and generating scale-100 data when they are missing (as bench/run does).
The record cache is off, so every request computes its brief (as the first request after a change does).
Prints figures only; the target is under a second for a brief at scale 100.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fpt_bench"
SCALE = 100
ADDRESSES = [
    "/negotiations/canada-job-grant/briefing",
    "/jurisdictions/ON/briefing",
    "/negotiations/canada-job-grant/briefing.docx",
    "/jurisdictions/ON/briefing.docx",
    "/negotiations/canada-job-grant/briefing.pdf",
    "/jurisdictions/ON/briefing.pdf",
    "/negotiations/scale-0050/briefing",
]


def manage(env: dict, *args: str) -> str:
    result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=900)
    if result.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[-1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def set_up(env: dict) -> None:
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "load_cjg")
    out = manage(env, "shell", "-v0", "-c", "from negotiations.models import Negotiation; "
                 "print('SCALED', Negotiation.objects.filter(slug__startswith='scale-').count())")
    scaled = int(out.rsplit("SCALED", 1)[1].split()[0])
    if scaled < SCALE:
        print(f"generating scale data ({SCALE - scaled} copies)...", file=sys.stderr, flush=True)
        manage(env, "generate_scale_data", "--scale", str(SCALE - scaled))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    env = {**os.environ, "DATABASE_URL": url, "RECORD_CACHE": "false", "DEBUG": "true"}
    ensure_database(url)
    set_up(env)

    os.environ.update({"DATABASE_URL": url, "RECORD_CACHE": "false", "DJANGO_SETTINGS_MODULE": "config.settings"})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.test import Client

    client = Client()
    print(f"briefing at scale {SCALE} (PostgreSQL, record cache off, {args.runs} runs each after one warm-up)")
    print(f"{'address':48} {'median ms':>10} {'max ms':>8} {'bytes':>8}")
    worst = (0.0, "")
    for address in ADDRESSES:
        response = client.get(address)  # warm-up: imports, fonts, the engine's reference data
        if response.status_code != 200:
            print(f"{address:48} answered {response.status_code}")
            continue
        times = []
        for _run in range(args.runs):
            start = time.perf_counter()
            response = client.get(address)
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        worst = max(worst, (median, address))
        print(f"{address:48} {median:10.1f} {max(times):8.1f} {len(response.content):8d}")
    print(f"slowest brief: {worst[0]:.0f} ms ({worst[1]}); target < 1000 ms")


if __name__ == "__main__":
    main()
