"""From a news article to proposals for the record: its source, its quotes, who said them and when.

Pure Python, no Django (the known people come in as plain data). Rule-based:

* quotes are the spans between double quotation marks (curly, straight or guillemets, mixed as
  clippings mix them); a quote left open at the end of a paragraph runs on when the next paragraph
  opens one; a quote that starts in lower case or sits inside a sentence of the reporter's is a
  fragment; one word in quotes not directly attributed ("an “alternative” proposal"), words
  quoted after "the claim that", "so-called" and the like, and fragments repeated inside a full
  quote of the same speaker are not proposed;
* the speaker is the subject of the speech verb in the quote's sentence ("…,” Kenney said",
  "said Brad Duguid, Ontario's minister", "according to …", "Kenney's spokesman …", "the
  minister added", "he said"; in French "…, a déclaré le ministre ontarien Brad Duguid", "a-t-il
  dit", "selon …", "Kenney a affirmé : « … »"), else the speaker of the quote before it (a quote
  standing alone in its paragraph continues the last one);
* the date is the one named in that sentence ("said Wednesday", "after Wednesday's meeting",
  "last week", "on Jan. 29"), resolved against the dateline; else the last date given for the
  same speaker; else the last date of a statement or meeting before it; else the publication date,
  approximate.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace

from negotiations import bounds
from negotiations.article_text import ArticleText, read_article

__all__ = [
    "KnownPerson", "Proposal", "QuoteProposal", "SourceProposal", "SpeakerProposal",
    "normalize_quote", "propose", "proposal_json",
]

DAY, MONTH, YEAR, APPROXIMATE = "day", "month", "year", "approximate"

JURISDICTION_NAMES = {
    "federal": "CA", "Federal": "CA", "Ottawa": "CA", "Canada": "CA",
    "Newfoundland and Labrador": "NL", "Newfoundland": "NL", "N.L.": "NL", "Terre-Neuve-et-Labrador": "NL",
    "Prince Edward Island": "PE", "P.E.I.": "PE", "Île-du-Prince-Édouard": "PE",
    "Nova Scotia": "NS", "N.S.": "NS", "Nouvelle-Écosse": "NS",
    "New Brunswick": "NB", "N.B.": "NB", "Nouveau-Brunswick": "NB",
    "Quebec": "QC", "Québec": "QC", "Ontario": "ON", "Ont.": "ON", "Manitoba": "MB", "Man.": "MB",
    "Saskatchewan": "SK", "Sask.": "SK", "Alberta": "AB", "Alta.": "AB",
    "British Columbia": "BC", "B.C.": "BC", "Colombie-Britannique": "BC",
    "Yukon": "YT", "Northwest Territories": "NT", "N.W.T.": "NT", "Territoires du Nord-Ouest": "NT",
    "Nunavut": "NU",
    # French adjectives, as a role gives them ("le ministre ontarien", "la première ministre albertaine").
    "fédéral": "CA", "fédérale": "CA", "terre-neuvien": "NL", "terre-neuvienne": "NL",
    "prince-édouardien": "PE", "prince-édouardienne": "PE", "néo-écossais": "NS", "néo-écossaise": "NS",
    "néo-brunswickois": "NB", "néo-brunswickoise": "NB", "québécois": "QC", "québécoise": "QC",
    "ontarien": "ON", "ontarienne": "ON", "manitobain": "MB", "manitobaine": "MB", "saskatchewanais": "SK",
    "saskatchewanaise": "SK", "albertain": "AB", "albertaine": "AB", "britanno-colombien": "BC",
    "britanno-colombienne": "BC", "yukonnais": "YT", "yukonnaise": "YT", "ténois": "NT", "ténoise": "NT",
}
OUTLETS = {
    "The Canadian Press": "The Canadian Press", "Canadian Press": "The Canadian Press", "(CP)": "The Canadian Press",
    "CTV News": "CTV News", "CTV": "CTV News", "CBC News": "CBC News", "CBC": "CBC News",
    "Global News": "Global News", "iPolitics": "iPolitics", "The Globe and Mail": "The Globe and Mail",
    "Globe and Mail": "The Globe and Mail", "National Post": "National Post", "Toronto Star": "Toronto Star",
    "Postmedia News": "Postmedia News", "Ottawa Citizen": "Ottawa Citizen", "Hill Times": "The Hill Times",
    "Maclean's": "Maclean's", "Radio-Canada": "Radio-Canada", "La Presse": "La Presse", "Le Devoir": "Le Devoir",
    "La Presse canadienne": "La Presse canadienne", "La Presse Canadienne": "La Presse canadienne", "Reuters": "Reuters", "Bloomberg": "Bloomberg",
    "Huffington Post": "The Huffington Post", "Canadian Business": "Canadian Business",
}
# Longest first, so that "La Presse Canadienne" is read as itself, not as "La Presse".
_OUTLET_MENTIONS = sorted(OUTLETS, key=len, reverse=True)

_SPEECH_VERBS = (
    "said|says|say|told|tells|tell|added|adds|stated|states|explained|explains|insisted|insists|argued|argues|"
    "warned|warns|noted|notes|wrote|writes|replied|replies|responded|declared|continued|recalled|acknowledged|"
    "conceded|concedes|maintained|maintains|stressed|stresses|suggested|agreed|complained|predicted|announced|"
    "remarked|observed|cautioned|urged|admitted|admits|countered|counters|pointed out|went on|quipped|vowed"
)
_VERB = re.compile(rf"\b(?:{_SPEECH_VERBS})\b")
# French speech verbs: the participle after "a" ("a déclaré", "a-t-il dit") and the present ("déclare", "dit-elle").
_FR_PARTICIPLES = (
    "déclaré|affirmé|dit|ajouté|soutenu|indiqué|expliqué|lancé|précisé|souligné|répondu|prévenu|estimé|insisté|"
    "martelé|reconnu|admis|poursuivi|rappelé|noté|signalé|assuré|avancé|commenté|tranché|confié|déploré|dénoncé|"
    "plaidé|résumé|écrit|raconté|observé|conclu|répliqué|renchéri|nuancé|avoué|promis|annoncé|confirmé|"
    "fait valoir|fait savoir|fait remarquer|réagi|répété|rétorqué|enchaîné|glissé|mentionné|jugé|déclaré"
)
_FR_PRESENT = (
    "déclare|affirme|dit|ajoute|soutient|indique|explique|lance|précise|souligne|répond|prévient|estime|insiste|"
    "martèle|reconnaît|admet|poursuit|rappelle|note|signale|assure|avance|commente|tranche|confie|déplore|dénonce|"
    "plaide|résume|écrit|raconte|observe|conclut|réplique|renchérit|nuance|avoue|promet|annonce|confirme|"
    "fait valoir|fait savoir|fait remarquer|réagit|répète|rétorque|enchaîne|glisse|mentionne|juge|croit|pense"
)
# Words a reporter puts between "a" and its participle ("a quant à lui souligné", "a pour sa part affirmé").
_FR_ASIDES = (r"(?:quant\s+à\s+(?:lui|elle)|de\s+son\s+côté|pour\s+sa\s+part|lui\s+aussi|elle\s+aussi|aussi|également|"
              r"encore|toutefois|cependant|néanmoins|pourtant|d['’]ailleurs|par\s+ailleurs|plutôt|notamment|déjà|bien|"
              r"d['’]abord|ensuite|enfin|alors)")
# "a déclaré", "a-t-il dit", "avait affirmé", "déclare", "dit-elle", "affirme-t-il": its pronoun, if any, named.
_FR_VERB = re.compile(
    rf"(?<![\w-])(?:(?:a|avait|aurait|ont)(?:-t-(?P<pronoun1>il|elle))?\s+(?:{_FR_ASIDES}\s*,?\s+){{0,2}}"
    rf"(?:{_FR_PARTICIPLES})|(?:{_FR_PRESENT}))"
    rf"(?:-(?:t-)?(?P<pronoun2>il|elle|ils|elles))?(?![\w-])")
_FR_PRONOUNS = {"il": "he", "elle": "she"}
# Whether a French role names a woman or a man: its article or title ("la ministre", "M."), else the role word's form
# ("présidente"), else the adjective after an epicene noun ("ministre québécoise", "porte-parole ontarien").
_FR_FEMININE_WORDS = {"première", "présidente", "députée", "directrice", "conseillère", "sénatrice", "mairesse",
                      "attachée", "vice-présidente"}
_FR_MASCULINE_WORDS = {"premier", "président", "député", "directeur", "conseiller", "sénateur", "maire", "attaché",
                       "vice-président"}


def _french_gender(article: str, role: str) -> str:
    """ "f", "m" or "" for a role and the article or title before it (la, le, Mme, M.)."""
    if article.lower() in ("la", "mme", "madame"):
        return "f"
    if article.lower() in ("le", "m.", "monsieur"):
        return "m"
    words = role.lower().replace(",", " ").split()
    for index, word in enumerate(words):
        if word in _FR_FEMININE_WORDS:
            return "f"
        if word in _FR_MASCULINE_WORDS:
            return "m"
        if word in ("ministre", "sous-ministre", "porte-parole", "chef") and index + 1 < len(words):
            after = words[index + 1]
            if re.search(r"(?:ienne|aise|oise|aine|ale)$", after):
                return "f"
            if re.search(r"(?:ien|ais|ois|ain|al)$", after):
                return "m"
    return ""


# A French role before a name: "le ministre ontarien", "la première ministre", "la porte-parole du ministre".
_FR_ROLE_WORDS = {"ministre", "première", "premier", "porte-parole", "président", "présidente", "député", "députée",
                  "chef", "sous-ministre", "directeur", "directrice", "attaché", "attachée", "conseiller",
                  "conseillère", "sénateur", "sénatrice", "maire", "mairesse", "économiste", "analyste", "vice-président",
                  "vice-présidente", "collègue", "homologue"}
# A speech verb, English or French, around a quote whose speaker the reader could not make out: someone else is
# named there, so the quote does not continue the previous speaker's (it is left for the editor to attribute).
_SOMEONE_SPEAKS = re.compile(rf"\b(?:{_SPEECH_VERBS})\b|{_FR_VERB.pattern}|\b[Ss]elon\b|\w\s*:\s*\u2063"
                             # a written text speaks too: "peut-on lire dans un communiqué", "in a statement"
                             r"|\bpeut-on\s+lire\b|\bcommuniqué\b|\bdéclaration\s+écrite\b|\bnews\s+release\b|\bstatement\b",
                             re.IGNORECASE)
# An attribution inside a French quote, between commas: « Le Québec, a-t-elle dit, n'a pas … ».
_FR_INCISE = re.compile(rf",\s*(?P<incise>(?:{_FR_VERB.pattern})(?:\b(?:M|Mme|Dr)\.?\s|[^,.:!?«»“”]){{0,100}}?)"
                        rf"\s*(?P<end>,\s*|\s*:\s*|(?=[.!?…]))")
# Where a French clause ends: not at the point of "M." or "Mme." before a name.
_FR_CLAUSE_END = re.compile(r"(?<!\bM)(?<!\bMme)(?<!\bDr)[.;!?\u2063]")
_SKIPPABLE = {"also", "later", "then", "again", "has", "had", "have", "did", "does", "was", "is", "previously",
              "earlier", "once", "repeatedly", "recently", "simply", "only", "would", "will", "flatly"}
_ROLE_WORDS = {
    "minister", "premier", "spokesman", "spokeswoman", "spokesperson", "secretary", "president", "director",
    "critic", "leader", "mayor", "deputy", "chief", "chair", "chairman", "chairwoman", "official", "adviser",
    "advisor", "aide", "economist", "ceo", "mp", "mla", "mna", "mpp", "senator", "executive", "analyst",
    "manager", "head", "officer", "commissioner", "vice", "press", "parliamentary", "associate", "assistant",
    "ministre", "porte-parole", "président", "présidente", "député", "députée", "sous-ministre",
}
_CONNECTORS = {"and", "of", "for", "de", "du", "des", "la", "le", "the"}
_NOT_NAMES = {
    "The", "A", "An", "It", "They", "We", "I", "He", "She", "This", "That", "But", "And", "Asked", "However",
    "Tories", "Conservatives", "Liberals", "Government", "Governments", "Canadians", "Provinces", "Premiers",
    "Ministers", "Officials", "Critics", "Opposition", "Parliament", "Senate", "Both", "Some", "Many", "Most",
    "Others", "Business", "Businesses", "Employers", "Unions", "Harper", "Meanwhile", "Still", "Yet", "So",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Day", "Mr.", "Mrs.", "Ms.",
}
_TITLES = {"Mr.", "Mrs.", "Ms.", "Dr.", "Hon.", "M.", "Mme"}
_WORD = r"[A-ZÀ-ÖØ-Þ][\w’'.\-]*"
_NAME_RUN = re.compile(rf"{_WORD}(?:\s+{_WORD}){{1,3}}")
# A name in French: "Brad Duguid", "Jean-Yves Duclos", "Robert de Cotret"; after "M." or "Mme", a surname will do.
_FR_NAME = re.compile(rf"(?:(?P<title>M\.|Mme|Me)\s+(?P<surname>{_WORD}(?:\s+{_WORD}){{0,2}})"
                      rf"|(?P<name>{_WORD}(?:\s+(?:de\s+|du\s+|d['’])?{_WORD}){{1,3}}))")
_FR_ROLES = "|".join(sorted((re.escape(word) for word in _FR_ROLE_WORDS), key=len, reverse=True))
# A French name given with a role or a title, in the order the reader registers them (each later one is the more
# recent mention): "la ministre québécoise Agnès Maltais"; "la ministre ontarienne de la Formation, Sophie Lacroix,"
# (a role holds no verb: "Le ministre Paul Roux a répondu par la voix de son attachée de presse, Léa Fortin" names
# Léa Fortin the attachée, not the minister); "M. Dubé et Mme Beaudoin"; "Thérèse Lemieux, ministre albertaine,".
_FR_NAMED_WITH_ROLE = tuple(re.compile(pattern) for pattern in (
    rf"\b(?P<article>[Ll]e|[Ll]a|[Ll]['’])\s*(?P<role>(?:{_FR_ROLES})(?:\s+[a-zà-ÿ’'\-]+){{0,4}}?)"
    rf"\s*,?\s+(?P<name>{_WORD}(?:\s+{_WORD}){{1,2}})",
    rf"\b(?P<article>[Ll]e|[Ll]a|[Ss]a|[Ss]on|[Ll]['’])\s*(?P<role>(?:{_FR_ROLES})"
    rf"(?:(?!\s(?:a|ont|avait|est|et)\s)[^,.;\u2063]){{0,80}}),\s+(?P<name>{_WORD}(?:\s+{_WORD}){{1,2}})(?=\s*[,.;])",
    rf"\b(?P<article>M\.|Mme)\s+(?P<name>{_WORD}(?:\s+{_WORD}){{0,2}})",
    rf"(?P<name>{_WORD}(?:\s+{_WORD}){{1,2}}),\s+(?P<role>(?:{_FR_ROLES})[^,.;\u2063]{{0,80}}),",
))
_ABBREVIATIONS = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Dr|St|Jan|Feb|Aug|Sept|Sep|Oct|Nov|Dec|Gov|Sen|Rep|Hon|Lt|No|Inc|Ltd|Co|Corp|Jr|Sr|vs|Mt)"
    r"|\b[A-Z](?:\.[A-Z])*)\.$"
)
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAYS_FR = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
# When it was said, read into a role that runs on to the end of its clause ("minister of training, on Friday").
_TRAILING_TIME = re.compile(rf",?\s+(?:on\s+|last\s+|this\s+)?(?:{'|'.join(_WEEKDAYS)}|yesterday|today)\b.*$",
                            re.IGNORECASE)
_MONTH = (r"(?:Jan(?:uary|\.)?|Feb(?:ruary|\.)?|March|Mar\.|April|Apr\.|May|June|July|Aug(?:ust|\.)?|"
          r"Sept?(?:ember|\.)?|Oct(?:ober|\.)?|Nov(?:ember|\.)?|Dec(?:ember|\.)?)")
_MONTH_FR = r"(?:janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre)"
_DATE_EXPRESSIONS = re.compile(
    rf"\b(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:er)?\s+(?:{_MONTH}|{_MONTH_FR})(?:,?\s+\d{{4}})?"
    rf"|\d{{4}}-\d{{2}}-\d{{2}}"
    rf"|(?:last|this past|early|late|on|next)?\s*(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(?:’s|'s)?"
    rf"|(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)(?:\s+dernier)?"
    rf"|yesterday|today|this morning|this afternoon|tonight|last night"
    rf"|(?:earlier\s+)?this week|last week|last month|earlier this month|last year|hier(?:\s+soir)?|aujourd'hui"
    rf"|ce\s+matin|(?:plus\s+tôt\s+)?cette\s+semaine|la\s+semaine\s+dernière|le\s+mois\s+dernier"
    rf"|l['’](?:an|année)\s+dernière?"
    rf"|(?:in|last|since)\s+{_MONTH}(?:\s+\d{{4}})?|(?:en|depuis)\s+{_MONTH_FR}(?:\s+\d{{4}})?)\b"
)
# A relative clause set off by a comma ("…, who had tabled a plan on Jan. 12, said"; "…, qui avait présenté un plan
# le 12 janvier"): what it dates is its own event, not the words quoted, so no date is read from it.
_RELATIVE_CLAUSE = re.compile(
    r",\s*(?:who|whom|whose|which|qui|dont|lequel|laquelle|lesquels|lesquelles)\b[^,;:«»“”\"]*", re.IGNORECASE)
# The attribution right after a quote: "“unacceptable,” he said".
_DIRECT_ATTRIBUTION = re.compile(rf"\s*[,.]?\s*(?:he|she|they|[A-Z]\w+)\s+(?:{_SPEECH_VERBS})\b")
_ORGANIZATION = re.compile(r"\b(?:with|of|at|for)\s+(?:the\s+)?(?P<org>(?:[A-Z][\w’'.\-]*\s*(?:and\s+|of\s+|for\s+)?){2,8})")
_IN_LANGUAGE = re.compile(r"\b(?:in|en)\s+(French|English|français|anglais)\b", re.IGNORECASE)
_MEETING = re.compile(r"\b(?:met|meeting|meet|conference|roundtable|interview)\b", re.IGNORECASE)
_NOT_ATTRIBUTED = re.compile(
    r"\b(?:so-called|dubbed|known as|the words?|the term|the phrase|claims? that|called it|calls it|branded|"
    r"labelled|labeled|slogan|titled|entitled|nicknamed|headlined)\b[^.]*$", re.IGNORECASE)
_QUOTE_OPEN = "“«"
_QUOTE_CLOSE = "”»"
_OPENERS_BEFORE = set(" \t\n([{—–-/:")


@dataclass(frozen=True)
class KnownRole:
    title: str
    jurisdiction: str = ""
    organization: str = ""


@dataclass(frozen=True)
class KnownPerson:
    """Someone already in the record: ``key`` is what the caller knows them by (a slug)."""

    key: str
    name: str
    roles: tuple[KnownRole, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping) -> KnownPerson:
        roles = tuple(KnownRole(title=role.get("title", ""), jurisdiction=role.get("jurisdiction") or "",
                                organization=role.get("organization") or "") for role in data.get("roles", ()))
        return cls(key=data["key"], name=data["name"], roles=roles)


@dataclass(frozen=True)
class SpeakerProposal:
    """Who said it: a known person (``known``, their key) or a new one with the role the article gives."""

    name: str
    role: str = ""
    jurisdiction: str = ""
    organization: str = ""
    known: str = ""
    how: str = ""


@dataclass(frozen=True)
class QuoteProposal:
    quote: str
    speaker: SpeakerProposal | None
    date: datetime.date | None
    date_precision: str
    date_basis: str
    context: str
    fragment: bool = False
    language: str = "en"
    original_language: str = ""
    quote_start: int = 0
    quote_end: int = 0
    passage_start: int = 0
    passage_end: int = 0


@dataclass(frozen=True)
class SourceProposal:
    outlet: str = ""
    title: str = ""
    author: str = ""
    dateline: str = ""
    published: datetime.date | None = None
    date_precision: str = DAY
    url: str = ""


@dataclass(frozen=True)
class Proposal:
    source: SourceProposal
    statements: tuple[QuoteProposal, ...]
    warnings: tuple[str, ...]
    text: str
    encoding: str
    repairs: tuple[str, ...] = ()
    language: str = "en"


def normalize_quote(text: str) -> str:
    """A quote's words alone, for comparing: no accents, case, punctuation or quotation marks."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    text = text.replace("’", "'").replace("'", "")
    return " ".join(re.findall(r"\w+", text))


