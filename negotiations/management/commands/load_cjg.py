"""python manage.py load_cjg [--update] [--file PATH]"""

from django.core.management.base import BaseCommand, CommandError

from negotiations.loading import DEFAULT_DATASET, DatasetError, load_dataset, read_dataset


class Command(BaseCommand):
    help = (
        "Load the Canada Job Grant data set: create what is missing and leave existing records as they are "
        "(--update writes the data set's fields back over them). Nothing is ever deleted."
    )

    def add_arguments(self, parser):
        parser.add_argument("--file", default=str(DEFAULT_DATASET),
                            help="the data set to load (default: the one shipped with the app)")
        parser.add_argument("--update", action="store_true",
                            help="restore the data set's fields on records that already exist")

    def handle(self, *args, file: str, update: bool, **options):
        try:
            report = load_dataset(read_dataset(file), update=update)
        except DatasetError as error:
            raise CommandError(f"Nothing was loaded. {error}") from None
        for line in report.lines():
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(
            f"Loaded {file}{' (with --update)' if update else ''}."
        ))
