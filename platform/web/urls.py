"""Routes of the server-rendered pages."""

from django.urls import path

import config.ids  # noqa: F401  (registers the <id:...> converter)
from web import pages, views

urlpatterns = [
    path("", pages.home, name="home"),
    path("bots/", views.bot_list, name="bot-list"),
    path("bots/names.json", views.bot_names, name="bot-names"),
    path("bots/new/", views.bot_create, name="bot-create"),
    path("bots/<id:pk>/", pages.bot_detail, name="bot-detail"),
    path("bots/<id:pk>/edit/", views.bot_edit, name="bot-edit"),
    path("bots/<id:pk>/upload/", views.version_upload, name="version-upload"),
    path("bots/<id:pk>/v/<id:number>/", views.version_detail, name="version-detail"),
    path("bots/<id:pk>/v/<id:number>/activate/", views.version_activate, name="version-activate"),
    path("bots/<id:pk>/v/<id:number>/status.json", views.version_status, name="version-status"),
    path("bots/<id:pk>/v/<id:number>/source.zip", views.version_source, name="version-source"),
    path("rules/", views.ruleset_list, name="ruleset-list"),
    path("rules/<slug:slug>/", views.leaderboard, name="leaderboard"),
    path("matches/", views.match_list, name="match-list"),
    path("matches/<id:pk>/", views.match_detail, name="match-detail"),
    path("matches/<id:pk>/replay.json", views.match_replay, name="match-replay"),
    path("challenge/", views.challenge, name="challenge"),
    path("players/<str:username>/", pages.player_detail, name="player-detail"),
]