def normalize_name(name: str) -> str:
    return normalize_quote(name)


def propose(
    data: bytes | str | ArticleText,
    *,
    known_people: Iterable[KnownPerson | Mapping] = (),
    published: datetime.date | None = None,
    published_precision: str = DAY,
    url: str = "",
    outlet: str = "",
    title: str = "",
) -> Proposal:
    """Everything the article proposes for the record. ``published`` etc. override what the text says.

    Raises ``negotiations.article_text.NotText`` for empty or binary input.
    """
    article = data if isinstance(data, ArticleText) else read_article(data)
    known = tuple(person if isinstance(person, KnownPerson) else KnownPerson.from_dict(person)
                  for person in known_people)
    warnings = list(article.warnings)
    source, body_start = _propose_source(article)
    if published is not None:
        source = replace(source, published=published, date_precision=published_precision)
    source = replace(source, url=url or source.url, outlet=outlet or source.outlet, title=title or source.title)
    if not source.title:
        warnings.append("No headline found: give the source a title.")
    if not source.outlet:
        warnings.append("No outlet found: say which outlet published the article.")
    if source.published is None:
        warnings.append("No publication date found: give one, so that “Wednesday” and the like can be dated.")
    language = _language(article.text)
    reader = _Reader(article=article, anchor=source.published, known=known, language=language, body_start=body_start)
    statements = reader.read()
    warnings.extend(reader.warnings)
    if not statements:
        warnings.append("No quotation found in the article.")
    return Proposal(source=source, statements=tuple(statements), warnings=tuple(warnings), text=article.text,
                    encoding=article.encoding, repairs=article.repairs, language=language)


