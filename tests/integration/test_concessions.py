"""Concessions round by round on the negotiation page and in the API, from the Canada Job Grant data set."""




def test_the_api_gives_each_term_offer_by_offer_and_the_distance(client, cjg):
    body = client.get("/api/negotiations/canada-job-grant/concessions").json()
    provincial = next(t for t in body["terms"] if t["term"] == "split.provincial")
    assert [(r["offer"], r["party"], r["value"]) for r in provincial["rounds"]] == [
        ("budget-2013", "federal", "5000.00"), ("federal-nov-2013", "federal", "5000.00"),
        ("federal-dec-2013", "federal", "0.00"), ("pt-counter-jan-2014", "provinces", "0.00"),
    ]
    distance = body["distance"]
    assert (distance["federal_offer"], distance["provinces_offer"]) == ("federal-dec-2013", "pt-counter-jan-2014")
    gaps = {g["term"]: (g["federal"], g["provinces"]) for g in distance["terms"]}
    assert gaps["shortfall_liability"] == ("province", "none")
    assert gaps["treatments.QC"] == ("participates", "opts_out_compensated")
    # December diverts $300M from the LMA; the counter-proposal $2,500 a trainee of it, none in Quebec (out).
    assert distance["national"]["provinces_need_federal_offer"] == "300000000.00"
    own = distance["national"]["provinces_need_own_offer"]
    assert distance["national"]["more_to_find"] == f"{300_000_000 - float(own):.2f}" == "184795000.00"
    quebec = next(j for j in distance["by_jurisdiction"] if j["code"] == "QC")
    assert quebec["provinces_need_own_offer"] == "0.00"  # out with compensation under its own proposal
    assert client.get("/api/negotiations/nowhere/concessions").status_code == 404


def test_the_negotiation_page_shows_the_rounds_the_moves_and_the_gap(client, cjg):
    html = client.get("/negotiations/canada-job-grant/").content.decode()
    assert 'data-term="split.provincial"' in html and 'canvas data-steps="steps-' in html
    assert 'data-term="split.provincial" data-kind="conceded"' in html
    assert 'data-term="shortfall_liability" data-kind="hardened"' in html
    assert 'hx-get="/negotiations/canada-job-grant/distance"' in html
    assert '<a href="/negotiations/canada-job-grant/briefing">Briefing to print</a>' in html  # it had no way to the brief
    # shares as percentages and the phase-in in words ("0.15", "2014-15 → 2017-18: 0.25 → 1" before)
    assert "25% in 2014-15 to 100% in 2017-18" in html and "0.25" not in html
    region = client.get("/negotiations/canada-job-grant/distance").content.decode()
    assert 'data-code="ON"' in region and "$184,795,000" in region
    assert client.get("/negotiations/nowhere/").status_code == 404


def test_the_comparison_goes_year_by_year_with_one_year_selector(client, cjg):
    html = client.get("/compare/", {"a": "federal-nov-2013", "b": "pt-counter-jan-2014"}).content.decode()
    assert 'id="compare-years"' in html
    for year in ("2014-15", "2015-16", "2016-17", "2017-18", "2018-19"):
        assert f'data-year="{year}"' in html
    assert 'data-year="total"' in html
    assert '<select name="fiscal_year"' in html
    html = client.get("/compare/", {"a": "federal-nov-2013", "b": "pt-counter-jan-2014",
                                    "fiscal_year": "2014-15"}).content.decode()
    assert '<option value="2014-15" selected>' in html
    response = client.get("/compare/", {"a": "budget-2013", "b": "federal-dec-2013", "fiscal_year": "soon"})
    assert response.status_code == 400 and 'aria-invalid="true"' in response.content.decode()
    # The fiscal page uses the same selector.
    fiscal = client.get("/offers/federal-nov-2013/fiscal/").content.decode()
    assert 'aria-describedby="fiscal-year-help fiscal_year-error"' in fiscal and '<option value="2017-18"' in fiscal


