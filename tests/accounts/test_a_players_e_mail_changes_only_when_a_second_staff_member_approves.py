"""Issue 30 (LOB-10; four eyes): a player's e-mail address, where password-reset links go, is read-only to support
on the player's page. A new address is proposed with a reason and changes only when another staff member with
``accounts.change_user`` approves it (a rule change of kind ``player_email``); the proposer cannot approve it;
compliance reviewers can neither propose nor approve. An invalid address, one another account uses, the address on
file and an account that holds privileges are refused. Once changed, the old and the new address get a notice.
Administrators still edit the address directly (the old address is told too)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.accounts.support import player
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

KIND = "player_email"


def change_page(user: User) -> str:
    return f"/admin/accounts/user/{user.pk}/change/"


def propose_page(user: User) -> str:
    return f"/admin/accounts/user/{user.pk}/propose-email/"


def approve_page(proposal: RuleChangeProposal) -> str:
    return f"/admin/core/rulechangeproposal/{proposal.pk}/approve/"


def the_form_as_posted(client: Client, user: User, **changes: Any) -> dict[str, Any]:
    """The account's change form as the browser posts it, with ``changes``."""
    form = client.get(change_page(user)).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name in form.fields}
    for name in ("date_joined", "last_login"):
        data.pop(name, None)
    when = {"date_joined_0": user.date_joined.strftime("%Y-%m-%d"), "date_joined_1": "10:00:00"}
    return {**data, **when, "last_login_0": "", "last_login_1": "", "is_active": "on", **changes}


def test_support_sees_the_address_read_only_with_a_link_to_propose_a_new_one() -> None:
    pat = player()
    client = logged_in(staff_member(SUPPORT_STAFF))

    page = client.get(change_page(pat)).content.decode()
    response = client.post(change_page(pat), the_form_as_posted(client, pat, email="thief@evil.example"))

    assert 'name="email"' not in page
    assert propose_page(pat) in page
    assert response.status_code == 302  # saved, without the e-mail field: a posted address is not even read
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"
    assert mail.outbox == []


def test_support_proposes_a_new_address_the_proposer_cannot_approve_another_agent_does_and_both_addresses_are_told(
    django_capture_on_commit_callbacks: Any,
) -> None:
    pat = player()
    proposer, approver = staff_member(SUPPORT_STAFF, "sue"), staff_member(SUPPORT_STAFF, "sid")

    without_reason = logged_in(proposer).post(propose_page(pat), {"email": "pat@new.example", "reason": " "})
    assert without_reason.status_code == 200
    assert not RuleChangeProposal.objects.exists()
    proposed = logged_in(proposer).post(
        propose_page(pat), {"email": "Pat@New.Example", "reason": "Ticket 5120: the player's old mailbox was closed"}
    )
    proposal = RuleChangeProposal.objects.get(kind=KIND)
    assert proposed.status_code == 302
    assert (proposal.target, proposal.changes, proposal.before) == (
        f"accounts.user:{pat.pk}",
        {"email": "pat@new.example", "from": "pat@players.example"},
        {"email": "pat@players.example"},
    )
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"  # nothing changes until a second staff member approves

    own = logged_in(proposer).post(approve_page(proposal), {"note": ""})
    assert own.status_code == 200
    assert "second staff member" in " ".join(own.context["form"].non_field_errors())
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"
    with django_capture_on_commit_callbacks(execute=True):
        approved = logged_in(approver).post(approve_page(proposal), {"note": "Checked the ID on the ticket"})

    assert approved.status_code == 302
    pat.refresh_from_db()
    assert pat.email == "pat@new.example"
    proposal.refresh_from_db()
    assert (proposal.status, proposal.proposed_by, proposal.decided_by) == (
        RuleChangeStatus.APPROVED,
        proposer,
        approver,
    )
    notices = {message.to[0]: message for message in mail.outbox}
    assert set(notices) == {"pat@players.example", "pat@new.example"}
    to_old = notices["pat@players.example"]
    assert "changed" in to_old.subject
    assert "p***@new.example" in to_old.body
    assert "contact support" in to_old.body
    audited = AuditEntry.objects.filter(target=f"accounts.user:{pat.pk}").order_by("pk")
    assert [(entry.action, entry.actor) for entry in audited] == [
        ("rule_change_proposed", proposer),
        ("rule_change_approved", approver),
    ]
    assert audited[0].reason == "Ticket 5120: the player's old mailbox was closed"