def proposal_json(proposal: Proposal) -> dict:
    """The JSON of API.md's import line: ``{source, statements, warnings}`` (plus a few keys)."""
    source = asdict(proposal.source)
    source["published"] = proposal.source.published.isoformat() if proposal.source.published else None
    statements = []
    for item in proposal.statements:
        speaker = item.speaker
        statements.append({
            "quote": item.quote,
            "speaker": speaker.name if speaker else None,
            "date": item.date.isoformat() if item.date else None,
            "date_precision": item.date_precision,
            "context": item.context,
            "fragment": item.fragment,
            "language": item.language,
            "original_language": item.original_language,
            "speaker_proposal": asdict(speaker) if speaker else None,
            "date_basis": item.date_basis,
            "offsets": {"quote": [item.quote_start, item.quote_end],
                        "passage": [item.passage_start, item.passage_end]},
        })
    return {"source": source, "statements": statements, "warnings": list(proposal.warnings),
            "encoding": proposal.encoding, "repairs": list(proposal.repairs)}


# --- the source -----------------------------------------------------------------------------------

_DATELINE = re.compile(
    r"^(?P<place>[A-ZÀ-Þ][A-ZÀ-Þ.'’\- ]{2,40}(?:,\s*[A-Z][A-Za-z.]+)?)"
    r"(?:,\s*(?P<date>[A-Z][a-z]+\.?\s+\d{1,2}(?:,\s*\d{4})?))?"
    r"\s*(?P<agency>\([A-Za-z ]+\))?\s*(?:--|—|–|-)\s+")
_BYLINE = re.compile(r"^(?:By|Par)\s+(?P<author>[A-ZÀ-Þ][\w’'.\-]+(?:\s+(?:and\s+)?[A-ZÀ-Þ][\w’'.\-]+){1,4})"
                     r"(?:\s*[,|—-]\s*(?P<outlet>.+))?$")
_DATE_LINE = re.compile(r"^(?:(?:Published|Posted|Updated|Publié|Mis à jour)\s*(?:on|le)?\s*:?\s*)?(?P<date>.{6,60})$",
                        re.IGNORECASE)
_URL = re.compile(r"^(?:URL\s*:\s*|Source\s*:\s*)?(?P<url>https?://\S+)$", re.IGNORECASE)
_REPORTS_FOR = re.compile(
    rf"(?P<author>{_WORD}(?:\s+{_WORD}){{1,3}})\s+(?:reports|writes)\s+for\s+(?P<outlet>[\w’'.\-]+(?:\s+{_WORD}){{0,3}})")
_OUTLET_CUES = re.compile(
    r"(?:report comes from|first appeared (?:in|on)|interview with|told|reports for|writes for|©|copyright)\s+"
    r"(?P<outlet>(?:The\s+)?[A-Z][\w’'.\-]*(?:\s+[A-Z][\w’'.\-]*){0,3})", re.IGNORECASE)


