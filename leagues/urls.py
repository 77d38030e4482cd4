from django.urls import path

from leagues.views import (
    accounts,
    blank_cards,
    cards,
    divisions,
    embed,
    feeds,
    grid,
    imports,
    invitations,
    live,
    manage_fixtures,
    night,
    public,
    results,
    secretary,
)

app_name = "leagues"

urlpatterns = [
    path("", public.league_list, name="league_list"),
    path("new/", secretary.league_create, name="manage_league_create"),
    path("requests/", invitations.league_request_list, name="league_requests"),
    path("my-fixtures/", accounts.my_fixtures, name="my_fixtures"),
    # Public pages.
    path("division/<int:pk>/", divisions.StandingsView.as_view(), name="division"),
    path(
        "division/<int:pk>/standings.csv",
        divisions.StandingsView.as_view(export="csv"),
        name="division_standings_csv",
    ),
    path(
        "division/<int:pk>/fixtures/",
        divisions.FixturesView.as_view(),
        name="division_fixtures",
    ),
    path(
        "division/<int:pk>/fixtures.csv",
        divisions.FixturesView.as_view(export="csv"),
        name="division_fixtures_csv",
    ),
    path("division/<int:pk>/players/", divisions.PlayersView.as_view(), name="division_players"),
    path(
        "division/<int:pk>/players.csv",
        divisions.PlayersView.as_view(export="csv"),
        name="division_players_csv",
    ),
    path("division/<int:pk>/calendar.ics", feeds.division_calendar, name="division_calendar"),
    path("division/<int:pk>/embed/", embed.division_embed, name="division_embed"),
    path("division/<int:pk>/grid/", grid.division_grid, name="division_grid"),
    path("fixture/<int:pk>/", public.fixture_detail, name="fixture"),
    # What the pages that follow a league night poll (leagues/views/live.py).
    path("live/<int:league>/", live.league_live_poll, name="league_live_poll"),
    path("live/<int:league>/fixture/<int:pk>/", live.fixture_live, name="fixture_live"),
    path("team/<int:pk>/", public.team_detail, name="team"),
    path("team/<int:pk>/calendar.ics", feeds.team_calendar, name="team_calendar"),
    path("player/<int:pk>/", public.player_detail, name="player"),
    # The secretary's pages for a division and a fixture.
    path(
        "division/<int:pk>/manage/fixtures/",
        manage_fixtures.fixtures_generate,
        name="manage_fixtures_generate",
    ),
    path(
        "division/<int:pk>/manage/adjustments/",
        manage_fixtures.adjustment_create,
        name="manage_adjustments",
    ),
    path(
        "division/<int:pk>/manage/adjustments/<int:adjustment>/withdraw/",
        manage_fixtures.adjustment_withdraw,
        name="manage_adjustment_withdraw",
    ),
    path(
        "division/<int:pk>/manage/fixtures/add/",
        manage_fixtures.fixture_add,
        name="manage_fixture_add",
    ),
    path("fixture/<int:pk>/result/", results.fixture_result, name="fixture_result"),
    # The captains' night: seat the pairs, show each table its QR code.
    path("fixture/<int:pk>/night/", night.fixture_night, name="fixture_night"),
    path("fixture/<int:pk>/night/table/<int:board>/", night.table_qr, name="table_qr"),
    path("fixture/<int:pk>/score-card/", cards.score_card, name="score_card"),
    # The blank score card to print before the match; a league night's, one card a page.
    path(
        "fixture/<int:pk>/score-card/blank/",
        blank_cards.fixture_blank_card,
        name="fixture_blank_card",
    ),
    path("fixture/<int:pk>/manage/", manage_fixtures.fixture_manage, name="manage_fixture"),
    path("fixture/<int:pk>/manage/card/", results.fixture_card, name="manage_fixture_card"),
    path("fixture/<int:pk>/manage/audit/", results.fixture_audit, name="manage_fixture_audit"),
    path(
        "fixture/<int:pk>/manage/tables/",
        manage_fixtures.fixture_tables,
        name="manage_fixture_tables",
    ),
    path(
        "fixture/<int:pk>/manage/tables/<int:board>/restart/",
        manage_fixtures.table_restart,
        name="manage_table_restart",
    ),
    # A league's home and the secretary's pages for its structure.
    path("<slug:slug>/", public.league_detail, name="league"),
    path("<slug:slug>/calendar.ics", feeds.league_calendar, name="league_calendar"),
    path("<slug:slug>/live/", live.league_live, name="league_live"),
    path(
        "<slug:slug>/score-cards/<str:night>/",
        blank_cards.night_blank_cards,
        name="night_blank_cards",
    ),
    path("<slug:slug>/manage/", secretary.league_manage, name="manage_league"),
    path("<slug:slug>/manage/audit/", results.league_audit, name="manage_league_audit"),
    path("<slug:slug>/manage/settings/", secretary.league_edit, name="manage_league_edit"),
    path(
        "<slug:slug>/manage/settings/embed/",
        embed.league_embed_settings,
        name="manage_league_embed",
    ),
    path("<slug:slug>/manage/seasons/new/", secretary.season_create, name="manage_season_create"),
    path(
        "<slug:slug>/manage/seasons/<int:season>/",
        secretary.season_edit,
        name="manage_season_edit",
    ),
    path(
        "<slug:slug>/manage/seasons/<int:season>/next/",
        secretary.season_start_next,
        name="manage_season_next",
    ),
    path(
        "<slug:slug>/manage/seasons/<int:season>/rules/",
        secretary.season_rules,
        name="manage_season_rules",
    ),
    path(
        "<slug:slug>/manage/divisions/<int:pk>/",
        secretary.division_edit,
        name="manage_division_edit",
    ),
    path(
        "<slug:slug>/manage/seasons/<int:season>/divisions/new/",
        secretary.division_create,
        name="manage_division_create",
    ),
    path("<slug:slug>/manage/venues/", secretary.venue_list, name="manage_venues"),
    path("<slug:slug>/manage/venues/new/", secretary.venue_create, name="manage_venue_create"),
    path("<slug:slug>/manage/venues/<int:pk>/", secretary.venue_edit, name="manage_venue_edit"),
    path("<slug:slug>/manage/teams/new/", secretary.team_create, name="manage_team_create"),
    path("<slug:slug>/manage/teams/<int:pk>/", secretary.team_manage, name="manage_team"),
    path("<slug:slug>/manage/teams/<int:pk>/edit/", secretary.team_edit, name="manage_team_edit"),
    path("<slug:slug>/manage/teams/<int:pk>/squad/", secretary.team_squad, name="manage_squad"),
    path(
        "<slug:slug>/manage/teams/<int:pk>/withdraw/",
        secretary.team_withdraw,
        name="manage_team_withdraw",
    ),
    path(
        "<slug:slug>/manage/teams/<int:pk>/captain/",
        accounts.captain_account,
        name="manage_captain_account",
    ),
    path("<slug:slug>/manage/players/new/", secretary.player_register, name="manage_register"),
    path("<slug:slug>/manage/secretaries/", accounts.secretaries, name="manage_secretaries"),
    path("<slug:slug>/manage/import/", imports.league_import_page, name="manage_import"),
    path("<slug:slug>/manage/export/", imports.league_export_file, name="manage_export"),
    path(
        "<slug:slug>/manage/invitations/<int:pk>/",
        invitations.invitation_change,
        name="manage_invitation",
    ),
]
