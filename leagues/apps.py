from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from leagues import permissions, receivers
        from scoring.permissions import register_scorer_check

        register_scorer_check("leagues.secretary", permissions.can_score_league_game)
        from scoring.zones import register_game_zone

        register_game_zone("leagues.league", permissions.league_game_zone)
        from leagues.selectors.game_match import TABLE_GAME_RELATED, table_game_match
        from scoring.matches import register_game_match

        register_game_match("leagues.table", table_game_match, related=TABLE_GAME_RELATED)
        from leagues.services.results import table_link_opened
        from scoring.openers import register_link_opener

        register_link_opener("leagues.table", lambda link, by: table_link_opened(link=link, by=by))
        from django.contrib.admin.models import LogEntry
        from django.db.models.signals import post_save

        post_save.connect(
            receivers.on_admin_change, sender=LogEntry, dispatch_uid="leagues.on_admin_change"
        )
        post_migrate.connect(
            receivers.create_cache_table, sender=self, dispatch_uid="leagues.create_cache_table"
        )
