"""Responsible-gaming pages, mounted at /responsible-gaming/."""

from django.urls import path

from poker_site.responsible_gaming import views

app_name = "responsible_gaming"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("limits/", views.deposit_limit, name="deposit_limit"),
    path("limits/cancel/", views.deposit_limit_cancel, name="deposit_limit_cancel"),
    path("reminder/", views.session_reminder, name="session_reminder"),
    path("self-exclusion/", views.self_exclusion, name="self_exclusion"),
    path("session/", views.session, name="session"),
    path("session/continue/", views.session_continue, name="session_continue"),
]
