"""Template context every page needs for the session reminder: when the next one is due."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone

from poker_site.responsible_gaming.services import session_reminder_due_at


def session_reminder(request: HttpRequest) -> dict[str, object]:
    """``session_reminder_due_in``: seconds until the page shows the session reminder (0: at once), ``None`` when
    nobody is logged in. The page keeps the count itself (static/js/session_reminder.js); the server only stores
    the session's start."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not hasattr(request, "session"):
        return {"session_reminder_due_in": None}
    due = session_reminder_due_at(request, user)
    return {"session_reminder_due_in": max(0, int((due - timezone.now()).total_seconds()))}
