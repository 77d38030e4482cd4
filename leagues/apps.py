from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from leagues import receivers
        from scoring.signals import game_changed

        game_changed.connect(receivers.on_game_changed, dispatch_uid="leagues.on_game_changed")
