"""Kill gunicorn mid-write, several times: no partial record is ever left behind, no acknowledged write is lost.

Run through `bench/kill-test` (default: 8 clients, 2 workers, 4 kills; well under 2 minutes).
Logged-in editors post complete offers (four funding rows, two treatments, a three-year phase-in,
three governments) and statements without pause, while the script SIGKILLs gunicorn's whole
process group (master and workers, as a crash or an OOM kill would) at a random moment, waits,
and starts it again. Afterwards the database is read with plain SQL, and the script prints the
figures and every partial record it finds:

* an offer whose funding rows do not add up to its federal or provincial amount (including an
  offer with a non-zero amount and no rows), whose split does not add up to its maximum grant,
  that names no government, or (for this run's offers) lacks some of its rows or its history;
* a statement without its source, or (for this run's) without its history;
* an acknowledged write that is missing or stored twice.

Exits 1 if it finds any. Traffic stays on 127.0.0.1.
"""

import argparse
import datetime
import os
import random
import secrets
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from writes import (  # noqa: E402 - the bench folder is put on the path first
    OFFER_ROWS,
    Editor,
    Ledger,
    Stack,
    Write,
    connect,
    log,
    offer_fields,
    reconcile,
    starting_with,
    statement_fields,
    stored_counts,
)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fpt_load_kill"


def write_until(stack: Stack, ledger: Ledger, stop: threading.Event, *, client: int, prefix: str) -> None:
    editor = Editor(stack, stack.sessions[client], timeout=10)
    number = 0
    while not stop.is_set():
        number += 1
        key = f"{prefix} c{client} #{number}"
        if number % 2:
            answer = editor.post("/offers/new", offer_fields(title=key))
            ledger.add(Write("offer", key, answer))
        else:
            answer = editor.post("/statements/new", statement_fields(stack, quote=key, number=number))
            ledger.add(Write("statement", key, answer))
        if answer.status is None:
            time.sleep(0.02)  # the server is down: try again shortly


# Each check: a name, and SQL returning one row (id, title or quote) per partial record.
EVERY_OFFER = [
    ("offers whose funding rows do not add up to their amounts (or are missing)", """
        SELECT o.id, o.title FROM negotiations_offer o
        LEFT JOIN (SELECT offer_id, sum(amount) AS total FROM negotiations_fundingsource
                   WHERE payer = 'federal' GROUP BY offer_id) f ON f.offer_id = o.id
        LEFT JOIN (SELECT offer_id, sum(amount) AS total FROM negotiations_fundingsource
                   WHERE payer = 'provincial' GROUP BY offer_id) p ON p.offer_id = o.id
        WHERE coalesce(f.total, 0) <> o.federal_amount OR coalesce(p.total, 0) <> o.provincial_amount"""),
    ("offers whose split does not add up to the maximum grant", """
        SELECT id, title FROM negotiations_offer
        WHERE federal_amount + provincial_amount + employer_amount <> max_grant"""),
    ("offers tabled by no government", """
        SELECT o.id, o.title FROM negotiations_offer o
        WHERE NOT EXISTS (SELECT 1 FROM negotiations_offer_tabled_by t WHERE t.offer_id = o.id)"""),
    ("statements without their source", """
        SELECT s.id, s.quote FROM negotiations_statement s
        LEFT JOIN negotiations_source src ON src.id = s.source_id WHERE src.id IS NULL"""),
]
THIS_RUN = [
    ("this run's offers missing funding, treatment, phase-in or government rows", f"""
        SELECT o.id, o.title FROM negotiations_offer o WHERE o.title LIKE %(like)s AND (
            (SELECT count(*) FROM negotiations_fundingsource r WHERE r.offer_id = o.id)
                <> {OFFER_ROWS['funding_sources']}
         OR (SELECT count(*) FROM negotiations_jurisdictiontreatment r WHERE r.offer_id = o.id)
                <> {OFFER_ROWS['treatments']}
         OR (SELECT count(*) FROM negotiations_phaseinstep r WHERE r.offer_id = o.id)
                <> {OFFER_ROWS['phase_in']}
         OR (SELECT count(*) FROM negotiations_offer_tabled_by r WHERE r.offer_id = o.id)
                <> {OFFER_ROWS['tabled_by']})"""),
    ("this run's offers without their creation in the history", """
        SELECT o.id, o.title FROM negotiations_offer o WHERE o.title LIKE %(like)s AND NOT EXISTS (
            SELECT 1 FROM negotiations_historicaloffer h WHERE h.id = o.id AND h.history_type = '+')"""),
    ("this run's statements without their creation in the history", """
        SELECT s.id, s.quote FROM negotiations_statement s WHERE s.quote LIKE %(like)s AND NOT EXISTS (
            SELECT 1 FROM negotiations_historicalstatement h WHERE h.id = s.id AND h.history_type = '+')"""),
]


