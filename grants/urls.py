from django.urls import path

from grants import preview, views

app_name = "grants"

urlpatterns = [
    path("offers/<slug:slug>/fiscal/", views.fiscal_page, name="fiscal"),
    path("offers/<slug:slug>/fiscal.csv", views.fiscal_csv, name="fiscal_csv"),
    path("offers/<slug:slug>/fiscal/explain", views.explain, name="explain"),
    path("compare/", views.compare_page, name="compare"),
    path("grants/preview", preview.preview, name="preview"),
]
