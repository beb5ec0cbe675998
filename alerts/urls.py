from django.urls import path

from alerts import views

app_name = "alerts"

urlpatterns = [
    path("", views.follows, name="follows"),
    path("follow", views.follow, name="follow"),
    path("follow/button", views.button, name="button"),
    path("unfollow/<int:pk>", views.unfollow, name="unfollow"),
    path("unsubscribe/<str:token>", views.unsubscribe, name="unsubscribe"),
]
