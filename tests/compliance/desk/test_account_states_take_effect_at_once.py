"""FRD-18 (with FRD-06, FRD-09, FRD-11, FRD-14): a subject's account state changes from the desk and takes effect at
once. Suspended or terminated, the account signs nobody in from the commit on — log-in is refused with the reason,
open sessions no longer reach pages, the API or the sockets' session check, and every open game socket is told to
close. A suspension is lifted by reinstating; a termination is final. Each change is audited with before and after."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from compliance.errors import NotAllowed
from compliance.models import AccountStanding, Standing
from compliance.services import account_standing_set
from compliance.services import sanctions as sanctions_module
from poker_site.core.sockets import session_still_signs_in
from tests.compliance.desk.support import case_about, everything_that_records, player
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


def member(name: str) -> Any:
    user = player(name)
    user.set_password(PASSWORD)
    user.save()
    return user


def log_in(username: str) -> Any:
    return Client().post("/accounts/log-in/", {"username": username, "password": PASSWORD})


def test_a_suspended_player_is_signed_out_everywhere_and_told_why_at_log_in(
    reviewer: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    alice = member("alice")
    case = case_about(reviewer, alice)
    session = logged_in(alice)
    assert session.get("/wallet/").status_code == 200
    closed: list[tuple[int, str]] = []
    monkeypatch.setattr(sanctions_module, "_close_sockets", lambda user_id, message: closed.append((user_id, message)))

    with django_capture_on_commit_callbacks(execute=True):
        response = logged_in(reviewer).post(
            f"/compliance/cases/{case.pk}/standing/",
            {
                "standing-player": alice.pk,
                "standing-state": Standing.SUSPENDED,
                "standing-reason": "Software that played for you was detected (FRD-06, FRD-09).",
            },
        )

    assert response.status_code == 302
    assert closed == [(alice.pk, sanctions_module.SOCKET_CLOSING_MESSAGE[Standing.SUSPENDED])]
    assert session.get("/wallet/").status_code == 302  # the open session signs nobody in any more
    assert session.get("/api/wallet/balance/").status_code == 403
    socket_scope = {"session": session.session}
    assert not session_still_signs_in(socket_scope, alice.pk)
    refused = log_in("alice")
    assert refused.status_code == 200
    assert "This account is suspended: Software that played for you was detected" in refused.content.decode()
    entry = AuditEntry.objects.get(action="account_suspended")
    assert (entry.actor, entry.player, entry.target) == (reviewer, alice, f"compliance.accountstanding:{alice.pk}")
    assert entry.before == {"state": Standing.ACTIVE, "reason": ""}
    assert entry.after["state"] == Standing.SUSPENDED


def test_a_reinstated_player_logs_in_again(reviewer: Any) -> None:
    alice = member("alice")
    case = case_about(reviewer, alice)
    account_standing_set(case, reviewer, alice, Standing.SUSPENDED, "Collusion under investigation (FRD-11)")
    account_standing_set(case, reviewer, alice, Standing.ACTIVE, "Investigation found nothing")
    assert log_in("alice").status_code == 302


def test_a_termination_is_final_and_a_second_change_is_refused(reviewer: Any) -> None:
    alice = member("alice")
    case = case_about(reviewer, alice)
    account_standing_set(case, reviewer, alice, Standing.TERMINATED, "Chip dumping confirmed (FRD-14)")
    before = everything_that_records()
    with pytest.raises(NotAllowed, match="stays terminated"):
        account_standing_set(case, reviewer, alice, Standing.ACTIVE, "Appeal")
    assert everything_that_records() == before
    assert "This account has been closed" in log_in("alice").content.decode()


def test_setting_the_state_an_account_already_has_is_refused(reviewer: Any) -> None:
    alice = member("alice")
    case = case_about(reviewer, alice)
    account_standing_set(case, reviewer, alice, Standing.UNDER_REVIEW, "Routine review")
    before = everything_that_records()
    with pytest.raises(NotAllowed, match="already"):
        account_standing_set(case, reviewer, alice, Standing.UNDER_REVIEW, "Routine review")
    assert everything_that_records() == before


def test_an_unknown_state_is_refused_and_changes_nothing(reviewer: Any) -> None:
    alice = member("alice")
    case = case_about(reviewer, alice)
    before = everything_that_records()
    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/standing/",
        {"standing-player": alice.pk, "standing-state": "banned-forever", "standing-reason": "x"},
    )
    assert response.status_code == 400
    assert everything_that_records() == before
    assert not AccountStanding.objects.filter(user=alice).exists()
