"""The Jinja2 environment for the few project templates rendered by Jinja2 (``templates/jinja2/``).

Django's template language stays the default (pages, partials, the admin). Jinja2 renders the
regions re-rendered on every keystroke, where the engine's own cost shows: its templates compile to
Python once per process. Strings are translated with Django's catalogue (``_()``, ``gettext``).
"""

from django.forms.renderers import BaseRenderer
from django.template import TemplateDoesNotExist, engines
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext
from jinja2 import Environment

from config.figures import day, local_name, verdict_label
from config.numbers import colon, format_fiscal_year


def environment(**options) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, pgettext=pgettext, newstyle=True)
    env.globals.update(static=static, url=reverse)
    # (Jinja folds a filter applied to a literal when it compiles the template, in the language active then:
    # apply these to a variable.)
    env.filters.update(colon=colon, day=day, fiscal_year=format_fiscal_year, local_name=local_name,
                       verdict_label=verdict_label)
    return env


class FormRenderer(BaseRenderer):
    """Forms and widgets through Jinja2 (Django's own form templates and the project's widgets,
    ``templates/jinja2/``), and through Django's engine what only it holds (the admin's own widget
    templates). Django's engine comes first in TEMPLATES, for the pages; form templates are held by
    both, and Jinja2's are the ones wanted."""

    def get_template(self, template_name):
        try:
            return engines["jinja2"].get_template(template_name)
        except TemplateDoesNotExist:
            return engines["django"].get_template(template_name)
