"""A player's e-mail address changes by a proposal a second staff member approves (issue 30, LOB-10), as a kind of
rule of :mod:`poker_site.core.rule_changes`.

The address on file is where password-reset links go (:mod:`poker_site.accounts.password_reset`): one support agent
who could change it could then reset the password and take the account over, wallet included. So support proposes a
new address on the player's admin page (the page ``accounts_user_propose_email``, reason required) and another staff
member with ``accounts.change_user`` approves it (never the proposer); only then it changes. Administrators
(superusers) may still edit the address on the account's page directly.

A proposal names the account (``accounts.user:<pk>``), the new address (``email``) and the address it changes from
(``from``: the address on file when it was proposed, recorded by the check). It is refused (when proposed, and again
when approved) for an address that is not valid, that another account uses (compared without case; the database's
unique index settles an account taking it between the check and the change, and the approval is refused the same way),
that is the address on file already, and for an account that holds privileges (staff, superuser, any group or
permission: administrators manage those). A new proposal is refused while another one for the account awaits approval
(the account's row is locked while proposing, so two proposals at once queue), and an approval is refused when the
address on file is no longer the one the proposal changes from (another proposal approved meanwhile, or an
administrator's direct edit): approving a stale proposal would silently put an older address back. Applied, the
address changes and a notice goes to the old address and to the new one, once the transaction commits.
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from poker_site.accounts.models import User, violates_email_uniqueness
from poker_site.accounts.roles import holds_privileges
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, target_row

TARGET_PREFIX = "accounts.user:"
CHANGE_USERS = "accounts.change_user"
EMAIL_MAX_LENGTH = 254
NOTICE_SUBJECT = "accounts/email_changed_subject.txt"
NOTICE_BODY = "accounts/email_changed.txt"
PLAYER_EMAIL_KIND = "player_email"


def email_normalised(value: object) -> str:
    """The address as sign-up stores it: without surrounding blanks, in lower case."""
    return value.strip().lower() if isinstance(value, str) else ""


def _account(target: str, rows: Any = None) -> User:
    return target_row(target, TARGET_PREFIX, rows if rows is not None else User.objects.all(), "account")


def email_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    """Proposed (``changes`` without ``from``): ``from`` recorded (a second proposal while one is pending is refused
    by the kind's ``one_pending_per_target``). Approved (the stored changes, with ``from``): refused unless the
    address on file is still ``from``. Both: the new address valid, not in use, not the current one; the account
    holds no privileges."""
    unknown = set(changes) - {"email", "from"}
    if unknown:
        raise RuleChangeRefused(f"Only the e-mail address changes here, not: {', '.join(sorted(unknown))}.")
    proposing = "from" not in changes
    user = _account(target, User.objects.select_for_update())  # the address checked is the one the approval changes
    new = email_normalised(changes.get("email"))
    try:
        if len(new) > EMAIL_MAX_LENGTH:
            raise ValidationError("too long")
        validate_email(new)
    except ValidationError:
        raise RuleChangeRefused(f"{new or 'An empty address'!r} is not a valid e-mail address.") from None
    if holds_privileges(user):
        raise RuleChangeRefused(
            f"{user.username} is staff or holds privileges: only an administrator changes its e-mail address."
        )
    old = user.email or ""
    if not proposing and email_normalised(changes.get("from")) != email_normalised(old):
        raise RuleChangeRefused(
            f"The address of {user.username} changed since this was proposed (from {changes.get('from') or '(none)'} "
            f"to {old or '(none)'}): reject this proposal and propose again if still needed."
        )
    if new == email_normalised(old):
        raise RuleChangeRefused(f"{new} is already the address on file of {user.username}: nothing would change.")
    if User.objects.filter(email__iexact=new).exclude(pk=user.pk).exists():
        raise RuleChangeRefused(in_use_message(new))
    return CheckedChange(
        summary=f"{user.username}: e-mail {old or '(none)'} → {new}",
        before={"email": old},
        changes={"email": new, "from": old},
    )


def in_use_message(address: str) -> str:
    return f"Another account uses {address}: an address belongs to one account."


def email_change_apply(target: str, changes: dict[str, Any]) -> None:
    """Put the approved address on file and tell the old and the new one. ``RuleChangeRefused`` when the database
    refuses it: another account took the address after the check (a sign-up or an edit at the same moment)."""
    user = _account(target, User.objects.select_for_update())
    old = user.email or ""
    user.email = changes["email"]
    try:
        user.save(update_fields=["email"])
    except IntegrityError as error:
        if not violates_email_uniqueness(error):
            raise
        raise RuleChangeRefused(in_use_message(user.email)) from error
    email_changed_notify(user, old)


def masked(address: str) -> str:
    """``alice@example.com`` → ``a***@example.com``: enough for the owner to recognise, little for anyone else."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}" if domain else "***"


def email_changed_notify(user: User, old: str) -> None:
    """Once the transaction commits, tell the old address and the new one that the account's address changed (the
    old one hears of it even though it is no longer the account's: its owner is whom a takeover would keep in the
    dark). Each message is sent on its own; a failure to send is logged and the change stands."""
    new = user.email or ""
    shown = {"old": masked(old) if old else "(none)", "new": masked(new)}
    for address in dict.fromkeys(address for address in (old, new) if address):
        context = {"user": user, "address": address, "to_old": address == old, **shown}
        transaction.on_commit(functools.partial(_notice_send, address, context), robust=True)


def _notice_send(address: str, context: dict[str, Any]) -> None:
    subject = "".join(render_to_string(NOTICE_SUBJECT, context).splitlines())
    send_mail(subject, render_to_string(NOTICE_BODY, context), None, [address])


PLAYER_EMAIL = RuleKind(
    name=PLAYER_EMAIL_KIND,
    label="a player's e-mail address",
    propose_permission=CHANGE_USERS,
    approve_permission=CHANGE_USERS,
    check=email_change_check,
    apply=email_change_apply,
    one_pending_per_target=True,
)
