"""python manage.py generate_scale_data --scale N   |   --remove"""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from negotiations import scale as scale_data


class Command(BaseCommand):
    help = "Add N synthetic copies of the Canada Job Grant record (deterministic), or remove them all."

    def add_arguments(self, parser):
        parser.add_argument("--scale", type=int, help="how many copies to add (100 ≈ 10,000 statements)")
        parser.add_argument("--seed", type=int, default=2013, help="random seed (default 2013)")
        parser.add_argument("--remove", action="store_true", help="delete every generated record and nothing else")

    def handle(self, *args, scale: int | None, seed: int, remove: bool, **options):
        if remove:
            removed = scale_data.remove()
            self.stdout.write(self.style.SUCCESS(f"Removed {removed} generated negotiations and their records."))
            return
        if scale is None:
            raise CommandError("Give --scale N (a whole number from 1 to 1000) or --remove.")
        if not 1 <= scale <= 1000:
            raise CommandError("--scale must be a whole number from 1 to 1000.")
        started = time.monotonic()
        try:
            report = scale_data.generate(scale=scale, seed=seed, progress=self._progress)
        except ValueError as error:
            raise CommandError(str(error)) from error
        sys.stderr.write("\n")
        self.stdout.write(self.style.SUCCESS(
            f"Added {report.negotiations} negotiations, {report.statements} statements, {report.meetings} meetings, "
            f"{report.offers} offers, {report.positions} positions in {time.monotonic() - started:.1f} s."
        ))

    def _progress(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