def _propose_source(article: ArticleText) -> tuple[SourceProposal, int]:
    """The source, and the index of the first paragraph of the story (after headline, byline, date)."""
    meta = article.meta
    title, author, url = meta.get("title", ""), meta.get("author", ""), meta.get("url", "")
    outlet = meta.get("outlet", "")
    published, precision = _parse_date(meta.get("published", ""), anchor=None)
    paragraphs = article.paragraphs
    body = 0
    for index, paragraph in enumerate(paragraphs[:6]):
        if _URL.match(paragraph):
            url = url or _URL.match(paragraph).group("url")
        elif paragraph in OUTLETS:
            outlet = outlet or OUTLETS[paragraph]  # "Radio-Canada" on a line of its own
        elif (byline := _BYLINE.match(paragraph)) and len(paragraph) < 120:
            author = author or byline.group("author")
            if byline.group("outlet"):
                outlet = outlet or _outlet_name(byline.group("outlet"))
        elif (pair := _beside_outlet(paragraph)) is not None:
            # "Hélène Buzzetti, Le Devoir" (a byline without "By"), or "Le Devoir, 24 décembre 2013"
            other, named_outlet = pair
            if (dated := _parse_date(other, anchor=None))[0] is not None:
                published, precision = (published, precision) if published else dated
            elif _NAME_RUN.fullmatch(other):
                author = author or other
            outlet = outlet or named_outlet
        elif index > 0 and not author and len(paragraph) < 50 and _NAME_RUN.fullmatch(paragraph) \
                and not _jurisdiction_of(paragraph) and not _DATELINE.match(paragraph):
            author = paragraph  # a byline of the name alone: "Guillaume Bourgault-Côté"
        elif len(paragraph) < 70 and (line := _DATE_LINE.match(paragraph)) and _parse_date(line.group("date"), anchor=None)[0]:
            if published is None:
                published, precision = _parse_date(line.group("date"), anchor=None)
        elif (index == 0 and len(paragraph) < 160 and paragraph[:1] not in "[(" and not re.search(r"[.!?\"”]$", paragraph)
              and not _DATELINE.match(paragraph) and not article.is_html) or paragraph == title:
            title = title or paragraph
        else:
            break
        body = index + 1
    dateline = ""
    for paragraph in paragraphs[body:body + 2]:
        if match := _DATELINE.match(paragraph):
            dateline = match.group("place").strip().rstrip(",- ")
            if match.group("date") and published is None:
                published, precision = _parse_date(match.group("date"), anchor=None)
            if match.group("agency") and not outlet:
                outlet = OUTLETS.get(match.group("agency").replace(" ", ""), "")
            break
    text = "\n".join(paragraphs[body:])
    if match := _REPORTS_FOR.search(text):
        author = author or match.group("author")
        outlet = outlet or _outlet_name(match.group("outlet"))
    if not outlet:
        for cue in _OUTLET_CUES.finditer(text):
            if name := _outlet_name(cue.group("outlet")):
                outlet = name
                break
    if not outlet:
        # Each name taken out once counted: "La Presse Canadienne" is not also "La Presse".
        counts: dict[str, int] = {}
        rest = text
        for mention in _OUTLET_MENTIONS:
            if found := rest.count(mention):
                counts[OUTLETS[mention]] = counts.get(OUTLETS[mention], 0) + found
                rest = rest.replace(mention, " ")
        if counts:
            outlet = max(counts, key=counts.get)
    return SourceProposal(outlet=outlet, title=title, author=author, dateline=dateline, published=published,
                          date_precision=precision if published else DAY, url=url), body


def _beside_outlet(paragraph: str) -> tuple[str, str] | None:
    """("Hélène Buzzetti", "Le Devoir") for a header line "Hélène Buzzetti, Le Devoir" or "Le Devoir, Hélène
    Buzzetti": the other part and the known outlet; None for any other line."""
    parts = [part.strip() for part in paragraph.split(",")]
    if len(parts) != 2 or len(paragraph) > 100:
        return None
    first, second = parts
    if second in OUTLETS:
        return first, OUTLETS[second]
    if first in OUTLETS:
        return second, OUTLETS[first]
    return None


def _outlet_name(text: str) -> str:
    text = text.strip().rstrip(".,")
    for mention in _OUTLET_MENTIONS:
        if text.startswith(mention) or text.startswith("The " + mention):
            return OUTLETS[mention]
    return "" if not text else (text if text in OUTLETS.values() else "")


# --- dates ----------------------------------------------------------------------------------------

def _parse_date(text: str, *, anchor: datetime.date | None) -> tuple[datetime.date | None, str]:
    """An absolute or relative date and its precision; relative ones need ``anchor``. A date outside
    the record's range (negotiations.bounds), such as a typo's year 0014 or 9999, is no date found."""
    value, precision = _parse_any_date(text, anchor=anchor)
    if value is not None and not bounds.date_in_range(value):
        return None, DAY
    return value, precision


def _parse_any_date(text: str, *, anchor: datetime.date | None) -> tuple[datetime.date | None, str]:
    text = text.strip()
    if not text:
        return None, DAY
    # "le 3 mars 2021 à 17 h 42", "March 3, 2021 at 5:42 p.m.": the time says nothing more about the day.
    text = re.sub(r"\s+(?:à|at)\s+\d{1,2}\s*(?:h|:)\s*\d{0,2}.*$", "", text, flags=re.IGNORECASE)
    lowered = text.lower().replace("’s", "").replace("'s", "")
    lowered = re.sub(r"^(?:on|early|late)\s+", "", lowered)
    if match := re.fullmatch(r"(last|this past)?\s*(\w+?)(?:\s+dernier)?", lowered):
        word = match.group(2)
        for names in (_WEEKDAYS, _WEEKDAYS_FR):
            if word in names and anchor is None:
                return None, DAY  # (a weekday says which day only from the day of publication)
            if word in names:
                back = (anchor.weekday() - names.index(word)) % 7
                if back == 0 and match.group(1):
                    back = 7
                return anchor - datetime.timedelta(days=back), DAY
    relative = {"yesterday": (1, DAY), "hier": (1, DAY), "today": (0, DAY), "aujourd'hui": (0, DAY),
                "this morning": (0, DAY), "this afternoon": (0, DAY), "tonight": (0, DAY), "last night": (1, DAY),
                "this week": (0, APPROXIMATE), "earlier this week": (2, APPROXIMATE), "last week": (7, APPROXIMATE),
                "earlier this month": (7, APPROXIMATE), "hier soir": (1, DAY), "ce matin": (0, DAY),
                "cette semaine": (0, APPROXIMATE), "plus tôt cette semaine": (2, APPROXIMATE),
                "la semaine dernière": (7, APPROXIMATE)}
    if lowered in relative:
        if anchor is None:
            return None, DAY
        days, precision = relative[lowered]
        return anchor - datetime.timedelta(days=days), precision
    lowered = {"le mois dernier": "last month", "l'an dernier": "last year", "l'année dernière": "last year",
               "l’an dernier": "last year", "l’année dernière": "last year"}.get(lowered, lowered)
    if lowered in ("last month", "last year"):
        if anchor is None:
            return None, DAY
        if lowered == "last year":
            return datetime.date(anchor.year - 1, 1, 1), YEAR
        first = anchor.replace(day=1) - datetime.timedelta(days=1)
        return first.replace(day=1), MONTH
    lowered = re.sub(r"^(?:in|last|since|en|depuis)\s+", "", lowered)
    if anchor is None and not re.search(r"\b\d{4}\b", lowered):
        # Without the day of publication, "January 29" or "two days ago" would be read against today.
        return None, DAY
    return _dateparser_date(lowered, anchor)


def _dateparser_date(text: str, anchor: datetime.date | None) -> tuple[datetime.date | None, str]:
    settings = {"PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DAY_OF_MONTH": "first"}
    if anchor is not None:
        settings["RELATIVE_BASE"] = datetime.datetime.combine(anchor, datetime.time(12))
    text = re.sub(r"T\d{2}:\d{2}.*$", "", text)  # an ISO time (and zone) says nothing more about the day
    try:
        data = _date_parser(tuple(sorted(settings.items(), key=lambda item: item[0])), settings).get_date_data(text)
    except (ValueError, OverflowError, TypeError):
        return None, DAY
    if data is None or data.date_obj is None:
        return None, DAY
    period = data.period or "day"
    precision = {"day": DAY, "month": MONTH, "year": YEAR}.get(period, APPROXIMATE)
    value = data.date_obj.date()
    if precision == MONTH:
        value = value.replace(day=1)
    elif precision == YEAR:
        value = value.replace(month=1, day=1)
    return value, precision


_PARSERS: dict = {}


def _date_parser(key, settings):
    # perf: building a DateDataParser loads its language data; one per setting set is kept.
    from dateparser.date import DateDataParser

    if key not in _PARSERS:
        _PARSERS[key] = DateDataParser(languages=["en", "fr"], settings=settings)
    return _PARSERS[key]


# --- quotes, speakers, dates ---------------------------------------------------------------------

@dataclass
class _Person:
    name: str
    role: str = ""
    jurisdiction: str = ""
    organization: str = ""
    known: str = ""
    gender: str = ""

    @property
    def surname(self) -> str:
        return self.name.split()[-1] if self.name else ""


@dataclass
class _Quote:
    paragraph: int
    start: int  # offsets in the paragraph, of the text inside the marks
    end: int
    text: str
    last_paragraph: int
    end_in_last: int
    open_mark: int


@dataclass
class _Mention:
    """Who a speech verb's subject is: a person, a pronoun, or a role without a name."""

    person: _Person | None = None
    pronoun: str = ""
    role: str = ""
    possessor: str = ""


