from django.urls import path

from poker_site.core import rules

app_name = "rules"

urlpatterns = [
    path("", rules.rules_index, name="index"),
    path("<slug:slug>/", rules.rules_page, name="page"),
]
