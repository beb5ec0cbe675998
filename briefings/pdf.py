"""The brief as a PDF, drawn by WeasyPrint from the print page's HTML.

WeasyPrint needs Pango and HarfBuzz from the operating system (Debian: libpango-1.0-0,
libpangoft2-1.0-0, libharfbuzz-subset0, and a font such as fonts-dejavu-core). Where they are missing
the import fails; `available()` says so and the view answers 503 with that message instead of a 500.
"""

from functools import lru_cache

from django.contrib.staticfiles import finders

STYLESHEET = "css/brief-print.css"


@lru_cache(maxsize=1)
def missing() -> str:
    """Why PDFs cannot be made here ("" when they can)."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as error:
        return str(error)
    return ""


def pdf_bytes(html: str, *, base_url: str) -> bytes:
    import weasyprint

    stylesheet = weasyprint.CSS(filename=finders.find(STYLESHEET))
    return weasyprint.HTML(string=html, base_url=base_url).write_pdf(stylesheets=[stylesheet])
