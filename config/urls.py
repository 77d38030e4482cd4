from django.contrib import admin
from django.urls import include, path, re_path

from api.views import api, not_found
from config import views
from config.account import account
from config.login import LoginView
from config.password_reset import PasswordResetView
from config.signup import signup, signup_confirm
from leagues.views.invitations import invitation_accept

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("robots.txt", views.robots, name="robots"),
    path("apple-touch-icon.png", views.apple_touch_icon, name="apple_touch_icon"),
    path("games/", include("scoring.urls")),
    path("leagues/", include("leagues.urls")),
    path("cups/", include("cups.urls")),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/signup/<str:token>/", signup_confirm, name="signup_confirm"),
    path("accounts/invitation/<str:token>/", invitation_accept, name="invitation_accept"),
    path("accounts/", account, name="account"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/", not_found),  # before Ninja's root, an HTML 404
    path("api/", api.urls),
    re_path(r"^api/(?P<path>.*)$", not_found),
    path("notices/", include("notices.urls")),
]

# The database unreachable is a 503 in the app's words, not a bare 500 (config/views.py).
handler500 = "config.views.server_error"