@dataclass
class _Reader:
    article: ArticleText
    anchor: datetime.date | None
    known: tuple[KnownPerson, ...]
    language: str
    body_start: int = 0
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.people: list[_Person] = []  # in order of last mention
        self.speakers: list[_Person] = []  # speech-verb subjects, most recent last
        self.person_dates: dict[int, tuple[datetime.date, str, str]] = {}
        self.event_date: tuple[datetime.date, str, str] | None = None
        offsets, position = [], 0
        for paragraph in self.article.paragraphs:
            offsets.append(position)
            position += len(paragraph) + 2
        self.offsets = offsets

    # The walk through the article --------------------------------------------------------------

    def read(self) -> list[QuoteProposal]:
        paragraphs = self.article.paragraphs
        quotes = self._find_quotes()
        by_paragraph: dict[int, list[_Quote]] = {}
        for quote in quotes:
            by_paragraph.setdefault(quote.paragraph, []).append(quote)
        proposals: list[tuple[QuoteProposal, _Person | None]] = []
        previous: tuple[QuoteProposal, _Person | None, int] | None = None
        skip_until = -1
        for index in range(self.body_start, len(paragraphs)):
            if index <= skip_until:
                continue
            paragraph = paragraphs[index]
            in_paragraph = by_paragraph.get(index, [])
            masked = _mask(paragraph, [(q.open_mark, q.end + 1 if q.last_paragraph == index else len(paragraph))
                                       for q in in_paragraph])
            self._register_people(masked)
            if not in_paragraph:
                self._note_speech(masked, 0, len(masked))
                continue
            boundary = 0
            for position, quote in enumerate(in_paragraph):
                # Whole sentences before the quote can introduce its speaker ("X said …. “…,” she said").
                lead = masked[boundary:quote.open_mark]
                self._note_speech(lead, 0, len(lead) - len(_last_sentence(lead)))
                if quote.last_paragraph != index:
                    # The quote runs on: attribution is in the paragraph where it ends.
                    last = paragraphs[quote.last_paragraph]
                    masked_last = _mask(last, [(0, quote.end_in_last + 1)])
                    self._register_people(masked_last)
                    head = masked[boundary:quote.open_mark]
                    tail_text, tail_offset = masked_last, quote.end_in_last + 1
                    skip_until = quote.last_paragraph
                else:
                    head = masked[boundary:quote.open_mark]
                    following = in_paragraph[position + 1].open_mark if position + 1 < len(in_paragraph) else len(paragraph)
                    tail_text, tail_offset = masked[:following], quote.end + 1
                if (position and previous is not None
                        and previous[0].quote_start == self.offsets[index] + in_paragraph[position - 1].start
                        and _interrupts(in_paragraph[position - 1], quote, head)):
                    # “We are ready,” Park said, “but not at any price.”: one quote, interrupted by its attribution.
                    joined = _join(previous[0], in_paragraph[position - 1].text, quote, self.offsets[index])
                    proposals[-1] = (joined, previous[1])
                    previous = (joined, previous[1], index)
                    boundary = quote.end + 1
                    continue
                proposal, person = self._propose(quote, head, tail_text, tail_offset, previous, index)
                boundary = quote.end + 1 if quote.last_paragraph == index else len(paragraph)
                if proposal is not None:
                    proposals.append((proposal, person))
                    previous = (proposal, person, quote.last_paragraph)
            self._note_speech(masked, boundary, len(masked))
        return _drop_repeated_fragments(proposals)

    def _propose(self, quote, head, tail_text, tail_offset, previous, index):
        text = _clean_quote(quote.text)
        if not text or not re.search(r"\w", text):
            return None, None
        incise = None
        if self.language == "fr" and (found := _FR_INCISE.search(text)):
            # « Le Québec, a-t-elle dit, n'a pas de leçons à recevoir. »: the attribution inside the quote is not said.
            incise = found.group("incise")
            rest = text[found.end():]
            joint = " : " if ":" in found.group("end") else ("" if rest[:1] in ".!?…" else " ")
            text = f"{text[:found.start()]}{joint}{rest}".strip()
        head_sentence = _last_sentence(head)
        tail = tail_text[tail_offset:]
        ends_sentence = bool(re.search(r"[.!?…]$", quote.text.rstrip()))
        tail_sentence = _first_sentence(tail)
        # After a quote that ends its sentence, what follows is attribution only if it starts with it.
        if ends_sentence and not re.match(rf"\s*(?:[\w’'.\-]+\s+){{0,5}}(?:{_SPEECH_VERBS})\b", tail) \
                and not _FR_VERB.match(tail, re.match(r"\s*[,.]?\s*", tail).end()):
            tail_sentence = ""
        fragment = _is_fragment(text, head_sentence)
        words = text.split()
        if fragment and (_NOT_ATTRIBUTED.search(head_sentence) or
                         (len(words) == 1 and not _DIRECT_ATTRIBUTION.match(tail))):
            if self.language == "fr":
                self._attribution(head_sentence, tail_sentence)  # "M. Kenney a soutenu que l'offre était « finale »"
            return None, None
        if 1 < len(words) <= 5 and all(word[:1].isupper() for word in words) and not re.search(r"[.!?,]$", text) \
                and not _VERB.search(tail_sentence):
            return None, None  # a name or a title in quotation marks
        if self.language == "fr" and len(words) <= 6 and text[:1].isupper() and not re.search(r"[.!?,…]$", text) \
                and re.search(r"(?:\b(?:la|le|les|du|des|au|aux|de|programme|initiative|fonds|plan|stratégie|projet|"
                              r"campagne|rapport|entente|loi|mesure|slogan|thème)|\bl['’]|\bd['’])\s*$", head, re.IGNORECASE):
            return None, None  # "la « Subvention canadienne pour l'emploi »": a name in quotation marks
        frame = f"{head_sentence} \u2063 {tail_sentence}"
        mention = self._french_attribution("", ", " + incise) if incise else None
        mention = mention or self._attribution(head_sentence, tail_sentence)
        person, how = self._resolve(mention) if mention else (None, "")
        continuation = False
        inside_reporting = self.language == "fr" and fragment and bool(head_sentence.strip())
        if person is None and mention is None and not _SOMEONE_SPEAKS.search(frame) and not inside_reporting:
            if previous is not None and previous[1] is not None:
                person, how = previous[1], "continues the quote before"
                continuation = True
            elif self.speakers:
                person, how = self.speakers[-1], "the last speaker"
        if person is not None:
            self._spoke(person)
        date, precision, basis = self._date(frame, person)
        if continuation and previous is not None and previous[0].date and not _DATE_EXPRESSIONS.search(frame):
            date, precision, basis = previous[0].date, previous[0].date_precision, previous[0].date_basis
        original = ""
        if match := _IN_LANGUAGE.search(frame):
            spoken = "fr" if match.group(1).lower() in ("french", "français") else "en"
            original = "" if spoken == self.language else spoken
        elif continuation and previous is not None and previous[2] == index - 1:
            original = previous[0].original_language
        if date is not None and person is not None:
            self.person_dates[id(person)] = (date, precision, basis)
        speaker = self._speaker(person, how)
        if speaker is None:
            self.warnings.append(f"No speaker found for “{_short(text)}”: choose one.")
        base = self.offsets[quote.paragraph]
        quote_start = base + quote.start
        quote_end = self.offsets[quote.last_paragraph] + (quote.end if quote.last_paragraph == quote.paragraph
                                                          else quote.end_in_last)
        passage_end = self.offsets[quote.last_paragraph] + len(self.article.paragraphs[quote.last_paragraph])
        context = self._context(quote, head, tail_text, tail_offset)
        return QuoteProposal(
            quote=text, speaker=speaker, date=date, date_precision=precision, date_basis=basis, context=context,
            fragment=fragment, language=self.language, original_language=original, quote_start=quote_start,
            quote_end=quote_end, passage_start=base, passage_end=passage_end,
        ), person

    # Quotes ---------------------------------------------------------------------------------------

    def _find_quotes(self) -> list[_Quote]:
        paragraphs = self.article.paragraphs
        quotes: list[_Quote] = []
        index = self.body_start
        while index < len(paragraphs):
            paragraph = paragraphs[index]
            opened: int | None = None
            position = 0
            while position < len(paragraph):
                char = paragraph[position]
                if opened is None and (char in _QUOTE_OPEN or
                                       (char == '"' and (position == 0 or paragraph[position - 1] in _OPENERS_BEFORE))):
                    opened = position
                elif opened is not None and (char in _QUOTE_CLOSE or char == '"'):
                    quotes.append(_Quote(paragraph=index, start=opened + 1, end=position,
                                         text=paragraph[opened + 1:position], last_paragraph=index,
                                         end_in_last=position, open_mark=opened))
                    opened = None
                position += 1
            if opened is not None:
                joined = self._run_on(index, opened)
                if joined is not None:
                    quotes.append(joined)
                    index = joined.last_paragraph
                    # Quotes after the run-on's end in its last paragraph.
                    rest = paragraphs[index][joined.end_in_last + 1:]
                    shift = joined.end_in_last + 1
                    for later in _simple_quotes(rest):
                        quotes.append(_Quote(paragraph=index, start=later[0] + shift + 1, end=later[1] + shift,
                                             text=rest[later[0] + 1:later[1]], last_paragraph=index,
                                             end_in_last=later[1] + shift, open_mark=later[0] + shift))
                else:
                    self.warnings.append(f"A quotation mark is never closed: “{_short(paragraph[opened:])}”")
            index += 1
        return quotes

    def _run_on(self, index: int, opened: int) -> _Quote | None:
        """A quote left open at the end of a paragraph, continued by the next ones that open a quote."""
        paragraphs = self.article.paragraphs
        parts = [paragraphs[index][opened + 1:]]
        following = index + 1
        while following < len(paragraphs) and paragraphs[following][:1] in _QUOTE_OPEN + '"':
            text = paragraphs[following]
            close = next((i for i in range(1, len(text)) if text[i] in _QUOTE_CLOSE + '"'), None)
            if close is not None:
                parts.append(text[1:close])
                return _Quote(paragraph=index, start=opened + 1, end=len(paragraphs[index]),
                              text=" ".join(part.strip() for part in parts), last_paragraph=following,
                              end_in_last=close, open_mark=opened)
            parts.append(text[1:])
            following += 1
        return None

    # Speakers -------------------------------------------------------------------------------------

    def _attribution(self, head: str, tail: str) -> _Mention | None:
        """The subject of the speech verb nearest the quote: in the words after it, then before it."""
        if self.language == "fr" and (mention := self._french_attribution(head, tail)) is not None:
            return mention
        for text, nearest_first in ((tail, True), (head, False)):
            verbs = list(_VERB.finditer(text))
            if not nearest_first:
                verbs.reverse()
            for verb in verbs:
                mention = self._subject(text, verb)
                if mention is not None:
                    return mention
            if match := re.search(rf"\baccording to\s+(?P<who>(?:the\s+|a\s+)?[\w’'.\- ]{{2,80}}?)(?=[,.;\u2063]|$)"
                                  rf"(?:,\s+(?P<name>{_WORD}(?:\s+{_WORD}){{1,3}})\s*,)?", text, re.IGNORECASE):
                if match.group("name") and match.group("name")[:1].isupper():
                    # "according to Oduya's spokesman, Tariq Benn, …"
                    return _Mention(person=self._person(match.group("name"), match.group("who")))
                mention = self._mention_from_phrase(match.group("who"))
                if mention is not None:
                    return mention
        return None

    def _french_attribution(self, head: str, tail: str) -> _Mention | None:
        """In French: "« … », a déclaré le ministre ontarien Brad Duguid", "« … », a-t-il dit", "dit-elle",
        "Selon Brad Duguid, « … »", "Le ministre Jason Kenney a affirmé jeudi : « … »", "X a été plus nuancée : « … »"."""
        start = re.match(r"\s*[,.!?…]?\s*", tail).end()
        if verb := _FR_VERB.match(tail, start):
            pronoun = verb.group("pronoun1") or verb.group("pronoun2")
            if pronoun:
                return _Mention(pronoun=_FR_PRONOUNS[pronoun]) if pronoun in _FR_PRONOUNS else None
            after = _FR_CLAUSE_END.split(tail[verb.end():], maxsplit=1)[0]
            if (mention := self._french_named(after)) is not None:
                return mention
        if according := re.search(r"\b[Ss]elon\s+(?P<who>[^;\u2063]{2,160}?)\s*,?\s*$", head):
            return self._french_named(according.group("who"))
        verbs = list(_FR_VERB.finditer(head))
        # "a déclaré :", "a déclaré jeudi que", "a affirmé en conférence de presse :"
        if verbs and (re.fullmatch(r"(?:\s+[\w’'\-]+){0,4}?\s*(?::|,|que|qu['’])?\s*", head[verbs[-1].end():])
                      and (head.rstrip().endswith((":", "que", "qu'", "qu’")) or not head[verbs[-1].end():].strip(" ,"))
                      # "il avait affirmé que la subvention « sera en place »": reported, then quoted.
                      or re.match(r"(?:\s+[\w’'\-]+){0,4}?\s+(?:que|qu['’])", head[verbs[-1].end():])):
            return self._french_subject(head[:verbs[-1].start()], verbs[-1])
        if head.rstrip().endswith(":"):
            # "La sous-ministre X a été plus nuancée : « … »": the person the sentence is about.
            return self._french_subject(head.rstrip()[:-1], None)
        return None

    def _french_subject(self, before: str, verb: re.Match | None) -> _Mention | None:
        """The subject just before a French speech verb: "Le ministre fédéral Jason Kenney", "M. Kenney",
        "Brad Duguid, ministre ontarien,", "Le ministre de l'Économie, Paul Lévesque,", "il"."""
        pronoun = verb and (verb.group("pronoun1") or verb.group("pronoun2"))
        if pronoun:
            return _Mention(pronoun=_FR_PRONOUNS[pronoun]) if pronoun in _FR_PRONOUNS else None
        if found := re.search(r"(?:^|[\s,;:])(?P<pronoun>il|elle)\s*(?:,[^,]*,)?\s*$", before, re.IGNORECASE):
            return _Mention(pronoun=_FR_PRONOUNS[found.group("pronoun").lower()])
        clause = _FR_CLAUSE_END.split(before)[-1]
        clause = re.sub(r"^.*\b(?:et|mais|puis|quand|lorsque|alors que)\s+", "", clause)
        # An aside between the subject and its verb: "M. Kenney, de son côté, a soutenu".
        clause = re.sub(rf",\s*{_FR_ASIDES}\s*,\s*$", " ", clause)
        apposition = ""
        if found := re.search(r",\s*(?P<between>[^,]{3,120}),\s*$", clause):
            between, clause = found.group("between").strip(), clause[:found.start()]
            if _FR_NAME.fullmatch(between):
                # "Le ministre saskatchewanais de l'Économie, Paul Lévesque, a fait savoir": the role, then the name.
                return self._french_named(between, last=True, role_before=clause)
            apposition = between
        return self._french_named(clause.strip(), apposition=apposition, last=True)

    def _french_named(self, phrase: str, *, apposition: str = "", last: bool = False,
                      role_before: str | None = None) -> _Mention | None:
        """The person a French phrase names, with the role it gives them: "mercredi le ministre ontarien Brad
        Duguid, ministre de la Formation" (the first name given; ``last``, the last), "la ministre"."""
        names = [match for match in _FR_NAME.finditer(phrase)
                 if not _jurisdiction_of(match.group()) and match.group().split()[0] not in _NOT_NAMES
                 and match.group() not in OUTLETS]
        if not names:
            role = self._french_role(phrase)
            if role and (surname := re.search(rf"\s(?P<surname>{_WORD})$", role)) and _capitalised(surname.group("surname")):
                # "la ministre Maltais": a role and a surname.
                role = role[:surname.start()].strip()
                person = self._person(surname.group("surname"), role)
                person.gender = person.gender or _french_gender(self._french_article(phrase, role), role)
                return _Mention(person=person)
            return _Mention(role=role) if role else None
        match = names[-1] if last else names[0]
        if not last and (appos := re.match(r"\s*,\s*(?P<role>[^,]{3,120})", phrase[match.end():])):
            apposition = apposition or appos.group("role")
        before = phrase[:match.start()] if role_before is None else role_before
        before_role = self._french_role(before)
        role = " ".join(part for part in (before_role, self._french_role(apposition)) if part)
        article = self._french_article(before, before_role)
        if match.group("title"):
            article = match.group("title")
            person = self._person(match.group("surname"), role)
        else:
            person = self._person(match.group("name"), role)
        if not person.gender:
            person.gender = _french_gender(article, role)
        return _Mention(person=person)

    @staticmethod
    def _french_article(text: str, role: str) -> str:
        """The article just before ``role`` in ``text`` (le, la, l'), or ""."""
        if not role:
            return ""
        found = re.search(r"(?:^|\s)(le|la|l['’])\s*$", text[:text.rfind(role.split()[0])], re.IGNORECASE)
        return found.group(1) if found else ""

    @staticmethod
    def _french_role(text: str) -> str:
        """The role in "mercredi la première ministre albertaine, " (première ministre albertaine): from its first
        role word to the end of its clause; "" when it names none."""
        words = text.strip(" ,").split()
        first = next((index for index, word in enumerate(words) if word.lower().strip(",") in _FR_ROLE_WORDS), None)
        if first is None:
            return ""
        role = " ".join(words[first:])
        # "le ministre, qui doit rencontrer …": the role stops where a relative clause starts.
        return re.split(r",\s*(?:qui|que|dont|où)\b", role)[0].strip(" ,")

    def _register_french_people(self, masked: str) -> None:
        """French names given with a role ("la ministre québécoise Agnès Maltais", "Thérèse Lemieux, ministre
        albertaine de l'Innovation,", "M. Dubé"), so that a later "elle" or surname finds them."""
        for pattern in _FR_NAMED_WITH_ROLE:
            for match in pattern.finditer(masked):
                found = match.groupdict()
                name, role, article = found["name"], found.get("role") or "", found.get("article") or ""
                if role and (_jurisdiction_of(name) or name.split()[0] in _NOT_NAMES):
                    continue
                person = self._person(name, role)
                # ("son"/"sa attachée" says nothing of the attachée's gender; "la"/"le" and "M."/"Mme" do)
                person.gender = person.gender or _french_gender(article if article.lower() not in ("son", "sa") else "",
                                                                role)

    def _subject(self, text: str, verb: re.Match) -> _Mention | None:
        before = text[:verb.start()]
        tokens = re.findall(r"[\w’'.\-]+|[,;:()\u2063]", before)
        while tokens and tokens[-1].lower() in _SKIPPABLE:
            tokens.pop()
        if tokens and tokens[-1].lower() in ("he", "she"):
            return _Mention(pronoun=tokens[-1].lower())
        if tokens and tokens[-1].lower() in ("i", "we", "they", "it", "you", "who", "which", "that") \
                and verb.group() != "told":
            return None
        run: list[str] = []
        while tokens and (_capitalised(tokens[-1]) or tokens[-1].lower() in _ROLE_WORDS
                          or (run and tokens[-1] in _CONNECTORS and len(tokens) > 1 and _capitalised(tokens[-2]))):
            run.insert(0, tokens.pop())
        if run and run[0].lower() == "the":
            run.pop(0)
        if run:
            mention = self._mention_from_run(run, apposition="")
            if mention is not None:
                return mention
        if tokens and tokens[-1] == "," and (appos := re.search(
                rf"(?P<name>{_WORD}(?:\s+{_WORD}){{1,3}}),\s+(?P<role>(?:a|an|the|[a-z])[^.\u2063]*?),\s*$", before)):
            mention = self._mention_from_run(appos.group("name").split(), apposition=appos.group("role"))
            if mention is not None:
                return mention
        if tokens and tokens[-1] == "," and (appos := re.search(
                rf"(?:^|[,;]\s*|\b)(?:a|an|the)\s+(?P<role>[a-z][^,\u2063]{{2,80}}),\s+(?P<name>{_WORD}(?:\s+{_WORD}){{1,3}}),\s*$",
                before)):
            mention = self._mention_from_run(appos.group("name").split(), apposition=appos.group("role"))
            if mention is not None:
                return mention
        if tokens and tokens[-1].lower() == "the" and not run:
            return None
        # "…,” said Brad Duguid, Ontario's minister of training." / "said Manitoba's Theresa Oswald."
        if not run and (not tokens or tokens[-1] in (",", "\u2063", ":")):
            after = text[verb.end():]
            # "…,” said the premier." / "said a spokeswoman for the minister"
            role = re.match(r"\s+(?:the|a|an)\s+((?:[\w’'\-]+\s+){0,2}?(?:" + "|".join(sorted(_ROLE_WORDS)) + r"))\b"
                            r"(?:\s+for\s+(?:the\s+)?(?P<boss>[\w’'\-]+(?:\s+[A-Z][\w’'\-]+)?))?", after)
            if role:
                return _Mention(role=role.group(1).lower(), possessor=role.group("boss") or "")
            match = re.match(rf"\s+(?P<run>(?:(?:{_WORD}|{'|'.join(_ROLE_WORDS)})\s+){{0,5}}{_WORD})"
                             r"(?:,\s+(?P<role>[^.\u2063]{3,120}))?", after)
            if match:
                words = match.group("run").split()
                mention = self._mention_from_run(words, apposition=(match.group("role") or "").strip())
                if mention is not None:
                    return mention
        return None

    def _mention_from_phrase(self, phrase: str) -> _Mention | None:
        words = phrase.strip().split()
        if words and words[0].lower() in ("the", "a", "an"):
            words = words[1:]
        if len(words) >= 3 and words[1] == "for" and words[0].lower() in _ROLE_WORDS:
            return _Mention(role=words[0].lower(), possessor=" ".join(words[2:]))
        return self._mention_from_run(words, apposition="") if words else None

    def _mention_from_run(self, run: list[str], *, apposition: str) -> _Mention | None:
        """Split "New Brunswick Premier David Alward" into role, jurisdiction and name."""
        run = [word.rstrip(",") for word in run]
        run = [word if _ABBREVIATIONS.search(word) else word.rstrip(".") for word in run]
        while run and run[0] in _NOT_NAMES:
            run.pop(0)
        name_words: list[str] = []
        while run and _capitalised(run[-1]) and run[-1].lower() not in _ROLE_WORDS and not _possessive(run[-1]) \
                and run[-1] not in _TITLES:
            name_words.insert(0, run.pop())
        prefix = " ".join(run)
        # Place names belong to the role, not the name ("Quebec Premier ...", "Manitoba's ...").
        while name_words and _jurisdiction_of(" ".join(name_words[:2])) and len(name_words) > 2:
            prefix = (prefix + " " + name_words.pop(0)).strip()
        if name_words and _jurisdiction_of(name_words[0]) and len(name_words) > 1 and name_words[0] in JURISDICTION_NAMES:
            prefix = (prefix + " " + name_words.pop(0)).strip()
        if not name_words:
            words = prefix.split()
            roles = [word for word in words if word.lower() in _ROLE_WORDS]
            if not roles:
                return None
            possessor = next((word for word in words if _possessive(word)), "")
            return _Mention(role=" ".join(word for word in words if not _possessive(word)).lower(),
                            possessor=_strip_possessive(possessor))
        name = " ".join(name_words)
        if any(word in _NOT_NAMES for word in name_words) or _jurisdiction_of(name) or name in OUTLETS \
                or not re.search(r"[a-zà-ÿ]", name):
            return None
        role_text = " ".join(part for part in (prefix, apposition) if part).strip()
        return _Mention(person=self._person(name, role_text))

    def _person(self, name: str, role_text: str) -> _Person:
        """The article's person by this name (a surname finds the full name), updated with the role given."""
        name = name if _ABBREVIATIONS.search(name) else name.rstrip(".")
        key = normalize_name(name)
        found = next((p for p in self.people if normalize_name(p.name) == key), None)
        if found is None and len(name.split()) == 1:
            found = next((p for p in reversed(self.people) if normalize_name(p.surname) == key), None)
        if found is None:
            found = _Person(name=name)
            self._match_known(found)
        if role_text:
            self._set_role(found, role_text)
        if found in self.people:
            self.people.remove(found)
        self.people.append(found)
        return found

    def _set_role(self, person: _Person, role_text: str) -> None:
        while role_text.split(" ", 1)[0] in _NOT_NAMES:
            role_text = role_text.split(" ", 1)[1] if " " in role_text else ""
        jurisdiction = _jurisdiction_of(role_text)
        possessor = re.match(rf"^({_WORD})(?:’s|'s)\s+(.*)$", role_text)
        title = role_text
        if possessor and not _jurisdiction_of(possessor.group(1)):
            boss = self._lookup(_strip_possessive(possessor.group(1)))
            title = f"{possessor.group(2)} for {boss.name if boss else possessor.group(1)}"
            jurisdiction = jurisdiction or (boss.jurisdiction if boss else "")
        else:
            for mention in sorted(JURISDICTION_NAMES, key=len, reverse=True):
                title = re.sub(rf"^{re.escape(mention)}(?:’s|'s)?(?:\s+|$)", "", title)
        organization = ""
        if not possessor and (match := _ORGANIZATION.search(title)):
            if not _jurisdiction_of(match.group("org")):
                organization = match.group("org").strip()
                title = title[:match.start()].strip()
        if not person.role or len(title) > len(person.role):
            person.role = title.strip(" ,")
        person.jurisdiction = person.jurisdiction or jurisdiction
        person.organization = person.organization or organization

    def _lookup(self, surname_or_name: str) -> _Person | None:
        key = normalize_name(surname_or_name)
        return next((p for p in reversed(self.people)
                     if normalize_name(p.name) == key or normalize_name(p.surname) == key), None)

    def _match_known(self, person: _Person) -> None:
        key = normalize_name(person.name)
        match = [k for k in self.known if normalize_name(k.name) == key]
        if not match and len(person.name.split()) == 1:
            match = [k for k in self.known if normalize_name(k.name.split()[-1]) == key]
        if len(match) == 1:
            person.known, person.name = match[0].key, match[0].name
            if match[0].roles:
                role = match[0].roles[0]
                person.jurisdiction = person.jurisdiction or role.jurisdiction
                person.organization = person.organization or role.organization
                person.role = person.role or role.title

    def _resolve(self, mention: _Mention) -> tuple[_Person | None, str]:
        if mention.person is not None:
            return mention.person, "named"
        if mention.pronoun:
            gender = "f" if mention.pronoun == "she" else "m"
            # French "il"/"elle": the last person named of that gender, whether or not they spoke.
            candidates = self.people if self.language == "fr" else (self.speakers or self.people)
            for person in reversed(candidates):
                if person.gender in ("", gender):
                    person.gender = gender
                    return person, "pronoun"
            return None, ""
        if mention.role:
            return self._by_role(mention.role, mention.possessor)
        return None, ""

    def _by_role(self, role: str, possessor: str) -> tuple[_Person | None, str]:
        """'the minister', 'Kenney's spokesman': someone of that role in the article, else in the record."""
        key_words = [word for word in role.split() if word in _ROLE_WORDS]
        boss = self._lookup(possessor) if possessor else None

        def fits(title: str) -> bool:
            title = title.lower()
            if "spokes" in title and not any(word.startswith("spokes") for word in key_words):
                return False  # "the minister" is not the minister's spokeswoman
            return bool(key_words) and all(word[:6] in title for word in key_words)

        for person in reversed(self.people):
            if fits(person.role) and (not possessor or (boss and boss.name in person.role) or possessor in person.role):
                return person, "role"
        jurisdiction = boss.jurisdiction if boss else ""
        candidates = [k for k in self.known if any(fits(r.title) and (not jurisdiction or r.jurisdiction == jurisdiction)
                                                   for r in k.roles)]
        if len(candidates) == 1:
            person = self._person(candidates[0].name, "")
            return person, "role"
        title = f"{role} for {boss.name if boss else possessor}" if possessor else role
        person = _Person(name="", role=title, jurisdiction=jurisdiction)
        return person, "role only"

    def _speaker(self, person: _Person | None, how: str) -> SpeakerProposal | None:
        if person is None:
            return None
        if not person.name:
            self.warnings.append(f"Speaker known only by role ({person.role}): give their name.")
        return SpeakerProposal(name=person.name, role=_TRAILING_TIME.sub("", person.role), jurisdiction=person.jurisdiction,
                               organization=person.organization, known=person.known, how=how)

    def _spoke(self, person: _Person) -> None:
        if not person.name:
            return
        if person in self.speakers:
            self.speakers.remove(person)
        self.speakers.append(person)

    def _register_people(self, masked: str) -> None:
        """Names given with a role anywhere ("Federal Employment Minister Jason Kenney offered …")."""
        if self.language == "fr":
            self._register_french_people(masked)
        for match in re.finditer(
                rf"(?P<role>(?:{_WORD}\s+){{0,4}}(?:[Mm]inister|[Pp]remier|[Ss]pokes(?:man|woman|person)|[Pp]resident|"
                rf"[Ll]eader|[Cc]ritic|[Ss]ecretary|MP|MLA|MPP))\s+(?P<name>{_WORD}\s+{_WORD}(?:\s+{_WORD})?)", masked):
            name_words = match.group("name").split()
            if any(word in _NOT_NAMES or word.lower() in _ROLE_WORDS for word in name_words):
                continue
            if _jurisdiction_of(match.group("name")):
                continue
            before = masked[max(0, match.start() - 25):match.start()]
            role = match.group("role")
            if re.search(r"\b(?:federal|Federal)\s*$", before):
                role = "federal " + role
            self._person(match.group("name"), role)

    def _note_speech(self, masked: str, start: int, end: int) -> None:
        """Speech verbs outside quotes: who spoke last, and on what date."""
        for sentence in _sentences(masked[start:end]):
            mention = None
            for verb in _VERB.finditer(sentence):
                mention = self._subject(sentence, verb)
                if mention is not None:
                    break
            if mention is None and self.language == "fr":
                for verb in _FR_VERB.finditer(sentence):
                    mention = self._french_subject(sentence[:verb.start()], verb)
                    if mention is not None:
                        break
            if mention is not None:
                person, _how = self._resolve(mention)
                if person is not None and person.name:
                    self._spoke(person)
                    found = self._sentence_date(sentence)
                    if found[0] is not None:
                        self.person_dates[id(person)] = found
                        self.event_date = found
            elif _MEETING.search(sentence):
                found = self._sentence_date(sentence)
                if found[0] is not None:
                    self.event_date = found

    # Dates and context ----------------------------------------------------------------------------

    def _sentence_date(self, sentence: str) -> tuple[datetime.date | None, str, str]:
        for match in _DATE_EXPRESSIONS.finditer(_RELATIVE_CLAUSE.sub(",", sentence)):
            expression = match.group().strip()
            if expression.lower() in ("on", "early", "late", "next", ""):
                continue
            value, precision = _parse_date(expression, anchor=self.anchor)
            if value is not None and (self.anchor is None or value <= self.anchor):
                return value, precision, expression
        return None, DAY, ""

    def _date(self, frame: str, person: _Person | None) -> tuple[datetime.date | None, str, str]:
        found = self._sentence_date(frame)
        if found[0] is not None:
            if person is not None and person.name:
                self.event_date = found
            return found
        if person is not None and id(person) in self.person_dates:
            value, precision, basis = self.person_dates[id(person)]
            return value, precision, f"{basis} (said earlier in the article)"
        if self.event_date is not None:
            value, _precision, basis = self.event_date
            return value, APPROXIMATE, f"{basis} (the last date the article gives)"
        if self.anchor is not None:
            return self.anchor, APPROXIMATE, "the publication date"
        return None, APPROXIMATE, ""

    def _context(self, quote: _Quote, head: str, tail_text: str, tail_offset: int) -> str:
        paragraphs = self.article.paragraphs
        if quote.last_paragraph == quote.paragraph:
            paragraph = paragraphs[quote.paragraph]
            outside = (paragraph[:quote.open_mark] + "“…”" + paragraph[quote.end + 1:]).strip()
        else:
            outside = (paragraphs[quote.paragraph][:quote.open_mark] + "“…”"
                       + paragraphs[quote.last_paragraph][quote.end_in_last + 1:]).strip()
        if len(re.sub(r"[“”…\"\s.,]", "", outside)) < 3 and quote.paragraph > self.body_start:
            outside = paragraphs[quote.paragraph - 1]
        outside = re.sub(r"\s+", " ", outside)
        return outside if len(outside) <= 300 else outside[:299].rsplit(" ", 1)[0] + "…"