def test_a_step_chart_stops_ottawa_s_line_where_its_offer_drops_a_term(client, cjg):
    # December's offer has no employer minimum share: the chart drew Ottawa's 15 % carried on through December.
    import json
    import re

    html = client.get("/negotiations/canada-job-grant/").content.decode()
    figure = html.split('<figure data-term="employer_min_share">', 1)[1].split("</figure>", 1)[0]
    data = json.loads(re.search(r'<script id="steps-\d+" type="application/json">(.*?)</script>', figure, re.S).group(1))
    ottawa = next(series["values"] for series in data["series"] if series["key"] == "federal")
    provinces = next(series["values"] for series in data["series"] if series["key"] == "provinces")
    assert data["labels"] == ["March 21, 2013", "November 8, 2013", "December 24, 2013", "February 4, 2014"]
    assert ottawa == [None, "0.150", None, None]  # none in Budget 2013; 15 % in November; none again in December
    assert provinces == [None, None, None, "0.150"]
    # A side's value is carried forward to the other side's offers, from its own latest offer.
    figure = html.split('<figure data-term="split.federal">', 1)[1].split("</figure>", 1)[0]
    data = json.loads(re.search(r'<script id="steps-\d+" type="application/json">(.*?)</script>', figure, re.S).group(1))
    ottawa = next(series["values"] for series in data["series"] if series["key"] == "federal")
    assert ottawa[-1] == ottawa[-2] is not None  # December's, at the provinces' February offer


def test_a_withdrawn_offer_is_no_round_and_no_side_s_latest(client, cjg):
    # Withdrawing the P/Ts' counter-proposal left it the provinces' latest offer: the gap, and what each P/T must
    # find, were reckoned against an offer no longer on the table.
    import datetime

    from negotiations.models import Offer
    from negotiations.services.offers import offer_withdraw

    offer_withdraw(actor=None, offer=Offer.objects.get(slug="pt-counter-jan-2014"), reason="Tabled in error.",
                   withdrawn_on=datetime.date(2014, 2, 10))
    body = client.get("/api/negotiations/canada-job-grant/concessions").json()
    provincial = next(t for t in body["terms"] if t["term"] == "split.provincial")
    assert "pt-counter-jan-2014" not in [r["offer"] for r in provincial["rounds"]]
    assert body["distance"]["provinces_offer"] is None  # the P/Ts have no offer on the table
    html = client.get("/negotiations/canada-job-grant/").content.decode()
    assert 'data-term="split.provincial" data-kind="conceded"' not in html  # December's move was towards it
    # A P/T's page still lists it, marked
    region = client.get("/jurisdictions/ON/offers").content.decode()
    row = region.split('data-offer="pt-counter-jan-2014"')[1].split("</tr>")[0]
    assert '<strong class="withdrawn-mark">withdrawn</strong>' in row
    assert "withdrawn-mark" not in region.split('data-offer="federal-dec-2013"')[1].split("</tr>")[0]


def test_a_share_is_written_as_the_offer_itself_gives_it(client, cjg):
    # The concessions wrote the counter-proposal's phase-in "0.1250", "1.0000" (and a scenario its employer minimum
    # "0.150") where /api/offers gives "0.125" and "1.0": a client comparing them saw a change where there was none.
    body = client.get("/api/negotiations/canada-job-grant/concessions").json()
    shares = [(t["term"], r["offer"], r["value"]) for t in body["terms"] for r in t["rounds"]
              if t["term"] in ("phase_in", "employer_min_share") and r["value"] is not None]
    assert shares, "the data set's counter-proposal has a phase-in"
    for term, slug, value in shares:
        assert value == client.get(f"/api/offers/{slug}").json()["terms"][term], (term, slug)
    phase_in = next(v for t, s, v in shares if t == "phase_in" and s == "pt-counter-jan-2014")
    assert "0.125" in [step["fraction"] for step in phase_in]