def test_compliance_reviewers_can_neither_propose_nor_approve_a_new_address() -> None:
    pat = player()
    reviewer = staff_member(COMPLIANCE_REVIEWERS)
    client = logged_in(reviewer)

    assert client.post(propose_page(pat), {"email": "pat@new.example", "reason": "Case 12"}).status_code == 403
    assert propose_page(pat) not in client.get(change_page(pat)).content.decode()
    with pytest.raises(RuleChangeRefused, match=r"accounts\.change_user"):
        rule_change_propose(reviewer, KIND, f"accounts.user:{pat.pk}", {"email": "pat@new.example"}, "Case 12")
    proposal = rule_change_propose(
        staff_member(SUPPORT_STAFF), KIND, f"accounts.user:{pat.pk}", {"email": "pat@new.example"}, "Ticket 5121"
    )
    with pytest.raises(RuleChangeRefused, match=r"accounts\.change_user"):
        rule_change_approve(proposal, reviewer)
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"


@pytest.mark.parametrize(
    ("new", "why"),
    [
        ("not-an-address", "not a valid e-mail address"),
        ("", "not a valid e-mail address"),
        ("olga@players.example", "Another account uses"),
        ("OLGA@players.example", "Another account uses"),
        ("PAT@players.example", "already the address on file"),
    ],
)
def test_an_invalid_address_one_in_use_or_the_same_address_is_refused(new: str, why: str) -> None:
    pat = player()
    player("olga")

    with pytest.raises(RuleChangeRefused, match=why):
        rule_change_propose(staff_member(SUPPORT_STAFF), KIND, f"accounts.user:{pat.pk}", {"email": new}, "Ticket 1")
    assert not RuleChangeProposal.objects.exists()


def test_an_address_taken_between_the_proposal_and_the_approval_is_refused_at_the_approval() -> None:
    pat = player()
    proposal = rule_change_propose(
        staff_member(SUPPORT_STAFF, "sue"), KIND, f"accounts.user:{pat.pk}", {"email": "pat@new.example"}, "Ticket 2"
    )
    player("olga", email="pat@new.example")

    with pytest.raises(RuleChangeRefused, match="Another account uses"):
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"))
    pat.refresh_from_db()
    assert pat.email == "pat@players.example"


def test_no_new_address_is_proposed_for_an_account_that_holds_privileges() -> None:
    support = staff_member(SUPPORT_STAFF)
    colleague = staff_member(SUPPORT_STAFF, "colleague")
    client = logged_in(support)

    assert client.post(propose_page(colleague), {"email": "x@evil.example", "reason": "T"}).status_code == 403
    with pytest.raises(RuleChangeRefused, match="only an administrator"):
        rule_change_propose(support, KIND, f"accounts.user:{colleague.pk}", {"email": "x@evil.example"}, "T")
    with pytest.raises(RuleChangeRefused, match="only an administrator"):
        rule_change_propose(
            staff_member(ADMINISTRATORS, "ada"), KIND, f"accounts.user:{colleague.pk}", {"email": "x@evil.example"}, "T"
        )


def test_an_administrator_edits_the_address_directly_and_the_old_address_is_told(
    django_capture_on_commit_callbacks: Any,
) -> None:
    pat = player()
    client = logged_in(staff_member(ADMINISTRATORS, "ada"))
    data = the_form_as_posted(client, pat, email="pat@fixed.example")

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(change_page(pat), data)

    assert response.status_code == 302, response.content.decode()[:2000]
    pat.refresh_from_db()
    assert pat.email == "pat@fixed.example"
    assert sorted(message.to[0] for message in mail.outbox) == ["pat@fixed.example", "pat@players.example"]


