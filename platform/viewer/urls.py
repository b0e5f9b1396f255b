"""Routes of the viewer's JSON endpoints (next to ``/matches/<id>/replay.json``)."""

from django.urls import path

import config.ids  # noqa: F401  (registers the <id:...> converter)
from viewer import views

urlpatterns = [
    path("matches/<id:pk>/view.json", views.view_json, name="match-view-data"),
    path("matches/<id:pk>/stderr.json", views.stderr_json, name="match-decision-stderr"),
]
