"""Fixtures for the compliance desk's tests: the cash-table tests' catalogue and quiet realtime, and staff of each
role (a reviewer and a second one, a support agent, an administrator)."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tables.conftest import catalogue, presence_unknown, quiet_realtime  # noqa: F401 (autouse fixtures)


@pytest.fixture
def reviewer(db: Any) -> Any:
    """A member of the "Compliance reviewers" group."""
    return staff_member(COMPLIANCE_REVIEWERS, "rita")


@pytest.fixture
def second_reviewer(db: Any) -> Any:
    """Another member of the "Compliance reviewers" group: the second pair of eyes (issue 30)."""
    return staff_member(COMPLIANCE_REVIEWERS, "rory")


@pytest.fixture
def support_agent(db: Any) -> Any:
    """A member of the "Support staff" group."""
    return staff_member(SUPPORT_STAFF, "sam")


@pytest.fixture
def administrator(db: Any) -> Any:
    return staff_member(ADMINISTRATORS, "ada")
