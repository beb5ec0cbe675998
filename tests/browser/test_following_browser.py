"""Following in a real browser: the follow button's htmx region (follow, unfollow, a refused follow), and
the briefing page with its date field, on a desktop and a phone."""

import re

from playwright.sync_api import expect

from alerts.models import Follow


def test_follow_and_unfollow_a_jurisdiction_in_place(page, live_server, cjg_data, editor_login, screenshot):
    editor_login(page)
    page.goto(f"{live_server.url}/jurisdictions/ON/")
    bar = page.locator(".follow-bar")
    expect(bar.get_by_role("link", name="Feed (Atom)")).to_have_attribute("href", "/jurisdictions/ON/feed")
    expect(page.locator(".follow-bar .follow-button[hx-get]")).to_have_count(0)  # htmx has loaded the reader's button
    bar.get_by_role("button", name="Follow by e-mail").click()
    expect(bar).to_contain_text("You follow this (as it happens).")
    assert Follow.objects.filter(user__username="editor", jurisdiction__code="ON").count() == 1
    screenshot(page, "following-jurisdiction")
    page.reload()  # the state is the reader's, loaded over htmx into a cached page
    expect(bar).to_contain_text("You follow this")
    bar.get_by_role("button", name="Unfollow").click()
    expect(bar.get_by_role("button", name="Follow by e-mail")).to_be_visible()
    assert not Follow.objects.filter(user__username="editor").exists()


def test_a_refused_follow_says_why_next_to_the_button(page, live_server, cjg_data, editor_login):
    editor_login(page)
    page.goto(f"{live_server.url}/people/jason-kenney/")
    bar = page.locator(".follow-bar")
    expect(bar.get_by_role("button", name="Follow by e-mail")).to_be_visible()
    expect(page.locator(".follow-bar .follow-button[hx-get]")).to_have_count(0)  # htmx has loaded the reader's button
    # The person is removed from the address (as a stale page would post): the follow is refused.
    page.locator(".follow-bar input[name=key]").evaluate("input => input.value = 'nobody-at-all'")
    bar.get_by_role("button", name="Follow by e-mail").click()
    expect(bar.get_by_role("alert")).to_have_text("No person is recorded under “nobody-at-all”.")
    expect(bar.get_by_role("button", name="Follow by e-mail")).to_be_visible()
    assert not Follow.objects.exists()


def test_the_briefing_page_and_its_bad_date(page, phone_page, live_server, cjg_data, screenshot):
    page.goto(f"{live_server.url}/negotiations/canada-job-grant/briefing")
    expect(page.get_by_role("heading", name="Where each government stands")).to_be_visible()
    expect(page.locator(".brief-downloads a", has_text="PDF")).to_have_attribute("href", re.compile(r"briefing\.pdf"))
    screenshot(page, "briefing-1280")
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()  # the print stylesheet leaves the frame out
    expect(page.locator(".brief-controls")).to_be_hidden()
    # A date that is not one: the message next to the field, and the brief of the default period below it.
    phone_page.goto(f"{live_server.url}/negotiations/canada-job-grant/briefing?since=2014-02-30")
    expect(phone_page.locator("#since-error")).to_have_text(re.compile("Write the date as YYYY-MM-DD"))
    expect(phone_page.locator("#id_since")).to_have_attribute("aria-invalid", "true")
    expect(phone_page.locator("#id_since")).to_have_value("")  # a date input cannot hold 2014-02-30
    expect(phone_page.get_by_role("heading", name="Where each government stands")).to_be_visible()
    phone_page.goto(f"{live_server.url}/jurisdictions/ON/briefing")
    expect(phone_page.get_by_role("heading", name="Where it stands")).to_be_visible()
    screenshot(phone_page, "briefing-390")


def test_on_a_phone_what_one_follows_shows_each_choice_whole(phone_page, live_server, cjg_data, editor_login):
    # At 390 px the two selects, a third of the screen each, showed "as" and "En" ("au fu", "Engli" in French).
    from django.contrib.auth.models import User

    from negotiations.models import Jurisdiction

    Follow.objects.create(user=User.objects.get(username="editor"), jurisdiction=Jurisdiction.objects.get(code="ON"),
                          frequency="immediate", language="fr")
    page = phone_page
    editor_login(page)
    for prefix in ("", "/fr"):
        page.goto(f"{live_server.url}{prefix}/alerts/")
        # Each select is at least as wide as the words of its choice (measured in its own font), and nothing
        # runs off the screen.
        cut = page.evaluate("""() => Array.from(document.querySelectorAll('select[name=frequency], select[name=language]')).filter(select => {
            const style = getComputedStyle(select);
            const context = document.createElement('canvas').getContext('2d');
            context.font = style.font;
            const words = context.measureText(select.selectedOptions[0].text).width;
            const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return words > room + 1;
        }).map(select => select.selectedOptions[0].text)""")
        assert page.locator("select[name=frequency]").count() == 1
        assert cut == [], prefix
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_following_by_keyboard_keeps_the_focus_on_the_button(page, live_server, cjg_data, editor_login):
    # The button is replaced by the answer: the focus fell back to the top of the page, and a keyboard user lost
    # their place. It lands on the new button, which names what it now does.
    editor_login(page)
    page.goto(f"{live_server.url}/jurisdictions/NS/")
    bar = page.locator(".follow-bar")
    expect(page.locator(".follow-bar .follow-button[hx-get]")).to_have_count(0)  # htmx has loaded the reader's button
    bar.get_by_role("button", name="Follow by e-mail").focus()
    page.keyboard.press("Enter")
    expect(bar.get_by_role("button", name="Unfollow")).to_be_focused()
    page.keyboard.press("Enter")
    expect(bar.get_by_role("button", name="Follow by e-mail")).to_be_focused()
