"""Issue 30 (QA pass on player accounts, finding 3): an e-mail address belongs to one account, since password-reset
links go to it. Sign-up, the e-mail change proposals and the admin checked that with a query, which two requests at
once both pass; the database now holds it too (a unique index on the lower-cased address, empty addresses apart).
Sign-up, the approval of a proposal and an administrator's edit that lose that race answer with a clear message, not
a server error, and change nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import IntegrityError, connection, transaction

from poker_site.accounts.models import EMAIL_UNIQUE_CONSTRAINT, User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import rule_change_propose
from tests.accounts.support import PASSWORD, no_server_error, player, two_sign_ups_at_once
from tests.accounts.test_a_players_e_mail_changes_only_when_a_second_staff_member_approves import (
    approve_page,
    change_page,
    the_form_as_posted,
)
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.waiting import GENEROUS_SECONDS, eventually, sessions_waiting_for_a_lock
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

TAKEN = "An account with this email already exists."


def another_session_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:  # inside a transaction PostgreSQL answers from its first look at the sessions
        cursor.execute("SELECT pg_stat_clear_snapshot()")
    return sessions_waiting_for_a_lock() > 0


def while_another_account_takes(email: str, request: Callable[[], Any]) -> Any:
    """Make ``request`` on a thread of its own while another transaction has made an account with ``email`` and not
    yet committed it: the request's checks cannot see that account, its write waits for it on the unique index, and
    the other transaction commits once the write waits. The race only the database can settle."""
    answers: list[Any] = []

    def run() -> None:
        try:
            answers.append(request())
        except BaseException as error:  # handed to the test, which raises it
            answers.append(error)
        finally:
            connection.close()

    with transaction.atomic():
        User.objects.create_user("olga", email, PASSWORD)
        thread = threading.Thread(target=run)
        thread.start()
        eventually(
            lambda: not thread.is_alive() or another_session_waits_for_a_lock(),
            what="the request neither waited for the new account's transaction nor ended",
        )
    thread.join(GENEROUS_SECONDS)
    assert not thread.is_alive(), "the request hung"
    (answer,) = answers
    if isinstance(answer, BaseException):
        raise answer
    return answer


def test_the_database_refuses_a_second_account_with_the_same_address_in_another_case() -> None:
    player("pat")

    with pytest.raises(IntegrityError, match=EMAIL_UNIQUE_CONSTRAINT), transaction.atomic():
        User.objects.create_user("impostor", "PAT@players.example", PASSWORD)

    assert list(User.objects.filter(email__iexact="pat@players.example").values_list("username", flat=True)) == ["pat"]


def test_any_number_of_accounts_may_have_no_address() -> None:
    User.objects.create_user("first", "", PASSWORD)
    User.objects.create_user("second", "", PASSWORD)

    assert User.objects.filter(email="").count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_registrations_with_the_same_address_in_another_case_leave_one_account_and_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = two_sign_ups_at_once(monkeypatch, ("pat", "pat@players.example"), ("patricia", "PAT@Players.Example"))

    no_server_error(answers)
    assert sorted(answer.status_code for answer in answers) == [302, 400]
    (refused,) = [answer for answer in answers if answer.status_code == 400]
    assert TAKEN in refused.content.decode()
    assert User.objects.filter(email__iexact="pat@players.example").count() == 1
    assert User.objects.filter(username__in=["pat", "patricia"]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_approving_an_address_another_account_took_meanwhile_is_refused_clearly_and_changes_nothing() -> None:
    pat = player()
    proposer, approver = staff_member(SUPPORT_STAFF, "sue"), staff_member(SUPPORT_STAFF, "sid")
    proposal = rule_change_propose(
        proposer, "player_email", f"accounts.user:{pat.pk}", {"email": "pat@new.example"}, "Ticket 5130"
    )
    approving = logged_in(approver)

    answer = while_another_account_takes(
        "Pat@New.Example", lambda: approving.post(approve_page(proposal), {"note": "Checked"})
    )

    assert answer.status_code == 200
    assert "Another account uses pat@new.example" in " ".join(answer.context["form"].non_field_errors())
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"
    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.PENDING
    assert not AuditEntry.objects.filter(action="rule_change_approved").exists()
    assert RuleChangeProposal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_administrators_edit_to_an_address_another_account_took_meanwhile_is_refused_clearly() -> None:
    pat = player()
    administrator = logged_in(staff_member(ADMINISTRATORS, "the-admin"))
    posted = the_form_as_posted(administrator, pat, email="pat@new.example")

    answer = while_another_account_takes("PAT@new.example", lambda: administrator.post(change_page(pat), posted))

    assert answer.status_code == 302
    assert answer["Location"] == change_page(pat)
    shown = [str(message) for message in get_messages(answer.wsgi_request)]
    assert any("Another account uses pat@new.example" in message for message in shown), shown
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"
    assert not AuditEntry.objects.filter(target=f"accounts.user:{pat.pk}").exists()
