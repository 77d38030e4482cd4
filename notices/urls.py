from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [path("<str:token>/", views.opt_out, name="opt_out")]
