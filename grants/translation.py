"""The reference data's own text in English and French (django-modeltranslation); see negotiations/translation.py."""

from modeltranslation.translator import TranslationOptions, register, translator

from grants.models import ProgramEnvelope


@register(ProgramEnvelope)
class ProgramEnvelopeTranslation(TranslationOptions):
    fields = ("name", "allocation", "source", "notes")
    required_languages = {"en": ("name", "source"), "fr": ("name",)}


# The history keeps both languages (see negotiations/translation.py).
translator.register(ProgramEnvelope.history.model, ProgramEnvelopeTranslation)
