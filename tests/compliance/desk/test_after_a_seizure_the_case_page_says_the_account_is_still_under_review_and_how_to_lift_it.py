"""QA report H, item 13 (FRD-10, FRD-18): a seizure leaves the player's account under review (they play but cannot
withdraw) until a reviewer sets it active or closes the case; nothing on the case page said so. The page now says that
the account is still under review and how to lift it; the standing itself does not change."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.models import AccountStanding, Standing
from compliance.services import case_hold_create, case_hold_seizure_propose
from poker_site.core.rule_changes import rule_change_approve
from tests.compliance.desk.support import case_about, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def test_after_a_seizure_the_case_page_says_the_account_is_still_under_review_and_how_to_lift_it(
    reviewer: Any, second_reviewer: Any
) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, "Winnings under review")
    page = logged_in(reviewer).get(f"/compliance/cases/{case.pk}/").content.decode()
    assert "data-still-under-review" not in page  # withheld, not seized: nothing to say yet

    rule_change_approve(case_hold_seizure_propose(case, reviewer, hold, "Chip dumping"), second_reviewer, "Agreed")

    page = logged_in(reviewer).get(f"/compliance/cases/{case.pk}/").content.decode()
    assert 'data-still-under-review="alice"' in page
    assert "alice's account is still under review" in page
    assert "Lift it with the account state form below (set it active), or close the case" in page
    assert AccountStanding.objects.get(user=alice).state == Standing.UNDER_REVIEW
