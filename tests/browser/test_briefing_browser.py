"""The briefing's bad input in a real browser: an unknown negotiation is said next to its select, on a desktop and
a phone, and choosing one from the list shows its brief."""

import re

from playwright.sync_api import expect


def test_an_unknown_negotiation_is_said_next_to_its_select_and_the_default_brief_shown(
        page_at, live_server, cjg_data, screenshot):
    for width in (1280, 390):
        page = page_at(width)
        # "?negotiation=nope" answered the 404 page.
        response = page.goto(f"{live_server.url}/jurisdictions/ON/briefing?negotiation=nope&since=2014-01-01")
        assert response.status == 200
        select = page.get_by_label("Negotiation")
        expect(select).to_have_attribute("aria-invalid", "true")
        error = page.locator("#negotiation-error")
        expect(error).to_have_text(re.compile("There is no negotiation “nope”. Pick one from the list."))
        expect(select).to_have_attribute("aria-describedby", "negotiation-error")
        expect(select).to_have_value("canada-job-grant")  # the brief shown is the default negotiation's
        expect(page.get_by_role("heading", name="Ontario: Canada Job Grant")).to_be_visible()
        expect(page.locator("#id_since")).to_have_value("2014-01-01")  # the valid date is kept
        # The message sits under the select, before the date field, and nothing runs off a phone's screen.
        select_box, error_box = select.bounding_box(), error.bounding_box()
        since_box = page.locator("#id_since").bounding_box()
        assert select_box["y"] + select_box["height"] <= error_box["y"] + 1 < since_box["y"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        expect(page.locator(".brief-downloads a", has_text="PDF")).to_have_attribute(
            "href", "/jurisdictions/ON/briefing.pdf?since=2014-01-01")
        screenshot(page, f"briefing-unknown-negotiation-{width}")
        # Submitting the form again asks for a negotiation the list has: the message is gone.
        page.get_by_role("button", name="Show").click()
        expect(page).to_have_url(re.compile(r"negotiation=canada-job-grant"))
        expect(page.locator("#negotiation-error")).to_have_count(0)
        expect(page.get_by_label("Negotiation")).not_to_have_attribute("aria-invalid", "true")
