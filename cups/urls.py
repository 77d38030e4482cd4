from django.urls import path

from cups import views

app_name = "cups"

urlpatterns = [
    path("<int:pk>/", views.competition_detail, name="competition"),
    path("<int:pk>/honours/", views.roll_of_honour, name="honours"),
    path("tie/<int:pk>/", views.tie_detail, name="tie"),
    path("tie/<int:pk>/result/", views.tie_result, name="tie_result"),
    # The secretary's pages.
    path("new/<slug:slug>/", views.competition_create, name="create"),
    path("<int:pk>/manage/", views.competition_manage, name="manage"),
    path("tie/<int:pk>/manage/", views.tie_manage, name="tie_manage"),
    path("tie/<int:pk>/manage/audit/", views.tie_audit, name="tie_audit"),
]
