"""Counts failed log-ins for the brute-force lock."""

from typing import Any

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver

from poker_site.accounts import throttle


@receiver(user_login_failed, dispatch_uid="accounts.count_failed_login")
def count_failed_login(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    username = credentials.get("username")
    if username:
        throttle.record_failure(str(username), throttle.client_address(request))
