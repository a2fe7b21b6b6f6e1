"""WebSocket routes of the tournaments app (collected by poker_site/routing.py): the site-wide player socket.

This app is the last of ``poker_site.routing.SOCKET_APPS``, so its routes end with the catch-all that refuses a
socket at any path no route serves (:mod:`poker_site.core.unknown_sockets`: ``/ws/tables/abc/`` was a 500)."""

from django.urls import path

from poker_site.core.unknown_sockets import UNKNOWN_SOCKET_ROUTE
from tournaments.player_socket import PlayerConsumer

websocket_urlpatterns = [path("ws/player/", PlayerConsumer.as_asgi(), name="ws-player"), UNKNOWN_SOCKET_ROUTE]
