"""Admin for the site operator. Scores are derived: edit games through the app's pages (which
re-score and audit), not here; the admin shows them read-only."""

from django.contrib import admin

from scoring.models import Award, Game, Hand, HandRevision, ScoringLink, Side


class SideInline(admin.TabularInline):
    model = Side
    extra = 0
    fields = ("label", "name", "players", "position", "start_score", "score")
    readonly_fields = ("score",)


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ("number", "dealer", "trump", "outcome", "facts", "scores", "entered_by", "entered_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "variant", "status", "winner", "decided_hand", "created_at")
    list_filter = ("status", "variant")
    search_fields = ("title", "sides__name", "sides__players")
    readonly_fields = (
        "ruleset",
        "variant",
        "status",
        "winner",
        "decided_hand",
        "decided_category",
        "next_dealer",
        "created_by",
        "scoring_link",
        "created_at",
        "updated_at",
        "ended_at",
    )
    inlines = [SideInline, HandInline]


class AwardInline(admin.TabularInline):
    model = Award
    extra = 0
    fields = ("position", "side", "category", "points", "detail", "counted")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "dealer", "trump", "outcome", "entered_by", "entered_at")
    list_select_related = ("game", "entered_by")
    readonly_fields = (
        "game",
        "number",
        "facts",
        "dealer",
        "trump",
        "outcome",
        "all_fours",
        "scores",
        "entry_key",
        "revision",
        "entered_by",
        "entered_at",
        "corrected_at",
    )
    inlines = [AwardInline]


@admin.register(HandRevision)
class HandRevisionAdmin(admin.ModelAdmin):
    list_display = ("game", "hand_number", "action", "by", "link", "ip", "at")
    list_filter = ("action",)
    list_select_related = ("game", "by", "link")
    readonly_fields = (
        "game",
        "hand_number",
        "action",
        "before",
        "after",
        "scores_before",
        "scores_after",
        "by",
        "link",
        "ip",
        "at",
        "entry_key",
        "reason",
    )

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(ScoringLink)
class ScoringLinkAdmin(admin.ModelAdmin):
    """Revoking sets `revoked_at`; re-issue a link from the secretary's fixture card instead."""

    list_display = ("__str__", "state", "created_at", "revoked_at", "closed_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    readonly_fields = ("key", "created_by", "created_at", "closed_at")
    fields = ("label", "key", "created_by", "created_at", "revoked_at", "closed_at")

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False
