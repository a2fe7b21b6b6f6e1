"""Issue 30, four eyes, QA finding 4 step by step: an administrator proposes €5,000 of goodwill to a player, adds an
account and ticks "superuser status" on it, then tries to approve the money with that account. The account is no
administrator (its promotion only waits for another administrator), so the approval is refused and nothing is
booked."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from tests.accounts.privileges import NONE, REASON, account_form, change_page, grants_waiting, privileges
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from wallet.errors import NotPermitted
from wallet.models import AdjustmentCategory, AdjustmentProposal, ProposalStatus
from wallet.services import adjustment_approve, adjustment_propose, player_cash_account

pytestmark = pytest.mark.django_db


def test_an_administrator_who_adds_a_superuser_cannot_approve_their_own_money_with_it() -> None:
    administrator = staff_member(ADMINISTRATORS, "admin")
    bob = User.objects.create_user(username="bob", email="bob@example.com", password="bob-passphrase-42")
    money = adjustment_propose(
        administrator, player_cash_account(bob), 5_000_00, AdjustmentCategory.GOODWILL, "Goodwill", "qa-finding-4"
    )
    client = logged_in(administrator)
    added = client.post(
        "/admin/accounts/user/add/",
        {
            "username": "admin2",
            "password1": "a-long-enough-passphrase-42",
            "password2": "a-long-enough-passphrase-42",
            "usable_password": "true",
            "is_staff": "on",
            "is_superuser": "on",
        },
    )
    admin2 = User.objects.get(username="admin2")
    promoted = client.post(
        change_page(admin2), account_form(admin2, is_staff=True, is_superuser=True, privileges_reason=REASON)
    )

    assert (added.status_code, promoted.status_code) == (302, 302)
    assert privileges(admin2) == NONE
    assert len(grants_waiting()) == 1
    with pytest.raises(NotPermitted):
        adjustment_approve(money, User.objects.get(pk=admin2.pk))
    money.refresh_from_db()
    assert money.status == ProposalStatus.PENDING
    assert AdjustmentProposal.objects.filter(status=ProposalStatus.APPROVED).count() == 0
    assert player_cash_account(bob).balance == 0
