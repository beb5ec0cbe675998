"""Placeholder views: not built yet (each answers 404 until its page exists)."""

from django.http import Http404


def fiscal_page(request, slug):
    raise Http404("Not built yet.")


def fiscal_csv(request, slug):
    raise Http404("Not built yet.")


def explain(request, slug):
    raise Http404("Not built yet.")


def compare_page(request):
    raise Http404("Not built yet.")

