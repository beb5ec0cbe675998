"""The Jinja2 environment for the few project templates rendered by Jinja2 (``templates/jinja2/``).

Django's template language stays the default (pages, partials, the admin). Jinja2 renders the
regions re-rendered on every keystroke, where the engine's own cost shows: its templates compile to
Python once per process. Strings are translated with Django's catalogue (``_()``, ``gettext``).
"""

from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from jinja2 import Environment

from config.figures import day, local_name


def environment(**options) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=True)
    env.globals.update(static=static, url=reverse)
    env.filters.update(day=day, local_name=local_name)
    return env
