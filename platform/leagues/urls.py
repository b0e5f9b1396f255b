"""Routes of the league pages."""

from django.urls import path

import config.ids  # noqa: F401  (registers the <id:...> converter)
from leagues import views

urlpatterns = [
    path("", views.league_list, name="league-list"),
    path("new/", views.league_create, name="league-create"),
    path("<slug:slug>/", views.league_detail, name="league-detail"),
    path("<slug:slug>/edit/", views.league_edit, name="league-edit"),
    path("<slug:slug>/run/", views.league_run, name="league-run"),
    path("<slug:slug>/enter/", views.league_enter, name="league-enter"),
    path("<slug:slug>/withdraw/", views.league_withdraw, name="league-withdraw"),
    path("<slug:slug>/rounds/<id:number>/", views.league_round, name="league-round"),
]
