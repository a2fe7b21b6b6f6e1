"""WebSocket routes of the UTH tables (collected by poker_site/routing.py)."""

from django.urls import path

from games.uth.consumers import UthTableConsumer

websocket_urlpatterns = [path("ws/uth/<int:table_id>/", UthTableConsumer.as_asgi(), name="ws-uth-table")]