def rollbacks(database_url: str) -> int:
    """PostgreSQL's count of transactions rolled back in this database (killed connections' included)."""
    with connect(database_url) as conn:
        row = conn.execute("SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()").fetchone()
        return row[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=4, help="how many times gunicorn is killed (default 4)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent writers (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--up", type=float, nargs=2, default=(1.5, 4.0), metavar=("MIN", "MAX"),
                        help="seconds the server runs before each kill, drawn between MIN and MAX (default 1.5 4)")
    args = parser.parse_args()

    started = time.monotonic()
    database_url = os.environ.get("KILL_TEST_DATABASE_URL", DEFAULT_DB)
    stack = Stack(database_url=database_url, editors=args.clients, workers=args.workers)
    run = secrets.token_hex(4)
    prefix = f"KT {run}"
    ledger, stop = Ledger(), threading.Event()
    uptimes = []
    try:
        stack.set_up()
        rollbacks_before = rollbacks(database_url)
        log(f"set-up done in {time.monotonic() - started:.1f} s; {args.kills} kills...")
        writers = [threading.Thread(target=write_until, args=(stack, ledger, stop),
                                    kwargs={"client": n, "prefix": prefix}) for n in range(args.clients)]
        for thread in writers:
            thread.start()
        try:
            for _kill in range(args.kills):
                stack.start()
                uptime = random.uniform(*args.up)
                time.sleep(uptime)
                stack.kill()
                uptimes.append(uptime)
        finally:
            stop.set()
            for thread in writers:
                thread.join()
            stack.kill()
        server_errors = stack.server_errors()
        time.sleep(1)  # PostgreSQL reports its statistics about once a second
        rolled_back = rollbacks(database_url) - rollbacks_before
        like = starting_with(prefix)
        with connect(database_url) as conn:
            stored = stored_counts(conn, prefix=prefix)
            figures = reconcile(ledger, stored)
            partial = {name: conn.execute(sql).fetchall() for name, sql in EVERY_OFFER}
            partial |= {name: conn.execute(sql, {"like": like}).fetchall() for name, sql in THIS_RUN}
            totals = conn.execute("SELECT (SELECT count(*) FROM negotiations_offer), "
                                  "(SELECT count(*) FROM negotiations_statement)").fetchone()
    finally:
        stack.clean_up()

    no_answer = [w for w in ledger.writes if w.answer.status is None]
    cut_off = sum(1 for w in no_answer if not w.answer.error.startswith("ConnectionRefusedError"))
    print(f"kill test {datetime.date.today().isoformat()}: {len(uptimes)} SIGKILLs of gunicorn's process group "
          f"({args.workers} workers) after {', '.join(f'{u:.1f}' for u in uptimes)} s up, "
          f"{args.clients} clients writing, PostgreSQL (run {run})")
    print(f"  writes attempted {len(ledger.writes)}: acknowledged {ledger.count('acknowledged')} "
          f"(offers {ledger.count('acknowledged', 'offer')}, statements {ledger.count('acknowledged', 'statement')}), "
          f"cut off mid-request {cut_off}, connection refused while down {len(no_answer) - cut_off}, "
          f"form refused {ledger.count('refused')}, 5xx {ledger.count('5xx')}")
    print(f"  transactions PostgreSQL rolled back in this database meanwhile (killed mid-transaction among them): "
          f"{rolled_back}")
    print(f"  stored by this run: offers {len(stored['offer'])}, statements {len(stored['statement'])}; "
          f"in the database: offers {totals[0]}, statements {totals[1]}")
    print(f"  acknowledged and present exactly once {figures['present exactly once']}, "
          f"missing {figures['missing']}, duplicated {figures['duplicated']}; "
          f"complete though unacknowledged (answer lost in a kill) {figures['stored though unacknowledged']}")
    print("  partial records:")
    for name, rows in partial.items():
        print(f"    {name}: {len(rows)}" + (f"  e.g. {rows[:3]}" if rows else ""))
    print(f"  server errors logged: {len(server_errors)}")

    problems = []
    broken = sum(len(rows) for rows in partial.values())
    if broken:
        problems.append(f"{broken} partial records")
    if figures["missing"] or figures["duplicated"]:
        problems.append(f"{figures['missing']} acknowledged writes missing, {figures['duplicated']} duplicated")
    if ledger.count("5xx"):
        problems.append(f"{ledger.count('5xx')} answers were 5xx")
    if not ledger.count("acknowledged"):
        problems.append("no write was acknowledged: nothing was tested")
    print("RESULT: " + ("OK" if not problems else "FAILED: " + "; ".join(problems))
          + f" (total {time.monotonic() - started:.0f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
