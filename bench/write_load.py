"""Concurrent writers against gunicorn on PostgreSQL: every acknowledged write is stored exactly once.

Run through `bench/write-load` (default: 8 clients for 60 s; `--seconds`, `--clients`, `--workers`).
Each client is a logged-in editor posting the offer form (/offers/new) and the statement form
(/statements/new) in turn, each write with a title or quote no other write uses. Every answer is
recorded; afterwards the database is read with plain SQL and the script prints: writes attempted,
acknowledged (a 302 to the new record), refused, 5xx, no answer, present exactly once, missing,
duplicated, throughput and latency.

Then the races: all clients at once create the same position (same negotiation, jurisdiction and
date), then the same offer address (slug), a few rounds each. Exactly one must win; the others must
get the form back with a refusal that says why; no 5xx; the database must hold the thing once.

Exits 1 if an acknowledged write is missing or duplicated, any answer is a 5xx, a valid write is
refused or gets no answer, the server logs an error, or a race does not end with exactly one record.
Traffic stays on 127.0.0.1.
"""

import argparse
import datetime
import os
import random
import re
import secrets
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from writes import (  # noqa: E402 - the bench folder is put on the path first
    Answer,
    Editor,
    Ledger,
    Stack,
    Write,
    connect,
    log,
    offer_fields,
    offer_saved,
    percentile,
    position_fields,
    reconcile,
    record_saved,
    statement_fields,
    stored_counts,
)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fpt_load_write"
RACE_JURISDICTION = "MB"
POSITION_REFUSAL = re.compile(r"already has a position")
SLUG_REFUSAL = re.compile(r"already uses the address")


def write_for(stack: Stack, ledger: Ledger, *, client: int, prefix: str, deadline: float) -> None:
    """One client: offers and statements in turn until the deadline, each with its own title or quote."""
    editor = Editor(stack, stack.sessions[client])
    number = 0
    while time.monotonic() < deadline:
        number += 1
        key = f"{prefix} c{client} #{number}"
        if number % 2:
            answer = editor.post("/offers/new", offer_fields(title=key))
            ledger.add(Write("offer", key, answer))
        else:
            answer = editor.post("/statements/new", statement_fields(stack, quote=key, number=number))
            ledger.add(Write("statement", key, answer))
        if answer.status is None:
            time.sleep(0.05)  # the server is unreachable: do not spin


def all_at_once(stack: Stack, contenders: int, post) -> list[Answer]:
    """Have every contender post at the same moment; ``post(editor, number)`` makes one post."""
    barrier = threading.Barrier(contenders)
    answers: list[Answer | None] = [None] * contenders
    editors = [Editor(stack, stack.sessions[n]) for n in range(contenders)]

    def run(number: int) -> None:
        barrier.wait()
        answers[number] = post(editors[number], number)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def unused_date(conn, taken: set) -> datetime.date:
    """A date far from the data set on which RACE_JURISDICTION has no position yet."""
    while True:
        day = datetime.date(2200, 1, 1) + datetime.timedelta(days=random.randrange(200_000))
        if day in taken:
            continue
        found = conn.execute(
            "SELECT 1 FROM negotiations_position p JOIN negotiations_jurisdiction j ON j.id = p.jurisdiction_id "
            "WHERE j.code = %s AND p.as_of = %s", (RACE_JURISDICTION, day)).fetchone()
        if not found:
            taken.add(day)
            return day


def page_text(html: str, limit: int = 300) -> str:
    """The alert of a form page (or the start of any page) as plain text, for a log line."""
    alert = re.search(r'role="alert">(.*?)</div>', html, re.S)
    return re.sub(r"<[^>]+>|\s+", " ", alert.group(1) if alert else html).strip()[:limit]


def race_summary(name: str, rounds: list[dict]) -> tuple[str, bool]:
    contenders = sum(r["contenders"] for r in rounds)
    winners_ok = sum(1 for r in rounds if r["winners"] == 1)
    stored_ok = sum(1 for r in rounds if r["stored"] == 1)
    refused = sum(r["refused clearly"] for r in rounds)
    expected_refusals = contenders - len(rounds)
    errors = sum(r["5xx"] + r["no answer"] + r["other"] for r in rounds)
    ok = winners_ok == stored_ok == len(rounds) and refused == expected_refusals and errors == 0
    line = (f"  {name:<18} rounds with exactly one winner {winners_ok}/{len(rounds)}, stored once "
            f"{stored_ok}/{len(rounds)}, clear refusals {refused}/{expected_refusals}, "
            f"5xx {sum(r['5xx'] for r in rounds)}, other answers {sum(r['no answer'] + r['other'] for r in rounds)}"
            f"  {'OK' if ok else 'FAILED'}")
    return line, ok


def tally(answers: list[Answer], saved, refusal: re.Pattern, stored: int) -> dict:
    result = {"contenders": len(answers), "winners": 0, "refused clearly": 0, "5xx": 0, "no answer": 0, "other": 0,
              "stored": stored}
    for answer in answers:
        if answer.status is None:
            result["no answer"] += 1
        elif answer.status >= 500:
            result["5xx"] += 1
        elif saved(answer):
            result["winners"] += 1
        elif answer.status == 200 and refusal.search(answer.body):
            result["refused clearly"] += 1
        else:
            result["other"] += 1
    return result


