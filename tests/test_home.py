import pytest
from django.urls import reverse


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


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_site_icon(client):
    """A browser asks for /favicon.ico on a page naming no icon: it gets the site's, no 404."""
    from django.contrib.staticfiles import finders
    from django.templatetags.static import static

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("site/favicon.svg")
    assert finders.find("site/favicon.svg")
