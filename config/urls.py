from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.api import api
from config.health import healthz
from config.login import AdminLoginForm, LoginForm

admin.site.login_form = AdminLoginForm
admin.site.site_header = "FPT Negotiations Tracker"
admin.site.site_title = "FPT Tracker admin"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", api.urls),
    path("alerts/", include("alerts.urls")),
    path("", include("briefings.urls")),
    path("", include("grants.urls")),
    path("", include("negotiations.urls")),
]
