"""Routes of the viewer's JSON endpoints (next to ``/matches/<id>/replay.json``)."""

from django.urls import path

from viewer import views

urlpatterns = [
    path("matches/<int:pk>/view.json", views.view_json, name="match-view-data"),
    path("matches/<int:pk>/stderr.json", views.stderr_json, name="match-decision-stderr"),
]
