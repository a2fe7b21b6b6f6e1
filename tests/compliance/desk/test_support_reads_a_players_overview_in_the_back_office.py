"""LOB-08: support staff find a player in the back office and read their overview — balances (cash, at tables,
withheld, pending withdrawals), holds, sanctions (the account state, Banzai exclusion, tournament disqualifications),
today's ratholing counter and Banzai resets, and the open cases by number — but never the desk's flags, cases or
evidence, nor compliance's reasons for a hold or an account sanction (issue 30: "restricted, ask compliance")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from compliance.models import Standing
from compliance.services import account_standing_set, banzai_exclusion_set, case_hold_create
from games.models import DailyCounterKind, PlayerDailyCounter
from tests.compliance.desk.support import case_about, player
from tests.tables.back_office import logged_in
from tests.tables.support import open_table, seat_players

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_overview_shows_balances_holds_sanctions_counters_and_open_cases(reviewer: Any, support_agent: Any) -> None:
    alice = player("alice", cash=50_000)
    seat_players(open_table(), [alice], 1_000)
    case = case_about(reviewer, alice, title="Chip dumping: alice, bob")
    case_hold_create(case, reviewer, alice, 10_000, "Winnings under review")
    account_standing_set(case, reviewer, alice, Standing.SUSPENDED, "Bot software detected")
    banzai_exclusion_set(case, reviewer, alice, excluded=True, reason="Soft-play at Banzai tables")
    today = timezone.now().date()
    PlayerDailyCounter.objects.create(user=alice, kind=DailyCounterKind.RATHOLING, day=today, count=3)
    PlayerDailyCounter.objects.create(user=alice, kind=DailyCounterKind.BANZAI_RESET, day=today, count=2)
    client = logged_in(support_agent)

    listing = client.get("/admin/compliance/playeroverview/?q=alice")
    assert listing.status_code == 200
    assert f"/admin/compliance/playeroverview/{alice.pk}/change/" in listing.content.decode()
    page = client.get(f"/admin/compliance/playeroverview/{alice.pk}/change/")

    assert page.status_code == 200
    text = words(page.content.decode())
    assert "Cash €390.00" in text
    assert "At tables €10.00" in text
    assert "Withheld €100.00" in text
    assert "Winnings under review" not in text  # issue 30: compliance's reasons are restricted
    assert "Bot software detected" not in text
    assert "suspended: cannot log in or play: restricted, ask compliance" in text
    assert text.count("restricted, ask compliance") == 2  # the hold's reason and the sanction's
    assert "excluded: Soft-play at Banzai tables" in text
    assert "3 / 5" in text
    assert "Banzai resets used today 2" in text
    assert f"#{case.pk} (open)" in text
    assert "Chip dumping: alice, bob" not in text  # the case's title would tell support what is suspected


def test_support_reads_no_flag_case_or_evidence_in_the_back_office(support_agent: Any) -> None:
    client = logged_in(support_agent)
    for model in ("flag", "case", "caseaction", "playerreport", "connectionrecord", "indicatorsetting"):
        assert client.get(f"/admin/compliance/{model}/").status_code == 403, model


def test_a_player_overview_that_does_not_exist_is_not_found(support_agent: Any) -> None:
    client = logged_in(support_agent)
    assert client.get("/admin/compliance/playeroverview/999999/change/").status_code == 404
    assert client.get("/admin/compliance/playeroverview/alice/change/").status_code == 404
    assert client.get(f"/admin/compliance/playeroverview/{support_agent.pk}/change/").status_code == 404  # staff


def test_a_reviewer_reads_compliances_reasons_on_the_same_overview(reviewer: Any) -> None:
    """Issue 30: the reasons are restricted to compliance, who read them in the admin's overview as on the desk."""
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice, title="Collusion review")
    case_hold_create(case, reviewer, alice, 10_000, "Collusion review")
    account_standing_set(case, reviewer, alice, Standing.SUSPENDED, "Bot software detected")

    text = words(logged_in(reviewer).get(f"/admin/compliance/playeroverview/{alice.pk}/change/").content.decode())

    assert "Collusion review" in text
    assert "suspended: cannot log in or play: Bot software detected" in text
    assert "restricted, ask compliance" not in text