# --- small helpers ---------------------------------------------------------------------------------

def _simple_quotes(text: str) -> list[tuple[int, int]]:
    spans, opened = [], None
    for position, char in enumerate(text):
        if opened is None and (char in _QUOTE_OPEN or (char == '"' and (position == 0 or text[position - 1] in _OPENERS_BEFORE))):
            opened = position
        elif opened is not None and (char in _QUOTE_CLOSE or char == '"'):
            spans.append((opened, position))
            opened = None
    return spans


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """The paragraph with each quote replaced by a marker of the same length (offsets keep)."""
    chars = list(text)
    for start, end in spans:
        for position in range(start, min(end, len(chars))):
            chars[position] = "\u2063"
    return "".join(chars)


def _sentences(text: str) -> list[str]:
    sentences, start = [], 0
    for match in re.finditer(r"[.!?](?=\s+[A-Z“\"«\u2063])", text):
        if _ABBREVIATIONS.search(text[start:match.end()]):
            continue
        sentences.append(text[start:match.end()])
        start = match.end()
    sentences.append(text[start:])
    return [sentence for sentence in sentences if sentence.strip()]


def _last_sentence(text: str) -> str:
    parts = _sentences(text)
    last = parts[-1] if parts else ""
    return "" if re.search(r"[.!?]\s*$", last) else last


