"""Data for the offer tests: the 13 real provinces and territories, Ottawa, the LMA, Budget 2013, and users.

Used by tests/integration/test_offer_*.py, test_preview.py and tests/browser/test_offer_browser.py; the preview's
address and its national column (PREVIEW_URL, national) by test_preview.py and test_daily_money.py.
"""

import datetime
import re
from decimal import Decimal

from django.contrib.auth.models import Permission

from tests.factories import (
    JurisdictionFactory,
    NegotiationFactory,
    OfferFactory,
    ProgramEnvelopeFactory,
    UserFactory,
)
from tests.shared import CANADA_POPULATION, PT_CODES, PTS

PREVIEW_URL = "/grants/preview"  # the live fiscal preview (grants:preview), which the offer form posts to


def make_reference():
    """Ottawa, the 13 P/Ts with their real populations, and the LMA and LMDA envelopes."""
    JurisdictionFactory(code="CA", name_en="Government of Canada", kind="federal", order=0, population=CANADA_POPULATION)
    for order, (code, name, kind, population) in enumerate(PTS, start=1):
        JurisdictionFactory(code=code, name_en=name, kind=kind, order=order, population=population)
    ProgramEnvelopeFactory(program="LMA", annual_amount=Decimal("500000000"))
    ProgramEnvelopeFactory(program="LMDA", name_en="Labour Market Development Agreements",
                           annual_amount=Decimal("1950000000"))


def make_budget_2013():
    """Budget 2013, tabled by Ottawa: 5,000 each from Ottawa (LMA), the P/T (own revenue), the employer."""
    from negotiations.models import Jurisdiction

    return OfferFactory(
        negotiation=NegotiationFactory(slug="canada-job-grant", title="Canada Job Grant"),
        slug="budget-2013", title="Budget 2013", tabled_on=datetime.date(2013, 3, 21),
        funding=[("federal", "LMA", 5000), ("provincial", "PT_OWN", 5000)],
        tabled_by=[Jurisdiction.objects.get(code="CA")],
    )


def user_with(*codenames, username):
    user = UserFactory(username=username)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="negotiations", codename__in=codenames)
    )
    return user


def offer_post(**overrides) -> dict:
    """A valid post of the offer form: Budget 2013's terms, as a new federal offer."""
    data = {
        "title": "Federal offer, December 2013",
        "slug": "",
        "negotiation": "canada-job-grant",
        "tabled_by": ["CA"],
        "tabled_on": "2013-12-24",
        "date_precision": "day",
        "status": "tabled",
        "responds_to": "",
        "meeting": "",
        "summary": "",
        "max_grant": "15000",
        "federal_amount": "5000",
        "provincial_amount": "5000",
        "employer_amount": "5000",
        "federal_LMA": "5000",
        "federal_LMDA": "",
        "federal_CJF": "",
        "federal_FEDERAL_NEW": "",
        "provincial_LMA": "",
        "provincial_LMDA": "",
        "provincial_CJF": "",
        "provincial_PT_OWN": "5000",
        "scale_program": "LMA",
        "scale_amount": "300000000",
        "employer_min_share": "",
        "small_employer_gap_payer": "",
        "shortfall_liability": "none",
        "assumptions": "",
        **{f"treatment_{code}": "participates" for code in PT_CODES},
        **{f"phase_in_year_{row}": "" for row in range(5)},
        **{f"phase_in_fraction_{row}": "" for row in range(5)},
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


# The December 2013 federal offer's terms, as form fields.
DECEMBER_TERMS = {
    "federal_amount": "10000", "provincial_amount": "0", "employer_amount": "5000",
    "federal_LMA": "5000", "federal_LMDA": "5000", "provincial_PT_OWN": "", "shortfall_liability": "province",
}


def national(response) -> dict[str, str]:
    """The national column of the preview: line name -> the figure shown."""
    html = response.content.decode()
    return dict(re.findall(r'<tr data-line="(\w+)"[^>]*>\s*<th scope="row">[^<]*</th>\s*<td class="num">([^<]*)</td>',
                           html))
