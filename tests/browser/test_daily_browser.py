"""Daily use without surprises (issue 16), in a real browser: bad input on every htmx path lands in
its region with the form kept and a message by the field; nothing typed is lost; nothing hides off-screen."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_fiscal_browser import fiscal_data, no_favicon  # noqa: F401 (fixtures)


@pytest.mark.parametrize("typed", ["85", "1.5", "-0.2"])
def test_a_bad_participation_rate_lands_by_the_field_and_keeps_the_page(page, live_server, fiscal_data, typed):
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/federal-dec-2013/fiscal/")
    field = page.locator("input[name=participation]")
    field.fill(typed)
    # The message sits next to the field; the menu, the form and the region are all still there.
    expect(page.locator("#participation-error")).to_contain_text("is not valid")
    expect(page.locator("#participation-error")).to_contain_text("0.85")
    expect(page.locator("#fiscal-results #scenario-error")).to_be_visible()
    expect(page.locator("header.site-header nav")).to_be_visible()
    expect(field).to_have_value(typed)
    expect(field).to_have_attribute("aria-invalid", "true")
    # Correcting it brings the figures back and clears the message.
    field.fill("0.5")
    expect(page.locator("#card-employer_shortfall .figure")).to_be_visible()
    expect(page.locator("#participation-error")).to_have_text("")
    expect(field).not_to_have_attribute("aria-invalid", "true")


def test_explaining_an_unknown_line_keeps_the_page(page, live_server, fiscal_data):
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/budget-2013/fiscal/")
    page.evaluate("htmx.ajax('GET', '/offers/budget-2013/fiscal/explain?line=nonsense', '#explanation')")
    expect(page.locator("#explanation [role=alert]")).to_contain_text("There is no line called")
    expect(page.locator("#fiscal-table")).to_be_visible()


def test_comparing_with_an_unknown_offer_keeps_the_page(page, live_server, fiscal_data):
    no_favicon(page)
    page.goto(f"{live_server.url}/compare/")
    page.evaluate("htmx.ajax('GET', '/compare/?a=budget-2013&b=nope', '#compare-results')")
    expect(page.locator("#compare-error")).to_contain_text("nope")
    expect(page.locator("form.compare-form, #compare-results")).not_to_have_count(0)
    expect(page.locator("header.site-header nav")).to_be_visible()
