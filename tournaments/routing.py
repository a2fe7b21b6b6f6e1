"""WebSocket routes of the tournaments app (collected by poker_site/routing.py): the site-wide player socket and the
tournament lobby socket of the tournament list page."""

from django.urls import path

from tournaments.lobby_socket import TournamentLobbyConsumer
from tournaments.player_socket import PlayerConsumer

websocket_urlpatterns = [
    path("ws/player/", PlayerConsumer.as_asgi(), name="ws-player"),
    path("ws/tournaments/", TournamentLobbyConsumer.as_asgi(), name="ws-tournaments"),
]
