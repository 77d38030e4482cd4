"""Admin for the site operator; secretaries get pages of their own."""

from django import forms
from django.contrib import admin

from config.inputs import check_name_words, one_spaced
from leagues import models
from leagues.services.results import TABLE_FIGURES


class SeasonInline(admin.TabularInline):
    model = models.Season
    extra = 0
    prepopulated_fields = {"slug": ("name",)}


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "style", "league_night"]
    list_filter = ["style"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ["secretaries"]
    inlines = [SeasonInline]


class DivisionInline(admin.TabularInline):
    model = models.Division
    extra = 0
    prepopulated_fields = {"slug": ("name",)}


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["__str__", "starts_on", "ends_on"]
    list_filter = ["league"]
    list_select_related = ["league"]
    inlines = [DivisionInline]


@admin.register(models.Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "rank"]
    list_filter = ["season__league"]
    list_select_related = ["season__league"]


@admin.register(models.Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "town"]
    search_fields = ["name", "town"]
    prepopulated_fields = {"slug": ("name",)}


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "home_venue"]
    list_filter = ["league"]
    list_select_related = ["league", "home_venue"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ("name",)}


@admin.register(models.TeamEntry)
class TeamEntryAdmin(admin.ModelAdmin):
    list_display = ["team", "division", "captain"]
    list_filter = ["season__league", "season"]
    list_select_related = ["team", "division__season", "captain"]
    raw_id_fields = ["captain"]


class PlayerForm(forms.ModelForm):  # type: ignore[type-arg]
    """A name stored as every other way in stores it (``one_spaced``)."""

    class Meta:
        model = models.Player
        fields = ["name", "user"]

    def clean_name(self) -> str:
        name = one_spaced(self.cleaned_data["name"])
        check_name_words(name)
        return name


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "user"]
    search_fields = ["name"]
    raw_id_fields = ["user"]


@admin.register(models.Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "team", "season", "registered_on"]
    list_filter = ["season__league", "season"]
    list_select_related = ["player", "team", "season__league"]
    search_fields = ["player__name", "team__name"]
    raw_id_fields = ["player"]


class FixtureTableInline(admin.TabularInline):
    model = models.FixtureTable
    extra = 0
    raw_id_fields = ["home_player_1", "home_player_2", "away_player_1", "away_player_2"]
    readonly_fields = list(TABLE_FIGURES)  # the match engine's, stored by the roll-up


@admin.register(models.Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["__str__", "division", "round", "venue", "status"]
    list_filter = ["status", "division__season__league"]
    list_select_related = ["home", "away", "venue", "division__season"]
    date_hierarchy = "date"
    inlines = [FixtureTableInline]


@admin.register(models.FixtureResult)
class FixtureResultAdmin(admin.ModelAdmin):
    list_display = ["fixture", "outcome", "home_match_points", "away_match_points", "is_final"]
    list_select_related = ["fixture__home", "fixture__away"]
    readonly_fields = [f.name for f in models.FixtureResult._meta.fields]

    def has_add_permission(self, request):
        # Results are derived from the tables' games; never typed in here.
        return False


@admin.register(models.PointAdjustment)
class PointAdjustmentAdmin(admin.ModelAdmin):
    list_display = ["entry", "points", "reason", "made_by", "made_at"]
    list_select_related = ["entry__team", "made_by"]
    raw_id_fields = ["fixture"]


@admin.register(models.ResultSubmission)
class ResultSubmissionAdmin(admin.ModelAdmin):
    """Read-only: results are submitted, confirmed and settled on the league's pages."""

    list_display = ["fixture", "status", "submitted_by", "submitted_by_link", "confirmed_by"]
    list_filter = ["status"]
    list_select_related = ["fixture__home", "fixture__away", "submitted_by", "confirmed_by"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The league audit trail: read-only, never edited."""

    list_display = ["at", "league", "action", "subject", "by", "link", "ip"]
    list_filter = ["action", "league"]
    list_select_related = ["league", "by", "link"]
    search_fields = ["subject"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
