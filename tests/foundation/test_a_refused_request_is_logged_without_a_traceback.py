"""Issue 30: a 403 (a role without the permission) is logged as one line naming the refused path, without the
traceback of the PermissionDenied behind it; a server error keeps its traceback."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.log_filters import RefusalsWithoutTraceback
from tests.foundation.staff_roles import staff_member

pytestmark = pytest.mark.django_db


def test_a_403_in_the_admin_is_logged_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    client = Client()
    client.force_login(staff_member(COMPLIANCE_REVIEWERS, "rita"))

    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/admin/wallet/adjustmentproposal/add/")

    assert response.status_code == 403
    (record,) = [record for record in caplog.records if record.name == "django.request"]
    assert "Forbidden" in record.getMessage()
    assert "/admin/wallet/adjustmentproposal/add/" in record.getMessage()
    assert record.exc_info is None
    assert "Traceback" not in caplog.text


def test_the_filter_keeps_the_traceback_of_anything_but_a_403() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        exc_info = sys.exc_info()
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error", (), exc_info)
    record.status_code = 500
    assert RefusalsWithoutTraceback().filter(record)
    assert record.exc_info is exc_info
