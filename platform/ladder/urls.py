"""Routes of the ladder pages."""

from django.urls import path

from ladder import views

urlpatterns = [
    path("h2h/", views.head_to_head, name="head-to-head"),
]
