"""Routes of the version-test pages."""

from django.urls import path

from versiontests import views

urlpatterns = [
    path("", views.test_list, name="versiontest-list"),
    path("new/", views.test_create, name="versiontest-create"),
    path("<int:pk>/", views.test_detail, name="versiontest-detail"),
    path("<int:pk>/progress.json", views.test_progress, name="versiontest-progress"),
    path("<int:pk>/cancel/", views.test_cancel, name="versiontest-cancel"),
]
