"""The record's own text in English and French (django-modeltranslation).

Each field named here gets a column per language (title_en, title_fr, …); reading ``title`` gives the
current language's, or the English one where no French has been written. A jurisdiction's
``name_en`` and ``name_fr`` are those columns. Quotes are not translated: a statement keeps its
words in their language of record (``Statement.language``).
"""

from modeltranslation.translator import TranslationOptions, register, translator
from simple_history.models import SIMPLE_HISTORY_REVERSE_ATTR_NAME, HistoricalObjectDescriptor

from negotiations import models


@register(models.Jurisdiction)
class JurisdictionTranslation(TranslationOptions):
    fields = ("name", "population_source")
    required_languages = {"en": ("name", "population_source"), "fr": ("name",)}


@register(models.Person)
class PersonTranslation(TranslationOptions):
    fields = ("notes",)


@register(models.Role)
class RoleTranslation(TranslationOptions):
    fields = ("title", "organization")


@register(models.Negotiation)
class NegotiationTranslation(TranslationOptions):
    fields = ("title", "summary")


@register(models.Source)
class SourceTranslation(TranslationOptions):
    fields = ("outlet", "title", "summary")


@register(models.Meeting)
class MeetingTranslation(TranslationOptions):
    fields = ("title", "location", "outcome")


@register(models.Statement)
class StatementTranslation(TranslationOptions):
    fields = ("context", "retraction_note")


@register(models.Offer)
class OfferTranslation(TranslationOptions):
    fields = ("title", "summary", "assumptions")


@register(models.Position)
class PositionTranslation(TranslationOptions):
    fields = ("summary", "conditions")


@register(models.KeyDate)
class KeyDateTranslation(TranslationOptions):
    fields = ("title", "note")


@register(models.Condition)
class ConditionTranslation(TranslationOptions):
    fields = ("text",)
    required_languages = {"en": ("text",)}


@register(models.TermBasis)
class TermBasisTranslation(TranslationOptions):
    fields = ("note",)  # the analyst's reasoning or assumption; the passage stays in its source's language


def _keep_both_languages(model) -> None:
    """Give the model's history the same language columns (name_en, name_fr, …), and have it track them.

    simple_history made its list of the fields a version compares (the history page's diff) and
    restores (a revert) before these columns existed; the list is made again, so that a change to the
    French text alone shows in the history and a revert brings back both languages, not only the
    text of the language that happened to be active.
    """
    history = model.history.model
    translator.register(history, translator.get_options_for_model(model).__class__)
    assert not history._history_excluded_fields, "the restored instance below reads every field"
    history.tracked_fields = list(model._meta.fields)
    history.history_object = HistoricalObjectDescriptor(model, history.tracked_fields)
    history.instance = property(_restored_instance)


def _restored_instance(version):
    restored = version.history_object
    setattr(restored, SIMPLE_HISTORY_REVERSE_ATTR_NAME, version)  # as simple_history's own `instance` does
    return restored


for _model in (models.Jurisdiction, models.Person, models.Role, models.Negotiation, models.Source, models.Meeting,
               models.Statement, models.Offer, models.Position, models.KeyDate, models.Condition, models.TermBasis):
    _keep_both_languages(_model)


def translated_names(model) -> set[str]:
    """The model's translated fields by their own names (``title``), whose language columns hold the text."""
    return set(translator.get_options_for_model(model).fields) if model in translator.get_registered_models() else set()
