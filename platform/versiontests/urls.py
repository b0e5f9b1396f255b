"""Routes of the version-test pages."""

from django.urls import path

import config.ids  # noqa: F401  (registers the <id:...> converter)
from versiontests import views

urlpatterns = [
    path("", views.test_list, name="versiontest-list"),
    path("new/", views.test_create, name="versiontest-create"),
    path("<id:pk>/", views.test_detail, name="versiontest-detail"),
    path("<id:pk>/progress.json", views.test_progress, name="versiontest-progress"),
    path("<id:pk>/cancel/", views.test_cancel, name="versiontest-cancel"),
]
