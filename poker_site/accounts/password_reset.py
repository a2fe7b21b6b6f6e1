"""Passwords are reset by their owner, through a link sent to the e-mail address on file (issue 30, LOB-10).

Staff never choose a player's password: a rogue or phished support agent who could set one (or change the e-mail
address and then reset it) could take any player's account over, and its wallet with it. So:

* The player asks on the public "Forgot your password?" page (:class:`poker_site.accounts.views.PasswordResetView`,
  linked from the log-in page; :func:`password_reset_request`). The answer is the same whether the address belongs to
  an account or not, and takes the same time: the request only counts itself and, once that commits, hands the
  address to a Celery task (:func:`poker_site.accounts.tasks.password_reset_links_mail`), which looks the accounts up
  and mails the link (:func:`password_reset_links_send`) after its own commit. Requests are throttled per client
  (``PASSWORD_RESET_ADDRESS_LIMIT`` over every address and ``PASSWORD_RESET_EMAIL_LIMIT`` per e-mail address asked
  for, per ``PASSWORD_RESET_WINDOW_SECONDS``, counted atomically in Redis by
  :func:`poker_site.accounts.throttle.request_counted`; over a limit a 429 that says so), so a stranger uses up only
  their own; the links actually sent to an address are limited apart
  (``PASSWORD_RESET_SENT_LIMIT``, none again while one sent within ``PASSWORD_RESET_RESEND_SECONDS`` still works),
  which never leaves the player without a working link. It is the players' page: an account that holds privileges
  gets no link from it (the answer is that of an unknown address; the refused request is audited), administrators
  reset those in the admin.
* Support sends the link from the player's admin page (:func:`password_reset_link_send`, the page
  ``accounts_user_send_password_reset``), with a written reason kept in the audit entry ``password_reset_link_sent``.
  The link goes to the address on file only, which support cannot change alone (a new e-mail address is a proposal a
  second staff member approves: :mod:`poker_site.accounts.email_changes`). Never to an account that holds privileges
  (staff, superuser, any group or permission): those are administrators' to manage. At most
  ``SUPPORT_LINKS_PER_PLAYER`` links per player in ``SUPPORT_LINKS_WINDOW_SECONDS`` (by all staff together), counted
  in Redis like the public page: more would be mail-bombing, or cover for a phishing message.
* The link's scheme, host and port come from the ``PUBLIC_SITE_URL`` setting when it is set (:func:`public_site`),
  else from the request (whose port ALLOWED_HOSTS does not check: a request to another port of the host would mail a
  link there).
* The link carries Django's token (``default_token_generator``): valid ``PASSWORD_RESET_TIMEOUT`` seconds and once
  only (the token is made from the password hash and the last log-in, so a new password or a log-in spends it). The
  player chooses the new password on a public page (:class:`poker_site.accounts.views.PasswordResetConfirmView`),
  written to the audit log as ``password_reset_by_player``; a new password logs out every other session of the
  account (Django's session hash) and, once it commits, closes the account's open game sockets in every process
  (:func:`sockets_close_after_password_change`): a hijacker's table socket would otherwise act until its session
  re-check, minutes later.

Administrators (superusers) alone may still set a password directly, with a reason (the admin's password page,
``auth_user_password_change``; :class:`poker_site.accounts.admin.UserAdmin`); that closes the account's game sockets
too.
"""

from __future__ import annotations

import functools
import logging
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from poker_site.accounts.models import User
from poker_site.accounts.roles import holds_privileges

EMAIL_TEMPLATE = "registration/password_reset_email.txt"
SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
CHANGE_USERS = "accounts.change_user"
PUBLIC_REQUESTS_THROTTLE = "password-reset"
PUBLIC_LINKS_THROTTLE = "password-reset-sent"
LINKS_VALID_TOGETHER_SALT = "poker_site.accounts.password_reset.links_valid_together"
PRIVILEGED_ACCOUNT_REFUSED = "password_reset_refused_privileged_account"
SUPPORT_LINKS_THROTTLE = "password-reset-support"
SUPPORT_LINKS_PER_PLAYER = 3
SUPPORT_LINKS_WINDOW_SECONDS = 3600
SOCKETS_CLOSING_MESSAGE = "The password of your account was changed: log in again."

logger = logging.getLogger(__name__)


