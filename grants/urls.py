from django.urls import path

from grants import deal_views, preview, views

app_name = "grants"

urlpatterns = [
    path("offers/<slug:slug>/fiscal/", views.fiscal_page, name="fiscal"),
    path("offers/<slug:slug>/fiscal.csv", views.fiscal_csv, name="fiscal_csv"),
    path("offers/<slug:slug>/fiscal/explain", views.explain, name="explain"),
    path("compare/", views.compare_page, name="compare"),
    path("grants/preview", preview.preview, name="preview"),
    path("jurisdictions/<str:code>/offers", deal_views.jurisdiction_offers, name="jurisdiction_offers"),
    path("negotiations/<slug:slug>/distance", deal_views.negotiation_distance, name="negotiation_distance"),
    path("scenarios/", deal_views.scenario_list, name="scenario_list"),
    path("scenarios/new", deal_views.scenario_new, name="scenario_new"),
    path("scenarios/<int:pk>/", deal_views.scenario_detail, name="scenario"),
    path("scenarios/<int:pk>/compare", deal_views.scenario_compare, name="scenario_compare"),
]
