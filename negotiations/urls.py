from django.urls import path

from negotiations import feeds
from negotiations.views import calendar, deal, imports, offers, overview, record, stances, timeline

app_name = "negotiations"

urlpatterns = [
    path("", overview.home, name="home"),
    path("jurisdictions/", overview.jurisdiction_list, name="jurisdiction_list"),
    path("jurisdictions/<str:code>/", timeline.jurisdiction, name="jurisdiction"),
    path("negotiations/<slug:slug>/", deal.negotiation_detail, name="negotiation"),
    path("stances/", stances.current_matrix, name="stances_current"),
    path("negotiations/<slug:slug>/stances", stances.matrix, name="stances"),
    path("negotiations/<slug:slug>/stances/<str:code>/<str:month>", stances.cell, name="stance_cell"),
    path("offers/", offers.offer_list, name="offer_list"),
    path("offers/new", offers.offer_new, name="offer_new"),
    path("offers/<slug:slug>/", offers.offer_detail, name="offer"),
    path("offers/<slug:slug>/edit", offers.offer_edit, name="offer_edit"),
    path("offers/<slug:slug>/withdraw", offers.offer_withdraw, name="offer_withdraw"),
    path("meetings/", record.meeting_list, name="meeting_list"),
    path("meetings/<slug:slug>/", record.meeting_detail, name="meeting"),
    path("people/", record.person_list, name="person_list"),
    path("people/<slug:slug>/", record.person_detail, name="person"),
    path("sources/", record.source_list, name="source_list"),
    path("sources/<slug:slug>/", record.source_detail, name="source"),
    path("statements/", record.statement_list, name="statement_list"),
    path("statements/new", record.statement_new, name="statement_new"),
    path("statements/<int:pk>/retract", record.statement_retract, name="statement_retract"),
    path("positions/new", record.position_new, name="position_new"),
    path("search/", record.search, name="search"),
    # Feeds (Atom) of issue 18.
    path("negotiations/<slug:slug>/feed", feeds.negotiation_feed, name="negotiation_feed"),
    path("jurisdictions/<str:code>/feed", feeds.jurisdiction_feed, name="jurisdiction_feed"),
    path("people/<slug:slug>/feed", feeds.person_feed, name="person_feed"),
    path("search/feed", feeds.search_feed, name="search_feed"),
    path("negotiations/<slug:slug>/calendar.ics", calendar.calendar, name="calendar"),
    path("imports/new", imports.import_new, name="import_new"),
    path("imports/<int:pk>/", imports.import_review, name="import_review"),
    path("imports/<int:pk>/source", imports.import_source, name="import_source"),
    path("imports/<int:pk>/proposals/<int:proposal_pk>", imports.proposal_decide, name="proposal_decide"),
    path("imports/<int:pk>/commit", imports.import_commit, name="import_commit"),
]
