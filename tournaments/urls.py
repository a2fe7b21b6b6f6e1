"""Tournament pages, mounted at /tournaments/."""

from django.urls import path

from tournaments import pages

app_name = "tournaments"

urlpatterns = [
    path("", pages.tournament_lobby, name="index"),
    path("<int:tournament_id>/", pages.tournament_page, name="detail"),
    path("<int:tournament_id>/registration/", pages.tournament_registration, name="registration"),
]
