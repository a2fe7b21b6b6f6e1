"""UTH API routes, mounted at /api/uth/ (see games/uth/api.py)."""

from django.urls import path

from games.uth import api

app_name = "uth-api"

urlpatterns = [
    path("tables/", api.UthTablesView.as_view(), name="tables"),
    path("tables/<int:table_id>/", api.UthTableSnapshotView.as_view(), name="table"),
    path("history/", api.UthHistoryView.as_view(), name="history"),
    path("rounds/<str:game_number>/", api.UthRoundRecallView.as_view(), name="round"),
    path("rounds/<str:game_number>/verification/", api.UthRoundVerificationView.as_view(), name="round-verification"),
]
