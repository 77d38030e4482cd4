from django.contrib import admin
from django.urls import include, path

from config import views
from config.login import LoginView

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", include("scoring.urls")),
    path("leagues/", include("leagues.urls")),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