def _first_sentence(text: str) -> str:
    parts = _sentences(text)
    return parts[0] if parts else ""


def _clean_quote(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    if re.search(r",[’']$", text):  # a comma inside a nested quote that ends the quote: ‘We will not,’
        text = text[:-2] + "." + text[-1]
    if text.endswith(","):
        text = text[:-1].rstrip()
        if text and text[0].isupper():
            text += "."
    return text


def _is_fragment(text: str, head_sentence: str) -> bool:
    if text[:1].islower():
        return True
    head = head_sentence.replace("\u2063", "").strip()
    # A quote inside the reporter's sentence is partial unless it follows a colon or a speech verb.
    return bool(head) and not re.search(r"[:,]\s*$", head) and not re.search(rf"\b(?:{_SPEECH_VERBS})\s*$", head)


def _capitalised(word: str) -> bool:
    return bool(re.match(r"[A-ZÀ-Þ]", word)) and word not in ("I",)


def _possessive(word: str) -> bool:
    return word.endswith(("’s", "'s"))


def _strip_possessive(word: str) -> str:
    return re.sub(r"(?:’s|'s)$", "", word)


def _jurisdiction_of(text: str) -> str:
    for name in sorted(JURISDICTION_NAMES, key=len, reverse=True):
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
            return JURISDICTION_NAMES[name]
    return ""


def _language(text: str) -> str:
    words = re.findall(r"\w+", text.lower()[:5000])
    french = sum(word in {"le", "la", "les", "des", "est", "une", "dans", "pour", "qui", "que", "pas", "du"} for word in words)
    english = sum(word in {"the", "and", "of", "to", "is", "in", "that", "for", "with", "was", "said"} for word in words)
    return "fr" if french > english else "en"


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _interrupts(before: _Quote, quote: _Quote, between: str) -> bool:
    """Whether ``quote`` continues ``before`` across an attribution set off by commas."""
    return (quote.text[:1].islower() and before.text.rstrip().endswith(",") and before.last_paragraph == before.paragraph
            and bool(re.fullmatch(rf"\s*[^.!?:;\u2063]{{0,80}}\b(?:{_SPEECH_VERBS})\b[^.!?:;\u2063]{{0,40}},\s*", between)))


def _join(first: QuoteProposal, first_raw: str, quote: _Quote, base: int) -> QuoteProposal:
    text = re.sub(r"\s+", " ", f"{first_raw.strip()} {quote.text.strip()}")
    return replace(first, quote=_clean_quote(text), quote_end=base + quote.end)


def _drop_repeated_fragments(proposals: list[tuple[QuoteProposal, _Person | None]]) -> list[QuoteProposal]:
    """A fragment whose words the same speaker says in full elsewhere in the article is not proposed again."""
    kept = []
    for proposal, person in proposals:
        if proposal.fragment:
            words = normalize_quote(proposal.quote)
            if any(other is not proposal and not other.fragment and who is person and words in normalize_quote(other.quote)
                   for other, who in proposals):
                continue
        kept.append(proposal)
    return kept