def test_a_second_proposal_for_an_account_is_refused_while_one_awaits_approval() -> None:
    """QA pass D, F3: one pending proposal per account; after it is decided, a new one may be made."""
    pat = player()
    sue, sid = staff_member(SUPPORT_STAFF, "sue"), staff_member(SUPPORT_STAFF, "sid")
    first = rule_change_propose(sue, KIND, f"accounts.user:{pat.pk}", {"email": "new1@players.example"}, "Ticket 1")

    with pytest.raises(RuleChangeRefused, match="already awaits approval"):
        rule_change_propose(sid, KIND, f"accounts.user:{pat.pk}", {"email": "new2@players.example"}, "Ticket 2")
    refused = logged_in(sid).post(propose_page(pat), {"email": "new2@players.example", "reason": "Ticket 2"})
    assert refused.status_code == 200
    assert "already awaits approval" in refused.content.decode()
    assert RuleChangeProposal.objects.filter(kind=KIND).count() == 1

    rule_change_approve(first, sid)
    again = rule_change_propose(sid, KIND, f"accounts.user:{pat.pk}", {"email": "new2@players.example"}, "Ticket 3")
    assert again.changes == {"email": "new2@players.example", "from": "new1@players.example"}


def test_a_proposal_is_refused_at_approval_once_the_address_changed_since_it_was_proposed() -> None:
    """QA pass D, F3: an older proposal approved after the address changed (another proposal, or an administrator's
    direct edit) would put an old address back; it is refused and the address stays."""
    pat = player()
    sue, sid = staff_member(SUPPORT_STAFF, "sue"), staff_member(SUPPORT_STAFF, "sid")
    stale = rule_change_propose(sue, KIND, f"accounts.user:{pat.pk}", {"email": "new1@players.example"}, "Ticket 1")
    User.objects.filter(pk=pat.pk).update(email="new2@players.example")  # e.g. an administrator's direct edit

    with pytest.raises(RuleChangeRefused, match="changed since this was proposed"):
        rule_change_approve(stale, sid)

    pat.refresh_from_db()
    assert pat.email == "new2@players.example"
    stale.refresh_from_db()
    assert stale.status == RuleChangeStatus.PENDING


def test_an_administrator_cannot_give_an_account_an_address_another_account_uses(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """QA pass D, F10: a direct edit to another account's address (in other capitals) was saved, and the public reset
    then mailed links for both accounts to it."""
    pat, olga = player(), player("olga")
    client = logged_in(staff_member(ADMINISTRATORS, "ada"))

    with django_capture_on_commit_callbacks(execute=True):
        refused = client.post(change_page(olga), the_form_as_posted(client, olga, email="PAT@Players.Example"))
        kept = client.post(change_page(olga), the_form_as_posted(client, olga, email="olga@players.example"))

    assert refused.status_code == 200
    assert "Another account uses pat@players.example" in refused.content.decode()
    assert kept.status_code == 302  # its own address again is no conflict
    other_edit = client.post(change_page(olga), the_form_as_posted(client, olga, screen_name="Olga2"))
    assert other_edit.status_code == 302  # an unchanged address is not checked again
    # No duplicate from before can exist any more: the database refuses one (issue 30, QA finding 3; see
    # tests/accounts/test_an_e_mail_address_belongs_to_one_account_in_the_database.py).
    olga.refresh_from_db()
    assert olga.email == "olga@players.example"
    assert User.objects.filter(email__iexact=pat.email).count() == 1
    assert mail.outbox == []


def test_sign_up_refuses_an_address_another_account_uses_in_any_case() -> None:
    player()

    page = Client().post(
        "/accounts/sign-up/",
        {
            "username": "copycat",
            "email": "PAT@players.example",
            "password1": "a-long-enough-passphrase-42",
            "password2": "a-long-enough-passphrase-42",
            "date_of_birth": "1990-01-01",
            "accept_terms": "on",
        },
    )

    assert page.status_code == 400
    assert not User.objects.filter(username="copycat").exists()
