from django.apps import AppConfig


class LoginsConfig(AppConfig):
    name = "logins"
    verbose_name = "Log-in limit"
