"""WebSocket routes of the cash tables (collected by poker_site/routing.py); the protocol is in docs/protocol.md."""

from django.urls import path

from games.runtime.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi(), name="ws-lobby"),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi(), name="ws-table"),
]
