from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from leagues import permissions, receivers
        from scoring.permissions import register_scorer_check
        from scoring.signals import game_changed, scoring_link_reissued

        register_scorer_check("leagues.secretary", permissions.can_score_league_game)
        game_changed.connect(receivers.on_game_changed, dispatch_uid="leagues.on_game_changed")
        scoring_link_reissued.connect(
            receivers.on_scoring_link_reissued, dispatch_uid="leagues.on_scoring_link_reissued"
        )
