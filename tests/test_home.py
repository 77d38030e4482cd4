import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories.scoring import UserFactory


@pytest.mark.django_db
def test_home_page_says_what_the_app_is(client):
    """The start page names the game and lists the variants the engine scores."""
    response = client.get(reverse("home"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "All Fours" in body
    assert "Trinidad" in body and "West Yorkshire" in body


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy(client):
    """Every page forbids scripts and styles from anywhere but our own origin."""
    response = client.get(reverse("home"))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "default-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy, "a style or script the pages need goes in static/"


#: An inline style (element or attribute), or a script written in the page.
INLINE = r'<style\b|\sstyle\s*=|<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>'


def test_no_template_writes_an_inline_style_or_script():
    """What the policy refuses is not written: no ``style=""`` attribute, no ``<style>``, no
    ``<script>`` without a ``src`` (but data: ``type="application/json"``); and htmx is told
    not to add its request indicator's ``<style>`` (no page shows one)."""
    templates = Path(settings.BASE_DIR) / "templates"
    found = []
    for path in sorted(templates.rglob("*.html")):
        # Comments and the template tags themselves (a tag's argument ``style=league.style``
        # is not an attribute) are not the page's HTML.
        text = re.sub(
            r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}|\{%.*?%\}",
            "",
            path.read_text(),
            flags=re.S,
        )
        for match in re.finditer(INLINE, text):
            found.append(f"{path.relative_to(templates)}: {match.group(0)}")
    assert found == []
    base = (templates / "base.html").read_text()
    # htmx adds no indicator <style>, and settles no style attribute (an empty one it set
    # after an undo was refused by the policy: some 28 console errors).
    config = json.loads(re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", base)[1])
    assert config["includeIndicatorStyles"] is False
    assert config["attributesToSettle"] == ["class", "width", "height"]


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_site_icon(client):
    """A browser asks for /favicon.ico on a page naming no icon: it gets the site's, no 404."""
    from django.contrib.staticfiles import finders
    from django.templatetags.static import static

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("site/favicon.svg")
    assert finders.find("site/favicon.svg")


def test_robots_txt_opens_the_public_pages_and_closes_the_private_ones(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    rules = [line.split(": ", 1) for line in response.content.decode().splitlines() if ": " in line]
    assert ["User-agent", "*"] in rules
    closed = {path for field, path in rules if field == "Disallow"}
    assert {"/admin/", "/accounts/", "/games/", "/notices/", "/leagues/*/manage/"} <= closed
    assert ["Allow", "/"] in rules


@pytest.mark.django_db
def test_pages_carry_a_description_and_a_home_screen_icon(client):
    """Search results and shared links read the description; iOS's home screen the icon."""
    import re

    from django.contrib.staticfiles import finders
    from django.templatetags.static import static

    from tests.factories.leagues import LeagueFactory

    league = LeagueFactory(name="Spen Valley League")
    for url, says in (
        (reverse("home"), "All Fours"),
        (league.get_absolute_url(), "Spen Valley League: All Fours league tables"),
    ):
        page = client.get(url).content.decode()
        description = re.search(r'<meta name="description" content="([^"]+)">', page)
        assert description and says in description.group(1), url
        icon = static("scoring/offline/apple-touch-icon.png")
        assert f'<link rel="apple-touch-icon" href="{icon}">' in page
    assert finders.find("scoring/offline/apple-touch-icon.png")
    assert client.get("/apple-touch-icon.png")["Location"] == icon


@pytest.mark.django_db
def test_the_start_pages_buttons_each_lead_somewhere_of_their_own(client):
    """Two pairs of buttons led to the same two places ("Start a game" and "Score a game",
    "Recent games" and "Games in play"): the league paragraph's lead to the leagues."""
    body = client.get(reverse("home")).content.decode()
    buttons = re.findall(r'<a class="button[^"]*" href="([^"]+)">([^<]+)</a>', body)
    targets = [href for href, _ in buttons]
    assert len(targets) == len(set(targets)) == 4
    assert (reverse("leagues:league_list"), "Find your league") in buttons
    assert (reverse("signup"), "Start a league") in buttons


@pytest.mark.django_db
def test_start_a_league_leads_a_newcomer_to_sign_up_and_one_logged_in_to_the_league_form(client):
    """The "Start a league" button led someone with no account to the log-in page, which
    named sign-up in its last line: it leads them to sign up, and someone logged in to the
    league's form."""
    start = re.compile(r'<a class="button" href="([^"]+)">Start a league</a>')
    assert start.findall(client.get(reverse("home")).content.decode()) == [reverse("signup")]
    client.force_login(UserFactory())
    assert start.findall(client.get(reverse("home")).content.decode()) == [
        reverse("leagues:manage_league_create")
    ]
