"""Placeholder views: not built yet (each answers 404 until its page exists)."""

from django.http import Http404


def preview(request):
    raise Http404("Not built yet.")

