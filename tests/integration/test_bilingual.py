"""Every page in English at its address and in French under /fr/, with the right lang, a toggle to the
same page in the other language and hreflang alternates; the record's own text, figures and dates in
French; the API in French with Accept-Language: fr; the admin in Django's own French under /fr/admin/.
"""

import csv
import html
import io
import json
import re

import pytest

from tests.shared import seen as visible

# Every page a reader or an editor opens (the English address; the French one is /fr/ + the rest).
PAGES = [
    "/", "/jurisdictions/", "/jurisdictions/QC/", "/negotiations/canada-job-grant/stances",
    "/negotiations/canada-job-grant/stances/QC/2013-11", "/offers/", "/offers/federal-dec-2013/",
    "/offers/pt-counter-jan-2014/fiscal/", "/offers/budget-2013/fiscal/explain?line=trainees&code=ON",
    "/compare/?a=budget-2013&b=federal-dec-2013", "/meetings/", "/meetings/fpt-labour-ministers-2013-11-08/",
    "/people/", "/people/agnes-maltais/", "/sources/", "/sources/cp-2013-11-08-toronto-ministers-meeting/",
    "/statements/", "/search/?q=Kenney", "/accounts/login/",
]
EDITOR_PAGES = ["/offers/new", "/offers/federal-dec-2013/edit", "/statements/new", "/positions/new",
                "/accounts/password_change/"]


def french(path: str) -> str:
    return "/fr" + path


def _html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def _alternates(html: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))


def _toggle(html: str) -> tuple[str, str]:
    found = re.search(r'<a href="([^"]*)" hreflang="([^"]+)" lang="[^"]+" class="language-toggle"', html)
    return found.group(1).replace("&amp;", "&"), found.group(2)


def _check_page(client, path: str) -> None:
    for language, address, other, other_address in (("en", path, "fr", french(path)),
                                                    ("fr", french(path), "en", path)):
        response = client.get(address)
        assert response.status_code == 200, address
        html = response.content.decode()
        assert _html_lang(html) == language, address
        assert _toggle(html) == (other_address, other), address
        alternates = _alternates(html)
        assert alternates["en"] == f"http://testserver{path}".replace("&", "&amp;"), address
        assert alternates["fr"] == f"http://testserver{french(path)}".replace("&", "&amp;"), address
        assert alternates["x-default"] == alternates["en"], address


def test_every_page_answers_in_both_languages_with_lang_toggle_and_hreflang(client, cjg):
    for path in PAGES:
        _check_page(client, path)


def test_every_editor_page_answers_in_both_languages(admin_client, cjg):
    for path in EDITOR_PAGES:
        _check_page(admin_client, path)


def test_the_french_page_shows_the_record_in_french(client, cjg):
    html = client.get("/fr/jurisdictions/QC/").content.decode()
    assert "<h1>Québec</h1>" in html
    assert "Chronologie des positions" in html
    assert "Le Québec ne veut pas de la subvention." in html  # the position's summary, in French
    assert "Quebec wants no part of the grant" not in html
    assert '<span lang="en">Quebec</span>' in html  # the other language's name, marked


def test_quotes_keep_their_language_and_say_when_they_are_a_translation(client, cjg):
    html = client.get("/fr/people/agnes-maltais/").content.decode()
    # the quote in its language, between the page's marks (« » in French, whatever the quote's language)
    assert '<p lang="en">«\xa0We want a renewal of the Labour Market Agreement, the way it is now.\xa0»</p>' in html
    assert "dit en français; la citation est la traduction anglaise publiée par la source" in html
    english = client.get("/people/agnes-maltais/").content.decode()
    assert "said in French; the quote is the English translation the source published" in english


def test_figures_and_dates_are_written_the_french_way(client, cjg):
    html = client.get("/fr/offers/budget-2013/").content.decode()
    assert "300\xa0000\xa0000\xa0$" in html and "15\xa0000\xa0$" in html
    assert "21 mars 2013" in html
    english = client.get("/offers/budget-2013/").content.decode()
    assert "$300,000,000" in english and "March 21, 2013" in english
    fiscal = client.get("/fr/offers/pt-counter-jan-2014/fiscal/").content.decode()
    offer = client.get("/fr/offers/pt-counter-jan-2014/").content.decode()
    # A share as a percentage on the offer page too, as on the fiscal page (it read 0,15 on one and 15 % on the other).
    assert 'employeur</th><td class="num">15\xa0%' in offer
    assert '<th scope="row">2014-2015</th><td class="num">12,5\xa0%</td>' in offer
    assert "15\xa0%" in fiscal


