from django.urls import path

from scoring import offline, views

app_name = "scoring"

urlpatterns = [
    path("", views.game_list, name="game_list"),
    path("new/", views.game_new, name="game_new"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("s/<str:key>/", views.link_open, name="link_open"),
    path("<int:pk>/", views.game_detail, name="game"),
    path("<int:pk>/hands/", views.hand_record, name="hand_record"),
    path("<int:pk>/hands/undo/", views.hand_undo, name="hand_undo"),
    path("<int:pk>/hands/<int:number>/correct/", views.hand_correct, name="hand_correct"),
    path("<int:pk>/audit/", views.game_audit, name="game_audit"),
    path("<int:pk>/abandon/", views.game_abandon, name="game_abandon"),
    path("<int:pk>/again/", views.game_again, name="game_again"),
    path("<int:pk>/link/", views.game_link, name="game_link"),
    path("<int:pk>/replay.json", views.game_replay, name="game_replay"),
    path("<int:pk>/sync/", offline.sync, name="sync"),
]
