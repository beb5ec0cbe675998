from django.urls import path

from negotiations import views

app_name = "negotiations"

urlpatterns = [
    path("", views.home, name="home"),
]
