"""The compliance desk's pages under /compliance/ (reviewers) and the players' report form."""

from django.urls import path

from compliance.desk import reports, views

app_name = "compliance"

urlpatterns = [
    path("", views.desk, name="desk"),
    path("flags/dismiss/", views.flags_dismiss_view, name="flags_dismiss"),
    path("flags/<int:flag_id>/", views.flag_page, name="flag"),
    path("flags/<int:flag_id>/<slug:action>/", views.flag_action, name="flag_action"),
    path("cases/", views.cases_page, name="cases"),
    path("cases/new/", views.case_new, name="case_new"),
    path("cases/<int:case_id>/", views.case_page, name="case"),
    path("cases/<int:case_id>/<slug:action>/", views.case_action, name="case_action"),
    path("hands/<int:hand_id>/", views.hand_page, name="hand"),
    path("players/", views.players_page, name="players"),
    path("players/<int:user_id>/", views.player_page, name="player"),
    path("report/<int:hand_id>/", reports.report_page, name="report"),
]
