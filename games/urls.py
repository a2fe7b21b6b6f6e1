"""Cash-table pages, mounted at /games/ (the API is in api_urls.py, the sockets in routing.py)."""

from django.urls import path

from games import pages

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/", pages.table_page, name="table"),
    path("hands/", pages.hand_history, name="hand_history"),
    path("hands/<int:hand_id>/", pages.hand_replay, name="hand_replay"),
    path("stakes/<int:stake_id>/queue/", pages.stake_queue, name="stake_queue"),
]
