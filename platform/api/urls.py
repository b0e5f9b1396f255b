"""API routes under ``/api/``, plus the OpenAPI schema and its browsable docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from api import views

router = DefaultRouter()
router.register("bots", views.BotViewSet, basename="bot")
router.register("versions", views.VersionViewSet, basename="version")
router.register("rulesets", views.RuleSetViewSet, basename="ruleset")
router.register("matches", views.MatchViewSet, basename="match")

urlpatterns = [
    path("", include(router.urls)),
    path("leaderboards/<slug:slug>/", views.LeaderboardView.as_view(), name="api-leaderboard"),
    path("challenges/", views.ChallengeView.as_view(), name="api-challenges"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:api-schema"), name="api-redoc"),
]
