"""The API's browsable docs in headless Chromium: they load from our own files under the site's
Content-Security-Policy and a reader can try an endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.factories.leagues import LeagueFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reader_opens_the_docs_and_tries_the_leagues_endpoint(
    live_server: Any, phone: Page
) -> None:
    LeagueFactory(name="Heckmondwike & District")
    problems: list[str] = []
    phone.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    phone.on("requestfailed", lambda r: problems.append(r.url))
    outside: list[str] = []
    phone.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None,
    )
    phone.set_viewport_size({"width": 1200, "height": 900})
    phone.goto(live_server.url + "/api/docs")
    operation = phone.locator("#operations-leagues-listLeagues")
    expect(operation).to_be_visible()
    operation.locator(".opblock-summary").click()
    phone.get_by_role("button", name="Try it out").click()
    phone.get_by_role("button", name="Execute").click()
    status = phone.locator(".live-responses-table tbody .response-col_status").first
    expect(status).to_have_text("200")
    expect(phone.locator(".live-responses-table")).to_contain_text("Heckmondwike & District")
    assert outside == []
    assert problems == []
