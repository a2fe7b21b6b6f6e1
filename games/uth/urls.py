"""UTH pages, mounted at /uth/."""

from django.urls import path

from games.uth import views

app_name = "uth"

urlpatterns = [
    path("", views.uth_tables, name="tables"),
    path("history/", views.uth_history, name="history"),
    path("<int:table_id>/", views.uth_table, name="table"),
]
