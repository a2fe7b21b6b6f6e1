"""Tournament API routes, mounted at /api/tournaments/ (see tournaments/api.py)."""

from django.urls import path

from tournaments import api

app_name = "tournaments-api"

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="list"),
    path("<int:tournament_id>/", api.TournamentDetailView.as_view(), name="detail"),
    path("<int:tournament_id>/registration/", api.TournamentRegistrationView.as_view(), name="registration"),
]