def race_positions(stack: Stack, conn, *, contenders: int, rounds: int, run: str) -> list[dict]:
    results, taken = [], set()
    for round_number in range(rounds):
        as_of = unused_date(conn, taken).isoformat()
        answers = all_at_once(stack, contenders, lambda editor, n: editor.post("/positions/new", position_fields(
            jurisdiction=RACE_JURISDICTION, as_of=as_of, summary=f"race {run} round {round_number} client {n}")))
        stored = conn.execute(
            "SELECT count(*) FROM negotiations_position p JOIN negotiations_jurisdiction j ON j.id = p.jurisdiction_id "
            "JOIN negotiations_negotiation n ON n.id = p.negotiation_id "
            "WHERE j.code = %s AND p.as_of = %s AND n.slug = 'canada-job-grant'", (RACE_JURISDICTION, as_of),
        ).fetchone()[0]
        results.append(tally(answers, record_saved, POSITION_REFUSAL, stored))
    return results


def race_offer_slugs(stack: Stack, conn, *, contenders: int, rounds: int, run: str) -> list[dict]:
    results = []
    for round_number in range(rounds):
        slug = f"race-{run}-{round_number}"
        answers = all_at_once(stack, contenders, lambda editor, n: editor.post("/offers/new", offer_fields(
            title=f"Race {run} round {round_number} client {n}", slug=slug)))
        stored = conn.execute("SELECT count(*) FROM negotiations_offer WHERE slug = %s", (slug,)).fetchone()[0]
        results.append(tally(answers, offer_saved, SLUG_REFUSAL, stored))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the clients write (default 60)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (default 4, at least 2)")
    parser.add_argument("--race-rounds", type=int, default=5, help="rounds of each race (default 5)")
    args = parser.parse_args()
    if args.workers < 2 or args.clients < 2:
        parser.error("use at least 2 workers and 2 clients")

    started = time.monotonic()
    database_url = os.environ.get("WRITE_LOAD_DATABASE_URL", DEFAULT_DB)
    stack = Stack(database_url=database_url, editors=args.clients, workers=args.workers)
    run = secrets.token_hex(4)
    prefix = f"WL {run}"
    ledger = Ledger()
    try:
        stack.set_up()
        log(f"set-up done in {time.monotonic() - started:.1f} s; writing for {args.seconds:g} s...")
        stack.start()
        deadline = time.monotonic() + args.seconds
        load_started = time.monotonic()
        clients = [threading.Thread(target=write_for, args=(stack, ledger),
                                    kwargs={"client": n, "prefix": prefix, "deadline": deadline})
                   for n in range(args.clients)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        elapsed = time.monotonic() - load_started
        log("racing...")
        with connect(database_url) as conn:
            position_rounds = race_positions(stack, conn, contenders=args.clients, rounds=args.race_rounds, run=run)
            slug_rounds = race_offer_slugs(stack, conn, contenders=args.clients, rounds=args.race_rounds, run=run)
        stack.stop()
        server_errors = stack.server_errors()
        with connect(database_url) as conn:
            figures = reconcile(ledger, stored_counts(conn, prefix=prefix))
    finally:
        stack.clean_up()

    kinds = ("offer", "statement")
    rows = [
        ("attempted", [ledger.count(kind=k) for k in kinds]),
        *((outcome, [ledger.count(outcome, k) for k in kinds])
          for outcome in ("acknowledged", "refused", "5xx", "no answer")),
    ]
    print(f"write load {datetime.date.today().isoformat()}: {args.clients} clients, gunicorn {args.workers} workers, "
          f"PostgreSQL, {elapsed:.1f} s (run {run})")
    print(f"  {'':<34} {'offers':>8} {'statements':>11} {'total':>8}")
    for name, values in rows:
        print(f"  {name:<34} {values[0]:>8} {values[1]:>11} {sum(values):>8}")
    for name, value in figures.items():
        print(f"  {name:<34} {'':>8} {'':>11} {value:>8}")
    acknowledged = ledger.count("acknowledged")
    latencies = {k: [w.answer.seconds * 1000 for w in ledger.writes if w.kind == k and w.answer.status] for k in kinds}
    print(f"  throughput: {acknowledged / elapsed:.1f} acknowledged writes/s "
          f"({ledger.count('acknowledged', 'offer') / elapsed:.1f} offers/s, "
          f"{ledger.count('acknowledged', 'statement') / elapsed:.1f} statements/s)")
    for kind in kinds:
        print(f"  {kind} latency: p50 {percentile(latencies[kind], 0.5):.0f} ms, "
              f"p99 {percentile(latencies[kind], 0.99):.0f} ms")
    refusals = [w for w in ledger.writes if w.outcome in ("refused", "5xx")]
    for write in refusals[:3]:
        log(f"  {write.outcome} {write.kind} {write.key!r}: {write.answer.status} {page_text(write.answer.body)}")

    print(f"race: {args.clients} clients at once, {args.race_rounds} rounds each")
    position_line, positions_ok = race_summary("same position", position_rounds)
    slug_line, slugs_ok = race_summary("same offer slug", slug_rounds)
    print(position_line)
    print(slug_line)
    print(f"  server errors logged: {len(server_errors)}")

    problems = []
    if figures["missing"] or figures["duplicated"]:
        problems.append(f"{figures['missing']} acknowledged writes missing, {figures['duplicated']} duplicated")
    if ledger.count("5xx"):
        problems.append(f"{ledger.count('5xx')} answers were 5xx")
    if ledger.count("refused"):
        problems.append(f"{ledger.count('refused')} valid writes were refused")
    if ledger.count("no answer"):
        problems.append(f"{ledger.count('no answer')} writes got no answer")
    if not positions_ok or not slugs_ok:
        problems.append("a race did not end with exactly one record and clear refusals")
    if server_errors:
        problems.append(f"the server logged {len(server_errors)} errors")
    print("RESULT: " + ("OK" if not problems else "FAILED: " + "; ".join(problems))
          + f" (total {time.monotonic() - started:.0f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
