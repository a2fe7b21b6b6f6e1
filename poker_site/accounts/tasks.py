"""Celery tasks of the accounts.

* ``password_reset_links_mail`` — the public "Forgot your password?" page's request, off the request's path: the
  accounts with the address are looked up and the links mailed here (:func:`poker_site.accounts.password_reset.
  password_reset_links_send`), so the page answers every address in the same time. Queued once the request's
  transaction commits (:func:`poker_site.accounts.password_reset.password_reset_request`). Run twice (a worker killed
  after sending, the message delivered again), the second run sends nothing: the link just sent holds the next one
  back for ``PASSWORD_RESET_RESEND_SECONDS``.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError
from django.utils import translation


@shared_task(
    name="poker_site.accounts.tasks.password_reset_links_mail",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def password_reset_links_mail(email: str, protocol: str, host: str, client: str, language: str) -> None:
    """Mail the reset links the public page was asked for, in the language the page was read in."""
    from poker_site.accounts.password_reset import password_reset_links_send

    with translation.override(language):
        password_reset_links_send(email, (protocol, host), client)
