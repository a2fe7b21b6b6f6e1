"""WebSocket routes of the tournaments app (collected by poker_site/routing.py): the site-wide player socket."""

from django.urls import path

from tournaments.player_socket import PlayerConsumer

websocket_urlpatterns = [path("ws/player/", PlayerConsumer.as_asgi(), name="ws-player")]
