"""Tournament pages, mounted at /tournaments/."""

from django.urls import path

from tournaments import pages
from tournaments.hexapro import pages as hexapro_pages

app_name = "tournaments"

urlpatterns = [
    path("", pages.tournament_lobby, name="index"),
    path("lists/", pages.tournament_lobby_lists, name="lobby_lists"),
    path("lists/upcoming/", pages.upcoming_tournaments_list, name="upcoming_lists"),
    path("<int:tournament_id>/", pages.tournament_page, name="detail"),
    path("<int:tournament_id>/registration/", pages.tournament_registration, name="registration"),
    path("<int:tournament_id>/purchase/", pages.tournament_purchase, name="purchase"),
    path("hexapro/", hexapro_pages.hexapro_page, name="hexapro"),
    path("hexapro/history/", hexapro_pages.hexapro_history, name="hexapro_history"),
    path("hexapro/registration/", hexapro_pages.hexapro_registration, name="hexapro_registration"),
    path(
        "hexapro/registration/<int:registration_id>/withdrawal/",
        hexapro_pages.hexapro_withdrawal,
        name="hexapro_withdrawal",
    ),
]