class PasswordResetRefused(Exception):
    """A reset link was not sent; nothing was recorded. The message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def sockets_close_after_password_change(user_id: int) -> None:
    """Once the transaction commits (at once outside one), close every open game socket of the account whose password
    just changed, in every process (:func:`poker_site.core.account_sockets.account_sockets_close`, as a suspension
    does): its HTTP sessions are logged out by the new password, its sockets would otherwise go on acting until their
    session re-check."""
    transaction.on_commit(functools.partial(_sockets_close, int(user_id)), robust=True)


def _sockets_close(user_id: int) -> None:
    from poker_site.core.account_sockets import account_sockets_close

    account_sockets_close(user_id, SOCKETS_CLOSING_MESSAGE)


def public_site() -> tuple[str, str] | None:
    """``(protocol, host[:port])`` of the ``PUBLIC_SITE_URL`` setting, or None when it is empty (links then follow the
    request: its scheme and Host header, whose host is one of ALLOWED_HOSTS but whose port nothing checks)."""
    url = settings.PUBLIC_SITE_URL
    if not url:
        return None
    protocol, _, domain = url.partition("://")
    return protocol, domain


def link_site(request: HttpRequest) -> tuple[str, str]:
    """``(protocol, host[:port])`` the reset links are built with: ``PUBLIC_SITE_URL`` when set, else as the request
    reached it (its host is one of ALLOWED_HOSTS: Django refuses any other)."""
    return public_site() or ("https" if request.is_secure() else "http", request.get_host())


def reset_link_context(user: User, site: tuple[str, str]) -> dict[str, Any]:
    """What the reset e-mail's templates read: the link's parts (the account's id and a fresh token) and the site's
    address ``site`` (:func:`link_site`)."""
    protocol, host = site
    return {
        "email": user.email,
        "domain": host,
        "site_name": host,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": protocol,
    }


class PasswordResetThrottled(Exception):
    """The public page's request was over a limit of its client: nothing was looked up or sent. ``seconds``: until
    the longest exhausted counter's window ends."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"throttled for {seconds} s")
        self.seconds = seconds


def _casefolded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def accounts_reset_by_email(email: str) -> list[User]:
    """The active accounts with a usable password whose address is ``email`` (without case), as Django's
    ``PasswordResetForm.get_users`` finds them: the database's case-insensitive match is checked again with Unicode
    case folding, so an address that only matches through a database collation quirk is no match (CVE-2019-19844)."""
    wanted = _casefolded(email)
    return [
        user
        for user in User.objects.filter(email__iexact=email, is_active=True)
        if user.has_usable_password() and _casefolded(user.email) == wanted
    ]


def links_valid_together(user: User) -> str:
    """What every reset link made for ``user`` now depends on, as one keyed hash: Django's token is made from the
    account's id, password hash, last log-in and e-mail address, so the links sent while these stay the same all
    work (within ``PASSWORD_RESET_TIMEOUT``) and a new password, a log-in or a new address spends them all. Keyed
    with the site's secret: the password hash never reaches Redis, even hashed alone."""
    last_login = user.last_login.isoformat() if user.last_login else ""
    value = f"{user.pk}|{user.password}|{last_login}|{(user.email or '').casefold()}"
    return salted_hmac(LINKS_VALID_TOGETHER_SALT, value).hexdigest()


@transaction.atomic(durable=True)
def password_reset_request(email: str, request: HttpRequest) -> None:
    """The public "Forgot your password?" page asked for a link to ``email``: counted against the client's limits,
    then, once this transaction commits, handed to a Celery task that sends a link to each player account with the
    address (:func:`password_reset_links_send`). The page's answer is the same whatever the address.

    Nothing on the request's path depends on the address: no account is looked up, no mail is sent, the task is
    queued for every address alike. An address that belongs to an account is answered as quickly as one that does
    not, so a stranger timing the page learns nothing (issue 30: sending the mail in the request made a known
    address answer as much slower as the mail server's round trips). A transaction that fails queues nothing.

    **Requests, per client** (counted before anything else, so every address counts alike; over a limit
    ``PasswordResetThrottled``, a 429, and nothing is queued): ``PASSWORD_RESET_ADDRESS_LIMIT`` per client address
    over every e-mail address, and ``PASSWORD_RESET_EMAIL_LIMIT`` per (e-mail address, client address), per
    ``PASSWORD_RESET_WINDOW_SECONDS``. A client is counted as the log-in lock counts it (an IPv6 address by its /64).
    A stranger over them is refused; the player, asking from elsewhere, is not (issue 30, QA finding 2: one limit per
    e-mail address let anyone asking three times leave the player without a reset for an hour). The links actually
    sent are limited apart, per account, by the task (:func:`password_reset_links_send`)."""
    from poker_site.accounts import throttle

    email = email.strip()
    client = throttle.counted_address(request)
    seconds = throttle.request_counted(
        PUBLIC_REQUESTS_THROTTLE,
        [
            (f"client:{client}", settings.PASSWORD_RESET_ADDRESS_LIMIT),
            (f"email-from-client:{email.casefold()}|{client}", settings.PASSWORD_RESET_EMAIL_LIMIT),
        ],
        settings.PASSWORD_RESET_WINDOW_SECONDS,
    )
    if seconds:
        raise PasswordResetThrottled(seconds)
    language = translation.get_language() or settings.LANGUAGE_CODE  # the page's: the e-mail is written in it
    _links_send_after_commit(email, link_site(request), throttle.client_address(request), language)


def _links_send_after_commit(email: str, site: tuple[str, str], client: str, language: str) -> None:
    transaction.on_commit(functools.partial(_links_send_queue, email, site, client, language), robust=True)


def _links_send_queue(email: str, site: tuple[str, str], client: str, language: str) -> None:
    from poker_site.accounts.tasks import password_reset_links_mail

    protocol, host = site
    try:
        password_reset_links_mail.delay(email, protocol, host, client, language)
    except Exception:  # the broker is down: the page answered as ever (it never tells an account exists)
        logger.exception("The password-reset request could not be queued; no link was sent.")


@transaction.atomic(durable=True)
def password_reset_links_send(email: str, site: tuple[str, str], client: str) -> None:
    """What the public page's request (:func:`password_reset_request`) does off its path, in a Celery task: send a
    reset link, built for ``site`` (:func:`link_site` of the request) like support's, to each player account that has
    the address ``email`` (active, with a usable password). ``client``: the address of the client that asked.

    The links go once this transaction commits (a transaction that fails sends nothing). Against mail-bombing the
    links sent are limited per account's address (nothing in the page's answer shows it): none while one sent within
    ``PASSWORD_RESET_RESEND_SECONDS`` still works, and at most ``PASSWORD_RESET_SENT_LIMIT`` in a window of
    ``PASSWORD_RESET_WINDOW_SECONDS`` (or ``PASSWORD_RESET_TIMEOUT`` when shorter). Both count only while the links
    sent stay valid together (:func:`links_valid_together`: same password, last log-in and address). So a link is
    held back only while one sent within that window, hence still valid, sits in the player's mailbox: strangers
    asking from any number of networks send the player working links, at most the limit, and never leave them
    without one; once a link is used (or the player logs in) the count starts again and a new link goes at once. The
    link is counted after the commit, as it is sent; one that could not be sent is logged and given back to the
    count.

    Support's links (:func:`password_reset_link_send`) count on their own per player and neither count here nor are
    held back by these counts, so strangers cannot block support, and support cannot block the page.

    An account that holds privileges (staff, superuser, any group or permission) gets no link: it is treated as an
    address no account has, and the refused request is written to the audit log
    (``password_reset_refused_privileged_account``, no actor, the client's address) in this transaction. Whoever
    controls or guesses a staff mailbox must not hold a reset path to a staff account on a public page;
    administrators reset those in the admin."""
    from wallet.services.audit import audit_record

    for user in accounts_reset_by_email(email):
        if holds_privileges(user):
            audit_record(
                action=PRIVILEGED_ACCOUNT_REFUSED,
                actor=None,
                target=f"accounts.user:{user.pk}",
                reason="The public page sends no reset link to an account that holds privileges: an administrator "
                "resets its password in the admin.",
                details={"client": client},
            )
            continue
        _link_mail_after_commit(user, site)


def _link_mail_after_commit(user: User, site: tuple[str, str]) -> None:
    transaction.on_commit(functools.partial(_link_mail_within_limits, user, site), robust=True)


def _link_mail_within_limits(user: User, site: tuple[str, str]) -> None:
    """Send ``user`` a link unless the links sent to the address are at their limit: counted as it goes, so a
    transaction that failed counts none; given back when the mail server refused it."""
    from poker_site.accounts import throttle

    subject = links_valid_together(user)
    sending = throttle.sending_reserved(
        PUBLIC_LINKS_THROTTLE,
        subject,
        pause=settings.PASSWORD_RESET_RESEND_SECONDS,
        limit=settings.PASSWORD_RESET_SENT_LIMIT,
        # never longer than a link stays valid: a link held back always has a working one sent before it
        window=min(settings.PASSWORD_RESET_WINDOW_SECONDS, settings.PASSWORD_RESET_TIMEOUT),
    )
    if sending is not throttle.Sending.RESERVED:
        return
    if not _reset_link_mailed(user, site):
        throttle.sending_given_back(PUBLIC_LINKS_THROTTLE, subject)


def reset_link_mail(user: User, site: tuple[str, str]) -> None:
    """Send ``user`` the password-reset e-mail (:func:`reset_link_context`) at the address on file; smtplib's errors
    (``OSError``) go to the caller, who decides what a link that did not go means."""
    context = reset_link_context(user, site)
    subject = "".join(render_to_string(SUBJECT_TEMPLATE, context).splitlines())
    send_mail(subject, render_to_string(EMAIL_TEMPLATE, context), None, [user.email])


def _reset_link_mailed(user: User, site: tuple[str, str]) -> bool:
    try:
        reset_link_mail(user, site)
    except OSError:  # smtplib's errors: logged; the page answered long ago and never tells that an account exists
        logger.exception("The password-reset link to account %s could not be sent.", user.pk)
        return False
    return True


@transaction.atomic
def password_reset_link_send(actor: User, user: User, reason: str, request: HttpRequest) -> None:
    """Send ``user`` a password-reset link at the address on file, for staff member ``actor`` with a written
    ``reason``; audited in the same transaction (an e-mail that could not be sent records nothing).

    ``PasswordResetRefused`` without the permission to change users, for an account that holds privileges (unless
    ``actor`` is an administrator), without a reason, for an account without an e-mail address or not active, and
    once ``SUPPORT_LINKS_PER_PLAYER`` links went to the account in ``SUPPORT_LINKS_WINDOW_SECONDS`` (a refused
    request is not counted; one that fails to send is)."""
    from poker_site.accounts import throttle
    from wallet.services.audit import audit_record

    if not actor.is_active or not actor.has_perm(CHANGE_USERS):
        raise PasswordResetRefused(f"{actor.get_username()} may not send password-reset links ({CHANGE_USERS}).")
    if holds_privileges(user) and not actor.is_superuser:
        raise PasswordResetRefused("This account holds privileges: only an administrator manages its password.")
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise PasswordResetRefused("A written reason is required to send a password-reset link.")
    if not user.email:
        raise PasswordResetRefused("The account has no e-mail address on file: no link can be sent.")
    if not user.is_active:
        raise PasswordResetRefused("The account is not active: a new password would not let the player log in.")
    seconds = throttle.request_counted(
        SUPPORT_LINKS_THROTTLE, [(f"player:{user.pk}", SUPPORT_LINKS_PER_PLAYER)], SUPPORT_LINKS_WINDOW_SECONDS
    )
    if seconds:
        minutes = max(1, (seconds + 59) // 60)
        raise PasswordResetRefused(
            f"{SUPPORT_LINKS_PER_PLAYER} password-reset links were already sent to {user.username} within "
            f"{SUPPORT_LINKS_WINDOW_SECONDS // 60} minutes: no more now (try again in {minutes} minutes). "
            "If the player still gets none, check the address on file rather than sending more."
        )
    audit_record(
        action="password_reset_link_sent",
        actor=actor,
        player=user,
        reason=reason,
        target=f"accounts.user:{user.pk}",
        details={"sent_to": user.email},
    )
    try:  # the public page only logs a failure; support must know the link did not go
        reset_link_mail(user, link_site(request))
    except OSError as error:  # smtplib's errors are OSErrors: nothing was sent, so nothing is recorded
        raise PasswordResetRefused(f"The e-mail could not be sent ({error}); try again later.") from error
