"""Routes of the guide: the quick start, the docs, the rule sets, limits and faults, the downloads."""

from django.urls import path

from guide import views

urlpatterns = [
    path("", views.index, name="guide"),
    path("limits/", views.limits, name="guide-limits"),
    path("rules/", views.rules_index, name="guide-rules"),
    path("rules/<slug:slug>/", views.ruleset, name="guide-ruleset"),
    path("docs/<slug:name>/", views.doc, name="guide-doc"),
    path("protocol.schema.json", views.schema, name="guide-schema"),
    path("examples/<str:filename>", views.example, name="guide-example"),
    path("download/<str:filename>", views.download, name="guide-download"),
]
