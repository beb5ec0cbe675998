"""Placeholder views: not built yet (each answers 404 until its page exists)."""

from django.http import Http404


def matrix(request, slug):
    raise Http404("Not built yet.")


def cell(request, slug, code, month):
    raise Http404("Not built yet.")

