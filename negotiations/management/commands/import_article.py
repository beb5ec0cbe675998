"""manage.py import_article FILE [--dry-run] [--json]: propose a news article's source and quotes for review."""

import json
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from negotiations import selectors
from negotiations.article_import import proposal_json
from negotiations.article_text import NotText
from negotiations.import_forms import ArticleForm
from negotiations.models import Negotiation
from negotiations.services import imports

MAX_BYTES = 2_000_000


class Command(BaseCommand):
    help = ("Read one news article (plain text or HTML, any encoding) and propose its source and statements. "
            "Without --dry-run or --json the import is stored for review and its review address printed.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the article: a text or HTML file")
        parser.add_argument("--dry-run", action="store_true", help="write nothing; print what would be proposed")
        parser.add_argument("--json", action="store_true",
                            help="print the proposal as JSON {source, statements, warnings}; writes nothing")
        parser.add_argument("--published", help="publication date, YYYY-MM-DD, when the article does not give it")
        parser.add_argument("--url", default="", help="the article's address")
        parser.add_argument("--negotiation", help="the negotiation's slug (default: the most recent)")

    def handle(self, *args, **options):
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No such file: {path}")
        if path.stat().st_size > MAX_BYTES:
            raise CommandError(f"{path} is larger than {MAX_BYTES // 1_000_000} MB: is it an article?")
        # The options are read by the import page's own fields: the same rules, said as the page says them.
        published = self._option("published", options["published"] or "")
        url = self._option("url", options["url"] or "")
        data = path.read_bytes()
        try:
            if options["json"] or options["dry_run"]:
                proposal = imports.propose_for_record(data, published=published, url=url)
            else:
                negotiation = self._negotiation(options["negotiation"])
                article_import, created = imports.article_import_create(
                    actor=None, data=data, negotiation=negotiation, filename=path.name, published=published,
                    url=url)
        except (NotText, imports.TooManyQuotes) as error:
            raise CommandError(f"{path}: {error}") from None
        if options["json"]:
            self.stdout.write(json.dumps(proposal_json(proposal), ensure_ascii=False, indent=1))
            return
        if options["dry_run"]:
            self._summary(proposal)
            return
        address = settings.SITE_URL.rstrip("/") if getattr(settings, "SITE_URL", "") else ""
        verb = "Stored" if created else "Already imported (the same text); review it at"
        count = article_import.proposals.count()
        self.stdout.write(f"{verb}: {address}{article_import.get_absolute_url()} ({count} quotes proposed)")

    @staticmethod
    def _option(name: str, value: str):
        try:
            return ArticleForm.base_fields[name].clean(value)
        except ValidationError as error:
            raise CommandError(f"--{name}: {' '.join(error.messages)}") from None

    def _negotiation(self, slug):
        if slug:
            negotiation = Negotiation.objects.filter(slug=slug).first()
            if negotiation is None:
                raise CommandError(f"No negotiation has the slug {slug!r}.")
            return negotiation
        negotiation = selectors.default_negotiation()
        if negotiation is None:
            raise CommandError("The record has no negotiation yet: load one (manage.py load_cjg) or create it first.")
        return negotiation

    def _summary(self, proposal):
        source = proposal.source
        self.stdout.write(f"Source: {source.outlet or '?'} · {source.title or '?'} · "
                          f"{source.published or '?'} ({source.date_precision}) · {source.dateline}")
        for number, item in enumerate(proposal.statements, start=1):
            who = item.speaker.name if item.speaker and item.speaker.name else "?"
            kind = " (fragment)" if item.fragment else ""
            self.stdout.write(f"{number:>3}. {who}, {item.date or '?'}{kind}: “{item.quote}”")
        for warning in proposal.warnings:
            self.stdout.write(f"Warning: {warning}")
        self.stdout.write("Dry run: nothing written.")
