"""Form widgets through Django's Jinja2 form templates, falling back to Django's template engine for
widgets that exist only as Django templates (the admin's date, time and related-object widgets)."""

from functools import cached_property

from django.forms.renderers import DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist


class Jinja2WithFallback(Jinja2):
    @cached_property
    def _django(self):
        return DjangoTemplates()

    def get_template(self, template_name):
        try:
            return super().get_template(template_name)
        except TemplateDoesNotExist:
            return self._django.get_template(template_name)
