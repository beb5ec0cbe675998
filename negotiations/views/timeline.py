"""A jurisdiction's stance timeline, filtered in place with htmx and paged with "Load more"."""

from django import forms
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from django.views.decorators.vary import vary_on_headers

from negotiations import selectors, timeline
from negotiations.cached_pages import render_page
from negotiations.forms import RefuseControlCharacters
from negotiations.models import Jurisdiction
from negotiations.validators import validate_record_date

PAGE_SIZE = 20


class TimelineFilterForm(RefuseControlCharacters, forms.Form):
    negotiation = forms.ChoiceField(label=_("Negotiation"), required=False)
    kind = forms.ChoiceField(
        label=_("Kind"),
        required=False,
        choices=[
            ("", _("All kinds")),
            (timeline.EventKind.POSITION, _("Positions")),
            (timeline.EventKind.STATEMENT, _("Statements")),
            (timeline.EventKind.MEETING, _("Meetings")),
            (timeline.EventKind.OFFER, _("Offers")),
        ],
    )
    person = forms.ChoiceField(label=_("Person"), required=False)
    date_from = forms.DateField(
        label=_("From"), required=False, validators=[validate_record_date],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    date_to = forms.DateField(
        label=_("To"), required=False, validators=[validate_record_date],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    offset = forms.IntegerField(min_value=0, max_value=1_000_000, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, negotiations, people, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["negotiation"].choices = [("", _("All negotiations"))] + [(n.slug, n.title) for n in negotiations]
        self.fields["person"].choices = [("", _("Anyone"))] + [(p.slug, p.name) for p in people]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return cleaned


@vary_on_headers("HX-Request", "HX-Target")
def jurisdiction(request, code):
    """The timeline page; an htmx request gets only the region it swaps."""
    def build():
        jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
        # perf: the filter's choices read only the columns they show, as tuples, not model instances
        # (a hundred negotiations and people at scale 100; bench/run "record cache off: timeline ON").
        negotiations = list(selectors.negotiation_list().values_list("pk", "slug", "title", named=True))
        people = list(timeline.people_on_timeline(jurisdiction=jurisdiction).values_list("slug", "name", named=True))
        form = TimelineFilterForm(request.GET, negotiations=negotiations, people=people)
        form.is_valid()  # Invalid fields are shown with their errors and left out of the filter.
        filters = form.cleaned_data
        offset = filters.get("offset") or 0
        events, total = timeline.jurisdiction_timeline(
            jurisdiction=jurisdiction,
            negotiation_slug=filters.get("negotiation") or None,
            kinds=[filters["kind"]] if filters.get("kind") else None,
            person_slug=filters.get("person") or None,
            date_from=filters.get("date_from"),
            date_to=filters.get("date_to"),
            offset=offset,
            limit=PAGE_SIZE,
        )
        shown_negotiation = next(
            (n for n in negotiations if n.slug == filters.get("negotiation")), negotiations[0] if negotiations else None
        )
        next_offset = offset + len(events)
        return {
            "jurisdiction": jurisdiction,
            "form": form,
            "events": events,
            "total": total,
            "offset": offset,
            "first_shown": offset + 1,
            "last_shown": next_offset,
            "next_offset": next_offset if next_offset < total else None,
            "stance_negotiation": shown_negotiation,
            "current_position": timeline.current_position(jurisdiction=jurisdiction, negotiation=shown_negotiation),
        }

    region = None
    if request.htmx and not request.htmx.history_restore_request:
        region = "events" if request.htmx.target == "load-more" else "filtered"
    return render_page(request, "negotiations/jurisdiction.html", build, region=region,
                       params=TimelineFilterForm.base_fields)
