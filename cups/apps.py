from django.apps import AppConfig


class CupsConfig(AppConfig):
    name = "cups"
    verbose_name = "Cups"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from cups import permissions, receivers
        from leagues.models import Fixture, FixtureResult, ResultSubmission
        from scoring.permissions import register_scorer_check
        from scoring.signals import game_changed

        register_scorer_check("cups.secretary", permissions.can_score_cup_game)
        game_changed.connect(receivers.on_game_changed, dispatch_uid="cups.on_game_changed")
        # A cup tie played as a league fixture follows its fixture's status, result and
        # confirmation: each is saved through the leagues services.
        for model in (Fixture, FixtureResult, ResultSubmission):
            post_save.connect(
                receivers.on_fixture_saved, sender=model, dispatch_uid=f"cups.{model.__name__}"
            )
