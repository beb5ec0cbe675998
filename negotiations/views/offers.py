"""Placeholder views: not built yet (each answers 404 until its page exists)."""

from django.http import Http404


def offer_list(request):
    raise Http404("Not built yet.")


def offer_new(request):
    raise Http404("Not built yet.")


def offer_detail(request, slug):
    raise Http404("Not built yet.")


def offer_edit(request, slug):
    raise Http404("Not built yet.")


def offer_withdraw(request, slug):
    raise Http404("Not built yet.")

