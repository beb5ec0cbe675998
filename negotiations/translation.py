"""The record's own text in English and French (django-modeltranslation).

Each field named here gets a column per language (title_en, title_fr, …); reading ``title`` gives the
current language's, or the English one where no French has been written. A jurisdiction's
``name_en`` and ``name_fr`` are those columns. Quotes are not translated: a statement keeps its
words in their language of record (``Statement.language``).
"""

from modeltranslation.translator import TranslationOptions, register, translator

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


# The history keeps both languages: each historical model has the same columns (name_en, name_fr, …).
for _model in (models.Jurisdiction, models.Person, models.Role, models.Negotiation, models.Source, models.Meeting,
               models.Statement, models.Offer, models.Position, models.KeyDate, models.Condition, models.TermBasis):
    translator.register(_model.history.model, translator.get_options_for_model(_model).__class__)
