"""The grants part of a seed data set: each program's national envelope (the section ``programs``).

``negotiations.loading`` loads the data set and never imports ``grants`` (which depends on it);
``GrantsConfig.ready()`` registers this section with it, with the shape of its records.
"""

from grants.models import ProgramEnvelope
from negotiations.dataset_schema import Money, Record, RequiredText, Text, text_or
from negotiations.loading import AppSection
from negotiations.models import Confidence
from negotiations.terms import Program


class ProgramRecord(Record):
    """One program's envelope as the data set writes it: its fields are the envelope's."""

    program: Program
    name_en: RequiredText
    name_fr: RequiredText
    annual_amount: Money
    allocation: Text = ""
    source: RequiredText
    confidence: text_or(Confidence.HIGH) = ""
    notes: Text = ""


def load_program(loader, record: ProgramRecord) -> None:
    """Create, keep or update one program's envelope (``loader`` is the data set's loader)."""
    loader.seed(ProgramEnvelope, PROGRAMS, record.program, values=record.model_dump(exclude={"program"}))


PROGRAMS = AppSection(name="programs", key="program", noun="program", schema=ProgramRecord, load=load_program)