def test_a_label_and_its_colon_are_written_the_french_way(admin_client, cjg):
    """French puts a no-break space before a colon: "Titre : Ce champ est obligatoire."."""
    refused = admin_client.post("/fr/statements/new", {}).content.decode()
    summary = refused[refused.index('id="error-summary"'):refused.index("</ul>", refused.index('id="error-summary"'))]
    assert "Citation\xa0: Ce champ est obligatoire." in summary and "Citation: " not in summary
    english = admin_client.post("/statements/new", {}).content.decode()
    assert "Quote: This field is required." in english
    moves = admin_client.get("/fr/negotiations/canada-job-grant/").content.decode()
    assert "8 novembre 2013\xa0: Part minimale de l&#x27;employeur" in moves
    preview = admin_client.post("/fr/grants/preview", {"max_grant": "15000"}).content.decode()
    assert "<strong>Fédéral\xa0:</strong>" in preview
    form = admin_client.get("/fr/offers/new").content.decode()  # the sources to choose from
    assert "4 février 2014 · CBC News\xa0: " in form and "CBC News: " not in form
    fiscal = admin_client.get("/fr/offers/budget-2013/fiscal/").content.decode()  # the charts' tooltips
    chart = json.loads(re.search(r'<script id="who-pays-data" type="application/json">(.*?)</script>', fiscal).group(1))
    assert [series["label_colon"] for series in chart["series"]][0] == "Coût fédéral\xa0:"


def test_a_label_naming_a_payer_and_a_program_puts_its_colon_the_french_way(admin_client, cjg):
    """The program cells' labels (read by screen readers, and named in the live preview's problems) and the basis
    rows' controls: "Fédéral : Ententes…", where they read "Fédéral: Ententes…" on the French form."""
    form = admin_client.get("/fr/offers/new").content.decode()
    assert ">Fédéral\xa0: Ententes sur le marché du travail</label>" in form
    assert ">Provincial ou territorial\xa0: Revenus autonomes de la province ou du territoire</label>" in form
    assert "\xa0: passage ou note</label>" in form and ": passage ou note" not in form.replace("\xa0: passage", "")
    assert "Fédéral: " not in form and "territorial: " not in form
    preview = admin_client.post("/fr/grants/preview", {"federal_LMDA": "x"}).content.decode()
    assert "Fédéral\xa0: Ententes sur le développement du marché du travail\xa0:" in preview
    assert "Fédéral: " not in preview
    english = admin_client.get("/offers/new").content.decode()
    assert ">Federal: Labour Market Agreements</label>" in english


def test_a_stance_known_to_about_a_day_is_dated_the_french_way(client, cjg):
    # The meeting's changed stances read « appuie au vers le 29 janvier 2014 » (Ottawa's stance is dated about then).
    page = client.get("/fr/meetings/pt-ministers-call-2014-01-28/").content.decode()
    assert "vers le 29 janvier 2014" in page and "au vers le" not in page
    assert "au 29 janvier 2014" in page
    assert "as of about January 29, 2014" in client.get("/meetings/pt-ministers-call-2014-01-28/").content.decode()


def test_the_csv_keeps_dot_decimals_and_translates_its_header(client, cjg):
    rows = list(csv.reader(io.StringIO(client.get("/fr/offers/budget-2013/fiscal.csv").content.decode())))
    assert rows[0][:4] == ["Code", "Province ou territoire", "Stagiaires", "Coût fédéral"]
    assert rows[-1][0] == "total" and rows[-1][3] == "300000000.00"
    english = list(csv.reader(io.StringIO(client.get("/offers/budget-2013/fiscal.csv").content.decode())))
    assert english[0][:3] == ["Code", "Province or territory", "Trainees"]


