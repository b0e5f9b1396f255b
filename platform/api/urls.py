"""API routes under ``/api/``, plus the OpenAPI schema and its docs (Swagger UI, Redoc)."""

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
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
    # Swagger UI and Redoc from the site itself (drf-spectacular-sidecar); Swagger UI's set-up script is a
    # separate request (the split view), so no inline script is needed.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:api-schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    # Redoc injects its styles at run time: this page alone allows inline styles.
    path(
        "redoc/",
        csp_update({"style-src": [SELF, UNSAFE_INLINE]})(
            SpectacularRedocView.as_view(url_name="api:api-schema", template_name="api/redoc.html")
        ),
        name="api-redoc",
    ),
]
