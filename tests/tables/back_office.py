"""Helpers for the back-office tests: staff users, and running an admin action the way a browser does."""

from __future__ import annotations

from typing import Any

from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client

HANDS = "/admin/games/hand/"
TABLES = "/admin/games/table/"


def support_agent(username: str = "support-ann") -> Any:
    """A staff member of the "Support staff" group (fresh instance: no cached permissions)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from poker_site.accounts.roles import SUPPORT_STAFF, ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user(username=username, password="x-unused-password", is_staff=True)
    user.groups.add(Group.objects.get(name=SUPPORT_STAFF))
    return get_user_model().objects.get(pk=user.pk)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def choose_action(client: Client, changelist: str, action: str, ids: list[int]) -> HttpResponse:
    """Select rows on the changelist and run ``action`` (the first step: the confirmation page, or a redirect)."""
    return client.post(changelist, {"action": action, "_selected_action": ids, "index": 0})  # type: ignore[return-value]


def confirm_action(
    client: Client, changelist: str, action: str, ids: list[int], reason: str, **hidden: list[Any]
) -> HttpResponse:
    """Submit the confirmation page of ``action`` with ``reason`` (``hidden``: the page's other hidden values)."""
    data: dict[str, Any] = {"action": action, "_selected_action": ids, "confirm": "yes", "reason": reason, **hidden}
    return client.post(changelist, data)  # type: ignore[return-value]


def run_action(client: Client, changelist: str, action: str, ids: list[int], reason: str) -> HttpResponse:
    """Both steps, posting back what the confirmation page carries; returns the final response."""
    page = choose_action(client, changelist, action, ids)
    if page.status_code != 200:
        return page
    hidden = {"hand": [value for name, value in page.context["hidden"] if name == "hand"]}
    return confirm_action(client, changelist, action, ids, reason, **hidden)


def messages_of(response: HttpResponse) -> list[str]:
    """The messages the admin queued for the user with ``response``."""
    return [str(message) for message in get_messages(response.wsgi_request)]  # type: ignore[attr-defined]
