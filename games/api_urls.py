"""Cash-table API routes, mounted at /api/games/ (see games/api.py)."""

from django.urls import path

from games import api

app_name = "games-api"

urlpatterns = [
    path("tables/", api.LobbyView.as_view(), name="lobby"),
    path("tables/<int:table_id>/join/", api.JoinTableView.as_view(), name="table-join"),
    path("tables/<int:table_id>/leave/", api.LeaveTableView.as_view(), name="table-leave"),
    path("tables/<int:table_id>/buy-in/", api.BuyInLimitsView.as_view(), name="table-buy-in"),
    path("stakes/<int:stake_id>/queue/", api.StakeQueueView.as_view(), name="stake-queue"),
    path("stakes/<int:stake_id>/buy-in/", api.StakeBuyInLimitsView.as_view(), name="stake-buy-in"),
    path("hands/", api.HandListView.as_view(), name="hands"),
    path("hands/<int:hand_id>/", api.HandReplayView.as_view(), name="hand-replay"),
    path("hands/<int:hand_id>/phh/", api.HandPhhView.as_view(), name="hand-phh"),
]
