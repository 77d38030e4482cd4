from django.apps import AppConfig


class CupsConfig(AppConfig):
    name = "cups"
    verbose_name = "Cups"

    def ready(self) -> None:
        from cups import permissions
        from scoring.permissions import register_scorer_check

        register_scorer_check("cups.secretary", permissions.can_score_cup_game)
        from scoring.zones import register_game_zone

        register_game_zone("cups.league", permissions.cup_game_zone)
        from cups.selectors import TIE_GAME_RELATED, tie_game_match
        from scoring.matches import register_game_match

        register_game_match("cups.tie", tie_game_match, related=TIE_GAME_RELATED)