def test_the_api_answers_in_french_with_accept_language(client, cjg):
    offer = client.get("/api/offers/federal-dec-2013", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert offer["title"].startswith("Décembre 2013\xa0: Ottawa offre de payer le tiers provincial")
    assert client.get("/api/offers/federal-dec-2013").json()["title"].startswith("December 2013: Ottawa offers")
    response = client.get("/api/jurisdictions", HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    assert response["Content-Language"] == "fr" and "Accept-Language" in response["Vary"]
    quebec = next(item for item in response.json()["items"] if item["code"] == "QC")
    assert (quebec["name_en"], quebec["name_fr"]) == ("Quebec", "Québec")
    assert client.get("/fr/api/jurisdictions").status_code == 404  # the API has one address


@pytest.mark.parametrize("address", [
    "/fr/offers/pt-counter-jan-2014/fiscal/", "/fr/offers/pt-counter-jan-2014/", "/fr/negotiations/canada-job-grant/",
    "/fr/compare/?a=federal-nov-2013&b=pt-counter-jan-2014",
])
def test_french_pages_write_fiscal_years_in_full(client, cjg, address):
    # The tables read "2014-15" beside the French prose's "en 2014-2015"; the addresses keep the short form.
    page = client.get(address).content.decode()
    seen = visible(page)
    assert re.search(r"\b2014-2015\b", seen), address
    assert not re.search(r"\b20\d\d-\d\d\b", seen), re.findall(r".{30}\b20\d\d-\d\d\b.{10}", seen)[:3]
    english = visible(client.get(address.removeprefix("/fr")).content.decode())
    assert re.search(r"\b2014-15\b", english) and not re.search(r"\b2014-2015\b", english), address


API_ERRORS = [  # (address, its English detail, its French detail)
    ("/api/offers/nope", "No offer has the slug 'nope'.", "Aucune offre n'a l'identifiant «\xa0nope\xa0»."),
    ("/api/jurisdictions/ZZ/timeline", "No jurisdiction has the code 'ZZ'.", "Aucun gouvernement n'a le code «\xa0ZZ\xa0»."),
    ("/api/scenarios/999", "No scenario has the id 999.", "Aucun scénario n'a le numéro 999."),
    ("/api/negotiations/nope/concessions", "No negotiation has the slug 'nope'.",
     "Aucune négociation n'a l'identifiant «\xa0nope\xa0»."),
    ("/api/positions?negotiation=nope", "negotiation: no negotiation has the slug 'nope'.",
     "negotiation: aucune négociation n'a l'identifiant «\xa0nope\xa0»."),
    ("/api/statements?jurisdiction=ZZ", "jurisdiction: no jurisdiction has the code 'ZZ'.",
     "jurisdiction: aucun gouvernement n'a le code «\xa0ZZ\xa0»."),
    ("/api/offers?limit=abc", "limit: Input should be a valid integer, unable to parse string as an integer",
     "limit: doit être un nombre entier"),
    ("/api/offers?limit=1.5", "limit: Input should be a valid integer, unable to parse string as an integer",
     "limit: doit être un nombre entier"),
    ("/api/offers?limit=5000", "limit: Input should be less than or equal to 1000", "limit: doit être inférieur ou égal à 1000"),
    ("/api/offers?offset=-1", "offset: Input should be greater than or equal to 0", "offset: doit être supérieur ou égal à 0"),
    ("/api/offers/budget-2013/fiscal-effect?participation=abc", "participation: Input should be a valid decimal",
     "participation: doit être un nombre"),
    ("/api/offers/budget-2013/fiscal-effect?participation=NaN", "participation: Input should be a finite number",
     "participation: doit être un nombre fini"),
    ("/api/offers/budget-2013/fiscal-effect?participation=2", "participation: Input should be less than or equal to 1",
     "participation: doit être inférieur ou égal à 1"),
    ("/api/offers/budget-2013/fiscal-effect?fiscal_year=abc", "fiscal_year: must be a fiscal year written like 2017-18",
     "fiscal_year: doit être un exercice financier écrit comme 2017-18"),
    ("/api/offers/budget-2013/fiscal-effect?fiscal_year=2099-01", "fiscal_year: '2099-01' does not span two consecutive years",
     "fiscal_year: «\xa02099-01\xa0» ne couvre pas deux années consécutives"),
    ("/api/offers/budget-2013/fiscal-effect?fiscal_year=0000-01",
     "fiscal_year: '0000-01' is not a year of the record: from 1900-01 to 2100-01",
     "fiscal_year: «\xa00000-01\xa0» n'est pas une année du dossier\xa0: de 1900-01 à 2100-01"),
    ("/api/offers?tabled_by=Ontario", "tabled_by: must be a jurisdiction code such as ON",
     "tabled_by: doit être un code de gouvernement comme ON"),
    ("/api/offers?negotiation=a%20b", "negotiation: must be a slug such as canada-job-grant (letters, digits, hyphens and "
     "underscores)", "negotiation: doit être un identifiant comme canada-job-grant (lettres, chiffres, traits d'union et "
     "soulignés)"),
    ("/api/offers?status=bogus", "status: Input should be 'tabled', 'superseded', 'rejected', 'accepted' or 'withdrawn'",
     "status: doit être 'tabled', 'superseded', 'rejected', 'accepted' ou 'withdrawn'"),
    ("/api/statements?speaker=", "speaker: String should have at least 1 character",
     "speaker: doit compter au moins 1 caractère"),
    ("/api/statements?speaker=" + "x" * 151, "speaker: String should have at most 150 characters",
     "speaker: doit compter au plus 150 caractères"),
    ("/api/offers?negotiation=a%00b", "negotiation: must not contain control characters (such as NUL)",
     "negotiation: ne doit contenir aucun caractère de commande (comme NUL)"),
    ("/api/offers/a%00b", "Nothing at '/api/offers/a\\x00b': an address has no control characters.",
     "Rien à l'adresse '/api/offers/a\\x00b'\xa0: une adresse ne contient aucun caractère de commande."),
    ("/api/nothing-here", "No endpoint at /api/nothing-here; the endpoints are listed at /api/openapi.json.",
     "Rien à l'adresse /api/nothing-here; les adresses de l'API sont énumérées dans /api/openapi.json."),
]


@pytest.mark.parametrize(("address", "english", "french"), API_ERRORS)
def test_the_api_s_errors_answer_in_the_language_asked_for(client, cjg, address, english, french):
    # Every "detail" was English whatever Accept-Language asked for; the parameter it names, and ninja's "errors"
    # list (for programs), stay as they are.
    answer = client.get(address)
    in_french = client.get(address, HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == in_french.status_code and answer.status_code in (404, 422)
    assert answer.json()["detail"] == english
    assert in_french.json()["detail"] == french
    assert answer.json().get("errors") == in_french.json().get("errors")
    assert (in_french["Content-Language"], answer["Content-Language"]) == ("fr", "en")
    assert "Accept-Language" in in_french["Vary"]


def test_health_check_and_admin(admin_client, cjg):
    assert admin_client.get("/healthz").status_code == 200
    html = admin_client.get("/fr/admin/").content.decode()
    assert _html_lang(html) == "fr" and "Administration" in html
    form = admin_client.get("/fr/admin/negotiations/offer/add/").content.decode()
    assert 'name="title_en"' in form and 'name="title_fr"' in form
    assert _html_lang(admin_client.get("/admin/").content.decode()) == "en"


def test_url_names_still_reverse_to_the_english_addresses():
    from django.urls import reverse
    from django.utils import translation

    assert reverse("negotiations:jurisdiction", args=["QC"]) == "/jurisdictions/QC/"
    with translation.override("fr"):
        assert reverse("negotiations:jurisdiction", args=["QC"]) == "/fr/jurisdictions/QC/"
    assert reverse("healthz") == "/healthz"


def test_the_term_basis_notes_are_french_on_french_pages(client, cjg):
    french = client.get("/fr/offers/federal-nov-2013/").content.decode()
    english = client.get("/offers/federal-nov-2013/").content.decode()
    assert "Interprété comme 15 pour cent de la subvention maximale." in french
    assert "Read as 15 per cent of the maximum grant." not in french
    assert "Read as 15 per cent of the maximum grant." in english


def test_what_changed_names_the_sources_in_the_readers_language(client, cjg):
    french = html.unescape(client.get("/fr/offers/federal-dec-2013/").content.decode())
    assert "Les détails de l'offre fédérale de décembre sont connus" in french
    assert "Details of Ottawa's December offer come out" not in french
    english = html.unescape(client.get("/offers/federal-dec-2013/").content.decode())
    assert "Details of Ottawa's December offer come out" in english


def test_passages_quoted_from_a_source_are_marked_with_its_language(client, cjg):
    from negotiations.models import Source

    french = client.get("/fr/offers/federal-dec-2013/").content.decode()
    passages = re.findall(r'<blockquote class="passage small"( lang="\w+")?>', french)
    assert passages and all(mark == ' lang="en"' for mark in passages)
    # A source written in French marks its passages as French.
    Source.objects.filter(slug="cp-2013-11-08-toronto-ministers-meeting").update(language="fr")
    page = client.get("/fr/negotiations/canada-job-grant/stances/QC/2013-11").content.decode()
    assert '<q class="passage" lang="fr">' in page


def test_the_statements_to_choose_from_are_marked_with_their_quotes_language(client, cjg):
    from django.contrib.auth.models import Group

    from tests.factories import UserFactory

    editor = UserFactory()
    editor.groups.add(Group.objects.get(name="Editor"))
    client.force_login(editor)
    page = client.get("/fr/positions/new").content.decode()
    boxes = re.search(r'<div id="id_evidence" class="choice-list">(.*?)</div>', page, re.S).group(1)
    labels = re.findall(r'<label for="id_evidence_\d+"><input [^>]*> (<span lang="\w+">)', boxes)
    assert labels and all(label == '<span lang="en">' for label in labels)


def test_a_page_not_found_still_has_its_language_toggle(client, cjg):
    # No URL pattern answered, so there is no page to reverse in the other language (config.i18n):
    # the frame keeps the address as it is rather than failing.
    for address, other in (("/no-such-page/?a=1", "fr"), ("/fr/no-such-page/", "en")):
        response = client.get(address)
        assert response.status_code == 404
        html = response.content.decode()
        assert _toggle(html) == (address, other)
        assert _alternates(html)["fr"] == f"http://testserver{address}".replace("&", "&amp;")


def test_every_model_is_named_in_both_languages(client, cjg, logged_in_superuser):
    # The admin named seven of the record's models in English on its French pages ("Statements", "Sélectionnez
    # l'objet statement à changer") and made French plurals by adding an "s" ("passage à l'appuis").
    from django.apps import apps
    from django.utils import translation

    ours = [model for model in apps.get_models() if model._meta.app_label in ("negotiations", "grants", "alerts")
            and not model.__name__.startswith("Historical")]
    from django.utils.functional import Promise

    for model in ours:
        named = model._meta.original_attrs
        assert "verbose_name" in named and "verbose_name_plural" in named, model.__name__
    # Each field too: the French admin headed the alert events' columns "NEGOTIATION", "JURISDICTION".
    unnamed = [f"{model.__name__}.{field.name}" for model in ours for field in model._meta.get_fields()
               if hasattr(field, "verbose_name") and not field.auto_created and not isinstance(field.verbose_name, Promise)]
    assert unnamed == []
    with translation.override("fr"):
        assert {str(model._meta.verbose_name_plural) for model in ours} >= {
            "déclarations", "réunions", "offres", "administrations", "passages à l'appui", "scénarios"}
    page = html.unescape(client.get("/fr/admin/").content.decode())
    for name in ("Déclarations", "Réunions", "Offres", "Administrations", "Négociations", "Enveloppes de programme"):
        assert f">{name}<" in page, name
    for name in ("Statements", "Meetings", "Offers", "Jurisdictions", "Negotiations", "Program envelopes"):
        assert f">{name}<" not in page, name


@pytest.mark.parametrize("address, headings, not_headings", [
    ("/admin/negotiations/statement/", ["By government spoken for"], ["By on behalf of"]),
    ("/fr/admin/negotiations/statement/", ["Par gouvernement représenté"], ["Par au nom de"]),
    ("/admin/negotiations/offer/", ["By tabling government", "By program the scale comes from",
                                    "By liability for an employer shortfall"], ["By tabled by", "By scale drawn from"]),
    ("/fr/admin/negotiations/offer/", ["Par gouvernement qui l'a déposée", "Par programme d'où vient l'ampleur"],
     ["Par déposée par", "Par ampleur prélevée sur"]),
])
def test_admin_filters_are_headed_in_words(client, cjg, logged_in_superuser, address, headings, not_headings):
    # Django heads a filter "By <the field's name>": "By on behalf of", "Par au nom de", "By tabled by".
    page = " ".join(html.unescape(client.get(address).content.decode()).split())
    for heading in headings:
        assert heading in page
    for heading in not_headings:
        assert heading not in page
    # the filter is still the field's own: choosing a government narrows the list
    assert "?jurisdiction__id__exact=" in page or "?tabled_by__id__exact=" in page


def test_the_project_s_words_do_not_replace_the_admin_s(client, cjg, logged_in_superuser):
    # The project's "Change" (the preview's column: « Écart ») stood for Django's own in the French admin, whose
    # every row read "Ajouter | Écart"; its "Search" and "Filter" made the admin's button « Recherche ».
    index = html.unescape(client.get("/fr/admin/").content.decode())
    assert ">Modification<" in index and "Écart" not in index
    statements = html.unescape(client.get("/fr/admin/negotiations/statement/").content.decode())
    assert 'value="Rechercher"' in statements and "Filtre" in statements
    search = html.unescape(client.get("/fr/search/?q=Ottawa").content.decode())
    assert ">Rechercher</button>" in search and ">Recherche</a>" in search


def test_french_column_headings(client, cjg, logged_in_superuser):
    # /fr/jurisdictions/ headed its two name columns "Nom" and "Name"; the admin's history table "Changes".
    jurisdictions = html.unescape(client.get("/fr/jurisdictions/").content.decode())
    assert ">Nom en anglais</th>" in jurisdictions and ">Name</th>" not in jurisdictions
    assert ">Name in French</th>" in client.get("/jurisdictions/").content.decode()
    from negotiations.models import Offer

    history = html.unescape(client.get(f"/fr/admin/negotiations/offer/{Offer.objects.first().pk}/history/").content.decode())
    assert ">Modifications</th>" in history and ">Changes</th>" not in history


def test_french_never_puts_a_bare_name_after_a_preposition(client, cjg):
    # A government's name or a negotiation's title put in a French sentence lost its article: "pour Québec",
    # "à Ontario", "Position actuelle sur Subvention canadienne…", "Déposée par Gouvernement du Canada",
    # "· à Ottawa transmet en privé…" (a meeting's title after "at").
    def seen(address):  # (str.split() would take the no-break spaces for spaces)
        return re.sub(r"[ \t\n]+", " ", html.unescape(client.get(address).content.decode()))

    quebec = seen("/fr/jurisdictions/QC/")
    assert "Québec\xa0: ce que chaque offre signifierait" in quebec
    assert "pour Québec" not in quebec and "sur Subvention" not in quebec
    offer = seen("/fr/offers/federal-dec-2013/")
    assert "Déposée par\xa0:" in offer and "lors de la réunion\xa0:" in offer
    assert "· à " not in offer
    # The same words on the fiscal page, the timeline, the home page and the brief.
    for address in ("/fr/offers/federal-dec-2013/fiscal/", "/fr/jurisdictions/ON/?kind=offer",
                    "/fr/", "/fr/negotiations/canada-job-grant/briefing"):
        page = seen(address)
        assert re.search(r"[Dd]éposée par\xa0: ", page), address
        assert not re.search(r"[Dd]éposée par [^:\xa0]", page), address


def test_a_citation_gives_the_title_as_published_between_the_page_s_marks(client, cjg):
    # The French citation gave the title's French translation between English marks, as if the article bore it,
    # and a space before its last point ("15 janvier 2014 .").
    french = html.unescape(client.get("/fr/sources/cbc-2014-01-15-december-offer/").content.decode())
    citation = french.split('class="source-citation small">', 1)[1].split("</p>", 1)[0]
    assert ("CBC News, <span lang=\"en\">«\xa0Details of Ottawa's December offer come out: no more provincial matching\xa0»"
            '</span>, <time datetime="2014-01-15">15 janvier 2014</time>.') in citation
    english = html.unescape(client.get("/sources/cbc-2014-01-15-december-offer/").content.decode())
    assert "“Details of Ottawa's December offer come out: no more provincial matching”</span>, " in english
    assert "January 15, 2014</time>." in english


def test_the_stance_matrix_names_its_months_apart(client, cjg):
    # French headed June and July both "jui 2013" (Django's three-letter months); English "Jun", "Jul".
    french = html.unescape(client.get("/fr/negotiations/canada-job-grant/stances").content.decode())
    assert ">juin 2013</time>" in french and ">juill. 2013</time>" in french and ">jui 2013<" not in french
    # and as the OQLF abbreviates them (Django's French wrote "jan." and "fév.").
    assert ">janv. 2014</time>" in french and ">févr. 2014</time>" in french
    english = html.unescape(client.get("/negotiations/canada-job-grant/stances").content.decode())
    assert ">June 2013</time>" in english and ">July 2013</time>" in english


def test_the_admin_names_rows_in_the_reader_s_language(client, cjg, logged_in_superuser):
    # The French admin named a position "CA appuie as of 21 mars 2013", a source row "gouvernement fédéral: 5000.00
    # from LMA", a phase-in step "2014-15: 0.150" and a basis row by its path ("employer_min_share: supposée").
    from django.utils import translation

    from negotiations.models import FundingSource, PhaseInStep, Position, TermBasis

    with translation.override("fr"):
        position = str(Position.objects.get(jurisdiction__code="CA", as_of="2013-03-21"))
        assert position == "CA appuie au 21 mars 2013"
        source = str(FundingSource.objects.filter(program="LMA", amount=5000).first())
        assert source.endswith("\xa0: 5\xa0000\xa0$ (Ententes sur le marché du travail)")
        step = str(PhaseInStep.objects.first())
        assert "\xa0: " in step and step.endswith("\xa0%")
        basis = TermBasis.objects.filter(term="employer_min_share").first()
        if basis is not None:
            assert "employer_min_share" not in str(basis)


@pytest.mark.parametrize("address, words", [
    ("/admin/negotiations/statement/add/", "not a translation"),
    ("/fr/admin/negotiations/statement/add/", "pas une traduction"),
])
def test_the_admin_names_the_language_spoken_blank_choice(client, cjg, logged_in_superuser, address, words):
    # The admin offered "---------" for a quote that is not a translation, where the site's forms said so in words.
    page = html.unescape(client.get(address).content.decode())
    select = page[page.index('name="original_language"'):]
    select = select[:select.index("</select>")]
    assert f'<option value="" selected>{words}</option>' in select
    assert "---------" not in select


def test_a_change_of_stance_quotes_the_stances_in_french(client, cjg):
    # « Passée de se retire à conditionnelle » read as a sentence about leaving; the stances are named, in quotes.
    page = html.unescape(client.get("/fr/jurisdictions/QC/").content.decode())
    assert "Passée de «\u00a0" in page and "Passée de se retire" not in page


def test_text_in_the_other_language_is_marked_for_screen_readers(client, cjg):
    from negotiations.models import Source

    source = Source.objects.get(slug="cbc-2014-01-15-december-offer")
    page = html.unescape(client.get(f"/fr/sources/{source.slug}/").content.decode())
    # The citation gives the title as published, in English: marked so, inside the French page.
    assert f'<span lang="en">«\xa0{source.title_en}\xa0»</span>' in page
    assert "<h1>" + source.title_fr + "</h1>" in page  # the French title is the page's language
    Source.objects.filter(pk=source.pk).update(title_fr="")
    page = html.unescape(client.get(f"/fr/sources/{source.slug}/").content.decode())
    assert f'<h1 lang="en">{source.title_en}</h1>' in page  # no French yet: the English title, said to be English
