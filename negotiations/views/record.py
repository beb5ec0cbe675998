"""Placeholder views: not built yet (each answers 404 until its page exists)."""

from django.http import Http404


def meeting_list(request):
    raise Http404("Not built yet.")


def meeting_detail(request, slug):
    raise Http404("Not built yet.")


def person_list(request):
    raise Http404("Not built yet.")


def person_detail(request, slug):
    raise Http404("Not built yet.")


def source_list(request):
    raise Http404("Not built yet.")


def source_detail(request, slug):
    raise Http404("Not built yet.")


def statement_list(request):
    raise Http404("Not built yet.")


def statement_new(request):
    raise Http404("Not built yet.")


def statement_retract(request, pk):
    raise Http404("Not built yet.")


def position_new(request):
    raise Http404("Not built yet.")


def search(request):
    raise Http404("Not built yet.")

