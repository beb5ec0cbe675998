"""Atom feeds of the record: a negotiation's events, a jurisdiction's timeline, a person's statements,
a search. Built with Django's syndication framework, from the same selectors as the pages, so an
entry says what the page's line says and links to the same place. Under /fr/ a feed is French (fr-CA): its
words, the record's French text and links to the French pages; each feed links to its copy in the other
language, and entry ids are the same in both.

Each feed is kept in the record cache (per address and host) until the record changes.
"""

import copy
import datetime

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse, translate_url
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.i18n import language_tag
from config.numbers import colon
from negotiations import record_cache, timeline
from negotiations import search as record_search
from negotiations.forms import SearchForm
from negotiations.models import Jurisdiction, Negotiation, Person, Statement
from negotiations.timeline import EventKind, TimelineEvent

ENTRIES = 50
# A tag URI's date: a fixed day on which the project held its addresses (RFC 4151).
TAG_DATE = "2013"


def _moment(day: datetime.date) -> datetime.datetime:
    """A record's date as the start of that day in the project's time zone (the record has no times)."""
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


class BilingualAtomFeed(Atom1Feed):
    """Atom, with a link to the same feed in each other language (``translations``: (tag, address) pairs)."""

    def add_root_elements(self, handler):
        super().add_root_elements(handler)
        for tag, address in self.feed.get("translations", ()):
            handler.addQuickElement("link", "", {
                "rel": "alternate", "type": self.content_type.split(";")[0], "hreflang": tag, "href": address})


class _EventFeed(Feed):
    """A feed whose items are timeline events (negotiations.timeline.TimelineEvent), in the language of its
    address: English at its own, French under /fr/ (the record's text, the words around it, the links)."""

    feed_type = BilingualAtomFeed
    description_template = "negotiations/feeds/event.html"

    host = "localhost"
    translations: tuple[tuple[str, str], ...] = ()

    def __call__(self, request, *args, **kwargs):
        # One instance serves every request: what depends on the request goes on a copy of it.
        feed = copy.copy(self)
        feed.host = request.get_host().split(":")[0]
        feed.language = language_tag(get_language())
        path = request.get_full_path()
        feed.translations = tuple(
            (language_tag(code), request.build_absolute_uri(translate_url(path, code)))
            for code, _name in settings.LANGUAGES if code != get_language()
        )
        return super(_EventFeed, feed).__call__(request, *args, **kwargs)

    def feed_extra_kwargs(self, obj) -> dict:
        return {"translations": self.translations}

    def item_title(self, item: TimelineEvent) -> str:
        return f"{colon(item.kind.label.capitalize())} {item.title}"

    def item_link(self, item: TimelineEvent) -> str:
        return item.url

    def item_guid(self, item: TimelineEvent) -> str:
        # Stable whatever the title or address: the kind of record and its key.
        return f"tag:{self.host},{TAG_DATE}:{item.kind.value}-{item.object.pk}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: TimelineEvent) -> datetime.datetime:
        return _moment(item.date)

    def item_updateddate(self, item: TimelineEvent) -> datetime.datetime:
        return _moment(item.date)

    def item_categories(self, item: TimelineEvent) -> list[str]:
        return [item.kind.label]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["event"] = kwargs["item"]
        return context


class NegotiationFeed(_EventFeed):
    def get_object(self, request, slug):
        return get_object_or_404(Negotiation, slug=slug)

    def title(self, obj: Negotiation) -> str:
        return _("%(negotiation)s: latest events") % {"negotiation": obj.title}

    def subtitle(self, obj: Negotiation) -> str:
        return _("Positions, statements, meetings and offers of every government, newest first.")

    def link(self, obj: Negotiation) -> str:
        return obj.get_absolute_url()

    def items(self, obj: Negotiation) -> list[TimelineEvent]:
        return timeline.negotiation_timeline(negotiation=obj, limit=ENTRIES)


class JurisdictionFeed(_EventFeed):
    def get_object(self, request, code):
        return get_object_or_404(Jurisdiction, code=code.upper())

    def title(self, obj: Jurisdiction) -> str:
        return _("%(jurisdiction)s: timeline") % {"jurisdiction": obj.name}

    def subtitle(self, obj: Jurisdiction) -> str:
        # The name first: French would otherwise need its article ("du Québec", "de l'Ontario").
        return _("%(jurisdiction)s: positions, statements, meetings and offers, newest first.") % {
            "jurisdiction": obj.name
        }

    def link(self, obj: Jurisdiction) -> str:
        return obj.get_absolute_url()

    def items(self, obj: Jurisdiction) -> list[TimelineEvent]:
        events, _total = timeline.jurisdiction_timeline(jurisdiction=obj, limit=ENTRIES)
        return events


class PersonFeed(_EventFeed):
    def get_object(self, request, slug):
        return get_object_or_404(Person, slug=slug)

    def title(self, obj: Person) -> str:
        return _("Statements by %(person)s") % {"person": obj.name}

    def subtitle(self, obj: Person) -> str:
        return _("What %(person)s said, newest first, each with its source.") % {"person": obj.name}

    def link(self, obj: Person) -> str:
        return obj.get_absolute_url()

    def items(self, obj: Person) -> list[TimelineEvent]:
        statements = (
            Statement.objects.filter(speaker=obj).select_related("speaker", "source", "meeting", "jurisdiction")
            .order_by("-date", "-pk")[:ENTRIES]
        )
        return [timeline.event_of(EventKind.STATEMENT, statement) for statement in statements]


class SearchFeed(_EventFeed):
    """A saved search as a feed: the dated matches (statements, meetings, offers), newest first."""

    def get_object(self, request):
        form = SearchForm(request.GET)  # the search page's rules (at most 200 characters, no control characters)
        if not form.is_valid():
            raise Http404(" ".join(form.errors["q"]))
        query = form.cleaned_data["q"]
        if not query:
            raise Http404(_("A search feed needs a query: add ?q= and the words to look for."))
        return query

    def feed_url(self, obj: str) -> str:
        # The address readers subscribe to: the feed's own, with its query (the bare path is a 404).
        return f"{reverse('negotiations:search_feed')}?{urlencode({'q': obj})}"

    def title(self, obj: str) -> str:
        return _("Search: %(query)s") % {"query": obj}

    def subtitle(self, obj: str) -> str:
        return _("Statements, meetings and offers that match “%(query)s”, newest first.") % {"query": obj}

    def link(self, obj: str) -> str:
        return f"{reverse('negotiations:search')}?{urlencode({'q': obj})}"

    def items(self, obj: str) -> list[TimelineEvent]:
        results = record_search.search_record(query=obj, limit=ENTRIES)
        kinds = {"statements": EventKind.STATEMENT, "meetings": EventKind.MEETING, "offers": EventKind.OFFER}
        events = [
            timeline.event_of(kinds[group.kind], row)
            for group in results.groups if group.kind in kinds
            for row in group.items
        ]
        events.sort(key=lambda event: event.sort_key, reverse=True)
        return events[:ENTRIES]


def _cached(feed: Feed):
    """The feed's view, its answer kept in the record cache per host and address."""

    def view(request, *args, **kwargs):
        def build() -> tuple[bytes, str]:
            response = feed(request, *args, **kwargs)
            return response.content, response["Content-Type"]

        content, content_type = record_cache.cached(("feed", request.get_host(), request.get_full_path()), build)
        return HttpResponse(content, content_type=content_type)

    return view


negotiation_feed = _cached(NegotiationFeed())
jurisdiction_feed = _cached(JurisdictionFeed())
person_feed = _cached(PersonFeed())
search_feed = _cached(SearchFeed())
