"""Root URL configuration: the site, accounts, the API and the admin."""

from django.contrib import admin
from django.urls import include, path

from config.views import healthz
from guide.views import favicon

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/", include(("api.urls", "api"), namespace="api")),
    path("api-auth/", include("rest_framework.urls")),
    path("ladder/", include("ladder.urls")),
    path("leagues/", include("leagues.urls")),
    path("versiontests/", include("versiontests.urls")),
    path("guide/", include("guide.urls")),
    path("", include("viewer.urls")),
    path("", include("web.urls")),
]
