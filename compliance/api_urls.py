"""Compliance API routes, mounted at /api/compliance/ (see compliance/api.py)."""

from django.urls import path

from compliance import api

app_name = "compliance-api"

urlpatterns = [
    path("program-reports/", api.ProgramReportView.as_view(), name="program-reports"),
]
