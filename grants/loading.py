"""The grants part of a seed data set: each program's national envelope (the section ``programs``).

``negotiations.loading`` loads the data set and never imports ``grants`` (which depends on it);
``GrantsConfig.ready()`` registers this section with it.
"""

from typing import Any

from grants.models import ProgramEnvelope
from negotiations.loading import AppSection
from negotiations.models import Confidence


def load_program(loader, raw: Any) -> None:
    """Create, keep or update one program's envelope (``loader`` is the data set's loader)."""
    record = loader.record(raw, PROGRAMS)
    program = record.text("program", required=True)
    loader.seed(ProgramEnvelope, record, PROGRAMS, program, values={
        "name_en": record.text("name_en", required=True),
        "name_fr": record.text("name_fr", required=True),
        "annual_amount": record.decimal("annual_amount"),
        "allocation": record.text("allocation"),
        "source": record.text("source", required=True),
        "confidence": record.text("confidence") or Confidence.HIGH,
        "notes": record.text("notes"),
    })


PROGRAMS = AppSection(name="programs", key="program", noun="program", load=load_program)
