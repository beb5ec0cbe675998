from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.api import api, no_endpoint
from config.health import healthz
from config.login import LoginForm

# Unprefixed in every language: the health check and the API (whose language is Accept-Language's).
urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # Without its slash too: a JSON 404 for every method (Django's slash redirect is HTML, and a 500 for a POST
    # while DEBUG is on).
    path("api", no_endpoint),
    path("api/", api.urls),
]
# Every page in English at its own address and in French under /fr/ (the admin too: /fr/admin/).
urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("alerts/", include("alerts.urls")),
    path("", include("briefings.urls")),
    path("", include("grants.urls")),
    path("", include("negotiations.urls")),
    prefix_default_language=False,
)
