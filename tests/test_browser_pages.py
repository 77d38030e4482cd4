"""Every page type, as a player at the bar, a captain and a secretary would meet it: axe-core
(installed from npm by ``make test``, see ``tests/axe/``) finds no serious or critical
violation at 390×844 or at desktop width; no page scrolls sideways at 360 px (nor at 390); every
link or button a thumb needs is at least 44×44 px; the header keeps to one line; forms work
from the keyboard alone, with the focus visible.

Fast by design: one small world per test, one browser context per role, every page loaded once
and measured at each width by resizing; a role's pages are checked in parts of at most
``PART`` pages, which the test workers share out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from playwright.sync_api import Browser, Page

from scoring.actors import Actor

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}
TAP = 44

#: Pages that are not HTML for a person (a download), or only answer a POST (their forms are on
#: the pages covered), or belong to Django's admin and password e-mails.
NOT_PAGES = {
    "admin",
    "logout",
    "password_reset_confirm",
    "scoring:hand_record",
    "scoring:hand_undo",
    "scoring:game_link",
    "scoring:game_replay",
    "scoring:game_again",
    "scoring:sync",
    "cups:tie_manage",
    "cups:tie_result",
    "leagues:manage_team_withdraw",
    "scoring:link_open",
    "leagues:manage_adjustment_withdraw",
    "leagues:manage_table_restart",
    "leagues:fixture_live",
    "leagues:league_live_poll",
    "leagues:manage_invitation",
    "leagues:manage_export",
}
NOT_PAGE_ENDINGS = (".csv", ".ics", ".json", ".xml", ".js", ".webmanifest", ".ico", ".txt", ".png")

#: What a thumb needs: links, buttons, disclosure summaries and the form controls one taps.
TARGETS = (
    "a[href], button, summary, select, input[type=submit], input[type=button],"
    " [role=button], [role=link]"
)

#: Each role's pages, by URL name: the public ones as anyone, a captain's, a secretary's.
PAGES: dict[str, list[str]] = {
    "anonymous": [
        "home",
        "login",
        "password_reset",
        "password_reset_done",
        "password_reset_complete",
        "scoring:game_list",
        "scoring:game_new",
        "scoring:game",
        "scoring:game_audit",
        "scoring:link_open",
        "leagues:league_list",
        "leagues:league",
        "leagues:league_live",
        "leagues:division",
        "leagues:division_fixtures",
        "leagues:division_players",
        "leagues:fixture",
        "leagues:fixture_blank_card",
        "leagues:night_blank_cards",
        "leagues:team",
        "leagues:player",
        "leagues:division_grid",
        "leagues:division_embed",
        "cups:competition",
        "cups:honours",
        "cups:tie",
        "notices:opt_out",
        "signup",
        "signup_confirm",
        "invitation_accept",
    ],
    "captain": [
        "leagues:my_fixtures",
        "leagues:fixture_night",
        "leagues:table_qr",
        "leagues:score_card",
        "leagues:fixture_result",
        "leagues:league",
        "password_change",
        "password_change_done",
        "account",
    ],
    "secretary": [
        "leagues:manage_league_create",
        "leagues:manage_league",
        "leagues:manage_league_audit",
        "leagues:manage_league_edit",
        "leagues:manage_season_create",
        "leagues:manage_season_edit",
        "leagues:manage_division_create",
        "leagues:manage_season_next",
        "leagues:manage_season_rules",
        "leagues:manage_division_edit",
        "leagues:manage_venues",
        "leagues:manage_venue_create",
        "leagues:manage_venue_edit",
        "leagues:manage_team_create",
        "leagues:manage_team",
        "leagues:manage_team_edit",
        "leagues:manage_squad",
        "leagues:manage_captain_account",
        "leagues:manage_register",
        "leagues:manage_secretaries",
        "leagues:manage_import",
        "leagues:manage_fixtures_generate",
        "leagues:manage_adjustments",
        "leagues:manage_fixture_add",
        "leagues:manage_fixture",
        "leagues:manage_fixture_card",
        "leagues:manage_fixture_audit",
        "leagues:manage_fixture_tables",
        "leagues:fixture_result",
        "leagues:division",
        "leagues:fixture",
        "scoring:game_abandon",
        "scoring:hand_correct",
        "leagues:manage_league_embed",
        "cups:create",
        "cups:manage",
        "cups:tie",
        "cups:tie_audit",
    ],
    "operator": ["leagues:league_requests"],
}


@dataclass
class Site:
    url: str
    pages: dict[str, list[tuple[str, str]]]
    """Per role: (URL name, path) of each page to visit."""
    cookies: dict[str, str] = field(default_factory=dict)
    """Per role: the session cookie of its account."""


def _all_page_names() -> set[str]:
    names: set[str] = set()

    def walk(resolver: URLResolver, namespace: str, prefix: str) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = ":".join(filter(None, [namespace, entry.namespace or ""]))
                walk(entry, inner, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern) and entry.name:
                name = f"{namespace}:{entry.name}" if namespace else entry.name
                route = prefix + str(entry.pattern)
                if route.startswith("admin/") or route.endswith(NOT_PAGE_ENDINGS):
                    continue
                if name not in NOT_PAGES and not route.startswith("api/"):
                    names.add(name)

    walk(get_resolver(), "", "")
    return names


def _build(url: str) -> Site:
    from django.contrib.auth.models import Permission

    from leagues.models import PointAdjustment, Venue
    from leagues.services import confirmation
    from tests.factories.leagues import FixtureFactory
    from tests.factories.scoring import GameFactory
    from tests.leagues.test_access import build

    world = build(played=True)
    league, fixture = world.league, world.fixture
    division = fixture.division
    season = division.season
    confirmation.result_submit(fixture=fixture, actor=Actor.of(world.users["home_captain"]))
    later = FixtureFactory(
        division=division, home=fixture.away, away=fixture.home, date=fixture.date.replace(day=28)
    )
    entry = division.entries.first()
    PointAdjustment.objects.create(entry=entry, points=-1, reason="Late start")
    team = entry.team
    player = team.registrations.first().player
    venue = Venue.objects.filter(home_teams__league=league).first()
    game = GameFactory(west_yorkshire=True, hands=2)
    link_game = GameFactory(west_yorkshire=True, hands=1)
    from scoring.services.links import game_link_reissue

    link = game_link_reissue(game=link_game)
    from cups.services.competitions import competition_create, entrant_add_team
    from cups.services.draws import draw_make
    from notices.notices import opt_out_token

    secretary = world.users["secretary"]
    cup = competition_create(league=league, season=season, name="League Cup", by=secretary)
    for entered in division.entries.all():
        entrant_add_team(competition=cup, team=entered.team, by=secretary)
    draw_make(competition=cup, seed=3, by=secretary)
    tie = cup.ties.order_by("pk").first()

    from config.confirmation import confirmation_link
    from leagues.services.invitations import invitation_link, secretary_invite
    from leagues.services.league_requests import league_request_create

    newcomer = get_user_model().objects.create_user("newcomer", "n@example.org", is_active=False)
    signup_token = confirmation_link(newcomer).rstrip("/").rsplit("/", 1)[-1]
    invited = secretary_invite(league=league, email="new@example.org", by=secretary)
    invitation_path = urlsplit(invitation_link(invited)).path
    league_request_create(
        name="Calder Valley", form_data={"name": "Calder Valley"}, by=world.users["stranger"]
    )

    def page(name: str, *args: Any) -> tuple[str, str]:
        return name, reverse(name, args=args)

    public = [
        page("home"),
        page("login"),
        page("password_reset"),
        page("password_reset_done"),
        page("password_reset_complete"),
        page("scoring:game_list"),
        page("scoring:game_new"),
        page("scoring:game", game.pk),
        page("scoring:game_audit", game.pk),
        ("scoring:link_open", link.get_absolute_url()),
        page("leagues:league_list"),
        page("leagues:league", league.slug),
        page("leagues:league_live", league.slug),
        page("leagues:division", division.pk),
        page("leagues:division_fixtures", division.pk),
        page("leagues:division_players", division.pk),
        page("leagues:fixture", fixture.pk),
        page("leagues:fixture_blank_card", later.pk),
        page("leagues:night_blank_cards", league.slug, later.date.isoformat()),
        page("leagues:team", team.pk),
        page("leagues:player", player.pk),
        page("leagues:division_grid", division.pk),
        page("leagues:division_embed", division.pk),
        page("cups:competition", cup.pk),
        page("cups:honours", cup.pk),
        page("cups:tie", tie.pk),
        page("notices:opt_out", opt_out_token(world.users["home_captain"])),
        page("signup"),
        page("signup_confirm", signup_token),
        ("invitation_accept", invitation_path),
    ]
    captain = [
        page("leagues:my_fixtures"),
        page("leagues:fixture_night", later.pk),
        page("leagues:table_qr", fixture.pk, 1),
        page("leagues:score_card", later.pk),
        page("leagues:fixture_result", fixture.pk),
        page("leagues:league", league.slug),
        page("password_change"),
        page("password_change_done"),
        page("account"),
    ]
    secretary = [
        page("leagues:manage_league_create"),
        page("leagues:manage_league", league.slug),
        page("leagues:manage_league_audit", league.slug),
        page("leagues:manage_league_edit", league.slug),
        page("leagues:manage_season_create", league.slug),
        page("leagues:manage_season_edit", league.slug, season.pk),
        page("leagues:manage_division_create", league.slug, season.pk),
        page("leagues:manage_season_next", league.slug, season.pk),
        page("leagues:manage_season_rules", league.slug, season.pk),
        page("leagues:manage_division_edit", league.slug, division.pk),
        page("leagues:manage_venues", league.slug),
        page("leagues:manage_venue_create", league.slug),
        page("leagues:manage_venue_edit", league.slug, venue.pk),
        page("leagues:manage_team_create", league.slug),
        page("leagues:manage_team", league.slug, team.pk),
        page("leagues:manage_team_edit", league.slug, team.pk),
        (
            "leagues:manage_squad",
            reverse("leagues:manage_squad", args=[league.slug, team.pk]) + f"?season={season.pk}",
        ),
        page("leagues:manage_captain_account", league.slug, team.pk),
        page("leagues:manage_register", league.slug),
        page("leagues:manage_secretaries", league.slug),
        page("leagues:manage_import", league.slug),
        page("leagues:manage_fixtures_generate", division.pk),
        page("leagues:manage_adjustments", division.pk),
        page("leagues:manage_fixture_add", division.pk),
        page("leagues:manage_fixture", fixture.pk),
        page("leagues:manage_fixture_card", fixture.pk),
        page("leagues:manage_fixture_audit", fixture.pk),
        page("leagues:manage_fixture_tables", later.pk),
        page("leagues:fixture_result", fixture.pk),
        page("leagues:division", division.pk),
        page("leagues:fixture", fixture.pk),
        page("scoring:game_abandon", world.game().pk),
        page("scoring:hand_correct", world.game().pk, 1),
        page("leagues:manage_league_embed", league.slug),
        page("cups:create", league.slug),
        page("cups:manage", cup.pk),
        page("cups:tie", tie.pk),
        page("cups:tie_audit", tie.pk),
    ]
    operator = [page("leagues:league_requests")]
    cookies = {}
    # This secretary may also start a league (the "New league" page).
    world.users["secretary"].user_permissions.add(Permission.objects.get(codename="add_league"))
    for role, user in (
        ("captain", "away_captain"),
        ("secretary", "secretary"),
        ("operator", "superuser"),
    ):
        client = Client()
        client.force_login(world.users[user])
        cookies[role] = client.cookies["sessionid"].value
    return Site(
        url=url,
        pages={
            "anonymous": public,
            "captain": captain,
            "secretary": secretary,
            "operator": operator,
        },
        cookies=cookies,
    )


def open_role(browser: Browser, site: Site, role: str) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    if role in site.cookies:
        context.add_cookies([{"name": "sessionid", "value": site.cookies[role], "url": site.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def axe_problems(page: Page, axe_source: str) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)
    found = page.evaluate(
        """async () => {
            // Of the rules axe runs by default, only those whose findings are serious or
            // critical (a rule's impact is its own): the others' findings are not looked at.
            const impact = Object.fromEntries(axe._audit.rules.map(r => [r.id, r.impact]));
            const rules = axe.getRules().filter(r => r.enabled)
              .map(r => r.ruleId)
              .filter(id => ['serious', 'critical'].includes(impact[id]));
            if (rules.length < 40) throw new Error(`axe offers only ${rules.length} rules`);
            const result = await axe.run(
              document, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']});
            return result.violations
              .filter(v => v.impact === 'serious' || v.impact === 'critical')
              .map(v => ({id: v.id, impact: v.impact,
                          nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}" for v in found]


SMALL_TARGETS = """(tap) => {
    const targets = %s;
    const small = [];
    for (const el of document.querySelectorAll(targets)) {
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
        // A visually hidden control (a no-JavaScript fallback) is not a thumb's target.
        if (el.closest('.visually-hidden, svg') || (box.width <= 1 && box.height <= 1)) continue;
        if (box.width < tap - 0.5 || box.height < tap - 0.5) {
            const text = (el.innerText || el.value || '').trim().slice(0, 30);
            const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
            small.push(`${el.tagName.toLowerCase()} "${text}" ${size}`);
        }
    }
    return small;
}""".replace("%s", json.dumps(TARGETS))


#: How far the page is wider than the phone's screen. Not against ``window.innerWidth``: on a
#: phone (``is_mobile``) a page wider than the screen widens the layout viewport to fit,
#: zoomed out, so the two are equal and nothing was ever found too wide.
SIDEWAYS = "w => document.documentElement.scrollWidth - w"


def sideways(page: Page) -> int:
    """Pixels the page runs past the right edge of the screen (0 or less: none)."""
    size = page.viewport_size
    assert size is not None
    return int(page.evaluate(SIDEWAYS, size["width"]))


def layout_problems(page: Page, where: str) -> list[str]:
    problems = []
    wide = sideways(page)
    if wide > 0:
        problems.append(f"{where}: scrolls sideways by {wide} px")
    header = page.evaluate(
        """() => { const h = document.querySelector('.site-header');
                   if (!h) return 99;
                   const kids = [...h.querySelectorAll('a, button')].filter(e => e.offsetWidth);
                   const tops = kids.map(e => Math.round(e.getBoundingClientRect().top));
                   return new Set(tops).size; }"""
    )
    if header == 99:
        # The embed page sits inside another site's page: it has no header of its own.
        if "embed" not in where:
            problems.append(f"{where}: not the site's page (no site header)")
    elif header > 1:
        problems.append(f"{where}: the header takes {header} lines")
    problems += [f"{where}: {t}" for t in page.evaluate(SMALL_TARGETS, TAP)]
    # The lists a player reads on a phone, and the audit trail, fit without scrolling even
    # inside their box.
    tables = page.evaluate(
        """() => [...document.querySelectorAll(
                     '.standings, .fixtures, .games, .players, .audit')]
                 .map(t => [t.className, t.parentElement.scrollWidth - t.parentElement.clientWidth])
                 .filter(([_, over]) => over > 0)"""
    )
    problems += [
        f"{where}: the {name} table scrolls sideways by {over} px" for name, over in tables
    ]
    return problems


def check_pages(
    browser: Browser, site: Site, role: str, pages: list[tuple[str, str]], axe_source: str
) -> list[str]:
    page = open_role(browser, site, role)
    problems: list[str] = []
    try:
        for name, path in pages:
            page.set_viewport_size(PHONE)
            response = page.goto(site.url + path)
            if response is None or response.status != 200:
                problems.append(f"{role} {name}: answered {response and response.status}")
                continue
            where = f"{role} {name} ({path})"
            problems += [f"{where} at 390: {p}" for p in axe_problems(page, axe_source)]
            problems += layout_problems(page, f"{where} at 390")
            page.set_viewport_size(NARROW)
            problems += layout_problems(page, f"{where} at 360")
            page.set_viewport_size(DESKTOP)
            problems += [f"{where} at desktop: {p}" for p in axe_problems(page, axe_source)]
            wide = sideways(page)
            if wide > 0:
                problems.append(f"{where} at desktop: scrolls sideways by {wide} px")
    finally:
        page.context.close()
    return problems


#: At most this many pages a test: the parts of a role run side by side on the test workers.
PART = 10
PARTS = [(role, start) for role, names in PAGES.items() for start in range(0, len(names), PART)]


def test_every_page_type_is_covered() -> None:
    """A page added to the app is checked here too: name it in ``PAGES`` and in ``_build``."""
    covered = {name for names in PAGES.values() for name in names}
    assert _all_page_names() - covered == set()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("role", "start"), PARTS, ids=[f"{r}-{s // PART + 1}" for r, s in PARTS])
def test_every_page_type_as_each_role(
    browser: Browser, live_server: Any, role: str, start: int
) -> None:
    """axe-core at 390×844 and at desktop width, no sideways scroll at 390 and 360 px, 44 px
    targets and a one-line header, for each role's pages (a part of them per test)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make test` installs it (npm ci --prefix tests/axe)")
    site = _build(live_server.url)
    assert {who: [name for name, _ in its] for who, its in site.pages.items()} == PAGES
    part = site.pages[role][start : start + PART]
    problems = check_pages(browser, site, role, part, AXE.read_text())
    assert problems == [], "\n".join(problems)


@pytest.mark.django_db(transaction=True)
def test_forms_work_from_the_keyboard_alone(browser: Browser, live_server: Any) -> None:
    """Logging in and adding a venue take Tab, typing and Enter only, the focus always marked."""
    keyboard_only_forms(browser, _build(live_server.url))


def focus_is_visible(page: Page) -> bool:
    return page.evaluate(
        """() => { const el = document.activeElement; if (!el || el === document.body) return false;
                   const s = getComputedStyle(el);
                   return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0)
                          || s.boxShadow !== 'none'; }"""
    )


def keyboard_only_forms(browser: Browser, site: Site) -> None:
    """Log in with Tab, typing and Enter only; then the secretary adds a venue the same way.
    Every stop of the focus is visibly marked."""
    page = open_role(browser, site, "anonymous")
    try:
        login = dict(site.pages["anonymous"])["login"]
        page.goto(site.url + login)
        page.locator(".brand").focus()  # from the top of the page, not the autofocus
        assert focus_is_visible(page)
        page.keyboard.press("Tab")
        stops = 0
        while page.evaluate("document.activeElement.id") != "id_username" and stops < 20:
            assert focus_is_visible(page), page.evaluate("document.activeElement.outerHTML")
            page.keyboard.press("Tab")
            stops += 1
        assert focus_is_visible(page)
        page.keyboard.type("nobody-at-all")
        page.keyboard.press("Tab")
        assert focus_is_visible(page)
        page.keyboard.type("not-the-password")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert re.search(r"(?i)correct username and password|didn.t match", page.content())
    finally:
        page.context.close()

    page = open_role(browser, site, "secretary")
    try:
        venues = dict(site.pages["secretary"])["leagues:manage_venue_create"]
        page.goto(site.url + venues)
        page.locator(".brand").focus()
        page.keyboard.press("Tab")
        stops = 0
        while page.evaluate("document.activeElement.tagName") not in ("INPUT", "TEXTAREA"):
            assert focus_is_visible(page), page.evaluate("document.activeElement.outerHTML")
            page.keyboard.press("Tab")
            stops += 1
            assert stops < 40, "the form's first field is never reached by Tab"
        page.keyboard.type("The Keyboard Arms")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert "The Keyboard Arms" in page.content()
    finally:
        page.context.close()


#: How far the brand's visible name runs into the first link of the header (0: it does not).
BRAND_OVER_NAV = """() => {
    const name = document.querySelector('.brand-name');
    const link = [...document.querySelectorAll('.site-nav a, .site-nav button')]
      .find(e => e.offsetWidth);
    if (name.getBoundingClientRect().width <= 1) return 0;  // read out, not shown
    const range = document.createRange();
    range.selectNodeContents(name);
    const text = range.getBoundingClientRect();
    return Math.max(0, Math.ceil(text.right - link.getBoundingClientRect().left));
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [320, 360, 390])
def test_the_headers_name_never_runs_into_its_links(
    browser: Browser, live_server: Any, width: int
) -> None:
    """On the narrowest phones the site's name and the links beside it do not touch (signed
    in or not): where both cannot fit, the name is read out but only the icon is shown."""
    user = get_user_model().objects.create_user("narrow", password="a-long-pass-phrase")
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    try:
        page = context.new_page()
        for signed_in in (False, True):
            if signed_in:
                cookie = client.cookies["sessionid"].value
                context.add_cookies(
                    [{"name": "sessionid", "value": cookie, "url": live_server.url}]
                )
            page.goto(live_server.url + "/")
            assert page.evaluate(BRAND_OVER_NAV) == 0, (width, signed_in)
            assert sideways(page) <= 0, (width, signed_in)
            assert page.get_by_role("link", name="All Fours").is_visible()
    finally:
        context.close()
